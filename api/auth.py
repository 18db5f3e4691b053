"""Group tokens: random, shown once, stored only as SHA-256 hashes.

A request names its group in the path and carries ``Authorization: Bearer TOKEN``.
A missing header, or a token that opens no group at all, is 401. A valid token
of *another* group gets 404, exactly as a group id that does not exist: a token
never reveals whether some other group exists, nor anything in it.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

from flask import request
from sqlalchemy import select
from sqlalchemy.orm import Session

from .db import Group, reading, writing
from .errors import ApiError, ProblemCode

TOKEN_PREFIX = "spg_"
TOKEN_FORMAT = re.compile(r"^spg_[A-Za-z0-9_-]{43}$")  # what new_token makes: 256 random bits


def new_token() -> str:
    return TOKEN_PREFIX + secrets.token_urlsafe(32)


def is_group_token(token: str) -> bool:
    """Whether ``token`` has the form of a token this service makes (a backup restored through
    the API must carry one: a made-up ``x`` would open the group it creates)."""
    return TOKEN_FORMAT.match(token) is not None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bearer_token() -> str:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, ProblemCode.TOKEN_REQUIRED, "send the group's token as 'Authorization: "
                       "Bearer TOKEN'", headers={"WWW-Authenticate": 'Bearer realm="scorepad"'})
    return token


def load_group(session: Session, group_id: str) -> Group:
    """The group, if the request's token is its token; else 404 (or 401 without a token)."""
    digest = hash_token(bearer_token())
    group = session.get(Group, group_id) if len(group_id) <= 64 else None
    if group is not None and hmac.compare_digest(group.token_hash, digest):
        return group
    if session.scalar(select(Group.id).where(Group.token_hash == digest)) is None:
        raise ApiError(401, ProblemCode.TOKEN_INVALID, "this token opens no group",
                       headers={"WWW-Authenticate": 'Bearer realm="scorepad", '
                                'error="invalid_token"'})
    raise ApiError(404, ProblemCode.NOT_FOUND, "no such group for this token")


@contextmanager
def opened_group(group_id: str, *, write: bool = False) -> Iterator[tuple[Session, Group]]:
    """``with opened_group(gid) as (s, g)``: a session (``write``: a writing one) and the group
    the request's token opens (``load_group``: 404/401 otherwise). Every group view uses it."""
    with writing() if write else reading() as s:
        yield s, load_group(s, group_id)
