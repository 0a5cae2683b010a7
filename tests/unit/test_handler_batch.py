"""Commands handled as one append (``Handler.handle_batch``, behind ``register --csv``):
each decided against the state the earlier ones leave, all appended with one expected
version and their registry entries, or nothing at all."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import pytest

from commands.errors import DuplicatePlayer, WrongPhase
from commands.handler import BatchRefused, Handler
from commands.idempotency import CommandIdReused
from commands.models import Command, parse_command
from ledger.errors import ConcurrencyConflict
from ledger.events import PlayerRegistered
from ledger.store import ListEntry, PlayerEntry, Recorded, Store
from ledger.url import open_store
from tests.builders import create, register


class CountingStore:
    """A store that counts appends and can lose the first ``conflicts`` races."""

    def __init__(self, store: Store, conflicts: int = 0) -> None:
        self.store, self.appends, self.conflicts = store, 0, conflicts

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def append(self, tournament: str, events: Sequence[Any], expected_version: int,
               players: Sequence[PlayerEntry] = (),
               lists: Sequence[ListEntry] = ()) -> list[Recorded]:  # fmt: skip
        self.appends += 1
        if self.conflicts:
            self.conflicts -= 1
            raise ConcurrencyConflict(tournament, expected_version)
        return self.store.append(tournament, events, expected_version, players, lists)


def handler_with(conflicts: int = 0) -> tuple[Handler, CountingStore]:
    store = CountingStore(open_store(f"memory://{uuid.uuid4().hex}"))
    handler = Handler(store)  # type: ignore[arg-type]
    handler.handle(parse_command(create()))
    store.appends, store.conflicts = 0, conflicts
    return handler, store


def commands(*players: str, **extra: Any) -> list[Command]:
    return [parse_command({**c, **extra}) for c in register(*players)]


def test_a_batch_is_one_append_with_every_registry_entry() -> None:
    handler, store = handler_with()
    outcome = handler.handle_batch(commands("p1", "p2", "p3"))
    assert store.appends == 1
    assert [r.seq for r in outcome.recorded] == [2, 3, 4]
    assert all(isinstance(r.event, PlayerRegistered) for r in outcome.recorded)
    assert {p: e.name for p, e in store.players("t1").items()} == {
        "p1": "P1", "p2": "P2", "p3": "P3"}  # fmt: skip
    assert handler.folds.state("t1").seq == 4


def test_a_refused_command_names_its_index_and_nothing_is_appended() -> None:
    handler, store = handler_with()
    handler.handle(parse_command(register("p2")[0]))
    with pytest.raises(BatchRefused) as refused:
        handler.handle_batch(commands("p1", "p2", "p3"))
    assert refused.value.index == 1 and isinstance(refused.value.error, DuplicatePlayer)
    assert handler.folds.state("t1").seq == 2 and set(store.players("t1")) == {"p2"}
    assert set(handler.folds.state("t1").players) == {"p2"}  # the cached fold is untouched


def test_each_command_is_decided_against_the_state_the_earlier_ones_leave() -> None:
    handler, _ = handler_with()
    with pytest.raises(BatchRefused) as refused:
        handler.handle_batch(commands("p1", "p2", "p1"))
    assert refused.value.index == 2 and "'p1' is registered already" in str(refused.value)
    assert handler.folds.state("t1").seq == 1


def test_a_batch_retried_with_its_command_ids_appends_nothing_more() -> None:
    handler, _ = handler_with()
    batch = [parse_command({**c, "command_id": f"row-{c['player']}"})
             for c in register("p1", "p2")]  # fmt: skip
    assert len(handler.handle_batch(batch).recorded) == 2
    assert handler.handle_batch(batch).recorded == []
    renamed = parse_command({**register("p1")[0], "name": "Other", "command_id": "row-p1"})
    with pytest.raises(BatchRefused) as refused:
        handler.handle_batch([renamed])
    assert isinstance(refused.value.error, CommandIdReused)
    assert handler.folds.state("t1").seq == 3


def test_a_lost_race_is_decided_again_and_appended_once() -> None:
    handler, store = handler_with(conflicts=1)
    outcome = handler.handle_batch(commands("p1", "p2"))
    assert store.appends == 2 and [r.seq for r in outcome.recorded] == [2, 3]


def test_a_batch_for_an_unknown_tournament_is_refused_at_its_first_command() -> None:
    handler, _ = handler_with()
    with pytest.raises(BatchRefused) as refused:
        handler.handle_batch(commands("p1", tournament="t2"))
    assert refused.value.index == 0 and "unknown tournament 't2'" in str(refused.value)


def test_a_batch_after_the_finish_is_refused() -> None:
    handler, _ = handler_with()
    handler.handle(parse_command({"type": "finish_tournament", "tournament": "t1"}))
    with pytest.raises(BatchRefused) as refused:
        handler.handle_batch(commands("p1"))
    assert isinstance(refused.value.error, WrongPhase)


def test_a_batch_holds_commands_of_one_tournament() -> None:
    handler, _ = handler_with()
    with pytest.raises(ValueError, match="one tournament"):
        handler.handle_batch([*commands("p1"), *commands("p2", tournament="t2")])
