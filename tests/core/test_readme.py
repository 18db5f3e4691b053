"""README.md's shell examples, run and compared with the output shown (as doctest does).

The convention (CONTRIBUTING.md, "README examples"): a fenced block with lines starting
``$ `` is a session. Each ``$`` line runs in bash, in a fresh directory per block that
holds a link to ``sample_pads/``, with this environment's ``scorepad`` and ``python3``
first on PATH and an empty solver table cache (as on a first run); what it prints (stdout
and stderr, as a terminal shows them) must be the lines shown up to the next ``$`` line.
``...`` inside a line matches any text; a line that is only ``...`` matches any number of
lines (none too). ``$?`` is the previous command's exit code. An HTML comment on the line
before the fence changes how the block runs: ``<!-- readme-test: skip (REASON) -->`` (not
run; the reason is required) and ``<!-- readme-test: server -->`` (run against ``scorepad
serve`` started for the block on a free port with a fresh SQLite file; ``localhost:5000``
in the block means that server).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MARKER = re.compile(r"<!--\s*readme-test:\s*(\w+)\s*(.*?)\s*-->")


@dataclass
class Block:
    line: int  # of the opening fence, 1-based
    mode: str  # "run", "skip" or "server"
    reason: str
    session: list[tuple[str, list[str]]]  # (command, expected output lines)


def blocks(text: str) -> list[Block]:
    lines = text.splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        if not lines[i].startswith("```"):
            i += 1
            continue
        start = i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        body = lines[start + 1:j]
        i = j + 1
        if lines[start].strip() in ("```pycon", "```json", "```python"):
            continue
        if not any(ln.startswith("$ ") for ln in body):
            continue  # a synopsis, not a session
        m = MARKER.search(lines[start - 1]) if start else None
        mode, reason = (m.group(1), m.group(2)) if m else ("run", "")
        session: list[tuple[str, list[str]]] = []
        k = 0
        while k < len(body):
            ln = body[k]
            if not ln.startswith("$ "):
                session[-1][1].append(ln) if session else None
                k += 1
                continue
            cmd = ln[2:]
            while cmd.endswith("\\") and k + 1 < len(body):  # a command continued
                k += 1
                cmd = cmd + "\n" + body[k]
            session.append((cmd, []))
            k += 1
        out.append(Block(start + 1, mode, reason, session))
    return out


def matches(expected: list[str], actual: list[str]) -> bool:
    """doctest's ELLIPSIS, by line: '...' in a line is any text, a '...' line any lines."""
    def trim(lines: list[str]) -> list[str]:
        lines = [ln.rstrip() for ln in lines]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    exp, act = trim(expected), trim(actual)

    def line_ok(e: str, a: str) -> bool:
        pattern = ".*".join(re.escape(part) for part in e.split("..."))
        return re.fullmatch(pattern, a) is not None

    def go(i: int, j: int) -> bool:
        if i == len(exp):
            return j == len(act)
        if exp[i].strip() == "...":
            return any(go(i + 1, k) for k in range(j, len(act) + 1))
        return j < len(act) and line_ok(exp[i], act[j]) and go(i + 1, j + 1)

    return go(0, 0)


ALL = blocks(README.read_text(encoding="utf-8"))


def test_the_readme_has_sessions_and_every_skip_says_why() -> None:
    assert sum(b.mode == "run" for b in ALL) >= 8
    assert {b.mode for b in ALL} <= {"run", "skip", "server"}
    assert all(b.reason.strip("() ") for b in ALL if b.mode == "skip")


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    bindir = str(Path(sys.executable).parent)
    e = {k: v for k, v in os.environ.items() if not k.startswith("SCOREPAD_")}
    e["PATH"] = bindir + os.pathsep + e.get("PATH", "")
    e["COLUMNS"] = "80"
    return e


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture()
def server(request: pytest.FixtureRequest, env: dict[str, str],
           tmp_path: Path) -> Iterator[int | None]:
    block: Block = request.node.callspec.params["block"]
    if block.mode != "server":
        yield None
        return
    port = _free_port()
    senv = {**env, "SCOREPAD_DATABASE_URL": f"sqlite:///{tmp_path / 'readme.db'}"}
    proc = subprocess.Popen([str(Path(sys.executable).parent / "scorepad"), "serve", "--port",
                             str(port)], env=senv, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            assert proc.poll() is None, "scorepad serve stopped"
            time.sleep(0.2)
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("block", [b for b in ALL if b.mode != "skip"],
                         ids=lambda b: f"line{b.line}")
def test_readme_session(block: Block, env: dict[str, str], server: int | None,
                        tmp_path: Path) -> None:
    (tmp_path / "sample_pads").symlink_to(ROOT / "sample_pads")
    env = {**env, "SCOREPAD_CACHE_DIR": str(tmp_path / "cache")}  # as on a first run
    status = 0
    for cmd, expected in block.session:
        if server is not None:
            cmd = cmd.replace("localhost:5000", f"localhost:{server}")
        r = subprocess.run(["bash", "-c", f"(exit {status}); {cmd}"], cwd=tmp_path, env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=300)
        status = r.returncode
        actual = r.stdout.replace("\r\n", "\n").splitlines()
        assert matches(expected, actual), (
            f"README.md line {block.line}: $ {cmd}\n--- shown\n" + "\n".join(expected)
            + "\n--- printed\n" + "\n".join(actual))


@pytest.mark.parametrize(("expected", "actual", "ok"), [
    (["a", "b"], ["a", "b", ""], True),
    (["a...z"], ["abcz"], True),
    (["  ...", "z"], ["x", "y", "z"], True),
    (["  ...", "z"], ["z"], True),
    (["a"], ["b"], False),
    (["a", "..."], ["a", "b"], True),
    (["a"], ["a", "b"], False),
])
def test_matching(expected: list[str], actual: list[str], ok: bool) -> None:
    assert matches(expected, actual) is ok
