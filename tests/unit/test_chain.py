"""The hash chain: every event commits to all before it (design: Integrity)."""

from __future__ import annotations

import itertools

import pytest

from ledger.chain import GENESIS, verify_chain
from ledger.errors import ChainBroken
from ledger.events import dumps, loads
from tests.builders import Given, create, register


def log() -> list:  # type: ignore[type-arg]
    return [r.event for r in Given(create(), *register("p1", "p2", "p3")).log]


def test_chain_starts_at_genesis_and_links_each_event_to_the_previous() -> None:
    events = log()
    assert events[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(events))
    assert verify_chain("t1", events) == events[-1].hash


def test_chain_survives_a_round_trip_through_stored_bytes() -> None:
    events = [loads(dumps(e)) for e in log()]
    assert verify_chain("t1", events) == events[-1].hash


def test_a_rewritten_event_is_named_by_its_seq() -> None:
    events = log()
    events[2] = events[2].model_copy(update={"player": "p9"})
    with pytest.raises(ChainBroken, match="seq 3"):
        verify_chain("t1", events)


def test_a_removed_event_breaks_the_chain_at_the_next_seq() -> None:
    events = log()
    del events[1]
    with pytest.raises(ChainBroken, match="seq 2"):
        verify_chain("t1", events)
