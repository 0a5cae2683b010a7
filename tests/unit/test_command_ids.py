"""Idempotent command ids that cannot be squatted: a client that retries a command after a
lost answer must not record it twice, and nobody else's id may swallow it.

A ``command_id`` is scoped to its tournament and its actor and bound to the
command's body: the same id with the same body returns the first outcome and
appends nothing, also to a handler that has no cached state; the same id with another
body is refused, naming the id; a new id is a new command.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from commands.errors import Refused
from commands.handler import Handler
from commands.idempotency import CommandIdReused
from commands.models import parse_command
from ledger.url import open_store
from tests.builders import create, register, report, start
from tests.unit.discipline_steps import drop, penalty

PLAYER_P1 = {"role": "player", "id": "p1"}
PLAYER_P2 = {"role": "player", "id": "p2"}


@pytest.fixture
def handler() -> Handler:
    h = Handler(open_store(f"memory://{uuid.uuid4().hex}"), seeds=lambda: 7)
    for command in [create(), *register("p1", "p2", "p3", "p4"),
                    {"type": "pair_round", "tournament": "t1",
                     "pairings": [["p1", "p2"], ["p3", "p4"]]}, start()]:  # fmt: skip
        h.handle(parse_command(command))
    return h


def run(handler: Handler, command: dict[str, Any]) -> list[int]:
    return [r.seq for r in handler.handle(parse_command(command)).recorded]


def test_the_same_id_with_the_same_body_returns_the_first_outcome(handler: Handler) -> None:
    body = {**report(1, "p1", "p2", games=[2, 0], draws=0), "command_id": "slip-1"}
    first = run(handler, body)
    assert run(Handler(handler.store), body) == first == [8]
    assert handler.folds.state("t1").seq == 8


def test_the_same_id_with_another_body_is_refused_naming_the_id(handler: Handler) -> None:
    run(handler, {**report(1, "p1", "p2", games=[2, 0], draws=0), "command_id": "slip-1"})
    other = {**report(1, "p3", "p4", games=[2, 1], draws=0), "command_id": "slip-1"}
    with pytest.raises(CommandIdReused, match="command_id 'slip-1' was used for a different"):
        run(handler, other)
    assert isinstance(CommandIdReused("x", 1), Refused)  # exit 1, HTTP 409
    assert handler.folds.state("t1").seq == 8


def test_a_player_who_guesses_an_organizers_id_cannot_swallow_the_organizers_command(
    handler: Handler,
) -> None:
    squatted = {**report(1, "p1", "p2", games=[0, 2], draws=0), "command_id": "org-7",
                "actor": PLAYER_P1}  # fmt: skip
    run(handler, squatted)
    organizer = {**report(1, "p3", "p4", games=[2, 0], draws=0), "command_id": "org-7"}
    assert run(handler, organizer) == [9]
    assert handler.folds.state("t1").round(1).match_of("p3", "p4").status == "confirmed"  # type: ignore[union-attr]


def test_two_actors_may_use_the_same_id_for_their_own_commands(handler: Handler) -> None:
    mine = {**report(1, "p1", "p2", games=[2, 0], draws=0), "command_id": "my-report"}
    assert run(handler, {**mine, "actor": PLAYER_P1}) == [8]
    assert run(handler, {**mine, "actor": PLAYER_P2}) == [9]
    assert run(handler, {**mine, "actor": PLAYER_P1}) == [8]


def test_a_retried_registration_under_another_name_is_refused_and_the_name_stays_out_of_the_log(
    handler: Handler,
) -> None:
    body = {**register("p9")[0], "name": "Ada Lovelace", "command_id": "reg-9"}
    assert run(handler, body) == [8]
    assert run(handler, body) == [8]
    with pytest.raises(CommandIdReused, match="reg-9"):
        run(handler, {**body, "name": "Grace Hopper"})
    assert handler.store.players("t1")["p9"].name == "Ada Lovelace"
    assert all(b"Ada" not in data for _, _, data in handler.store.load_raw("t1"))


def test_an_id_reused_in_another_tournament_is_another_command(handler: Handler) -> None:
    run(handler, {**register("p9")[0], "command_id": "c-1"})
    assert run(handler, {**create("t2"), "command_id": "c-1"}) == [1]


def test_the_same_command_id_twice_counts_once(handler: Handler) -> None:
    warning = parse_command({**penalty("p1", 1, "warning"), "command_id": "c-17"})
    first = handler.handle(warning)
    again = handler.handle(warning)
    assert again == first
    assert [r.event.type for r in first.recorded] == ["penalty_issued"]
    assert len(handler.store.load("t1")) == first.seq
    assert len(handler.folds.state("t1").players["p1"].penalties) == 1


def test_a_repeated_drop_returns_the_original_outcome_not_a_refusal(handler: Handler) -> None:
    dropped = parse_command(drop("p1", command_id="c-drop"))
    first = handler.handle(dropped)
    assert [r.event.type for r in first.recorded] == ["player_dropped", "result_reported"]
    fresh = Handler(handler.store)  # no cached state: the id is found in the stored log
    assert fresh.handle(dropped) == first
    assert len(handler.store.load("t1")) == first.seq


def test_a_new_command_id_is_a_new_command(handler: Handler) -> None:
    handler.handle(parse_command({**penalty("p1", 1, "warning"), "command_id": "c-1"}))
    handler.handle(parse_command({**penalty("p1", 1, "warning"), "command_id": "c-2"}))
    assert len(handler.folds.state("t1").players["p1"].penalties) == 2
