"""swu-1.0 (Star Wars: Unlimited Tournament Regulations v1.0): options and results, Swiss
and elimination.

Every worked example of RULES.md "swu-1.0" is reproduced here and in
``test_ruleset_swu10_standings.py``; sections cited are those of regulations/003 (v1.0).
"""

from __future__ import annotations

import re

import pytest

from projections.errors import InvalidOptions, InvalidResult
from projections.rulesets import ruleset
from projections.rulesets.base import Outcome
from projections.rulesets.swu_1_0 import Swu10
from tests.unit.swu10_event import BO1, BO3, result

# -- registry and options -------------------------------------------------------------


def test_registry_builds_swu10_with_document_defaults_bo3_competitive() -> None:
    rules = ruleset("swu-1.0")
    assert isinstance(rules, Swu10)
    assert rules.options == {"format": "bo3", "tier": "competitive"}
    assert rules.tiebreaker_keys == ("wl", "owl", "oowl")


def test_format_and_tier_options_take_the_documented_values_only_2_2_and_4_2_4_3() -> None:
    assert Swu10({"format": "bo1", "tier": "casual"}).options["format"] == "bo1"
    with pytest.raises(InvalidOptions, match="'format' must be one of 'bo3', 'bo1'"):
        Swu10({"format": "bo5"})
    with pytest.raises(InvalidOptions, match="'tier' must be one of"):
        Swu10({"tier": "premier"})


def test_melee_compat_option_belongs_to_swu14_and_is_refused_here() -> None:
    with pytest.raises(InvalidOptions, match=r"swu-1\.0 has no option 'compat'"):
        Swu10({"compat": "melee.gg"})


# -- §4.2.2 single game match resolution ---------------------------------------------------


def test_bo1_time_out_without_a_winner_is_a_loss_for_both_players_4_2_2() -> None:
    first, second = BO1.outcomes(("p1", "p2"), result(games=(0, 0), draws=1))
    assert (first.result, second.result) == ("loss", "loss")
    assert (first.points, second.points) == (0, 0)
    assert BO1.winner(("p1", "p2"), result(games=(0, 0), draws=1)) is None


def test_bo1_game_won_is_the_match_won_4_2_2() -> None:
    first, second = BO1.outcomes(("p1", "p2"), result(games=(0, 1), draws=0))
    assert (first.result, second.result) == ("loss", "win")
    assert (first.points, second.points) == (0, 1)


@pytest.mark.parametrize(
    ("games", "draws"), [((1, 1), 0), ((1, 0), 1), ((0, 0), 0), ((0, 0), 2), ((2, 0), 0)]
)
def test_bo1_result_must_be_exactly_one_game_4_2(games: tuple[int, int], draws: int) -> None:
    with pytest.raises(InvalidResult, match=r"single game match: it is one game.*§4\.2\.2"):
        BO1.validate_result(("p1", "p2"), result(games=games, draws=draws), "swiss")


# -- §4.3.2 best-of-three match resolution -----------------------------------------------


@pytest.mark.parametrize(
    ("games", "draws"),
    [((1, 1), 0), ((1, 1), 1), ((0, 0), 1), ((0, 0), 3)],
    ids=["between-games", "during-game-3", "during-game-1", "after-drawn-games"],
)
def test_bo3_time_with_equal_game_wins_is_a_loss_for_both_players_4_3_2(
    games: tuple[int, int], draws: int
) -> None:
    BO3.validate_result(("p1", "p2"), result(games=games, draws=draws), "swiss")
    first, second = BO3.outcomes(("p1", "p2"), result(games=games, draws=draws))
    assert (first.result, second.result) == ("loss", "loss")
    assert (first.points, second.points) == (0, 0)


def test_bo3_time_with_more_game_wins_wins_the_match_4_3_2() -> None:
    first, second = BO3.outcomes(("p1", "p2"), result(games=(1, 0), draws=1))
    assert (first.result, first.points, second.result, second.points) == ("win", 1, "loss", 0)


def test_bo3_drawn_game_counts_for_nobody_and_play_continues_4_3_2() -> None:
    first, second = BO3.outcomes(("p1", "p2"), result(games=(2, 1), draws=1))
    assert first == Outcome("p2", "win", 1, games_won=2, games_lost=1, games_drawn=1)
    assert second == Outcome("p1", "loss", 0, games_won=1, games_lost=2, games_drawn=1)


