"""The web pages (issue 6): photograph or type a pad, check what was read, see the verdict,
ask what the dice may score, keep the games in a group.

Server-rendered Jinja (autoescaped) with a little JavaScript from ``static/``; no
asset from anywhere else. Every state-changing form post carries the session's
CSRF token; the group pages call the JSON API (or the HTML fragments below) with
the group token kept in the browser's localStorage.

Register with ``app.register_blueprint(api.web.bp)`` (``create_app`` does it).
"""

from __future__ import annotations

import datetime as dt
import hmac
import json
import secrets
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.blueprints import BlueprintSetupState

from scorepad import audit_sheet
from scorepad.boxes import ALL_BOXES, LABELS
from scorepad.rules import DEFAULT_RULES, OPTION_NOTES, REGISTRY, RuleSet, get_rules
from scorepad.schemas import SheetFormatError, load_sheet

from ..limits import write_limited
from . import charts, groupviews, pad, scans

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
               static_url_path="/web-static")

CSP = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; "
       "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")


@bp.record_once
def _setup(state: BlueprintSetupState) -> None:
    app = state.app
    if not app.secret_key:  # sessions (the CSRF token) need a key; keep one per instance
        path = Path(app.instance_path) / "web-secret-key"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if not path.exists():
                path.write_text(secrets.token_hex(32))
                path.chmod(0o600)
            app.secret_key = path.read_text().strip()
        except OSError:
            app.secret_key = secrets.token_hex(32)
    if app.config.get("SESSION_COOKIE_SAMESITE") is None:
        app.config["SESSION_COOKIE_SAMESITE"] = "Lax"
    app.config.setdefault("WEB_OPTIMAL", "auto")


# ---- CSRF -----------------------------------------------------------------------------------

def csrf_token() -> str:
    tok = session.get("csrf")
    if not isinstance(tok, str) or not tok:
        tok = secrets.token_urlsafe(32)
        session["csrf"] = tok
    return tok


@bp.before_request
def _check_csrf() -> Any:
    if request.method != "POST":
        return None
    if request.endpoint == "web.scan_upload":  # a photo may be larger than other posts
        request.max_content_length = int(current_app.config.get("SCAN_MAX_BYTES", 8_000_000))
    sent = request.form.get("csrf_token", "")
    have = session.get("csrf", "")
    if not sent or not isinstance(have, str) or not hmac.compare_digest(sent, have):
        return render_template("web/error.html", status=400,
                               title="This form has expired",
                               message="Open the page again and send the form once more."), 400
    return None


@bp.after_request
def _headers(resp: Response) -> Response:
    if resp.mimetype == "text/html":
        resp.headers.setdefault("Content-Security-Policy", CSP)
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        resp.headers.setdefault("X-Frame-Options", "DENY")
    return resp


@bp.app_context_processor
def _context() -> dict[str, Any]:
    return {"csrf_token": csrf_token}


# ---- rule sets ------------------------------------------------------------------------------

def _differences(rs: RuleSet, base: RuleSet) -> list[str]:
    out = []
    if rs.joker != base.joker:
        out.append({
            "forced": "Bonus Yahtzee: its upper box first, then any lower box, then a zero.",
            "priority": "Bonus Yahtzee: its upper box, else 3 or 4 of a kind, else Chance or "
                        "a stolen Full House/Straight.",
            "conditional": "Bonus Yahtzee: free choice; it counts as a joker in the lower "
                           "section only once its upper box is filled.",
            "none": "No joker rule.",
        }[rs.joker.value])
    if rs.zero_in_chance != base.zero_in_chance:
        out.append("A zero in Chance is " + ("allowed." if rs.zero_in_chance else "not allowed."))
    if rs.joker_zero != base.joker_zero:
        out.append("A joker may " + ("" if rs.joker_zero else "not ")
                   + "be scored as a zero in a lower box.")
    if rs.five_of_a_kind_full_house != base.five_of_a_kind_full_house:
        out.append("Five of a kind " + ("counts" if rs.five_of_a_kind_full_house
                                        else "does not count") + " as a Full House.")
    for f, what in (("upper_bonus_threshold", "upper bonus from"),
                    ("upper_bonus", "upper bonus worth"), ("yahtzee_bonus", "Yahtzee bonus")):
        if getattr(rs, f) != getattr(base, f):
            out.append(f"{what.capitalize()} {getattr(rs, f)}.")
    return out


