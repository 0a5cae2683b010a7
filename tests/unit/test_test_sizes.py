"""Test modules stay small enough to read: no module under tests/ is over 400 lines, the
same limit the product code keeps (``test_architecture.py``). A module that grows past it
is split by concept, its shared steps moved to a helper module beside it."""

from __future__ import annotations

from pathlib import Path

MAX_LINES = 400
TESTS = Path(__file__).resolve().parents[1]


def test_no_test_module_is_over_400_lines() -> None:
    sizes = {str(p.relative_to(TESTS)): len(p.read_text().splitlines())
             for p in sorted(TESTS.rglob("*.py"))}  # fmt: skip
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
