"""What every web page shares: the blueprint, its setup, the CSRF check, security headers,
the rule-set choices and the on-screen pad page (the views are in ``__init__`` and
``scanviews``)."""

from __future__ import annotations

import hmac
import secrets
from pathlib import Path
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    render_template,
    request,
    session,
)
from flask.blueprints import BlueprintSetupState
from werkzeug.exceptions import HTTPException

from scorepad.boxes import ALL_BOXES, LABELS
from scorepad.rules import (
    DEFAULT_RULES,
    REGISTRY,
    RuleSet,
    UnknownRuleSet,
    book_quotes,
    get_rules,
)
from scorepad.sheetspec import MAX_GAMES, MAX_PLAYERS

from ..errors import handle_http_exception
from ..scanning import scan_max_bytes
from ..schemas import MAX_GROUP_NAME, MAX_NOTE, MAX_PLACE, MAX_REASON
from . import pad

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
               static_url_path="/web-static")

# The lengths the API takes for a group and a match (api.schemas), for the pages' inputs.
MATCH_LIMITS = {"group_name": MAX_GROUP_NAME, "place": MAX_PLACE, "note": MAX_NOTE,
                "reason": MAX_REASON}

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
    app.jinja_env.globals["limits"] = pad.LIMITS  # visible in imported macros too
    app.jinja_env.globals["match_limits"] = MATCH_LIMITS
    app.jinja_env.globals["rule_words"] = rule_words
    app.jinja_env.globals["cite_words"] = cite_words
    # a mistyped address outside the API belongs to no blueprint: a browser gets the page
    for status in (404, 405):
        app.register_error_handler(status, _error_page)


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
        request.max_content_length = scan_max_bytes()
    elif request.endpoint == "web.restore_backup":  # as POST /api/v1/backups takes
        request.max_content_length = int(current_app.config.get("BACKUP_MAX_BYTES") or 0) or None
    sent = request.form.get("csrf_token", "")
    have = session.get("csrf", "")
    if not sent or not isinstance(have, str) or not hmac.compare_digest(sent, have):
        return render_template("web/error.html", status=400,
                               title="This form has expired",
                               message="Open the page again and send the form once more."), 400
    return None


# What a person is told when the page cannot take what the browser sent (never JSON).
ERROR_PAGES = {
    400: ("The page could not read this", "Open the page again and send the form once more."),
    413: ("Too much to send", "That is more than the page takes at once. Send less, or a "
                              "smaller photo."),
    422: ("The page could not read this", "Something in the form cannot be stored. Check "
                                          "the names and numbers, then send it again."),
    429: ("Too many in a row", "Wait a minute, then send it again."),
    404: ("No page here", "The address may be mistyped, or the page has moved. Start again "
                          "from the first page."),
    405: ("No page here", "This address is not a page to open. Start again from the first "
                          "page."),
}


def _error_page(error: HTTPException) -> Any:
    """A browser gets an HTML page for the pages' errors; a script asking for JSON gets the
    problem+json every other route answers with."""
    status = error.code or 500
    wants_html = request.accept_mimetypes.best_match(
        ["application/json", "application/problem+json", "text/html"]) == "text/html"
    if not wants_html or status not in ERROR_PAGES or request.path.startswith("/api/"):
        return handle_http_exception(error)
    title, message = ERROR_PAGES[status]
    resp = Response(render_template("web/error.html", status=status, title=title,
                                    message=message), status=status, mimetype="text/html")
    retry = error.get_response().headers.get("Retry-After") if status == 429 else None
    if retry:
        resp.headers["Retry-After"] = retry
    return _headers(resp)  # also outside the blueprint (a mistyped address)


for _status in ERROR_PAGES:  # by code: the app's handlers by code come before a generic one
    bp.register_error_handler(_status, _error_page)


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


# The rule sets and rule books in words (the pages name no book by its number alone).
RULE_WORDS = {"hasbro": "The official rules", "classic": "Yahtzee Classic rules",
              "travel": "Travel Yahtzee and Yardzee rules"}
BOOKS = {"000": "the multi-game rule book", "001": "the official Yahtzee rule book",
         "002": "the Yardzee rules", "003": "the Yahtzee Classic leaflet",
         "004": "the Travel Yahtzee rules"}
QUOTES = book_quotes()


def rule_words(name: str | None, title: str | None = None) -> str:
    """A rule set in words: a built-in one by what it is, house rules by their own title."""
    return RULE_WORDS.get(name or "", title or name or "")


def cite_words(cite: str) -> dict[str, str]:
    """One cited passage: what it says, and which book and lines in words."""
    book, _, lines = cite.partition(":")
    return {"cite": cite, "says": QUOTES.get(cite, ""), "book": BOOKS.get(book, f"book {book}"),
            "lines": lines}


def rule_choices() -> list[dict[str, Any]]:
    base = REGISTRY.get(DEFAULT_RULES)
    return [{"name": rs.name, "title": rs.title, "summary": rs.summary,
             "words": rule_words(rs.name, rs.title),
             "default": rs.name == DEFAULT_RULES, "differences": _differences(rs, base),
             "data": rs.to_dict()} for rs in REGISTRY.all()]


def rules_name(raw: str | None) -> str:
    try:
        return get_rules(raw).name if raw else DEFAULT_RULES
    except UnknownRuleSet:
        return DEFAULT_RULES


def rules_data() -> dict[str, Any]:
    """The pages' rules-data: every rule set's numbers for the totals the script writes as
    you type (static/js/pad.js knows none of them) and the default rule set's name."""
    return {"default": DEFAULT_RULES, "rule_sets": {rs.name: rs.to_dict() for rs in REGISTRY.all()},
            "quotes": QUOTES, "books": BOOKS}



def pad_page_response(values: dict[str, Any], players: int, games: int, with_ps: bool, rules: str,
              errors: list[tuple[str, str]] | None = None, status: int = 200,
              title: str | None = None, correct: str | None = None,
              correct_label: str | None = None) -> tuple[str, int]:
    return render_template(
        "web/pad.html", rows=pad.rows(rules), values=values, players=players, games=games,
        with_ps=with_ps, rules=rules, rule_list=rule_choices(), rules_data=rules_data(),
        errors=errors or [], error_fields={f for f, _ in errors or []},
        field=pad.field_name, title=title, correct=correct, max_players=MAX_PLAYERS,
        correct_label=(correct_label or "")[:200] if correct else "",
        max_games=MAX_GAMES, box_labels={b.value: LABELS[b] for b in ALL_BOXES},
    ), status
