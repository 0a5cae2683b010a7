"""What a mirror's held reports ask of every store (memory, SQLite, PostgreSQL): a
report held once under its id, the reports of a tournament in the order they came (of
one status, of one code), and the venue's first answer to a pending report kept."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from ledger.store import RelayedEntry, Store
from ledger.url import open_store
from tests.stores import KINDS, store_url

AT = datetime(2026, 11, 28, 9, tzinfo=UTC)


@pytest.fixture(params=["memory", *KINDS])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    url = (f"memory://{uuid.uuid4().hex}" if request.param == "memory"
           else store_url(request.param, tmp_path, "relayed.sqlite3"))  # fmt: skip
    opened = open_store(url)
    try:
        yield opened
    finally:
        opened.close()


def held(t: str, n: int, code: str, seconds: float) -> RelayedEntry:
    return RelayedEntry(f"relay-{t}-{n}", t, code, f'{{"n": {n}}}', AT + timedelta(seconds=seconds))


def test_reports_are_held_once_in_the_order_they_came_and_settled_once(store: Store) -> None:
    t = f"r-{uuid.uuid4().hex[:8]}"
    late, early, other = held(t, 1, "a" * 64, 2.5), held(t, 2, "b" * 64, 1), held(t, 3, "a" * 64, 3)
    assert store.hold_relayed(late) and store.hold_relayed(early) and store.hold_relayed(other)
    assert not store.hold_relayed(RelayedEntry(late.id, t, "c" * 64, "{}", AT))
    assert store.relayed(t) == [early, late, other]
    assert store.relayed(t, code_hash="a" * 64) == [late, other]
    assert store.relayed(t + "x") == []
    done = store.settle_relayed(t, late.id, "applied", 14, None, AT)
    assert done is not None and (done.status, done.seq, done.settled_at) == ("applied", 14, AT)
    refused = store.settle_relayed(t, early.id, "refused", None, "confirmed already", AT)
    assert refused is not None and refused.reason == "confirmed already"
    again = store.settle_relayed(t, late.id, "refused", None, "late", AT)
    assert again == done, "a settled report keeps the venue's first answer"
    assert store.settle_relayed(t + "x", late.id, "applied", 1, None, AT) is None
    assert store.settle_relayed(t, "relay-none", "applied", 1, None, AT) is None
    assert store.relayed(t, status="pending") == [other]
    assert [e.status for e in store.relayed(t)] == ["refused", "applied", "pending"]
