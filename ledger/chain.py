"""The per-tournament hash chain.

Each event's ``hash`` is SHA-256 over its canonical bytes (sorted keys, the
``hash`` field left out, ``prev_hash`` included), so every event commits to the
whole history before it. The head hash printed with standings lets an organizer
publish a value an auditor can later check the log against.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import TypeVar

import orjson

from ledger.errors import ChainBroken
from ledger.events import EventBase, dumps, loads, to_json

GENESIS = "0" * 64

E = TypeVar("E", bound=EventBase)


def canonical_bytes(event: EventBase) -> bytes:
    """The bytes that are hashed: the event's JSON, sorted keys, without ``hash``."""
    data = to_json(event)
    data.pop("hash", None)
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def compute_hash(event: EventBase) -> str:
    return hashlib.sha256(canonical_bytes(event)).hexdigest()


def seal(events: Iterable[E], prev_hash: str) -> list[E]:
    """Link new events onto a chain whose head is ``prev_hash``."""
    sealed: list[E] = []
    for event in events:
        linked = event.model_copy(update={"prev_hash": prev_hash, "hash": ""})
        prev_hash = compute_hash(linked)
        sealed.append(linked.model_copy(update={"hash": prev_hash}))
    return sealed


def verify_chain(
    tournament: str, events: Sequence[EventBase], prev: str = GENESIS, first_seq: int = 1
) -> str:
    """Recompute the chain; return the head hash or raise naming the first bad seq."""
    for seq, event in enumerate(events, start=first_seq):
        if event.prev_hash != prev:
            raise ChainBroken(tournament, seq, "prev_hash does not match the previous event")
        if compute_hash(event) != event.hash:
            raise ChainBroken(tournament, seq, "hash does not match the event's bytes")
        prev = event.hash
    return prev


def verify_stored(tournament: str, stored: Sequence[tuple[int, int, bytes]]) -> str:
    """Check stored bytes as an auditor would: seqs without gaps, every event readable
    and in its canonical form, every hash and link right. Returns the head hash or
    raises ChainBroken naming the first bad seq."""
    prev = GENESIS
    for expected, (seq, _, data) in enumerate(stored, start=1):
        if seq != expected:
            raise ChainBroken(tournament, expected, f"event missing (next stored is seq {seq})")
        try:
            event = loads(data)
        except ValueError as exc:
            raise ChainBroken(tournament, seq, f"stored bytes unreadable: {exc}") from None
        if dumps(event) != data:
            raise ChainBroken(
                tournament, seq, "stored bytes differ from the event's canonical form"
            )
        if event.tournament != tournament:
            raise ChainBroken(tournament, seq, f"event belongs to tournament {event.tournament!r}")
        verify_chain(tournament, [event], prev=prev, first_seq=seq)
        prev = event.hash
    return prev
