"""The photo pages with the job queue: the real Redis and a real ``scorepad worker`` process.

With ``REDIS_URL`` set, an uploaded photo is read by a worker, not in the request: the
upload answers 303 to the job's page, which shows the job's place in the queue and follows
it to the review; a photo with no pad found goes on to the corners, and other failures
show the advice with the way back. The tests wait for states (with a generous limit
against a hang), never for durations. No screenshots are saved.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api import jobs
from api.web import scans
from tests.jobs.jobfuncs import broken
from tests.jobs.procs import Processes, process_env, redis_db, wait_for

from .conftest import csrf_token, make_app
from .realpad import sample_photo

REDIS = os.environ.get("SCOREPAD_TEST_WEB_REDIS_URL", "redis://127.0.0.1:6379/10")
JOB_PAGE = re.compile(r"^/scan/job/([0-9a-f-]{36})$")
REVIEW_PAGE = re.compile(r"/scan/[A-Za-z0-9_-]{16,64}$")
JOB_SCRIPT = re.compile(r'<script type="module" src="[^"]*/js/job\.js"></script>')


@pytest.fixture()
def redis_url() -> Iterator[str]:
    yield from redis_db(REDIS)


@pytest.fixture()
def procs(redis_url: str, tmp_path: Path) -> Iterator[Processes]:
    ps = Processes(process_env(redis_url, tmp_path))
    yield ps
    ps.stop_all()


@pytest.fixture()
def app(redis_url: str, tmp_path: Path) -> Iterator[Flask]:
    a = make_app(tmp_path, REDIS_URL=redis_url)
    yield a
    a.extensions["scorepad.engine"].dispose()


def _upload(client: FlaskClient, data: bytes, name: str = "pad.jpg") -> str:
    """Send a photo from the home page's form: the job's id (the upload answers 303)."""
    r = client.post("/scan", data={"csrf_token": csrf_token(client), "rules": "hasbro",
                                   "photo": (io.BytesIO(data), name)},
                    content_type="multipart/form-data")
    assert r.status_code == 303, r.data[:500]
    m = JOB_PAGE.match(r.headers["Location"])
    assert m, r.headers["Location"]
    return m.group(1)


def _state(client: FlaskClient, job_id: str) -> dict[str, Any]:
    r = client.get(f"/scan/job/{job_id}/status")
    assert r.status_code == 200 and r.json is not None
    return dict(r.json)


def _ended(client: FlaskClient, job_id: str) -> Any:
    """The job page once the job has ended (its script would open it then)."""
    wait_for(lambda: _state(client, job_id)["ended"], "the job ends")
    return client.get(f"/scan/job/{job_id}")


def _href(html: str, link_id: str) -> str | None:
    """Where the link with this id goes."""
    for tag in re.findall(r"<a\b[^>]*>", html):
        if f'id="{link_id}"' in tag:
            m = re.search(r'href="([^"]*)"', tag)
            return m.group(1) if m else None
    return None


def _blank_png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (900, 700), (235, 235, 230)).save(out, "PNG")
    return out.getvalue()


def test_photo_read_by_a_worker_ends_on_the_review(serve: Callable[..., str], page: Any,
                                                   procs: Processes, redis_url: str,
                                                   tmp_path: Path) -> None:
    from playwright.sync_api import expect

    base = serve(REDIS_URL=redis_url)
    photo = tmp_path / "pad.jpg"
    photo.write_bytes(sample_photo())
    page.goto(base + "/")
    page.set_input_files("#photo", str(photo))  # the page sends the form when a photo is chosen
    page.wait_for_url(re.compile(r"/scan/job/[0-9a-f-]{36}$"))
    # no worker yet: the job waits, first in the queue, and the page says so
    bar = page.locator("progress#job-progress")
    expect(bar).to_have_attribute("value", "1")
    expect(page.locator("#job-status")).to_have_text(re.compile("your photo is next"))
    expect(page.locator("#job-status")).to_have_attribute("aria-live", "polite")
    page.wait_for_timeout(1500)  # the script has looked at the job at least once meanwhile
    assert JOB_PAGE.match(page.url.removeprefix(base))

    procs.start("worker")
    page.wait_for_url(REVIEW_PAGE, timeout=180_000)
    expect(page.locator("#check-btn")).to_be_visible()
    assert page.locator("#corner-photo").count() == 0
    # the review's photo was kept by the web process, as for a photo read in the request
    sid = page.url.rsplit("/", 1)[1]
    assert (tmp_path / "scans" / f"{sid}.jpg").is_file()
    assert page.request.get(f"{base}/scan/{sid}/photo").status == 200


def test_job_page_without_javascript_refreshes_itself(app: Flask) -> None:
    client = app.test_client()
    first = _upload(client, sample_photo())
    second = _upload(client, sample_photo())
    html = client.get(f"/scan/job/{second}").get_data(as_text=True)
    assert re.search(r'<noscript><meta http-equiv="refresh" content="\d+"></noscript>', html)
    assert JOB_SCRIPT.search(html)
    assert re.search(r'<progress id="job-progress" max="3" value="1"', html)
    assert _state(client, first) | {"message": ""} == {
        "state": "queued", "position": 0, "value": 1, "max": 3, "ended": False, "message": ""}
    assert _state(client, second)["position"] == 1
    assert "1 photo before yours" in _state(client, second)["message"]
    # a photo still being read is not reviewed yet: its addresses lead to its job
    sid = jobs.queue(REDIS).fetch_job(second).meta["web"]["sid"]
    r = client.get(f"/scan/{sid}")
    assert r.status_code == 303 and r.headers["Location"] == f"/scan/job/{second}"
    assert client.get(f"/scan/{sid}/corners").headers["Location"] == f"/scan/job/{second}"


def test_failed_reads_lead_on(app: Flask, procs: Processes, redis_url: str) -> None:
    client = app.test_client()
    not_a_photo = _upload(client, b"this is no photo at all", "notes.jpg")
    no_pad = _upload(client, _blank_png(), "wall.png")
    procs.start("worker")

    # a file the reader cannot open: the advice, and the way back to the upload
    r = _ended(client, not_a_photo)
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert 'data-code="not_an_image"' in html and _href(html, "job-back") == "/"
    assert not JOB_SCRIPT.search(html) and "http-equiv" not in html  # no longer following

    # no pad found: not a dead end, the corners are to be marked on the kept photo
    r = _ended(client, no_pad)
    assert r.status_code == 303
    corners = r.headers["Location"]
    sid = corners.split("/")[2]
    assert corners == f"/scan/{sid}/corners"
    assert client.get(corners).status_code == 200
    assert client.get(f"/scan/{sid}").headers["Location"] == corners
    assert client.get(f"/scan/job/{no_pad}").headers["Location"] == corners  # again: the same

    # corners that frame no pad: read by a worker too, then back to the corners, with advice
    form = {"csrf_token": csrf_token(client)}
    for i, (x, y) in enumerate([(100, 100), (300, 100), (300, 250), (100, 250)]):
        form[f"c{i}x"], form[f"c{i}y"] = str(x), str(y)
    r = client.post(f"/scan/{sid}/corners", data=form)
    assert r.status_code == 303
    m = JOB_PAGE.match(r.headers["Location"])
    assert m
    r = _ended(client, m.group(1))
    assert r.status_code == 422
    html = r.get_data(as_text=True)
    assert 'id="corners-error"' in html
    assert f'action="/scan/{sid}/corners"' in html and 'value="300"' in html  # as marked


def test_worker_failure_shows_advice_and_unknown_jobs_are_gone(app: Flask, procs: Processes,
                                                                redis_url: str) -> None:
    client = app.test_client()
    with app.test_request_context("/scan"):
        job_id = jobs.new_id()
        sid = scans.save(sample_photo(), None, "hasbro", job=job_id)
        jobs.enqueue(redis_url, "scan", broken, job_id=job_id,
                     meta={"web": {"sid": sid, "from": None, "corners": None}})
        api_job = jobs.enqueue(redis_url, "scan", broken).id  # a job of the JSON API
    assert client.get(f"/scan/job/{api_job}").status_code == 404  # not a page's job
    assert client.get(f"/scan/job/{api_job}/status").status_code == 404
    assert client.get("/scan/job/no-such-job").status_code == 404
    procs.start("worker")

    r = _ended(client, job_id)  # raised on both runs: failed
    assert r.status_code == 503
    html = r.get_data(as_text=True)
    assert 'data-code="ocr_failed"' in html and _href(html, "job-back") == "/"
    assert client.get(f"/scan/{sid}").status_code == 404  # the photo was not kept


def test_without_redis_photos_are_read_in_the_request(tmp_path: Path) -> None:
    calls: list[str] = []

    def stand_in(data: bytes, rules: str, corners: Any = None) -> dict[str, Any]:
        calls.append(rules)
        return {"sheet": {"players": [{"name": "A", "games": [{"boxes": {}}]}]}, "cells": []}

    app = make_app(tmp_path, WEB_SCANNER=stand_in, REDIS_URL=None)
    client = app.test_client()
    r = client.post("/scan", data={"csrf_token": csrf_token(client), "rules": "hasbro",
                                   "photo": (io.BytesIO(sample_photo()), "pad.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 303 and REVIEW_PAGE.search(r.headers["Location"])
    assert not JOB_PAGE.match(r.headers["Location"]) and calls == ["hasbro"]
    app.extensions["scorepad.engine"].dispose()


def test_queue_out_of_reach_is_said_and_nothing_kept(tmp_path: Path) -> None:
    app = make_app(tmp_path, REDIS_URL="redis://127.0.0.1:1/0")  # nothing listens there
    client = app.test_client()
    r = client.post("/scan", data={"csrf_token": csrf_token(client), "rules": "hasbro",
                                   "photo": (io.BytesIO(sample_photo()), "pad.jpg")},
                    content_type="multipart/form-data")
    assert r.status_code == 503
    assert 'data-code="queue_unavailable"' in r.get_data(as_text=True)
    assert not list((tmp_path / "scans").glob("*.json"))
    app.extensions["scorepad.engine"].dispose()
