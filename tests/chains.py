"""Checks of event models' chains, for tests that hold models rather than stored bytes
(a store's log is checked by its bytes: ``ledger.chain.check_stored``)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from ledger.chain import GENESIS, body_of
from ledger.errors import ChainBroken
from ledger.events import EventBase


def verify_chain(
    tournament: str, events: Sequence[EventBase], prev: str = GENESIS, first_seq: int = 1
) -> str:
    """Check the links and hashes of event models (the models' own canonical bodies).

    For events sealed by this version; stored logs are checked by their bytes
    (:func:`check_stored`), which also holds for every older format.
    """
    for seq, event in enumerate(events, start=first_seq):
        if event.prev_hash != prev:
            raise ChainBroken(tournament, seq, "prev_hash does not match the previous event")
        if hashlib.sha256(body_of(event)).hexdigest() != event.hash:
            raise ChainBroken(tournament, seq, "hash does not match the event's bytes")
        prev = event.hash
    return prev