def rule_choices() -> list[dict[str, Any]]:
    base = REGISTRY.get(DEFAULT_RULES)
    return [{"name": rs.name, "title": rs.title, "summary": rs.summary,
             "default": rs.name == DEFAULT_RULES, "differences": _differences(rs, base),
             "data": rs.to_dict()} for rs in REGISTRY.all()]


def _rules_name(raw: str | None) -> str:
    try:
        return get_rules(raw).name if raw else DEFAULT_RULES
    except Exception:
        return DEFAULT_RULES


def _rules_data() -> dict[str, Any]:
    return {rs.name: rs.to_dict() for rs in REGISTRY.all()}


# ---- home and the on-screen pad -------------------------------------------------------------

@bp.get("/")
def home() -> str:
    return render_template("web/home.html", rules=rule_choices(), default=DEFAULT_RULES,
                           notes=OPTION_NOTES)


def _pad_page(values: dict[str, Any], players: int, games: int, with_ps: bool, rules: str,
              errors: list[tuple[str, str]] | None = None, status: int = 200,
              title: str | None = None, correct: str | None = None) -> tuple[str, int]:
    return render_template(
        "web/pad.html", rows=pad.ROWS, values=values, players=players, games=games,
        with_ps=with_ps, rules=rules, rule_list=rule_choices(), rules_data=_rules_data(),
        errors=errors or [], error_fields={f for f, _ in errors or []},
        field=pad.field_name, title=title, correct=correct, max_players=pad.MAX_PLAYERS,
        max_games=6, box_labels={b.value: LABELS[b] for b in ALL_BOXES},
    ), status


@bp.get("/pad")
def pad_page() -> tuple[str, int]:
    players, games, with_ps = pad.shape_of(request.args)
    return _pad_page({}, players, games, with_ps, _rules_name(request.args.get("rules")))


@bp.post("/pad")
def pad_post() -> tuple[str, int]:
    """Re-draw the pad: add a player or a game column, or open a sheet to edit it."""
    rules = _rules_name(request.form.get("rules"))
    correct = request.form.get("correct") or None
    if request.form.get("sheet_json"):
        try:
            data = json.loads(request.form["sheet_json"])
            sheet = load_sheet(data)
        except (ValueError, SheetFormatError):
            abort(400)
        values, players, games, with_ps = pad.values_from_sheet(data)
        rules = _rules_name(request.form.get("rules") or _rule_name_of(sheet.rules))
        return _pad_page(values, players, games, with_ps, rules, title=data.get("title"),
                         correct=correct)
    players, games, with_ps = pad.shape_of(request.form)
    action = request.form.get("action")
    if action == "add_player":
        players = min(pad.MAX_PLAYERS, players + 1)
    elif action == "add_game":
        games = min(6, games + 1)
    elif action == "add_scores":
        with_ps = True
    values = {k: v for k, v in request.form.items() if k.startswith("p")}
    return _pad_page(values, players, games, with_ps, rules, title=request.form.get("title"),
                     correct=correct)


def _rule_name_of(spec: Any) -> str | None:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, RuleSet):
        return spec.name
    return None


# ---- photos ---------------------------------------------------------------------------------

def _scanner() -> Any:
    fake = current_app.config.get("WEB_SCANNER")
    if fake is not None:
        return fake
    from ..service import ocr_module
    ocr = ocr_module()
    if ocr is None:
        return None

    def run(data: bytes, rules: str) -> dict[str, Any]:
        try:
            out: dict[str, Any] = ocr.scan_image(data, rules=rules).to_dict()
        except ocr.ScanError as exc:
            raise ScanFailed(str(getattr(exc, "code", "scan_failed")),
                             str(getattr(exc, "message", "") or exc)) from None
        return out
    return run


