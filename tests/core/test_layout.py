"""The layout CONTRIBUTING.md describes (issue 12): no import circle among the runtime
packages, none of them imports the photo synthesis, and no source file over 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ("scorepad", "api", "ocr")
SYNTHESIS = ("padsynth", "htmlpads")
MAX_LINES = 500


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for package in RUNTIME:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    """Every module ``name`` imports (at the top or in a function; not under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text("utf-8"))
    skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If) and _type_checking(node)
            for n in ast.walk(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            # "from . import x" imports the module x when there is one, else a name of target
            subs = {f"{target}.{a.name}" for a in node.names} & known
            found.update(subs)
            if len(subs) < len(node.names):
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    """Every runtime module's imports; ``scorepad.cli`` also imports (with importlib, when
    their commands run) the modules its ``COMMANDS`` name, so they are its edges too."""
    from scorepad.cli import COMMANDS

    modules = _modules()
    known = set(modules)
    graph = {name: _imports(name, path, known) for name, path in modules.items()}
    graph["scorepad.cli"] |= {c.module for c in COMMANDS}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports among the graph's modules, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if n not in graph or n == m:
                continue
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_cycle_finder_finds_one() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a", "os"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"os"}}) is None


def test_no_import_circle_among_the_runtime_modules() -> None:
    graph = _graph()
    assert {"api.service", "api.groups", "api.web"} <= graph["api"]  # create_app's imports
    assert "scorepad.audit" in graph["api.reports"] and "ocr.plan" in graph["ocr.reader"]
    assert {"scorepad.commands", "scorepad.solver.cli", "api.cli", "ocr.cli"} <= graph[
        "scorepad.cli"]  # the plugins, imported by name from COMMANDS
    assert _cycle(graph) is None


def test_runtime_packages_import_no_synthesis() -> None:
    bad = {(m, n) for m, names in _graph().items() for n in names
           if n.split(".")[0] in SYNTHESIS}
    assert bad == set()


def test_no_source_file_over_500_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for package in RUNTIME
            for p in (ROOT / package).rglob("*") if p.suffix in {".py", ".js", ".html", ".css"}
            if (n := len(p.read_text("utf-8").splitlines())) > MAX_LINES}
    assert long == {}
