"""The hash chain over stored bytes: every event commits to all before it."""

from __future__ import annotations

import itertools

import pytest

from ledger.chain import GENESIS, Sealed, check_stored, seal, verify_stored
from ledger.errors import ChainBroken
from tests.builders import Given, create, register
from tests.chains import verify_chain


def sealed() -> list[Sealed]:
    return seal([r.event for r in Given(create(), *register("p1", "p2", "p3")).log], GENESIS)


def rows(log: list[Sealed]) -> list[tuple[int, int, bytes]]:
    return [(seq, seq, s.data) for seq, s in enumerate(log, start=1)]


def test_chain_starts_at_genesis_and_links_each_event_to_the_previous() -> None:
    events = [s.event for s in sealed()]
    assert events[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(events))
    assert verify_chain("t1", events) == events[-1].hash


def test_stored_bytes_end_with_their_hash_and_verify_without_any_model() -> None:
    log = sealed()
    assert all(s.data.endswith(f',"hash":"{s.event.hash}"}}'.encode()) for s in log)
    assert verify_stored("t1", rows(log)) == log[-1].event.hash


def test_a_flipped_byte_is_named_by_its_seq() -> None:
    stored = rows(sealed())
    seq, pos, data = stored[2]
    stored[2] = (seq, pos, data.replace(b'"p2"', b'"p9"'))
    with pytest.raises(ChainBroken, match="integrity: seq 3: hash does not match"):
        verify_stored("t1", stored)


def test_a_removed_event_is_named_by_the_first_missing_seq() -> None:
    stored = rows(sealed())
    del stored[1]
    with pytest.raises(ChainBroken, match="integrity: seq 2: event missing"):
        verify_stored("t1", stored)


def test_two_swapped_events_break_the_link_at_the_first_of_them() -> None:
    stored = rows(sealed())
    (s2, p2, d2), (s3, p3, d3) = stored[1], stored[2]
    stored[1], stored[2] = (s2, p2, d3), (s3, p3, d2)
    with pytest.raises(ChainBroken, match="integrity: seq 2: prev_hash"):
        verify_stored("t1", stored)


def test_a_consistent_re_encoding_of_a_format_1_event_still_needs_its_hash() -> None:
    """Format 1 stored the model's field order with the hash inside; its body is the JSON
    re-encoded with sorted keys, so a changed value still fails at its seq."""
    stored = [(1, 1, b'{"tournament":"t1","prev_hash":"' + GENESIS.encode() + b'","hash":"'
               + b"0" * 64 + b'","type":"x"}')]  # fmt: skip
    with pytest.raises(ChainBroken, match="seq 1: hash does not match"):
        verify_stored("t1", stored)


def test_checking_after_a_seq_links_to_the_head_the_reader_holds() -> None:
    log = sealed()
    later = rows(log)[2:]
    assert [c.seq for c in check_stored("t1", later, after=2, head=log[1].event.hash)] == [3, 4]
    with pytest.raises(ChainBroken, match="seq 3: prev_hash"):
        list(check_stored("t1", later, after=2, head=log[0].event.hash))
