"""Penalties (swu-1.4 §4.6.2, §6; lcg-2.1d "Sanctions"): a warning is only recorded; a game
loss after the match gives the opponent a game in the match just finished; a match loss
records or corrects the match as lost 0-2; a disqualification penalty disqualifies; point
deductions exist in lcg-2.1d only."""

from __future__ import annotations

import re
from typing import Any

import pytest

from commands.errors import InvalidCommand, RuleViolation, UnknownPlayer, WrongPhase
from commands.models import parse_command
from ledger.events import MatchResult, PlayerDisqualified
from projections.standings import standings
from tests.builders import Given, pair, report, start
from tests.unit.discipline_steps import (
    AT,
    corrected,
    disqualify,
    forfeit,
    games,
    issued,
    match,
    penalty,
    points,
    records,
    running,
    then,
)


def test_warning_is_only_recorded_swu14_4_6_2() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(penalty("p1", 1, "warning", "slow play")),
         issued("p1", 1, "warning", "slow play"))  # fmt: skip
    assert match(given, 1, "p1", "p2").result == games(2, 1)


def test_game_loss_while_the_match_is_in_progress_records_only_the_penalty_swu14_4_6_2() -> None:
    """The reported result then counts the game (before game 1: game 2 is the first game)."""
    given = running()
    then(given.apply(penalty("p1", 1, "game_loss")), issued("p1", 1, "game_loss"))
    assert match(given, 1, "p1", "p2").status == "pending"


@pytest.mark.parametrize(
    ("reported", "penalized", "after"),
    [
        ({"games": [2, 1], "draws": 0}, "p1", games(1, 2)),  # both would have 2: 2-1 -> 1-2
        ({"games": [2, 0], "draws": 0}, "p1", games(2, 1)),  # the winner still wins 2-1
        ({"games": [1, 1], "draws": 1}, "p1", games(1, 2, draws=1)),  # a drawn match lost
        ({"games": [1, 1], "draws": 1}, "p2", games(2, 1, draws=1)),
        ({"games": [1, 0], "draws": 0}, "p2", games(2, 0)),  # time, 1-0: 2-0
        ({"intentional_draw": True}, "p1", games(0, 1)),
    ],
)
def test_game_loss_after_the_match_gives_the_opponent_a_game_in_the_match_just_finished_swu14_6(
    reported: dict[str, Any], penalized: str, after: MatchResult
) -> None:
    given = running()
    given.apply(report(1, "p1", "p2", **reported))
    before = match(given, 1, "p1", "p2").result
    then(given.apply(penalty(penalized, 1, "game_loss")),
         issued(penalized, 1, "game_loss"),
         corrected("p1", "p2", after, before, "game loss: marked cards"))  # fmt: skip
    assert match(given, 1, "p1", "p2").result == after


def test_game_loss_after_the_match_follows_the_paired_order_not_the_report_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p2", "p1", games=[0, 2], draws=0))
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", games(2, 1), games(2, 0), "game loss: marked cards"))  # fmt: skip


def test_game_loss_to_the_loser_of_a_2_0_match_changes_no_result_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    then(given.when(penalty("p2", 1, "game_loss")), issued("p2", 1, "game_loss"))


def test_game_loss_after_a_bo1_match_loses_the_match_swu14_6() -> None:
    given = running(format="bo1")
    given.apply(report(1, "p1", "p2", games=[1, 0], draws=0))
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", games(0, 1), games(1, 0), "game loss: marked cards"))  # fmt: skip


def test_lcg_game_loss_after_the_match_gives_the_opponent_the_first_game_lcg_sanctions() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "draw"]))
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", MatchResult(game_results=("p2", "draw")),
                   MatchResult(game_results=("p1", "draw")),
                   "game loss: marked cards"))  # fmt: skip


def test_game_loss_found_during_the_next_round_corrects_and_pairings_stand_swu14_5_8() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    given.apply(report(1, "p3", "p4", games=[2, 1], draws=0))
    given.apply(pair(["p1", "p3"], ["p2", "p4"]))
    given.apply(start())
    then(given.when(penalty("p1", 1, "game_loss")),
         issued("p1", 1, "game_loss"),
         corrected("p1", "p2", games(1, 2), games(2, 1), "game loss: marked cards",
                   timing="next_round_started"))  # fmt: skip


