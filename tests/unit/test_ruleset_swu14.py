"""swu-1.4: scoring, tiebreakers and tables, with every worked example of RULES.md."""

from __future__ import annotations

import pytest

from ledger.events import MatchResult
from projections.errors import InvalidResult
from projections.rulesets import Outcome, ruleset
from projections.rulesets.swu_1_4 import Swu14
from projections.standings import standings
from tests.builders import Given, create, pair, register, report, start

RULES = Swu14()


def won(opp: str = "x", points: float = 3, gw: int = 2, gl: int = 0, gd: int = 0) -> Outcome:
    return Outcome(opp, "win", points, gw, gl, gd)


def lost(opp: str = "x") -> Outcome:
    return Outcome(opp, "loss", 0, 0, 2)


def drew(opp: str = "x") -> Outcome:
    return Outcome(opp, "draw", 1, 1, 1, 1)


def test_match_win_pct_of_a_3_2_1_record_is_10_of_18_swu14_5_7_1() -> None:
    outcomes = [won(), won(), won(), lost(), lost(), drew()]
    assert RULES.match_win_pct(outcomes) == pytest.approx(10 / 18)
    assert round(RULES.match_win_pct(outcomes) * 100) == 56


def test_omw_of_opponents_at_50_and_100_percent_is_75_percent_swu14_5_7_1_1() -> None:
    records = {
        "a": [won("b"), lost("c")],
        "b": [lost("a"), won("z")],  # 1-1-0: 50%
        "c": [won("a"), won("z")],  # 2-0-0: 100%
        "z": [lost("b"), lost("c")],
    }
    assert RULES.scores(records)["a"].tiebreakers["omw"] == pytest.approx(0.75)


def test_game_win_pct_of_8_wins_7_losses_3_draws_is_50_percent_swu14_5_7_1() -> None:
    outcomes = [Outcome("x", "win", 3, 8, 7, 3)]
    assert RULES.game_win_pct(outcomes) == pytest.approx(27 / 54) == pytest.approx(0.5)


def test_ogw_of_opponents_at_80_and_60_percent_is_70_percent_swu14_5_7_1_3() -> None:
    records = {
        "a": [Outcome("b", "loss", 0, 0, 2), Outcome("c", "loss", 0, 0, 2)],
        "b": [
            Outcome("a", "win", 3, 2, 0),
            Outcome("z", "win", 3, 2, 1, 0),
            Outcome("y", "win", 3, 4, 1, 0),
        ],  # 8 of 10 games: 80%
        "c": [Outcome("a", "win", 3, 2, 0), Outcome("z", "loss", 0, 1, 2)],  # 3 of 5: 60%
        "z": [],
        "y": [],
    }
    scores = RULES.scores(records)
    assert scores["b"].tiebreakers["gw"] == pytest.approx(0.8)
    assert scores["c"].tiebreakers["gw"] == pytest.approx(0.6)
    assert scores["a"].tiebreakers["ogw"] == pytest.approx(0.7)


def test_percentages_below_33_percent_count_as_one_third_swu14_5_7() -> None:
    records = {"a": [lost("b"), lost("c")], "b": [won("a")], "c": [won("a")]}
    scores = RULES.scores(records)
    assert RULES.match_win_pct(records["a"]) == 1 / 3
    assert scores["a"].tiebreakers["gw"] == 1 / 3  # the player's own GW% is floored too
    assert scores["b"].tiebreakers["omw"] == 1 / 3


def test_bye_is_a_2_0_win_for_gw_but_not_an_opponent_swu14_5_7_convention() -> None:
    bye = RULES.bye()
    assert (bye.opponent, bye.result, bye.points, bye.games_won) == (None, "win", 3, 2)
    records = {"a": [bye, lost("b")], "b": [won("a")]}
    scores = RULES.scores(records)
    assert scores["a"].tiebreakers["omw"] == 1.0  # only b counts
    assert scores["a"].tiebreakers["gw"] == pytest.approx(0.5)  # 2-0 bye plus 0-2 loss
    assert Swu14({"format": "bo1"}).bye().games_won == 1


def test_player_without_a_match_has_every_tiebreaker_zero() -> None:
    assert RULES.scores({"late": []})["late"].tiebreakers == {"omw": 0.0, "gw": 0.0, "ogw": 0.0}


def test_drawn_game_is_worth_one_point_by_the_document_and_zero_on_melee_gg() -> None:
    outcomes = [Outcome("x", "draw", 1, 1, 1, 1)]
    assert RULES.game_win_pct(outcomes) == pytest.approx(4 / 9)
    assert Swu14({"compat": "melee.gg"}).game_win_pct(outcomes) == pytest.approx(3 / 9)


