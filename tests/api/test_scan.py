"""POST /api/v1/scan: upload limits and error mapping (the reading itself is ocr/'s)."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from api import create_app
from api.service import NOT_FOUND_HINT, ocr_module

from .test_service import assert_problem


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\x00")) + chunk(b"IEND", b""))


@pytest.fixture()
def small_limit_client(tmp_path: Path) -> FlaskClient:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 's.db'}", "SCAN_MAX_BYTES": 1000,
                      "RATELIMIT_ENABLED": False})
    return app.test_client()


def test_upload_over_limit_is_413(small_limit_client: FlaskClient) -> None:
    big = b"\x89PNG" + b"\x00" * 2000
    assert_problem(small_limit_client.post("/api/v1/scan", data=big, content_type="image/png"),
                   413, "PAYLOAD_TOO_LARGE")
    r = small_limit_client.post("/api/v1/scan", data={"file": (io.BytesIO(big), "pad.png")},
                                content_type="multipart/form-data")
    assert_problem(r, 413)


def test_scan_limit_is_above_the_json_limit(tmp_path: Path) -> None:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 's.db'}",
                      "MAX_CONTENT_LENGTH": 1000, "SCAN_MAX_BYTES": 100_000})
    r = app.test_client().post("/api/v1/scan", data=b"\x00" * 5000, content_type="image/png")
    assert r.status_code != 413


def test_wrong_type_missing_and_empty(client: FlaskClient) -> None:
    assert_problem(client.post("/api/v1/scan", data="hi", content_type="text/plain"), 415)
    r = client.post("/api/v1/scan", data={"other": (io.BytesIO(b"x"), "a.png")},
                    content_type="multipart/form-data")
    assert_problem(r, 422, "VALIDATION_FAILED")
    assert_problem(client.post("/api/v1/scan", data=b"", content_type="image/png"), 422)


def test_not_a_pad(client: FlaskClient) -> None:
    r = client.post("/api/v1/scan", data={"file": (io.BytesIO(tiny_png()), "dot.png")},
                    content_type="multipart/form-data")
    if ocr_module() is None:
        assert_problem(r, 503, "OCR_UNAVAILABLE")
    else:
        body = assert_problem(r, 422)
        assert body["code"] == body["code"].upper() and body["code"] != "VALIDATION_FAILED"
    r = client.post("/api/v1/scan", data=b"not an image at all", content_type="image/jpeg")
    assert r.status_code in (422, 503) and r.mimetype == "application/problem+json"


def test_the_corners_pattern_is_the_readers() -> None:
    from api.schemas import CORNERS_PATTERN
    from ocr import CORNERS_PATTERN as READERS

    assert CORNERS_PATTERN == READERS


def _text(corners: list[tuple[float, float]], sep: str = " ") -> str:
    return sep.join(f"{round(x)},{round(y)}" for x, y in corners)


@pytest.mark.slow
def test_a_pad_not_found_is_read_from_its_corners(client: FlaskClient) -> None:
    from ..ocr.thumbs import held_pad

    held = held_pad()
    r = client.post("/api/v1/scan", data=held.jpeg, content_type="image/jpeg")
    body = assert_problem(r, 422, "NOT_A_PAD")
    assert NOT_FOUND_HINT in body["detail"]  # the way on: send the corners
    r = client.post("/api/v1/scan", data=held.jpeg, content_type="image/jpeg",
                    query_string={"corners": _text(held.corners[::-1], ",")})
    assert r.status_code == 200, r.get_data(as_text=True)
    body = r.json
    assert body is not None and body["corners_given"] is True and body["layout"] == "template"
    assert len(body["corners"]) == 4
    for (x, y), (tx, ty) in zip(body["corners"], held.corners, strict=True):
        assert abs(x - tx) <= 3 and abs(y - ty) <= 3  # on the card's frame
    assert body["sheet"]["players"][0]["games"][0]["boxes"]


def test_bad_corners_are_422_naming_the_parameter(client: FlaskClient) -> None:
    from ..ocr.thumbs import held_pad

    held = held_pad()
    for text in ("1,2 3,4 5,6", "a,b c,d e,f g,h", "1,2,3,4,5,6,7,8,9,10", ""):
        r = client.post("/api/v1/scan", data=held.jpeg, content_type="image/jpeg",
                        query_string={"corners": text})
        body = assert_problem(r, 422, "VALIDATION_FAILED")
        assert [e["path"] for e in body["errors"]] == ["query.corners"]
    r = client.post("/api/v1/scan", data={"file": (io.BytesIO(held.jpeg), "pad.jpg"),
                                          "corners": "1;2;3"},
                    content_type="multipart/form-data")
    assert [e["path"] for e in assert_problem(r, 422, "VALIDATION_FAILED")["errors"]] == \
        ["form.corners"]
    r = client.post("/api/v1/scan", query_string={"corners": _text(held.corners)},
                    data={"file": (io.BytesIO(held.jpeg), "pad.jpg"),
                          "corners": _text(held.corners)}, content_type="multipart/form-data")
    assert_problem(r, 422, "VALIDATION_FAILED")  # given twice
    w, h = held.size
    for corners in ([(0, 0), (w, 0), (w, h), (w / 2, h / 3)],  # one inside the others
                    [(0, 0), (w * 2, 0), (w, h), (0, h)],  # outside the photo
                    [(0, 0), (40, 0), (40, 40), (0, 40)]):  # a speck of it
        r = client.post("/api/v1/scan", data=held.jpeg, content_type="image/jpeg",
                        query_string={"corners": _text(corners)})
        body = assert_problem(r, 422, "BAD_CORNERS")
        assert [e["path"] for e in body["errors"]] == ["query.corners"]
    r = client.post("/api/v1/scan", data={"file": (io.BytesIO(held.jpeg), "pad.jpg"),
                                          "corners": "0,0 40,0 40,40 0,40"},
                    content_type="multipart/form-data")
    assert [e["path"] for e in assert_problem(r, 422, "BAD_CORNERS")["errors"]] == \
        ["form.corners"]
