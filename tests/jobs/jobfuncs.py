"""Job functions for tests/jobs: imported by the worker processes (PYTHONPATH=the repo)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


def stubborn(marker: str, killed_runs: int) -> dict[str, Any]:
    """Write this process's id to ``marker`` (one line a run); the first ``killed_runs`` runs
    then wait to be killed, the next one answers how many runs there were."""
    path = Path(marker)
    with path.open("a") as fh:
        fh.write(f"{os.getpid()}\n")
    runs = len(path.read_text().split())
    if runs <= killed_runs:
        time.sleep(3600)  # the test kills this process
    return {"result": {"runs": runs}}


def broken(*args: Any) -> dict[str, Any]:
    """A job that fails (raises) on every run: its retries spent, it is failed."""
    raise RuntimeError("broken on purpose")
