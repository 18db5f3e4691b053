"""The photo pages: upload a photo, mark the pad's corners when it is not found, review
the cells the reader was unsure of (the reader is reached through ``api.scanning``).

With ``REDIS_URL`` set, a photo (uploaded, or with its corners marked) is read by a job on
the queue (api/jobs.py), not in the request: the upload answers 303 to the job's page
(``/scan/job/ID``), which shows where the job is (queued, with how many photos wait before
it; reading; done) and follows it (js/job.js polls ``/scan/job/ID/status``; without
JavaScript the page refreshes itself). When the job ends, the page goes on to what the
request would have answered: the review, the corners to mark, or the reader's advice.
Without Redis, or with a stand-in reader (``WEB_SCANNER``, tests), photos are read in the
request as before."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)

from scorepad.readings import ReadStatus
from scorepad.rules import DEFAULT_RULES, OPTION_NOTES
from scorepad.sheetspec import CHECKS_KEY

from .. import jobs, scanning
from ..limits import scan_limited, write_limited
from ..scanning import ScanFailed
from . import pad, scans
from .common import bp, rule_choices, rules_data, rules_name

# ---- photos ---------------------------------------------------------------------------------

def _scanner() -> Any:
    """``scanner(data, rules, corners=None) -> dict`` (config ``WEB_SCANNER``: a stand-in)."""
    return current_app.config.get("WEB_SCANNER") or scanning.scan


@bp.post("/scan")
@write_limited  # reading a photo is the most expensive thing the pages do
@scan_limited  # the same budget of photos as POST /api/v1/scan
def scan_upload() -> Any:
    rules = rules_name(request.form.get("rules"))
    upload = request.files.get("photo")
    data = upload.read(scanning.scan_max_bytes() + 1) if upload else b""

    def fail(message: str, status: int, code: str) -> tuple[str, int]:
        return render_template("web/home.html", rules=rule_choices(), default=rules,
                               notes=OPTION_NOTES, scan_error=message,
                               scan_error_code=code), status

    if not data:
        return fail("Choose a photo of the pad first.", 422, "no_photo")
    if len(data) > scanning.scan_max_bytes():
        return fail(scanning.ADVICE["too_large"], 413, "too_large")
    url = _queue_url()
    if url is not None:  # read by a worker: follow the job on its page
        job_id = _enqueue(url, data, rules)
        if job_id is None:
            return fail(QUEUE_DOWN, 503, "queue_unavailable")
        return redirect(url_for("web.scan_job", job_id=job_id), code=303)
    try:
        result = _scanner()(data, rules)
    except ScanFailed as exc:
        if exc.code == "not_a_pad":  # not a dead end: the person marks the pad's corners
            sid = scans.save(data, None, rules)
            if scans.photo_size(sid) is not None:
                return redirect(url_for("web.scan_corners", sid=sid), code=303)
            scans.discard(sid)
        return fail(exc.advice(), exc.status, exc.code)
    sid = scans.save(data, result, rules)
    return redirect(url_for("web.scan_review", sid=sid), code=303)


# ---- photos read on the job queue ------------------------------------------------------------

QUEUE_DOWN = "The reader cannot take photos right now. Try again in a moment."
REFRESH_SECONDS = 2  # the job page's meta refresh, without JavaScript
STEPS = 3  # the progress bar: 1 queued, 2 reading, 3 done


def _queue_url() -> str | None:
    """The queue's Redis when photos are read by jobs: set, and no stand-in reader."""
    if current_app.config.get("WEB_SCANNER"):
        return None
    return jobs.redis_url()


def _enqueue(url: str, photo: bytes, rules: str, corners: list[tuple[float, float]] | None = None,
             origin: str | None = None) -> str | None:
    """Keep the photo (a new scan id, waiting for its job), then queue the job that reads it
    (``origin``: the scan whose corners were marked). The job's id, or None if the queue
    cannot be reached (the photo is not kept)."""
    job_id = jobs.new_id()
    sid = (scans.save(photo, None, rules, job=job_id) if origin is None
           else scans.again(origin, None, job=job_id))
    if sid is None:
        return None
    meta = {"web": {"sid": sid, "from": origin, "corners": corners}}
    try:
        jobs.enqueue(url, "scan", jobs.scan_job, photo, rules, corners, job_id=job_id, meta=meta)
    except Exception:  # Redis unreachable (the web page says so; the log has the request)
        current_app.logger.exception("cannot queue a scan")
        scans.discard(sid)
        return None
    return job_id