def test_match_loss_while_the_match_is_in_progress_records_it_lost_0_2() -> None:
    given = running()
    then(given.apply(penalty("p2", 1, "match_loss", "bribery")),
         issued("p2", 1, "match_loss", "bribery"),
         forfeit("p1", "p2", games(2, 0), "match loss: bribery"))  # fmt: skip
    assert match(given, 1, "p1", "p2").status == "confirmed"


def test_match_loss_after_the_result_corrects_it_to_0_2() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(penalty("p1", 1, "match_loss", "bribery")),
         issued("p1", 1, "match_loss", "bribery"),
         corrected("p1", "p2", games(0, 2), games(2, 1), "match loss: bribery"))  # fmt: skip
    assert records(given)["p2"] == (1, 0, 0)


def test_match_loss_to_a_player_who_lost_0_2_changes_no_result() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    then(given.when(penalty("p2", 1, "match_loss")), issued("p2", 1, "match_loss"))


def test_loss_penalty_to_a_player_with_a_bye_records_only_the_penalty() -> None:
    given = running(["p1", "p2"], ["p3"])
    then(given.when(penalty("p3", 1, "match_loss")), issued("p3", 1, "match_loss"))


def test_disqualification_penalty_disqualifies_and_forfeits_the_open_match_swu14_4_6_2() -> None:
    given = running()
    then(given.apply(penalty("p4", 1, "disqualification", "theft")),
         issued("p4", 1, "disqualification", "theft"),
         PlayerDisqualified(**AT, player="p4", reason="disqualification: theft"),
         forfeit("p3", "p4", games(2, 0), "disqualified"))  # fmt: skip
    assert given.state.players["p4"].disqualified


def test_disqualification_penalty_for_a_disqualified_player_is_refused_rules_common() -> None:
    given = running()
    given.apply(disqualify("p4"))
    with pytest.raises(WrongPhase, match="is disqualified already"):
        given.when(penalty("p4", 1, "disqualification", "theft"))


def lcg_round_one() -> Given:
    """lcg-2.1d: p1 beats p2 6:0, p3 and p4 share 3:3."""
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "p1"]))
    given.apply(report(1, "p3", "p4", game_results=["p3", "p4"]))
    return given


def test_point_deduction_lowers_points_and_the_opponents_sos_lcg_sanctions() -> None:
    given = lcg_round_one()
    then(given.apply(penalty("p1", 1, "point_deduction", "unsporting conduct", points=2)),
         issued("p1", 1, "point_deduction", "unsporting conduct", points=2))  # fmt: skip
    rows = {s.player: s.scores for s in standings(given.state)}
    assert rows["p1"].points == 4
    assert rows["p2"].tiebreakers["sos"] == 4
    assert rows["p1"].record.wins == 1 and rows["p1"].record.losses == 0  # no match lost


def test_point_deductions_add_up_lcg_sanctions() -> None:
    given = lcg_round_one()
    given.apply(penalty("p1", 1, "point_deduction", "late", points=1))
    given.apply(penalty("p1", 1, "point_deduction", "late again", points=1.5))
    assert points(given)["p1"] == 3.5


def test_point_deduction_is_refused_in_swu14_lcg_sanctions() -> None:
    with pytest.raises(RuleViolation, match=re.escape("swu-1.4 has no point deductions")):
        running().when(penalty("p1", 1, "point_deduction", points=2))


@pytest.mark.parametrize(("kind", "extra"), [("warning", {"points": 2}), ("point_deduction", {})])
def test_points_go_with_a_point_deduction_and_only_with_it(
    kind: str, extra: dict[str, Any]
) -> None:
    with pytest.raises(InvalidCommand, match="points go with a point_deduction"):
        running(rules="lcg-2.1d").when(penalty("p1", 1, kind, **extra))


def test_point_deduction_of_zero_points_is_an_input_error() -> None:
    with pytest.raises(InvalidCommand, match="points: Input should be greater than 0"):
        parse_command(penalty("p1", 1, "point_deduction", points=0))


def test_penalty_for_a_round_not_paired_yet_is_refused() -> None:
    with pytest.raises(WrongPhase, match="round 2 is not paired yet"):
        running().when(penalty("p1", 2, "warning"))


def test_penalty_for_an_unknown_player_is_refused() -> None:
    with pytest.raises(UnknownPlayer, match="'p9'"):
        running().when(penalty("p9", 1, "warning"))
