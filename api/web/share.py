"""A verdict's link to share: the checked sheet itself, compressed into the address
(``/v?s=...``, the view ``web.shared_verdict``). Nothing is stored, so a link never expires
and holds no one else's data; a sheet too large for a safe address (over ``MAX_SHARE``
characters) gets no link."""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

from flask import url_for

MAX_SHARE = 6000  # characters of the encoded sheet: within every browser's and proxy's limit
MAX_JSON = 256_000  # bytes of sheet JSON a link may unpack to


def encode(sheet_json: dict[str, Any]) -> str:
    raw = json.dumps(sheet_json, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode(token: str) -> dict[str, Any]:
    """The sheet JSON of a link; ValueError when it is not one."""
    if not token or len(token) > MAX_SHARE:
        raise ValueError("no sheet")
    try:
        packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        unz = zlib.decompressobj()
        raw = unz.decompress(packed, MAX_JSON)
        if unz.unconsumed_tail:
            raise ValueError("too large")
        data = json.loads(raw)
    except (binascii.Error, zlib.error, UnicodeDecodeError) as exc:
        raise ValueError("not a sheet") from exc
    if not isinstance(data, dict):
        raise ValueError("not a sheet")
    return data


def share_url(sheet_json: dict[str, Any]) -> str | None:
    token = encode(sheet_json)
    return url_for("web.shared_verdict", s=token) if len(token) <= MAX_SHARE else None