def _web_job(job_id: str) -> tuple[Any, dict[str, Any]] | None:
    """The job and what the pages keep with it (``web``: sid, from, corners), or None: no
    queue, no such job (kept an hour), or a job of the JSON API (not shown here)."""
    url = _queue_url()
    job = None if url is None else jobs.fetch(url, job_id)
    web = None if job is None else job.meta.get("web")
    return (job, web) if isinstance(web, dict) and web.get("sid") else None


def job_state(body: dict[str, Any]) -> dict[str, Any]:
    """Where a job is, for the page and its script: state, progress (value of max), the
    status line, and whether it has ended (the page then goes on)."""
    status = body["status"]
    if status == "queued":
        ahead = body.get("position") or 0
        message = ("Waiting for the reader: your photo is next." if ahead < 1 else
                   f"Waiting for the reader: {ahead} photo{'s' if ahead > 1 else ''} before "
                   "yours.")
        return {"state": "queued", "position": ahead, "value": 1, "max": STEPS,
                "message": message, "ended": False}
    if status == "started":
        return {"state": "reading", "position": None, "value": 2, "max": STEPS,
                "message": "Reading the pad…", "ended": False}
    ok = status == "finished"
    return {"state": "done" if ok else "failed", "position": None, "value": STEPS, "max": STEPS,
            "message": "Read: opening the review…" if ok else "The reader has finished.",
            "ended": True}


def _gone() -> tuple[str, int]:
    return render_template("web/error.html", status=404, title="This photo is gone",
                           message="Photos being read are kept for an hour. Upload it "
                                   "again."), 404


@bp.get("/scan/job/<job_id>")
def scan_job(job_id: str) -> Any:
    """A photo being read: its progress, then (the job ended) the review, the corners to
    mark (no pad found), or the reader's advice with the way back."""
    found = _web_job(job_id)
    if found is None:
        return _gone()
    job, web = found
    body = jobs.describe(job)
    state = job_state(body)
    page = url_for("web.scan_job", job_id=job_id)
    if not state["ended"]:
        return render_template("web/scan_job.html", state=state, failed=False, page_url=page,
                               status_url=url_for("web.scan_job_status", job_id=job_id),
                               refresh=REFRESH_SECONDS), 200
    sid, origin = str(web["sid"]), web.get("from")
    if body["status"] == "finished":
        if not scans.finish(sid, body.get("result")):
            return _gone()
        return redirect(url_for("web.scan_review", sid=sid), code=303)
    problem = body.get("problem") or {}
    code = str(problem.get("code") or "job_failed").lower()
    status = int(problem.get("status") or 500)
    if code == "job_failed":  # the worker failed, not the photo: try again
        exc = ScanFailed("ocr_failed", scanning.ADVICE["ocr_failed"], 503)
    else:
        exc = ScanFailed(code, str(problem.get("detail") or ""), status)
    if origin is not None:  # read from marked corners: back to them, with the advice
        scans.discard(sid)
        corners = [(float(x), float(y)) for x, y in web.get("corners") or []] or None
        return _corners_page(str(origin), corners, exc.advice(corners_marked=True), exc.status)
    if exc.code == "not_a_pad" and scans.finish(sid, None) and scans.photo_size(sid):
        return redirect(url_for("web.scan_corners", sid=sid), code=303)  # not a dead end
    scans.discard(sid)
    return render_template("web/scan_job.html", state=state, failed=True, advice=exc.advice(),
                           code=exc.code, page_url=page, status_url=""), exc.status


@bp.get("/scan/job/<job_id>/status")
def scan_job_status(job_id: str) -> Response:
    """The job page's script polls this: ``job_state`` as JSON (404: no such job)."""
    found = _web_job(job_id)
    if found is None:
        resp = jsonify({"state": "gone", "ended": True})
        resp.status_code = 404
        return resp
    resp = jsonify(job_state(jobs.describe(found[0])))
    resp.headers["Cache-Control"] = "no-store"
    return resp


CORNER_NAMES = ("Top-left", "Top-right", "Bottom-right", "Bottom-left")