def test_intentional_draw_is_a_drawn_match_without_games_or_three_drawn_games_on_melee() -> None:
    result = MatchResult(intentional_draw=True)
    first, _ = RULES.outcomes(("a", "b"), result)
    assert (first.result, first.points, first.games_drawn) == ("draw", 1, 0)
    first, _ = Swu14({"compat": "melee.gg"}).outcomes(("a", "b"), result)
    assert first.games_drawn == 3


def test_bo3_equal_game_wins_at_time_draw_the_swiss_match_swu14_4_3_2() -> None:
    first, second = RULES.outcomes(("a", "b"), MatchResult(games=(1, 1), draws=1))
    assert (first.result, second.result, first.points) == ("draw", "draw", 1)


def test_bo1_time_out_without_a_winner_is_a_draw_swu14_4_2_2() -> None:
    bo1 = Swu14({"format": "bo1"})
    bo1.validate_result(("a", "b"), MatchResult(games=(0, 0), draws=1), "swiss")
    first, _ = bo1.outcomes(("a", "b"), MatchResult(games=(0, 0), draws=1))
    assert first.result == "draw"


def test_elimination_match_level_on_games_needs_the_table_decision_swu14_4_3_2() -> None:
    level = MatchResult(games=(1, 1), draws=1)
    with pytest.raises(InvalidResult, match="base_hp or initiative"):
        RULES.validate_result(("a", "b"), level, "elimination")
    decided = MatchResult(games=(1, 1), draws=1, winner="b", decided_by="base_hp")
    RULES.validate_result(("a", "b"), decided, "elimination")
    assert RULES.winner(("a", "b"), decided) == "b"


def test_table_decision_is_refused_in_swiss_swu14_4_3_2() -> None:
    decided = MatchResult(games=(1, 1), draws=1, winner="b", decided_by="initiative")
    with pytest.raises(InvalidResult, match="only for an elimination match"):
        RULES.validate_result(("a", "b"), decided, "swiss")


def test_intentional_draw_is_refused_in_elimination_swu14_4_4() -> None:
    with pytest.raises(InvalidResult, match=r"Swiss rounds only, swu-1\.4 §4\.4"):
        RULES.validate_result(("a", "b"), MatchResult(intentional_draw=True), "elimination")


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [(3, 2, 0), (4, 2, 0), (5, 3, 0), (8, 3, 0), (9, 4, 4), (16, 4, 4), (17, 5, 8), (32, 5, 8),
     (33, 6, 8), (64, 6, 8), (65, 7, 8), (128, 7, 8), (129, 8, 8), (227, 8, 8), (228, 9, 8),
     (409, 9, 8), (410, 9, 8), (600, 10, 8), (2048, 11, 8), (5000, 12, 8)],
)  # fmt: skip
def test_rounds_and_top_cut_by_players_at_round_one_swu14_4_5(
    players: int, rounds: int, cut: int
) -> None:
    assert (RULES.rounds_planned(players), RULES.cut_size(players)) == (rounds, cut)


def test_top_cut_only_at_competitive_tier_swu14_4_5() -> None:
    assert Swu14({"tier": "casual"}).cut_size(64) == 0


def test_explicit_rounds_and_cut_always_win() -> None:
    rules = ruleset("swu-1.4", {"rounds": 2, "cut": 0})
    assert (rules.rounds_planned(100), rules.cut_size(100)) == (2, 0)


def test_late_registration_does_not_change_rounds_planned_swu14_4_5() -> None:
    given = Given(create(), *register("p1", "p2", "p3", "p4"), pair(["p1", "p2"], ["p3", "p4"]))
    for p in ("p5", "p6", "p7", "p8", "p9"):
        given.apply(register(p)[0])
    assert given.state.round1_players == 4
    assert ruleset("swu-1.4").rounds_planned(given.state.round1_players) == 2


def tied_field(seed: int) -> list[str]:
    players = [f"p{i}" for i in range(1, 9)]
    given = Given(create(seed=seed), *register(*players))
    given.apply(pair(*[players[i : i + 2] for i in range(0, 8, 2)]))
    given.apply(start())
    for i in range(0, 8, 2):
        given.apply(report(1, players[i], players[i + 1], games=[1, 1], draws=1))
    return [s.player for s in standings(given.state)]


def test_random_last_tiebreaker_is_fixed_by_the_recorded_seed_swu14_5_7() -> None:
    assert tied_field(1) == tied_field(1)
    assert tied_field(1) != tied_field(2)
