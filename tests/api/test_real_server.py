"""The service through real HTTP on loopback (werkzeug's server in a thread, and the CLI)."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from api.service import NOT_FOUND_HINT

from .conftest import full_game, pad, sheet


def test_verify_and_matches_over_http(server: str) -> None:
    with requests.Session() as http:
        r = http.post(f"{server}/api/v1/verify", json=pad("impossible_box_values"), timeout=10)
        assert r.status_code == 200 and r.json()["ok"] is False
        g = http.post(f"{server}/api/v1/groups", json={"name": "club"}, timeout=10).json()
        h = {"Authorization": f"Bearer {g['token']}"}
        r = http.post(f"{server}/api/v1/groups/{g['id']}/matches", headers=h, timeout=10,
                      json={"sheet": sheet(("A", [full_game()]), ("B", [full_game()]))})
        assert r.status_code == 201
        st = http.get(f"{server}/api/v1/groups/{g['id']}/stats", headers=h, timeout=10).json()
        assert st["games"] == 1 and {p["wins"] for p in st["players"]} == {1}


def test_a_heic_photo_is_scanned_over_http(server: str) -> None:
    from PIL import Image
    from pillow_heif import register_heif_opener

    register_heif_opener()  # to write the photo (the reader registers it to read one)
    photo = Path(__file__).resolve().parents[2] / "sample_pads" / "photos" / "pad-01000-front.jpg"
    buf = io.BytesIO()
    with Image.open(photo) as im:
        im.save(buf, format="HEIF", quality=90)
    with requests.Session() as http:
        r = http.post(f"{server}/api/v1/scan", data=buf.getvalue(),
                      headers={"Content-Type": "image/heic"}, timeout=60)
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["side"] == "front" and body["sheet"]["players"][0]["games"]
        r = http.post(f"{server}/api/v1/scan", timeout=60,
                      files={"file": ("IMG_0001.HEIC", buf.getvalue(), "image/heic")})
        assert r.status_code == 200 and r.json()["side"] == "front"


@pytest.mark.slow
def test_the_pads_corners_are_sent_over_http(server: str) -> None:
    from ..ocr.thumbs import held_pad

    held = held_pad()
    text = ",".join(f"{round(x)},{round(y)}" for x, y in held.corners)
    with requests.Session() as http:
        r = http.post(f"{server}/api/v1/scan", timeout=60,
                      files={"file": ("IMG_0002.JPG", held.jpeg, "image/jpeg")})
        assert r.status_code == 422 and r.json()["code"] == "NOT_A_PAD"
        assert NOT_FOUND_HINT in r.json()["detail"]  # the way on: send the corners
        r = http.post(f"{server}/api/v1/scan", timeout=60, data={"corners": text},
                      files={"file": ("IMG_0002.JPG", held.jpeg, "image/jpeg")})
        assert r.status_code == 200, r.text
        assert r.json()["corners_given"] is True and r.json()["side"] == "front"
        r = http.post(f"{server}/api/v1/scan", params={"corners": "10,10 20,10"}, timeout=60,
                      data=held.jpeg, headers={"Content-Type": "image/jpeg"})
        assert r.status_code == 422
        assert r.headers["Content-Type"].startswith("application/problem+json")
        assert r.json()["errors"][0]["path"] == "query.corners"


def test_concurrent_writes_over_http(server: str) -> None:
    with requests.Session() as http:
        g = http.post(f"{server}/api/v1/groups", json={"name": "club"}, timeout=10).json()
    h = {"Authorization": f"Bearer {g['token']}"}
    results: list[int] = []

    def worker() -> None:
        with requests.Session() as s:
            for _ in range(5):
                r = s.post(f"{server}/api/v1/groups/{g['id']}/matches", headers=h, timeout=30,
                           json={"sheet": sheet(("A", [full_game()]))})
                results.append(r.status_code)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert results == [201] * 20
    lst = requests.get(f"{server}/api/v1/groups/{g['id']}/matches", headers=h, timeout=10).json()
    assert lst["total"] == 20


def test_malformed_http_never_500(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    raw = [
        b"POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 5\r\n\r\n{\"a\":",
        b"POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 99999999\r\n\r\n{}",
        b"GET /api/v1/%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /api/v1/groups/%00/matches HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xff\r\n"
        b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
    ]
    for req in raw:
        with socket.create_connection((host, int(port)), timeout=10) as s:
            s.sendall(req)
            s.shutdown(socket.SHUT_WR)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        status = int(data.split(b" ", 2)[1])
        assert 400 <= status < 500, data[:200]
        assert b"Traceback" not in data


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_up(url: str, proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited with {proc.returncode}")
        try:
            if requests.get(url, timeout=5).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.1)
    raise AssertionError("server did not come up")


def test_scorepad_serve_command(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "SCOREPAD_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}"}
    proc = subprocess.Popen([sys.executable, "-m", "scorepad.cli", "serve", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_up(f"http://127.0.0.1:{port}/api/v1/health", proc)
        r = requests.get(f"http://127.0.0.1:{port}/api/v1/rules", timeout=5)
        assert r.status_code == 200
        assert requests.get(f"http://127.0.0.1:{port}/docs", timeout=5).status_code == 200
    finally:
        proc.terminate()
        proc.wait(10)
    assert (tmp_path / "serve.db").exists()


def test_serve_shares_the_cores_among_its_workers_scans(monkeypatch: pytest.MonkeyPatch) -> None:
    # without a queue each web worker may read a photo at once: numpy's BLAS threads are
    # the cores shared among the workers, set before the app loads numpy; a variable set
    # by whoever runs the service is kept
    from api import cli as api_cli
    from api import jobs, metrics, server
    from scorepad.cli import main

    assert [server.web_threads(w, cores=c) for w, c in ((5, 2), (2, 8), (3, 8), (1, 1))] == \
        [1, 4, 2, 1]
    seen: dict[str, str | None] = {}

    def app_loaded(migrate: bool = True) -> None:
        seen.update({var: os.environ.get(var) for var in jobs.THREAD_VARS})
        raise RuntimeError("the app is not started in this test")

    for var in jobs.THREAD_VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    monkeypatch.setattr(api_cli, "_app", app_loaded)
    monkeypatch.setattr(metrics, "fresh_multiproc_dir", lambda: None)
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert main(["serve", "--port", str(free_port()), "--workers", "2"]) != 0
    assert seen == {**{var: "2" for var in jobs.THREAD_VARS}, "OPENBLAS_NUM_THREADS": "3"}


def test_serve_rejects_bad_port() -> None:
    from scorepad.cli import main

    assert main(["serve", "--port", "70000"]) == 2


def test_scanned_sheet_over_http(server: str) -> None:
    with requests.Session() as http:
        r = http.post(f"{server}/api/v1/verify", json=pad("scanned_misread_total"), timeout=10)
        assert r.status_code == 200
        body = r.json()
        assert body["verdict"] == "unsure" and body["ok"] is True
        assert [(f["code"], f["severity"]) for f in body["findings"]] == [
            ("TOTAL_ARITHMETIC", "doubt")]