def _corners_page(sid: str, corners: list[tuple[float, float]] | None = None,
                  error: str | None = None, status: int = 200) -> tuple[str, int]:
    """The photo with four handles on the pad's corners (the reader's, or 10% in from the
    photo's), and the form that reads the pad from them."""
    data = scans.load(sid)
    size = scans.photo_size(sid)
    if data is None or size is None:
        return render_template("web/error.html", status=404, title="This photo is gone",
                               message="Photos are kept for a day. Upload it again."), 404
    result = data.get("result")
    w, h = size
    if corners is None and result and len(result.get("corners") or []) == 4:
        corners = [(float(x), float(y)) for x, y in result["corners"]]
    if corners is None:
        corners = [(0.1 * w, 0.1 * h), (0.9 * w, 0.1 * h), (0.9 * w, 0.9 * h), (0.1 * w, 0.9 * h)]
    points = [(name, round(x), round(y)) for name, (x, y) in zip(CORNER_NAMES, corners,
                                                                  strict=True)]
    return render_template("web/corners.html", sid=sid, size=size, points=points,
                           found=result is not None, error=error), status


@bp.get("/scan/<sid>/corners")
def scan_corners(sid: str) -> Any:
    job_id = scans.pending(sid)
    if job_id is not None:  # still being read
        return redirect(url_for("web.scan_job", job_id=job_id), code=303)
    return _corners_page(sid)


@bp.post("/scan/<sid>/corners")
@write_limited
@scan_limited
def scan_corners_read(sid: str) -> Any:
    """Read the stored photo again from the corners the person marked, then review it."""
    data = scans.load(sid)
    photo = scans.photo_path(sid)
    if data is None or photo is None:
        return _corners_page(sid)
    corners: list[tuple[float, float]] = []
    for i in range(4):
        try:
            x, y = float(request.form.get(f"c{i}x", "")), float(request.form.get(f"c{i}y", ""))
        except ValueError:
            return _corners_page(sid, None, f"{CORNER_NAMES[i]} corner: give its x and y in "
                                            "pixels.", 422)
        if not (math.isfinite(x) and math.isfinite(y)):
            return _corners_page(sid, None, f"{CORNER_NAMES[i]} corner: give its x and y in "
                                            "pixels.", 422)
        corners.append((x, y))
    rules = str(data.get("rules") or DEFAULT_RULES)
    url = _queue_url()
    if url is not None:
        job_id = _enqueue(url, photo.read_bytes(), rules, corners, origin=sid)
        if job_id is None:
            return _corners_page(sid, corners, QUEUE_DOWN, 503)
        return redirect(url_for("web.scan_job", job_id=job_id), code=303)
    try:
        result = _scanner()(photo.read_bytes(), rules, corners=corners)
    except ScanFailed as exc:
        return _corners_page(sid, corners, exc.advice(corners_marked=True), exc.status)
    new = scans.again(sid, result)
    if new is None:
        return _corners_page(sid)
    return redirect(url_for("web.scan_review", sid=new), code=303)


