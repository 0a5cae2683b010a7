"""The read side's words for the desk: a report as a sentence in the table's order
(numbers first player first, a result without a count after the names), a table of a
round not yet started as "not started", and each ruleset's plan of rounds and cut by
players as contiguous rows that agree with the ruleset (swu-1.4 §4.5's table)."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

import pytest

from commands.reads.auditmodels import QueueReport
from commands.reads.judgequeue import report_sentence
from commands.reads.ruleset_options import PLAN_UP_TO, round_plan
from commands.reads.views import shown_state
from projections.rulesets import RULESETS, ruleset

NAMES = {"p1": "Ada", "p2": "Ben"}
AT = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


def report(result: dict[str, object], actor: str = "p1", role: str = "player") -> QueueReport:
    return QueueReport(seq=7, at=AT, role=role, actor=actor, result=result)


def test_a_report_reads_in_the_tables_order_with_the_reporter_named() -> None:
    said = report_sentence(report({"games": [0, 2], "draws": 0}, "p2"), ["p1", "p2"], NAMES)
    assert said == "Ada 0 – 2 Ben, reported by Ben"
    drawn = report_sentence(report({"games": [1, 1], "draws": 1}), ["p1", "p2"], NAMES)
    assert drawn == "Ada 1 – 1 Ben, 1 drawn, reported by Ada"
    points = report({"points": [150, 150], "winner": "p2", "decided_by": "final_salvo"})
    assert report_sentence(points, ["p1", "p2"], NAMES) == (
        "Ada 150 – 150 Ben, won by Ben, by final salvo, reported by Ada"
    )


def test_a_result_without_a_count_follows_the_names_and_an_official_is_named_by_role() -> None:
    no_show = report({"no_show": "p2"}, "j1", "judge")
    assert report_sentence(no_show, ["p1", "p2"], NAMES) == (
        "Ada v Ben, no-show: Ben, reported by the judge j1"
    )
    games = report({"game_results": ["p1", "draw"]})
    assert report_sentence(games, ["p1", "p2"], NAMES) == (
        "Ada v Ben, games: Ada, draw, reported by Ada"
    )


def test_a_table_reads_not_started_then_playing_then_missing_once_over_time() -> None:
    assert shown_state("missing", True, False) == "not started"
    assert shown_state("missing", False, False) == "playing"
    assert shown_state("missing", False, True) == "missing"
    assert shown_state("unconfirmed", False, False) == "unconfirmed"
    assert shown_state("confirmed", True, False) == "confirmed"


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_the_plan_covers_every_count_and_agrees_with_the_ruleset(ruleset_id: str) -> None:
    rows = round_plan(ruleset_id)
    assert rows[0].low == 2 and rows[-1].high == PLAN_UP_TO
    assert all(a.high + 1 == b.low for a, b in pairwise(rows))
    rules = ruleset(ruleset_id)
    for row in rows:
        for players in {row.low, row.high}:
            assert rules.rounds_planned(players) == row.rounds
            assert rules.cut_size(players) == row.cut


def test_the_swu_plan_is_the_table_of_the_regulation() -> None:
    rows = {(r.low, r.high): (r.rounds, r.cut) for r in round_plan("swu-1.4")}
    assert rows[(9, 16)] == (4, 4) and rows[(17, 32)] == (5, 8)
