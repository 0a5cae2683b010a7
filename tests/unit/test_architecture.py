"""The house's rules, read off the code with ``ast``: arrows run only downward, no two
rooms import each other, no module imports itself round a circle, and no module is
over 400 lines.

Floors, lowest first: ``ledger`` (the record), ``projections`` (pure folds and the
rulesets), ``replay`` (the audit), the write side at the root of ``commands``, then the
text formats and the read side, then the faces. Every import counts, also one inside
a function (a lazy import is still an arrow).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("ledger", "projections", "replay", "commands")
FACES = ("commands.pages", "commands.api", "commands.console", "commands.web", "commands.cli")
#: what each room may import besides itself (``commands`` alone: the write side)
MAY_IMPORT: dict[str, frozenset[str]] = {
    "ledger": frozenset(),
    "projections": frozenset({"ledger"}),
    "replay": frozenset({"ledger", "projections"}),
    "commands": frozenset({"ledger", "projections", "replay"}),
    "commands.reads": frozenset({"ledger", "projections", "replay", "commands"}),
    "commands.text": frozenset({"ledger", "projections", "replay", "commands", "commands.reads"}),
}
BELOW_FACES = frozenset({*MAY_IMPORT["commands.text"], "commands.text"})
MAX_LINES = 400


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def imported(name: str, path: Path) -> Iterator[str]:
    """Our modules that ``name`` imports (a package's module when ``from pkg import mod``)."""
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([node.module] if node.module else [])])
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]  # fmt: skip
        else:
            continue
        yield from (t for t in targets if t in known)


@cache
def graph() -> dict[str, frozenset[str]]:
    return {name: frozenset(imported(name, path)) - {name} for name, path in modules().items()}


def room(module: str) -> str:
    """The room a module lives in: a face, ``commands.reads``, ``commands.text``, the
    write side ``commands``, or a top-level package."""
    for folder in (*FACES, "commands.reads", "commands.text"):
        if module == folder or module.startswith(folder + "."):
            return folder
    return module.split(".")[0]


def test_arrows_run_only_downward() -> None:
    upward = []
    for module, targets in graph().items():
        here = room(module)
        allowed = MAY_IMPORT.get(here, BELOW_FACES | set(FACES))
        upward += [f"{module} -> {t}" for t in sorted(targets)
                   if room(t) != here and room(t) not in allowed]  # fmt: skip
    assert not upward, "\n".join(upward)


def circles(g: dict[str, frozenset[str]]) -> list[str]:
    """Every circle a depth-first walk of ``g`` finds, as ``a -> b -> a``."""
    found: list[str] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for target in sorted(g.get(node, ())):
            if state.get(target) == 1:
                found.append(" -> ".join([*path[path.index(target) :], target]))
            elif target not in state:
                visit(target, [*path, target])
        state[node] = 2

    for node in sorted(g):
        if node not in state:
            visit(node, [node])
    return found


def test_no_rooms_import_each_other_round_a_loop() -> None:
    rooms: dict[str, set[str]] = {}
    for module, targets in graph().items():
        rooms.setdefault(room(module), set()).update(room(t) for t in targets)
    loops = circles({r: frozenset(seen - {r}) for r, seen in rooms.items()})
    assert not loops, "\n".join(loops)


def test_no_module_imports_itself_round_a_circle() -> None:
    found = circles(graph())
    assert not found, "\n".join(found)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_over_400_lines(package: str) -> None:
    long = {n: len(p.read_text().splitlines()) for n, p in modules().items()
            if n.split(".")[0] == package}  # fmt: skip
    assert not {n: k for n, k in long.items() if k > MAX_LINES}


def test_the_write_side_is_at_most_25_modules() -> None:
    write_side = sorted(n for n in modules() if room(n) == "commands" and n != "commands")
    assert len(write_side) <= 25, write_side
