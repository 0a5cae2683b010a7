"""A refusal that names waiting tables or players names at most ten, with the count:
a big event's refusal stays one readable line (and its 409 body small)."""

from __future__ import annotations

import pytest

from commands.errors import RuleViolation, WrongPhase
from projections.refusal import some_of
from tests.builders import Given, create, pair, register, report, start

#: 60 players, round 1 p1-p2, p3-p4, ... paired and started: 30 tables
PLAYERS = [f"p{i}" for i in range(1, 61)]


def running() -> Given:
    tables = [PLAYERS[i : i + 2] for i in range(0, len(PLAYERS), 2)]
    return Given(create(), *register(*PLAYERS), pair(*tables), start())


def test_some_of_names_ten_and_counts_the_rest() -> None:
    assert some_of([str(n) for n in range(21, 31)]) == "21, 22, 23, 24, 25, 26, 27, 28, 29, 30"
    assert some_of([str(n) for n in range(21, 257)]) == (
        "21, 22, 23, 24, 25, 26, 27, 28, 29, 30, ... and 226 more")  # fmt: skip


def test_pairing_while_many_tables_wait_names_the_count_and_the_first_ten() -> None:
    given = running()
    for i in range(0, 10, 2):  # tables 1 to 5 confirmed
        given.apply(report(1, PLAYERS[i], PLAYERS[i + 1], games=[2, 0], draws=0))
    with pytest.raises(WrongPhase) as refused:
        given.when({"type": "pair_round", "tournament": "t1"})
    first = ", ".join(f"table {n} (missing)" for n in range(6, 16))
    assert str(refused.value) == (
        "round 1 is not complete: 25 tables still need a confirmed result before the next "
        f"round is paired: {first}, ... and 15 more"
    )


def test_finishing_while_many_tables_wait_is_one_short_line() -> None:
    with pytest.raises(WrongPhase) as refused:
        running().when({"type": "finish_tournament", "tournament": "t1"})
    said = str(refused.value)
    assert said.startswith("round 1 is not complete: 30 tables still need a confirmed result")
    assert said.endswith("table 10 (missing), ... and 20 more") and len(said) < 400


def test_ten_waiting_tables_are_all_named_as_before() -> None:
    given = running()
    for i in range(0, 40, 2):  # 20 of 30 confirmed
        given.apply(report(1, PLAYERS[i], PLAYERS[i + 1], games=[2, 0], draws=0))
    with pytest.raises(WrongPhase) as refused:
        given.when({"type": "pair_round", "tournament": "t1"})
    assert str(refused.value) == (
        "round 1 is not complete: "
        + ", ".join(f"table {n} (missing)" for n in range(21, 31))
        + " still need a confirmed result before the next round is paired"
    )


def test_manual_pairings_missing_many_players_name_ten_of_them() -> None:
    given = Given(create(), *register(*PLAYERS))
    with pytest.raises(RuleViolation) as refused:
        given.when(pair(["p1", "p2"]))
    assert str(refused.value).endswith(
        "missing p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, ... and 48 more (drop a "
        "player first to leave them out)"
    )
