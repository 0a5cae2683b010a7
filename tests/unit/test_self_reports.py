"""Players' self-reports: matching reports confirm each other, an unconfirmed report does
not count in standings, conflicting ones stay disputed (the next round cannot be paired)
until a judge reports, and a player may change their own report."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import WrongPhase
from ledger.events import Actor, ResultReported, RoundPaired
from tests.builders import report
from tests.unit.discipline_steps import (
    AT,
    as_actor,
    auto_pair,
    games,
    match,
    records,
    running,
    then,
)


def self_report(reporter: str, a: str, b: str, wins: list[int]) -> dict[str, Any]:
    return as_actor(report(1, a, b, games=wins, draws=0), "player", reporter)


def test_matching_self_reports_confirm_each_other() -> None:
    given = running()
    given.apply(self_report("p1", "p1", "p2", [2, 1]))
    given.apply(self_report("p2", "p2", "p1", [1, 2]))  # the same result, told the other way
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert records(given)["p1"] == (1, 0, 0)


def test_unconfirmed_self_report_does_not_count_in_standings() -> None:
    given = running()
    then(given.apply(self_report("p1", "p1", "p2", [2, 0])),
         ResultReported(**{**AT, "actor": Actor(role="player", id="p1")}, round=1,
                        players=("p1", "p2"), result=games(2, 0)))  # fmt: skip
    assert match(given, 1, "p1", "p2").status == "unconfirmed"
    assert records(given)["p1"] == (0, 0, 0)


def test_conflicting_self_reports_stay_disputed_until_a_judge_reports_round_lifecycle() -> None:
    given = running()
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    given.apply(self_report("p1", "p1", "p2", [2, 1]))
    given.apply(self_report("p2", "p1", "p2", [1, 2]))
    assert match(given, 1, "p1", "p2").status == "disputed"
    assert records(given)["p1"] == (0, 0, 0) and records(given)["p2"] == (0, 0, 0)
    with pytest.raises(WrongPhase, match="round 1 is not complete"):
        given.when(auto_pair())
    given.apply(as_actor(report(1, "p1", "p2", games=[1, 2], draws=0), "judge", "j1"))
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert records(given)["p2"] == (1, 0, 0)
    assert isinstance(given.when(auto_pair())[0], RoundPaired)


def test_player_changing_their_self_report_settles_a_dispute() -> None:
    given = running()
    given.apply(self_report("p1", "p1", "p2", [2, 1]))
    given.apply(self_report("p2", "p1", "p2", [1, 2]))
    given.apply(self_report("p1", "p1", "p2", [1, 2]))  # the latest report of each player counts
    assert match(given, 1, "p1", "p2").status == "confirmed"
    assert match(given, 1, "p1", "p2").result == games(1, 2)
