"""Intentional draws (swu-1.4 §4.4): agreed only before the first game of the match begins,
and in Swiss rounds only."""

from __future__ import annotations

import re
from typing import Any

import pytest

from commands.errors import InvalidCommand, RuleViolation
from ledger.events import MatchResult, ResultReported
from projections.errors import InvalidResult
from projections.rulesets import ruleset
from tests.builders import pair, report, start
from tests.unit.discipline_steps import (
    AT,
    append_events,
    as_actor,
    deck_check,
    elimination_round,
    match,
    penalty,
    points,
    records,
    running,
    then,
)

INTENTIONAL_DRAW: dict[str, Any] = {"intentional_draw": True}


def test_intentional_draw_before_any_game_is_recorded_swu14_4_4() -> None:
    given = running()
    then(given.apply(report(1, "p1", "p2", **INTENTIONAL_DRAW)),
         ResultReported(**AT, round=1, players=("p1", "p2"),
                        result=MatchResult(intentional_draw=True)))  # fmt: skip
    assert records(given)["p1"] == (0, 0, 1) and points(given)["p2"] == 1


def test_intentional_draw_after_a_deck_check_before_game_1_is_allowed_swu14_4_4() -> None:
    given = running()
    given.apply(deck_check("p1", 1, "before_game_1"))
    [event] = given.when(report(1, "p1", "p2", **INTENTIONAL_DRAW))
    assert isinstance(event, ResultReported) and event.result.intentional_draw


def test_intentional_draw_agreed_by_both_players_self_reports_swu14_4_4() -> None:
    given = running()
    given.apply(as_actor(report(1, "p1", "p2", **INTENTIONAL_DRAW), "player", "p1"))
    given.apply(as_actor(report(1, "p2", "p1", **INTENTIONAL_DRAW), "player", "p2"))
    assert match(given, 1, "p1", "p2").status == "confirmed"


@pytest.mark.parametrize(
    "before",
    [
        penalty("p2", 1, "game_loss"),
        deck_check("p1", 1, "between_games"),
        deck_check("p1", 1, "after_match"),
        deck_check("p1", 1, "before_game_1", "illegal"),  # a game loss before game 1
        as_actor(report(1, "p1", "p2", games=[1, 0], draws=0), "player", "p1"),
    ],
    ids=["game_loss", "deck_check_between_games", "deck_check_after_match",
         "illegal_deck_before_game_1", "a_game_reported"],
)  # fmt: skip
def test_intentional_draw_after_the_first_game_began_is_refused_swu14_4_4(
    before: dict[str, Any],
) -> None:
    given = running()
    given.apply(before)
    with pytest.raises(RuleViolation, match=r"only before the first game begins \(swu-1.4 §4.4\)"):
        given.when(as_actor(report(1, "p2", "p1", **INTENTIONAL_DRAW), "player", "p2"))


def test_game_loss_of_an_earlier_round_does_not_block_an_intentional_draw_swu14_4_4() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    given.apply(penalty("p1", 1, "game_loss", "late"))
    given.apply(pair(["p1", "p3"], ["p2", "p4"]))
    given.apply(start())
    [event] = given.when(report(2, "p1", "p3", **INTENTIONAL_DRAW))
    assert isinstance(event, ResultReported)


def test_intentional_draw_is_refused_in_elimination_by_the_ruleset_swu14_4_4() -> None:
    with pytest.raises(InvalidResult, match=re.escape("Swiss rounds only, swu-1.4 §4.4")):
        ruleset("swu-1.4", {}).validate_result(
            ("p1", "p2"), MatchResult(intentional_draw=True), "elimination"
        )


def test_intentional_draw_in_an_elimination_round_is_an_input_error_swu14_4_4() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 0], draws=0))
    append_events(given, elimination_round(2, ("p1", "p3")))
    given.apply(start())
    with pytest.raises(InvalidCommand, match=re.escape("Swiss rounds only, swu-1.4 §4.4")):
        given.when(report(2, "p1", "p3", **INTENTIONAL_DRAW))
