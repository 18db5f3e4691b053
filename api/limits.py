"""Rate limits (Flask-Limiter), counted per client and shared by every route and worker.

* ``RATELIMIT_WRITE`` (default ``60 per minute``): every write (POST/PUT/DELETE of groups,
  matches and backups, and the web page's photo upload) of one client draws on ONE count,
  whatever the route or method.
* ``RATELIMIT_GROUP_WRITE`` (default ``120 per minute``): the writes into one group, from
  whichever clients (a leaked token cannot flood a group from many addresses).
* ``RATELIMIT_SCAN`` (default ``10 per minute``): photos read by ``POST /api/v1/scan``.
* ``RATELIMIT_TABLE_BUILD`` (default ``10 per hour``): optimal-play tables built for custom
  rule sets by ``POST /api/v1/analyse`` (about 1.5 s of CPU and 12 MB each; requests whose
  table is already built do not count).

A client is its address (``request.remote_addr``; behind a proxy, wrap the app in
werkzeug's ``ProxyFix`` so that it is the client's). The counters live in memory, per
worker process, unless ``REDIS_URL`` (``SCOREPAD_REDIS_URL=redis://127.0.0.1:6379/0``) is
set: then in Redis, shared by every worker and machine (``RATELIMIT_STORAGE_URI`` may name
another Flask-Limiter storage; ``RATELIMIT_KEY_PREFIX`` separates services sharing one Redis).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Flask, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse

from .errors import ApiError, ProblemCode

F = TypeVar("F", bound=Callable[..., Any])

SCAN_MAX_BYTES = 8_000_000  # the default largest photo (config SCAN_MAX_BYTES)

# No storage_uri here: the app's configuration chooses it (see configure).
limiter = Limiter(key_func=get_remote_address, headers_enabled=True)


def configure(app: Flask) -> None:
    """Counters in Redis when REDIS_URL is set (unless RATELIMIT_STORAGE_URI names a storage)."""
    app.config["RATELIMIT_STORAGE_URI"] = (app.config.get("RATELIMIT_STORAGE_URI")
                                           or app.config.get("REDIS_URL") or "memory://")
    limiter.init_app(app)


def _config(name: str) -> Callable[[], str]:
    return lambda: str(current_app.config[name])


def _group_key() -> str:
    return str((request.view_args or {}).get("group_id", ""))


# One count per client across every write route and method ...
_write = limiter.shared_limit(_config("RATELIMIT_WRITE"), scope="write")
# ... and one per group across its writers.
_group_write = limiter.shared_limit(_config("RATELIMIT_GROUP_WRITE"), scope="group-write",
                                    key_func=_group_key)
_scan = limiter.shared_limit(_config("RATELIMIT_SCAN"), scope="scan")


def write_limited(fn: F) -> F:
    """The client's write limit (RATELIMIT_WRITE), shared by every write route."""
    return cast(F, _write(fn))


def group_write_limited(fn: F) -> F:
    """A write into a group (``group_id`` in the path): the client's write limit and the
    group's (RATELIMIT_GROUP_WRITE). Works on MethodView methods too."""
    return cast(F, _group_write(_write(fn)))


# MethodView methods of a group (a match's POST, PUT and DELETE) use the same two counts.
method_write_limited = group_write_limited


def scan_limited(fn: F) -> F:
    """The client's limit on photos read (RATELIMIT_SCAN)."""
    return cast(F, _scan(fn))


def spend(config_key: str, scope: str, what: str) -> None:
    """Draw one from the client's budget ``config_key`` (a limit such as ``10 per hour``) in
    the limiter's storage; 429 RATE_LIMITED with Retry-After when it is spent. For costs that
    only some requests of a route incur (building a table), decided inside the view."""
    if not limiter.enabled or not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    item = parse(str(current_app.config[config_key]))
    prefix = str(current_app.config.get("RATELIMIT_KEY_PREFIX") or "")
    key = (prefix, scope, get_remote_address())
    strategy = limiter.limiter
    if strategy.hit(item, *key):
        return
    reset = strategy.get_window_stats(item, *key).reset_time
    retry = max(1, int(reset - time.time()) + 1)
    raise ApiError(429, ProblemCode.RATE_LIMITED, f"too many {what}; retry later",
                   headers={"Retry-After": str(retry)})
