"""Solver tests share one table cache directory for the session (not the user's)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    from scorepad.solver import table

    old = os.environ.get("SCOREPAD_CACHE_DIR")
    os.environ["SCOREPAD_CACHE_DIR"] = str(tmp_path_factory.mktemp("scorepad-cache"))
    table._MEMO.clear()  # tables other test packages left in memory came from other caches
    yield
    if old is None:
        os.environ.pop("SCOREPAD_CACHE_DIR", None)
    else:
        os.environ["SCOREPAD_CACHE_DIR"] = old
