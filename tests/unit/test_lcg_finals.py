"""lcg-2.1d "Finalrunden": sides in final games and the count at time, with the examples."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ledger.events import MatchResult
from projections.errors import InvalidResult
from projections.rulesets.lcg_2_1d import Lcg21d
from projections.rulesets.lcg_finals import Sides, assign_sides, dark_side_count, light_side_count
from tests.unit.test_bracket import cut_event


def test_count_at_time_marco_beats_michelle_8_7_to_8_65_lcg_zeitablauf() -> None:
    marco = light_side_count(objectives=2, damage_on_dark=7, balance=False)
    michelle = dark_side_count(dial=10, damage_on_light=4, balance=True)
    assert (marco, michelle) == (Fraction(87, 10), Fraction(865, 100))
    assert marco > michelle


@pytest.mark.parametrize(("dial", "points"), [(0, 0), (3, 0), (4, 4), (7, 4), (8, 8), (11, 8)])
def test_death_star_dial_counts_in_steps_lcg_zeitablauf(dial: int, points: int) -> None:
    assert dark_side_count(dial, 0, False) == points


def test_larger_difference_takes_the_least_played_side_lcg_finalrunden_example() -> None:
    """Marco 1 light 2 dark, Michelle 1 light 3 dark: Michelle plays light."""
    counts = {"marco": (1, 2), "michelle": (1, 3)}
    assert assign_sides("marco", "michelle", counts) == Sides("michelle", None)


def test_better_placed_player_chooses_in_the_first_final_round_lcg_finalrunden() -> None:
    assert assign_sides("a", "b", {}) == Sides(None, "a")


def test_each_plays_the_side_played_least_lcg_finalrunden() -> None:
    assert assign_sides("a", "b", {"a": (1, 0), "b": (0, 1)}) == Sides("b", None)
    assert assign_sides("a", "b", {"a": (0, 1), "b": (1, 1)}) == Sides("a", None)


def test_equal_difference_lets_the_better_placed_player_choose_lcg_finalrunden() -> None:
    assert assign_sides("a", "b", {"a": (0, 1), "b": (0, 1)}) == Sides(None, "a")


def test_final_pairings_show_who_chooses_and_then_who_plays_light() -> None:
    event = cut_event(4, "lcg-2.1d")
    seeds = event.seeds()
    event.do(type="pair_round")
    first = event.state.current
    assert first is not None
    assert {m.chooses_side for m in first.matches} == {seeds[0], seeds[1]}
    event.do(type="start_round")
    for m in first.matches:
        winner = min(m.players, key=seeds.index)
        event.do(type="report_result", round=first.number, players=list(m.players),
                 result={"game_results": [winner], "light": winner})  # fmt: skip
    event.do(type="pair_round")
    second = event.state.current
    assert second is not None
    upper = next(m for m in second.matches if m.bracket == "upper" or m.bracket == "final")
    assert upper.light is None and upper.chooses_side == seeds[0]  # both played light once
    lower = next(m for m in second.matches if m.bracket == "lower")
    assert lower.chooses_side == min(lower.players, key=seeds.index)


def test_light_and_time_count_are_taken_only_in_final_games() -> None:
    rules = Lcg21d()
    with pytest.raises(InvalidResult, match="final games only"):
        rules.validate_result(("a", "b"), MatchResult(game_results=("a", "a"), light="a"), "swiss")
    timed = MatchResult(game_results=("b",), light="a", decided_by="time_count")
    rules.validate_result(("a", "b"), timed, "elimination")
    with pytest.raises(InvalidResult, match="time_count"):
        wrong = MatchResult(game_results=("b",), decided_by="base_hp")
        rules.validate_result(("a", "b"), wrong, "elimination")
