"""The Round and Results pages' read of the current round (``commands.reads.roundtables``,
``commands.reads.next_step``): the steps the tournament's lifecycle allows, each table with
its result state, the hand editor, and the tables waiting for a result, all from the
read layer, so the console's templates compute no rule."""

from __future__ import annotations

import uuid
from datetime import timedelta

from commands.handler import Handler
from commands.reads.cache import Query, ReadSide
from commands.reads.models import Pairings, Status
from commands.reads.next_step import NextSteps, next_step
from commands.reads.roundtables import editor_rows, hand_editor, round_steps, seated_tables
from commands.reads.views import registered_names
from ledger.url import open_store
from tests.console.judge_event import NAMES, T, judge_event, send


def event() -> Handler:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    judge_event(handler)
    return handler


def read(handler: Handler, *, late: bool = False) -> tuple[Status, Pairings, NextSteps]:
    state = handler.folds.state(T)
    now = state.rounds[-1].started_at if state.rounds else None
    at = now + timedelta(minutes=80 if late else 5) if now is not None else None
    status, pairings, steps = (e.model for e in ReadSide(handler.folds).current(
        T, [Query("status"), Query("pairings"), Query("lifecycle")], at))  # fmt: skip
    assert isinstance(status, Status) and isinstance(pairings, Pairings)
    assert isinstance(steps, NextSteps)
    return status, pairings, steps


def test_a_round_under_way_may_be_neither_paired_again_nor_started() -> None:
    steps = round_steps(read(event())[2].steps)
    assert (steps.pair, steps.by_hand, steps.start, steps.from_bracket) == (
        False, False, False, False)  # fmt: skip


def test_before_round_1_the_round_is_paired_automatically_or_by_hand() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    send(handler, type="create_tournament", name="Showdown", ruleset="swu-1.4")
    for player in ("p1", "p2"):
        send(handler, type="register_player", player=player, name=NAMES[player])
    steps = round_steps(read(handler)[2].steps)
    assert steps.pair and steps.by_hand and not steps.start and not steps.from_bracket
    assert not steps.assign_pods and not steps.deck_building, "a premier event"


def test_a_lone_player_is_not_paired_and_the_advice_says_to_register() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    send(handler, type="create_tournament", name="Showdown", ruleset="swu-1.4")
    send(handler, type="register_player", player="p1", name=NAMES["p1"])
    status, _, steps = read(handler)
    assert not round_steps(steps.steps).pair
    assert steps.steps.pair.reason == "1 eligible player(s): a round needs at least two"
    assert next_step(status, steps.steps).text == "Register the players"


def test_each_table_carries_its_names_and_the_state_of_its_result() -> None:
    status, pairings, _ = read(event())
    seated = {t.table: t for t in seated_tables(status, pairings)}
    assert seated[1].state == "disputed" and seated[1].names == [NAMES["p1"], NAMES["p2"]]
    assert seated[2].state == "unconfirmed" and seated[4].state == "playing"
    late = {t.table: t for t in seated_tables(*read(event(), late=True)[:2])}
    assert late[2].state == "unconfirmed" and late[4].state == "missing"


def test_the_tables_waiting_are_counted_playing_missing_disputed_and_over_time() -> None:
    handler = event()
    status, _, steps = read(handler)
    waiting = next_step(status, steps.steps)
    assert [t.table for t in waiting.waiting] == [1, 2, 3, 4]
    assert (waiting.playing, waiting.missing, waiting.disputed, waiting.over_time) == (
        2, 1, 1, 0)  # fmt: skip
    status, _, steps = read(handler, late=True)  # swu-1.4 §4.2.1: a Bo3 round is 55 min
    late = next_step(status, steps.steps)
    assert (late.playing, late.missing, late.disputed, late.over_time) == (0, 3, 1, 4)


def test_the_hand_editor_offers_every_player_by_name_and_checks_the_rows_given() -> None:
    handler = event()
    given = {"a1": "p1", "b1": "p2"}

    def editor(state: object) -> object:
        names = registered_names(handler.store.players(T), handler.folds.state(T).teams)
        return hand_editor(state, names, given)  # type: ignore[arg-type]

    shown = handler.folds.read(T, editor)
    assert len(shown.rows) == 4 and shown.rows[0] == ["p1", "p2"]  # type: ignore[attr-defined]
    assert shown.players[0] == ("p1", NAMES["p1"])  # type: ignore[attr-defined]
    assert any(w.kind == "rematch" for w in shown.check.warnings)  # type: ignore[attr-defined]


def test_blank_editor_rows_are_skipped_and_a_lone_player_is_a_bye() -> None:
    given = {"a1": "p1", "b1": "p2", "a2": "", "b2": "", "a3": "p3", "b3": ""}
    assert editor_rows(given, 3) == [["p1", "p2"], ["p3"]]
