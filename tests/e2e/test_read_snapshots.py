"""The JSON of every read of every golden log is byte for byte what it was when the
snapshots in ``tests/fixtures/reads/`` were written (``tests/read_snapshots.py``): a
change to the house keeps behaviour."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from tests.read_snapshots import GOLDEN, collect, snapshot_path


@pytest.mark.parametrize("store", GOLDEN, ids=[f"{p.parent.name}/{p.stem}" for p in GOLDEN])
def test_every_read_of_a_golden_log_gives_the_bytes_it_gave(store: Path) -> None:
    expected: dict[str, str] = orjson.loads(snapshot_path(store).read_bytes())
    got = collect(store)
    assert list(got) == list(expected), "the same reads, in the same order"
    changed = [key for key in expected if got[key] != expected[key]]
    assert not changed, f"{len(changed)} reads changed, first: {changed[0]}\n{got[changed[0]]}"
