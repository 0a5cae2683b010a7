"""The projections import one way, with the elimination rules in one place.

The bracket, the standings and the elimination pairing used to import each other
from inside functions, which hid the cycle from a plain import. The graph below
reads every import of every projections module, function bodies included, so a
cycle cannot hide there again; each module is also imported alone in a fresh
interpreter, in both orders for the pair that used to be tangled.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "projections"


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = sorted(module_name(p) for p in PACKAGE.rglob("*.py"))


def imported(path: Path) -> set[str]:
    """Every first-party module ``path`` imports, at module level or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return {n for n in names if n.split(".")[0] in {"ledger", "projections", "replay", "commands"}}


def graph() -> dict[str, set[str]]:
    """projections module -> the projections modules it imports (packages left out:
    importing ``projections.x`` runs ``projections/__init__`` for every module alike)."""
    modules = set(MODULES)
    edges = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        edges[name] = {m for m in imported(path) if m in modules and m != name} - {"projections"}
    return edges


def a_cycle(edges: dict[str, set[str]]) -> list[str]:
    """One import cycle as a path that returns to its start, or [] when there is none."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        for target in sorted(edges.get(node, ())):
            found = visit(target, [*path, node])
            if found:
                return found
        done.add(node)
        return []

    for start in sorted(edges):
        found = visit(start, [])
        if found:
            return found
    return []


def test_no_projections_module_imports_in_a_cycle() -> None:
    assert a_cycle(graph()) == []


def test_the_graph_check_finds_a_cycle_hidden_in_a_function() -> None:
    assert a_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_bracket_and_standings_import_one_way_only() -> None:
    edges = graph()
    assert "projections.bracket" in edges["projections.standings"]
    assert "projections.standings" not in edges["projections.bracket"]


def test_one_module_pairs_elimination_rounds_fresh_and_revised() -> None:
    edges = graph()
    assert "projections.elimination" in edges["projections.revision"]
    assert "projections.revision" not in edges["projections.elimination"]


def test_projections_import_only_the_ledger() -> None:
    outside = {
        module_name(p): sorted(m for m in imported(p) if m.split(".")[0] in {"replay", "commands"})
        for p in PACKAGE.rglob("*.py")
    }
    assert {m: found for m, found in outside.items() if found} == {}


def python(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True,
                          text=True)  # fmt: skip


ALONE = """
import importlib, sys
for name in sys.argv[1:]:
    for loaded in [m for m in sys.modules if m == "projections" or m.startswith("projections.")]:
        del sys.modules[loaded]
    importlib.import_module(name)
"""


def test_every_projections_module_imports_alone_in_a_fresh_interpreter() -> None:
    run = python(ALONE, *MODULES)
    assert run.returncode == 0, run.stderr


TANGLED = ("projections.bracket", "projections.standings", "projections.elimination",
           "projections.revision")  # fmt: skip


@pytest.mark.parametrize("first", TANGLED)
def test_bracket_standings_and_elimination_import_in_any_order(first: str) -> None:
    rest = [m for m in TANGLED if m != first]
    run = python(f"import {first}; " + "; ".join(f"import {m}" for m in rest))
    assert run.returncode == 0, run.stderr
