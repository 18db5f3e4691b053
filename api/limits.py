"""Rate limiting of writes (Flask-Limiter; in-memory storage unless configured)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

F = TypeVar("F", bound=Callable[..., Any])

SCAN_MAX_BYTES = 8_000_000  # the default largest photo (config SCAN_MAX_BYTES)

limiter = Limiter(key_func=get_remote_address, storage_uri="memory://",
                  headers_enabled=True)


def _write_limit() -> str:
    return str(current_app.config["RATELIMIT_WRITE"])


def write_limited(fn: F) -> F:
    """Apply the configured write limit (RATELIMIT_WRITE) to a view."""
    return cast(F, limiter.limit(_write_limit)(fn))


def method_write_limited(fn: F) -> F:
    """``write_limited`` for a method of a MethodView: each HTTP method of the resource keeps
    its own count, as separate view functions do (PUT and DELETE of a match are not shared)."""
    return cast(F, limiter.limit(_write_limit, per_method=True)(fn))