class ScanFailed(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


SCAN_ADVICE = {
    "not_an_image": "That file is not a photo the reader understands. Try a JPEG or PNG.",
    "too_large": "That photo is too large. Try a smaller one.",
    "too_many_pixels": "That photo has too many pixels. Try a smaller one.",
    "not_a_pad": "No score pad was found in the photo. Hold the phone over the whole card, "
                 "with all four corners in the picture.",
    "too_blurred": "The photo is too blurred to read. Hold still, with good light.",
    "empty_pad": "The pad in the photo looks empty.",
}


@bp.post("/scan")
@write_limited  # reading a photo is the most expensive thing the pages do
def scan_upload() -> Any:
    rules = _rules_name(request.form.get("rules"))
    upload = request.files.get("photo")
    data = upload.read(int(current_app.config.get("SCAN_MAX_BYTES", 8_000_000)) + 1) \
        if upload else b""

    def fail(message: str, status: int) -> tuple[str, int]:
        return render_template("web/home.html", rules=rule_choices(), default=rules,
                               notes=OPTION_NOTES, scan_error=message), status

    if not data:
        return fail("Choose a photo of the pad first.", 422)
    if len(data) > int(current_app.config.get("SCAN_MAX_BYTES", 8_000_000)):
        return fail(SCAN_ADVICE["too_large"], 413)
    scanner = _scanner()
    if scanner is None:
        return fail("Reading photos is not installed on this server; type the card instead.",
                    503)
    try:
        result = scanner(data, rules)
    except ScanFailed as exc:
        return fail(SCAN_ADVICE.get(exc.code, exc.message), 422)
    sid = scans.save(data, result, rules)
    return redirect(url_for("web.scan_review", sid=sid), code=303)


def _review_cells(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The reader's cells by the pad form field they fill (back: player columns in order)."""
    cells = result.get("cells") or []
    back = result.get("side") == "back"
    columns = sorted({c["column"] for c in cells if c.get("kind") != "blank"})
    out: dict[str, dict[str, Any]] = {}
    for i, c in enumerate(cells):
        f = c.get("field")
        if back:
            if c["column"] not in columns:
                continue
            p = columns.index(c["column"])
            name = (pad.field_name(p, None, "name") if f == "name" else
                    pad.field_name(p, None, "ps_total") if f == "total" else
                    pad.field_name(p, c.get("game"), "ps"))
        else:
            name = (pad.field_name(0, None, "name") if f == "name"
                    else pad.field_name(0, c.get("column"), f))
        out[name] = {**c, "index": i, "flagged": c.get("status") != "confident"}
    return out


@bp.get("/scan/<sid>")
def scan_review(sid: str) -> tuple[str, int]:
    return _review_page(sid)


def _review_page(sid: str, values: dict[str, Any] | None = None,
                 confirmed: set[str] | None = None, errors: list[tuple[str, str]] | None = None,
                 status: int = 200) -> tuple[str, int]:
    data = scans.load(sid)
    if data is None:
        return render_template("web/error.html", status=404, title="This photo is gone",
                               message="Photos are kept for a day. Upload it again."), 404
    result = data["result"]
    sheet_values, players, games, with_ps = pad.values_from_sheet(result.get("sheet") or {})
    cells = _review_cells(result)
    if values is None:
        values = sheet_values
    return render_template(
        "web/review.html", sid=sid, result=result, cells=cells, rows=pad.ROWS, values=values,
        players=players, games=games, with_ps=with_ps, rules=data.get("rules", DEFAULT_RULES),
        rule_list=rule_choices(), rules_data=_rules_data(), field=pad.field_name,
        confirmed=confirmed or set(), errors=errors or [],
        error_fields={f for f, _ in errors or []},
        flagged=[n for n, c in cells.items() if c["flagged"]],
    ), status


@bp.get("/scan/<sid>/photo")
def scan_photo(sid: str) -> Response:
    p = scans.photo_path(sid)
    if p is None:
        abort(404)
    resp = Response(p.read_bytes(), mimetype="image/jpeg")
    resp.headers["Cache-Control"] = "private, max-age=3600"
    return resp


@bp.get("/scan/<sid>/cell/<int:index>.png")
def scan_crop(sid: str, index: int) -> Response:
    data = scans.load(sid)
    if data is None:
        abort(404)
    cells = data["result"].get("cells") or []
    if not 0 <= index < len(cells):
        abort(404)
    png = scans.crop_png(sid, list(cells[index].get("box") or [0, 0, 0, 0]))
    if png is None:
        abort(404)
    resp = Response(png, mimetype="image/png")
    resp.headers["Cache-Control"] = "private, max-age=3600"
    return resp


# ---- the verdict ----------------------------------------------------------------------------

def _marks(report: dict[str, Any]) -> tuple[dict[str, list[dict[str, Any]]],
                                             list[dict[str, Any]]]:
    """Findings by the pad form field they sit on, and those on no single box."""
    on_cell: dict[str, list[dict[str, Any]]] = {}
    general: list[dict[str, Any]] = []
    for n, f in enumerate(report.get("findings") or [], start=1):
        f = {**f, "n": n}
        p, g, field = f.get("player"), f.get("game"), f.get("field")
        name = None
        if p is not None and isinstance(field, str):
            if field == "players_scores.total":
                name = pad.field_name(p, None, "ps_total")
            elif field.startswith("players_scores.games["):
                try:
                    name = pad.field_name(p, int(field.split("[")[1].rstrip("]")), "ps")
                except ValueError:
                    name = None
            elif g is not None and field in pad.ROW_KEYS:
                name = pad.field_name(p, g - 1, field)
        f["cell"] = name
        if name:
            on_cell.setdefault(name, []).append(f)
        else:
            general.append(f)
    return on_cell, general


def _severity(fs: list[dict[str, Any]]) -> str:
    sev = {f.get("severity") for f in fs}
    return "error" if "error" in sev else "warning" if "warning" in sev else "notice"


@bp.post("/check")
def check() -> tuple[str, int]:
    rules = _rules_name(request.form.get("rules"))
    sid = request.form.get("scan_id") or None
    correct = request.form.get("correct") or None
    players, games, with_ps = pad.shape_of(request.form)
    values = {k: v for k, v in request.form.items() if k.startswith("p") and "." in k}

    def again(errors: list[tuple[str, str]], status: int = 422) -> tuple[str, int]:
        if sid:
            confirmed = {k[len("confirm."):] for k, v in request.form.items()
                         if k.startswith("confirm.") and v == "1"}
            return _review_page(sid, values, confirmed, errors, status)
        return _pad_page(values, players, games, with_ps, rules, errors, status,
                         title=request.form.get("title"), correct=correct)

    if sid:
        data = scans.load(sid)
        if data is None:
            return _review_page(sid)
        cells = _review_cells(data["result"])
        missing = [n for n, c in cells.items() if c["flagged"]
                   and request.form.get(f"confirm.{n}") != "1"]
        if missing:
            return again([(n, "check this box against the photo") for n in missing])
    try:
        sheet_json = pad.sheet_from_form(request.form, rules)
        title = (request.form.get("title") or "").strip()
        if title:
            sheet_json["title"] = title[:200]
        sheet = load_sheet(sheet_json)
    except pad.FormError as exc:
        return again(exc.errors)
    except SheetFormatError as exc:
        return again([(path, msg) for path, msg in exc.errors])
    report = audit_sheet(sheet).to_dict()
    on_cell, general = _marks(report)
    corrected = {}
    for g in report.get("games") or []:
        for k, v in (g.get("totals") or {}).items():
            corrected[pad.field_name(g["player"], g["game"] - 1, k)] = v
    v2, players, games, with_ps = pad.values_from_sheet(sheet_json)
    return render_template(
        "web/verdict.html", report=report, sheet_json=sheet_json, rows=pad.ROWS, values=v2,
        players=players, games=games, with_ps=with_ps, rules=rules, field=pad.field_name,
        on_cell=on_cell, general=general, severity=_severity, corrected=corrected,
        labels=pad.FIELD_LABELS, rule_list=rule_choices(), rules_data=_rules_data(),
        box_labels={b.value: LABELS[b] for b in ALL_BOXES}, correct=correct,
        today=dt.date.today().isoformat(),
    ), 200


# ---- groups ---------------------------------------------------------------------------------

@bp.get("/groups")
def my_groups() -> str:
    return render_template("web/groups.html")


@bp.get("/g/<gid>")
def group_page(gid: str) -> str:
    return render_template("web/group_shell.html", gid=gid, part="overview",
                           part_url=url_for("web.part_overview", gid=gid), heading="Group")


@bp.get("/g/<gid>/players/<path:name>")
def player_page(gid: str, name: str) -> str:
    return render_template("web/group_shell.html", gid=gid, part="player",
                           part_url=url_for("web.part_player", gid=gid, name=name),
                           heading=name)


@bp.get("/g/<gid>/m/<mid>")
def match_page(gid: str, mid: str) -> str:
    return render_template("web/group_shell.html", gid=gid, part="match",
                           part_url=url_for("web.part_match", gid=gid, mid=mid),
                           heading="Match")


bp.add_url_rule("/g/<gid>/part/overview", view_func=groupviews.overview,
                endpoint="part_overview")
bp.add_url_rule("/g/<gid>/part/players/<path:name>", view_func=groupviews.player,
                endpoint="part_player")
bp.add_url_rule("/g/<gid>/part/m/<mid>", view_func=groupviews.match, endpoint="part_match")

__all__ = ["bp", "charts"]
