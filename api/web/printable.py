"""The blank pad to print, from the web: the drawing `scorepad render` saves (ocr.printed),
as PNG or PDF (150 dpi, as the command writes it)."""

from __future__ import annotations

import io
from functools import lru_cache

from flask import Response, abort, request

from .common import bp


@lru_cache(maxsize=4)
def _blank(side: str, fmt: str) -> bytes:
    from ocr.layout import Side
    from ocr.printed import blank_page

    out = io.BytesIO()
    page = blank_page(Side(side))
    if fmt == "pdf":
        page.save(out, "PDF", resolution=150.0)
    else:
        page.save(out, "PNG", optimize=True)
    return out.getvalue()


@bp.get("/pad/blank.<fmt>")
def blank_pad(fmt: str) -> Response:
    side = request.args.get("side", "front")
    if fmt not in ("png", "pdf") or side not in ("front", "back"):
        abort(404)
    resp = Response(_blank(side, fmt), mimetype="application/pdf" if fmt == "pdf" else "image/png")
    resp.headers["Content-Disposition"] = f'inline; filename="scorepad-blank-{side}.{fmt}"'
    resp.headers["Cache-Control"] = "public, max-age=86400"
    return resp
