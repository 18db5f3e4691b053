"""Uploaded pad photos between the upload and the verdict: a file pair per scan, kept a day.

``SCAN_DIR`` (config ``WEB_SCAN_DIR``, default ``<instance>/web-scans``) holds
``ID.jpg`` (the photo turned upright, as the reader saw it) and ``ID.json`` (the
reader's result and the rule set). Ids are random; old pairs are removed on upload.
A photo in which the reader found no pad is kept with no result (``None``) until its
corners are marked; reading it again from marked corners makes a new id (``again``).
A photo being read on the job queue is kept with its job's id (``job``) and no result
until the job ends (``finish``).
"""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any

from flask import current_app

KEEP_SECONDS = 24 * 3600
_ID = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


def scan_dir() -> Path:
    d = current_app.config.get("WEB_SCAN_DIR") or str(Path(current_app.instance_path) /
                                                       "web-scans")
    p = Path(d)
    p.mkdir(parents=True, exist_ok=True)
    return p


def upright_jpeg(data: bytes) -> bytes | None:
    """The photo turned as its EXIF orientation says (the reader's crop boxes use that frame)."""
    try:
        from PIL import Image, ImageOps
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            up = ImageOps.exif_transpose(im) or im
            out = io.BytesIO()
            up.convert("RGB").save(out, "JPEG", quality=88)
            return out.getvalue()
    except Exception:  # the reader already accepted it; keep the original if PIL cannot
        return None


def _write(sid: str, data: dict[str, Any]) -> None:
    """The scan's JSON, replaced whole (a reader never sees half a file)."""
    d = scan_dir()
    tmp = d / f".{sid}.{secrets.token_hex(4)}.tmp"
    tmp.write_text(json.dumps(data))
    os.replace(tmp, d / f"{sid}.json")


def _record(result: dict[str, Any] | None, rules: Any, job: str | None) -> dict[str, Any]:
    data = {"result": result, "rules": rules, "created": time.time()}
    if job is not None:
        data["job"] = job
    return data


def save(photo: bytes, result: dict[str, Any] | None, rules: str, job: str | None = None) -> str:
    """Keep a photo and its result; ``job``: the queued job that is reading it (no result yet)."""
    d = scan_dir()
    _cleanup(d)
    sid = secrets.token_urlsafe(18)
    (d / f"{sid}.jpg").write_bytes(upright_jpeg(photo) or photo)
    _write(sid, _record(result, rules, job))
    return sid


def again(sid: str, result: dict[str, Any] | None, job: str | None = None) -> str | None:
    """A new id for the photo of ``sid`` (the same upright JPEG, not encoded again) with a new
    result (or none yet, while ``job`` reads it): its review page and crops are new
    addresses, never a cached old crop."""
    old, data = photo_path(sid), load(sid)
    if old is None or data is None:
        return None
    d = scan_dir()
    new = secrets.token_urlsafe(18)
    (d / f"{new}.jpg").write_bytes(old.read_bytes())
    _write(new, _record(result, data.get("rules"), job))
    return new


def pending(sid: str) -> str | None:
    """The id of the job still reading the photo of ``sid``, or None."""
    data = load(sid)
    job = (data or {}).get("job")
    return str(job) if job else None


def finish(sid: str, result: dict[str, Any] | None) -> bool:
    """The job reading ``sid`` has ended: keep its result (None: no pad found, the corners
    are to be marked). Once only: a later call changes nothing. False: the photo is gone."""
    data = load(sid)
    if data is None or photo_path(sid) is None:
        return False
    if data.pop("job", None) is None:
        return True
    data["result"] = result
    _write(sid, data)
    return True


def discard(sid: str) -> None:
    for p in (photo_path(sid), scan_dir() / f"{sid}.json" if _ID.match(sid) else None):
        if p is not None:
            p.unlink(missing_ok=True)


def photo_size(sid: str) -> tuple[int, int] | None:
    """The stored photo's width and height (the upright photo's pixels), or None."""
    p = photo_path(sid)
    if p is None:
        return None
    try:
        from PIL import Image
        with Image.open(p) as im:
            return im.size
    except Exception:  # not a picture Pillow opens (the reader may have refused it too)
        return None


def load(sid: str) -> dict[str, Any] | None:
    if not _ID.match(sid):
        return None
    p = scan_dir() / f"{sid}.json"
    if not p.exists():
        return None
    data: dict[str, Any] = json.loads(p.read_text())
    return data


def photo_path(sid: str) -> Path | None:
    if not _ID.match(sid):
        return None
    p = scan_dir() / f"{sid}.jpg"
    return p if p.exists() else None


def crop_png(sid: str, box: list[int], margin: int = 14) -> bytes | None:
    """The cell's crop (with a margin of its neighbours) as PNG, enlarged for a phone."""
    p = photo_path(sid)
    if p is None:
        return None
    from PIL import Image
    with Image.open(p) as im:
        x0, y0, x1, y1 = box
        x0, y0 = max(0, x0 - margin), max(0, y0 - margin)
        x1, y1 = min(im.width, x1 + margin), min(im.height, y1 + margin)
        if x1 <= x0 or y1 <= y0:
            return None
        crop = im.crop((x0, y0, x1, y1))
        scale = max(1.0, 240 / max(crop.width, 1))
        if scale > 1:
            crop = crop.resize((int(crop.width * scale), int(crop.height * scale)))
        out = io.BytesIO()
        crop.save(out, "PNG")
        return out.getvalue()


def _cleanup(d: Path) -> None:
    now = time.time()
    for f in d.glob("*"):
        try:
            if now - f.stat().st_mtime > KEEP_SECONDS:
                f.unlink()
        except OSError:
            pass