def test_double_loss_result_is_a_loss_for_both_players_4_2_2_and_4_3_2() -> None:
    BO3.validate_result(("p1", "p2"), result(double_loss=True), "swiss")
    first, second = BO3.outcomes(("p1", "p2"), result(double_loss=True))
    assert first == Outcome("p2", "loss", 0)
    assert second == Outcome("p1", "loss", 0)


@pytest.mark.parametrize("games", [(2, 2), (3, 0), (0, 3)])
def test_bo3_game_wins_above_two_are_refused_4_3_2(games: tuple[int, int]) -> None:
    with pytest.raises(InvalidResult, match=r"impossible in Bo3.*2 game wins, swu-1\.0 §4\.3\.2"):
        BO3.validate_result(("p1", "p2"), result(games=games, draws=0), "swiss")


def test_bo3_result_without_any_game_points_to_the_double_loss_shape() -> None:
    with pytest.raises(InvalidResult, match=re.escape('report {"double_loss": true}')):
        BO3.validate_result(("p1", "p2"), result(games=(0, 0), draws=0), "swiss")


def test_double_loss_must_be_true_when_given() -> None:
    with pytest.raises(InvalidResult, match="double_loss must be true"):
        BO3.validate_result(("p1", "p2"), result(double_loss=False), "swiss")


def test_intentional_draw_is_refused_because_v1_0_has_no_draws() -> None:
    with pytest.raises(
        InvalidResult, match=r"swu-1\.0 does not take.*intentional_draw.*double_loss"
    ):
        BO3.validate_result(("p1", "p2"), result(intentional_draw=True), "swiss")


def test_victory_point_and_lcg_result_shapes_are_refused() -> None:
    with pytest.raises(InvalidResult, match="does not take a result with fields"):
        BO3.validate_result(("p1", "p2"), result(points=(100, 50)), "swiss")
    with pytest.raises(InvalidResult, match="does not take a result with fields"):
        BO3.validate_result(("p1", "p2"), result(game_results=("p1", "p1")), "swiss")


def test_winner_in_swiss_is_refused_since_a_level_match_is_a_double_loss_4_3_2() -> None:
    level = result(games=(1, 1), draws=1, winner="p2", decided_by="base_hp")
    with pytest.raises(InvalidResult, match=r"in Swiss such a match is a loss for both"):
        BO3.validate_result(("p1", "p2"), level, "swiss")


# -- elimination (§4.1.3, §4.3.2; level matches decided at the table) --------------------


def test_elimination_match_level_on_game_wins_needs_a_winner() -> None:
    with pytest.raises(InvalidResult, match="needs a winner and decided_by"):
        BO3.validate_result(("p1", "p2"), result(games=(1, 1), draws=1), "elimination")


def test_elimination_level_match_is_won_by_the_named_winner() -> None:
    level = result(games=(1, 1), draws=1, winner="p2", decided_by="initiative")
    BO3.validate_result(("p1", "p2"), level, "elimination")
    assert BO3.winner(("p1", "p2"), level) == "p2"


def test_elimination_winner_must_be_decided_by_base_hp_or_initiative() -> None:
    salvo = result(games=(1, 1), draws=0, winner="p1", decided_by="final_salvo")
    with pytest.raises(InvalidResult, match="decided_by must be base_hp or initiative"):
        BO3.validate_result(("p1", "p2"), salvo, "elimination")


def test_elimination_winner_is_refused_when_the_games_already_decide_the_match() -> None:
    decided = result(games=(2, 1), draws=0, winner="p1", decided_by="base_hp")
    with pytest.raises(InvalidResult, match="only for an elimination match level on game wins"):
        BO3.validate_result(("p1", "p2"), decided, "elimination")


def test_elimination_winner_must_be_a_player_of_the_match() -> None:
    stranger = result(games=(1, 1), draws=0, winner="p9", decided_by="base_hp")
    with pytest.raises(InvalidResult, match="winner 'p9' is not a player of this match"):
        BO3.validate_result(("p1", "p2"), stranger, "elimination")


def test_double_loss_is_refused_in_elimination_4_1_3() -> None:
    with pytest.raises(InvalidResult, match=r"Swiss rounds only.*§4\.1\.3"):
        BO3.validate_result(("p1", "p2"), result(double_loss=True), "elimination")


def test_elimination_is_best_of_three_even_in_a_single_game_event_4_1_3() -> None:
    BO1.validate_result(("p1", "p2"), result(games=(2, 1), draws=0), "elimination")
    with pytest.raises(InvalidResult, match="single game match"):
        BO1.validate_result(("p1", "p2"), result(games=(2, 1), draws=0), "swiss")
