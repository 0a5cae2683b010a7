"""Rebuilding a tournament from its log: load, parse and fold, as fast as Python allows.

Parsing and folding a large event allocates hundreds of thousands of small
objects and no reference cycles worth collecting; the cyclic garbage collector
would walk them again and again (half the time of a 2,048-player replay). It
is paused while the log is rebuilt and resumed afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from ledger.store import Recorded, Store
from projections.state import TournamentState, fold
from replay.points import load_prefix


@contextmanager
def gc_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def rebuild(
    store: Store, tournament: str, point: str | None = None
) -> tuple[TournamentState, list[Recorded]]:
    """The fold of the tournament's events known at ``point`` (all of them by default),
    reading no more of the log than that prefix."""
    with gc_paused():
        events = load_prefix(store, tournament, point)
        return fold(events), events
