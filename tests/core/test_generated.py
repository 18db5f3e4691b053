"""Generated and documented artefacts stay true: the committed JSON Schema is the one the
sheet specification generates, and the README's library example runs as a doctest."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

from scorepad import jsonschema as sheet_jsonschema
from scorepad.jsonschema.__main__ import main as jsonschema_main

ROOT = Path(__file__).resolve().parents[2]


def test_committed_json_schema_is_generated() -> None:
    assert sheet_jsonschema.PATH.read_text(encoding="utf-8") == sheet_jsonschema.schema_text(), \
        "run: python -m scorepad.jsonschema"
    assert jsonschema_main(["--check"]) == 0


def _readme_library_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Library", 1)[1]
    match = re.search(r"```pycon\n(.*?)```", section, re.S)
    assert match, "the README's Library section has a pycon example"
    return match.group(1)


def test_readme_library_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the example opens sample_pads/... relative to the repository
    test = doctest.DocTestParser().get_doctest(_readme_library_example(), {}, "README.md",
                                               str(ROOT / "README.md"), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 5