def review_cells(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
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


def confirmed_cells(form: Mapping[str, str]) -> set[str]:
    """The cells the person confirmed on the review page (``confirm.NAME`` = 1)."""
    return {k[len("confirm."):] for k, v in form.items() if k.startswith("confirm.") and v == "1"}


def _stored_readings(sheet: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The reader's own readings in the sheet it made, by the pad form field of their cell."""
    out: dict[str, dict[str, Any]] = {}
    for p, pl in enumerate(sheet.get("players") or []):
        for g, game in enumerate(pl.get("games") or []):
            for k, r in ((game or {}).get("readings") or {}).items():
                out[pad.field_name(p, g, k)] = r
        for k, r in ((pl.get("players_scores") or {}).get("readings") or {}).items():
            out[pad.field_name(p, None, "ps_total") if k == "total" else
                pad.field_name(p, int(k.removeprefix("games[").removesuffix("]")), "ps")] = r
    return out


def _confirmed_reading(box: Any, photo: Any = None) -> dict[str, Any]:
    return {"status": ReadStatus.CONFIRMED.value, "confidence": None, "candidates": [],
            "box": list(box) if box else None, "photo": photo}


def reviewed_readings(result: dict[str, Any], form: Mapping[str, str],
                      confirmed: Iterable[str]) -> dict[str, dict[str, Any]]:
    """How each cell of a reviewed photo was read, by its pad form field, for the audit.

    The reader's own reading (status, confidence, candidates, crop), except where a person
    has looked: a cell confirmed on the review page, or whose value was changed there, is
    ``confirmed``; so is a cell the reader saw blank that the person filled in. Only the
    form's values and its ``confirm.`` marks come from the browser; the readings come from
    the stored scan.
    """
    sheet = result.get("sheet") or {}
    read, _, _, _ = pad.values_from_sheet(sheet)
    stored = _stored_readings(sheet)
    cells = review_cells(result)
    looked = set(confirmed)
    out: dict[str, dict[str, Any]] = {}
    for name in dict.fromkeys([*stored, *cells]):
        if name.endswith(".name"):  # a name is no number the audit reads
            continue
        ignored: list[tuple[str, str]] = []  # a bad number is refused by sheet_from_form
        now, before = pad.form_int(form, name, ignored), read.get(name)
        if name.endswith("." + CHECKS_KEY):  # no check marks: 0, written or not
            now, before = now or 0, before or 0
        reading = stored.get(name)
        if reading is None:
            if now is not None and now != before:  # the reader saw it blank: the person typed it
                out[name] = _confirmed_reading((cells.get(name) or {}).get("box"))
        elif name in looked or now != before:
            out[name] = _confirmed_reading(reading.get("box"), reading.get("photo"))
        else:
            out[name] = reading
    return out


@bp.get("/scan/<sid>")
def scan_review(sid: str) -> Any:
    data = scans.load(sid)
    if data is not None and data.get("job"):  # still being read on the queue
        return redirect(url_for("web.scan_job", job_id=data["job"]), code=303)
    if data is not None and data.get("result") is None:  # no pad found yet: mark its corners
        return redirect(url_for("web.scan_corners", sid=sid), code=303)
    return review_page(sid)


@bp.post("/scan/<sid>/recheck")
def scan_recheck(sid: str) -> tuple[str, int]:
    """Back from the verdict to the review, with the cells a doubt names to look at again
    (``check``) marked like the reader's unsure ones; what was typed and confirmed is kept."""
    values = {k: v for k, v in request.form.items() if k.startswith("p") and "." in k}
    check = {n for n in request.form.getlist("check") if n}
    recheck = set(request.form.getlist("recheck")) | check
    return review_page(sid, values, confirmed_cells(request.form) - check, recheck=recheck)


def review_page(sid: str, values: dict[str, Any] | None = None,
                 confirmed: set[str] | None = None, errors: list[tuple[str, str]] | None = None,
                 status: int = 200, recheck: set[str] | None = None) -> tuple[str, int]:
    """The review page; ``recheck``: cells the verdict asks to look at again (marked too)."""
    data = scans.load(sid)
    if data is not None and data.get("result") is None:
        return _corners_page(sid)
    if data is None:
        return render_template("web/error.html", status=404, title="This photo is gone",
                               message="Photos are kept for a day. Upload it again."), 404
    result = data["result"]
    sheet_values, players, games, with_ps = pad.values_from_sheet(result.get("sheet") or {})
    cells = review_cells(result)
    again = sorted(n for n in recheck or () if n in cells)
    for n in again:
        cells[n] = {**cells[n], "flagged": True, "recheck": True}
    if values is None:
        values = sheet_values
    return render_template(
        "web/review.html", sid=sid, result=result, cells=cells, rows=pad.rows(data.get("rules")),
        values=values,
        players=players, games=games, with_ps=with_ps, rules=data.get("rules", DEFAULT_RULES),
        rule_list=rule_choices(), rules_data=rules_data(), field=pad.field_name,
        confirmed=confirmed or set(), errors=errors or [],
        error_fields={f for f, _ in errors or []},
        flagged=[n for n, c in cells.items() if c["flagged"]], recheck=again,
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
    cells = (data["result"] or {}).get("cells") or []
    if not 0 <= index < len(cells):
        abort(404)
    png = scans.crop_png(sid, list(cells[index].get("box") or [0, 0, 0, 0]))
    if png is None:
        abort(404)
    resp = Response(png, mimetype="image/png")
    resp.headers["Cache-Control"] = "private, max-age=3600"
    return resp
