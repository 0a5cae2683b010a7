"""The Round and Results pages' read of the current round (``commands.reads.roundtables``,
``commands.reads.next_step``): the round lifecycle's steps (pair, start, results, next), each
table with its result state, the hand editor, and the tables waiting for a result,
all from the read layer, so the console's templates compute no rule."""

from __future__ import annotations

import uuid
from datetime import timedelta

from commands.handler import Handler
from commands.reads.cache import Query, ReadSide
from commands.reads.models import Pairings, Status
from commands.reads.next_step import next_step
from commands.reads.roundtables import editor_rows, hand_editor, round_steps, seated_tables
from commands.reads.views import registered_names
from ledger.url import open_store
from tests.console.judge_event import NAMES, T, judge_event, send


def event() -> Handler:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    judge_event(handler)
    return handler


def read(handler: Handler, *, late: bool = False) -> tuple[Status, Pairings]:
    now = handler.state(T).rounds[-1].started_at
    at = now + timedelta(minutes=80 if late else 5) if now is not None else None
    status, pairings = (e.model for e in ReadSide(handler).current(
        T, [Query("status"), Query("pairings")], at))  # fmt: skip
    assert isinstance(status, Status) and isinstance(pairings, Pairings)
    return status, pairings


def test_a_round_under_way_may_be_neither_paired_again_nor_started() -> None:
    status, _ = read(event())
    steps = round_steps(status)
    assert (steps.pair, steps.by_hand, steps.start, steps.from_bracket) == (
        False, False, False, False)  # fmt: skip


def test_before_round_1_the_round_is_paired_automatically_or_by_hand() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    send(handler, type="create_tournament", name="Showdown", ruleset="swu-1.4")
    status = ReadSide(handler).get(T, Query("status")).model
    assert isinstance(status, Status)
    steps = round_steps(status)
    assert steps.pair and steps.by_hand and not steps.start and not steps.from_bracket


def test_each_table_carries_its_names_and_the_state_of_its_result() -> None:
    status, pairings = read(event())
    seated = {t.table: t for t in seated_tables(status, pairings)}
    assert seated[1].state == "disputed" and seated[1].names == [NAMES["p1"], NAMES["p2"]]
    assert seated[2].state == "unconfirmed" and seated[4].state == "missing"


def test_the_tables_waiting_are_counted_missing_disputed_and_over_time() -> None:
    handler = event()
    waiting = next_step(read(handler)[0])
    assert [t.table for t in waiting.waiting] == [1, 2, 3, 4]
    assert (waiting.missing, waiting.disputed, waiting.over_time) == (3, 1, 0)
    late = next_step(read(handler, late=True)[0])  # swu-1.4 §4.2.1: a Bo3 round is 55 min
    assert late.over_time == 4


def test_the_hand_editor_offers_every_player_by_name_and_checks_the_rows_given() -> None:
    handler = event()
    given = {"a1": "p1", "b1": "p2"}

    def editor(state: object) -> object:
        names = registered_names(handler.store.players(T), handler.state(T).teams)
        return hand_editor(state, names, given)  # type: ignore[arg-type]

    shown = handler.read(T, editor)
    assert len(shown.rows) == 4 and shown.rows[0] == ["p1", "p2"]  # type: ignore[attr-defined]
    assert shown.players[0] == ("p1", NAMES["p1"])  # type: ignore[attr-defined]
    assert any(w.kind == "rematch" for w in shown.check.warnings)  # type: ignore[attr-defined]


def test_blank_editor_rows_are_skipped_and_a_lone_player_is_a_bye() -> None:
    given = {"a1": "p1", "b1": "p2", "a2": "", "b2": "", "a3": "p3", "b3": ""}
    assert editor_rows(given, 3) == [["p1", "p2"], ["p3"]]
