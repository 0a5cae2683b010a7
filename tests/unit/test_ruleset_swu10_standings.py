"""swu-1.0 (Star Wars: Unlimited Tournament Regulations v1.0): byes, standings in the
§5.6 order on a hand-computed event, and the tables of rounds and top cut (§4.2.3, §4.3.3).

Sections cited are those of regulations/003 (v1.0).
"""

from __future__ import annotations

import pytest

from projections.rulesets.base import Outcome, Record
from projections.rulesets.swu_1_0 import Swu10
from projections.standings import standings
from projections.state import TournamentState
from tests.builders import by_player, state_of
from tests.unit.swu10_event import BO1, BO3, created, registered, round_of

# -- byes (§4.1.1) ---------------------------------------------------------------


def test_bye_is_a_won_match_worth_one_point_4_1_1() -> None:
    assert BO3.bye() == Outcome(None, "win", 1, games_won=2)
    assert BO1.bye() == Outcome(None, "win", 1, games_won=1)


def test_bye_counts_as_a_won_match_in_the_ratio_but_is_not_an_opponent_4_1_1() -> None:
    records = {
        "p1": [BO3.bye(), Outcome("p2", "loss", 0)],
        "p2": [Outcome("p1", "win", 1)],
    }
    scores = BO3.scores(records)
    assert scores["p1"].tiebreakers == {"wl": 0.5, "owl": 1.0, "oowl": 0.5}
    assert scores["p1"].points == 1
    assert scores["p1"].record == Record(wins=1, losses=1, draws=0)


def test_player_with_only_a_bye_has_no_opponent_ratio() -> None:
    scores = BO3.scores({"p1": [BO3.bye()]})
    assert scores["p1"].tiebreakers == {"wl": 1.0, "owl": 0.0, "oowl": 0.0}


def test_dropped_opponent_counts_with_the_record_they_finished_with() -> None:
    """p2 lost to p1 in round 1 and dropped: their 0-1 stays in p1's owl."""
    records = {
        "p1": [Outcome("p2", "win", 1), Outcome("p3", "win", 1)],
        "p2": [Outcome("p1", "loss", 0)],
        "p3": [Outcome("p4", "win", 1), Outcome("p1", "loss", 0)],
        "p4": [Outcome("p3", "loss", 0), BO3.bye()],
    }
    assert BO3.scores(records)["p1"].tiebreakers["owl"] == (0.0 + 0.5) / 2


def test_unpaired_missed_round_is_not_a_match_played() -> None:
    missed = Outcome(None, "loss", 0, unpaired=True)
    scores = BO3.scores({"p1": [BO3.bye(), missed]})
    assert scores["p1"].tiebreakers["wl"] == 1.0


def test_player_without_a_match_has_every_tiebreaker_zero() -> None:
    assert BO3.scores({"p1": []})["p1"].tiebreakers == {"wl": 0.0, "owl": 0.0, "oowl": 0.0}


# -- standings: the §5.6 order, on a hand-computed event ------------------------------


def five_player_event() -> TournamentState:
    """Five players, Bo3, two rounds with a bye each round and one double loss.

    R1: A beats B 2-0; C and D level 1-1 at time (double loss, §4.3.2); E bye.
    R2: E beats A 2-1; B beats D 2-0; C bye.
    """
    return state_of(
        created(),
        registered("A", "B", "C", "D", "E"),
        round_of(
            1, ("A", "B"), ("C", "D"), ("E",),
            results={("A", "B"): {"games": (2, 0), "draws": 0},
                     ("C", "D"): {"games": (1, 1), "draws": 0}},
        ),
        round_of(
            2, ("E", "A"), ("B", "D"), ("C",),
            results={("A", "E"): {"games": (1, 2), "draws": 0},
                     ("D", "B"): {"games": (0, 2), "draws": 0}},
        ),
    )  # fmt: skip


def test_standings_order_by_win_loss_ratio_then_opponents_ratios_5_6() -> None:
    rows = standings(five_player_event())
    assert [s.player for s in rows] == ["E", "A", "B", "C", "D"]
    assert [s.scores.points for s in rows] == [2, 1, 1, 1, 0]


def test_tiebreakers_match_the_hand_computed_ratios_without_a_floor_5_6() -> None:
    """wl: A 1/2, B 1/2, C 1/2 (bye won, double loss), D 0/2, E 2/2.

    owl (mean over opponents, byes excluded): A (B .5 + E 1)/2 = .75;
    B (A .5 + D 0)/2 = .25; C D 0 = 0 (no 33% floor in v1.0); D (C .5 + B .5)/2
    = .5; E A .5. oowl (mean of the opponents' owl): A (.25 + .5)/2 = .375;
    B (.75 + .5)/2 = .625; C .5; D (0 + .25)/2 = .125; E .75.
    """
    rows = by_player(standings(five_player_event()))
    expected = {
        "A": (0.5, 0.75, 0.375),
        "B": (0.5, 0.25, 0.625),
        "C": (0.5, 0.0, 0.5),
        "D": (0.0, 0.5, 0.125),
        "E": (1.0, 0.5, 0.75),
    }
    for player, (wl, owl, oowl) in expected.items():
        assert rows[player].scores.tiebreakers == {"wl": wl, "owl": owl, "oowl": oowl}


def test_record_never_has_draws_even_after_a_time_double_loss_4_3_2() -> None:
    rows = by_player(standings(five_player_event()))
    assert rows["C"].scores.record == Record(wins=1, losses=1, draws=0)
    assert rows["D"].scores.record == Record(wins=0, losses=2, draws=0)
    assert all(s.scores.record.draws == 0 for s in rows.values())


def test_bo1_time_out_in_a_folded_event_gives_both_players_a_loss_4_2_2() -> None:
    state = state_of(
        created({"format": "bo1", "tier": "casual"}),
        registered("p1", "p2"),
        round_of(1, ("p1", "p2"), results={("p1", "p2"): {"games": (0, 0), "draws": 1}}),
    )
    rows = by_player(standings(state))
    for player in ("p1", "p2"):
        assert rows[player].scores.points == 0
        assert rows[player].scores.record == Record(wins=0, losses=1, draws=0)
        assert rows[player].scores.tiebreakers == {"wl": 0.0, "owl": 0.0, "oowl": 0.0}


def test_ratio_leads_so_three_and_zero_ranks_above_four_and_one_4_1_1() -> None:
    """§4.1.1 ranks by the highest win/loss ratio, not by the number of wins."""
    records = {
        "x": [BO3.bye(), BO3.bye(), BO3.bye()],
        "y": [BO3.bye(), BO3.bye(), BO3.bye(), BO3.bye(), Outcome("z", "loss", 0)],
        "z": [Outcome("y", "win", 1)],
    }
    scores = BO3.scores(records)
    assert scores["y"].points > scores["x"].points
    assert scores["x"].key > scores["y"].key


def test_ratios_are_unrounded_fractions_5_6() -> None:
    records = {
        "p1": [Outcome("p2", "win", 1), Outcome("p3", "loss", 0), Outcome("p4", "loss", 0)],
        "p2": [Outcome("p1", "loss", 0)],
        "p3": [Outcome("p1", "win", 1)],
        "p4": [Outcome("p1", "win", 1)],
    }
    scores = BO3.scores(records)
    assert scores["p1"].tiebreakers["wl"] == 1 / 3
    assert scores["p1"].tiebreakers["owl"] == 2 / 3
    assert scores["p2"].tiebreakers == {"wl": 0.0, "owl": 1 / 3, "oowl": 2 / 3}


def test_scores_key_is_the_three_ratios_in_order_5_6() -> None:
    tiebreakers = by_player(standings(five_player_event()))["A"].scores.tiebreakers
    key = by_player(standings(five_player_event()))["A"].scores.key
    assert key == (tiebreakers["wl"], tiebreakers["owl"], tiebreakers["oowl"]) == (0.5, 0.75, 0.375)


# -- rounds and top cut (§4.2.3, §4.3.3) -----------------------------------------------

ROUND_BOUNDARIES = [
    (4, 3), (8, 3), (9, 4), (16, 4), (17, 5), (32, 5), (33, 6), (64, 6), (65, 7), (128, 7),
    (129, 8), (256, 8), (257, 9), (512, 9), (513, 10), (1024, 10), (1025, 11), (2048, 11),
    (2049, 12), (10_000, 12),
]  # fmt: skip
CUT_BOUNDARIES = [
    (4, 0), (8, 0), (9, 4), (16, 4), (17, 4), (32, 4), (33, 8), (64, 8), (65, 8), (128, 8),
    (129, 16), (256, 16), (257, 16), (512, 16), (513, 32), (1024, 32), (1025, 32), (2048, 32),
    (2049, 64), (10_000, 64),
]  # fmt: skip


@pytest.mark.parametrize(("players", "rounds"), ROUND_BOUNDARIES)
def test_single_game_rounds_follow_the_table_at_its_boundaries_4_2_3(
    players: int, rounds: int
) -> None:
    assert BO1.rounds_planned(players) == rounds


@pytest.mark.parametrize(("players", "rounds"), ROUND_BOUNDARIES)
def test_best_of_three_rounds_are_the_same_as_single_game_4_3_3(players: int, rounds: int) -> None:
    assert BO3.rounds_planned(players) == rounds


@pytest.mark.parametrize(("players", "cut"), CUT_BOUNDARIES)
def test_best_of_three_top_cut_follows_the_table_at_its_boundaries_4_3_3(
    players: int, cut: int
) -> None:
    assert BO3.cut_size(players) == cut


@pytest.mark.parametrize("players", [8, 9, 64, 2049])
def test_single_game_events_have_no_top_cut_4_2_3(players: int) -> None:
    assert BO1.cut_size(players) == 0


def test_casual_tier_keeps_the_bo3_cut_table_since_v1_0_ties_it_to_format_4_3_3() -> None:
    assert Swu10({"tier": "casual"}).cut_size(33) == 8


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 2)])
def test_below_the_table_rounds_are_ceil_log2_of_the_players(players: int, rounds: int) -> None:
    assert BO3.rounds_planned(players) == rounds


def test_explicit_rounds_and_cut_always_win_over_the_table() -> None:
    rules = Swu10({"rounds": 5, "cut": 8})
    assert (rules.rounds_planned(300), rules.cut_size(300)) == (5, 8)
    assert Swu10({"format": "bo1", "cut": 4}).cut_size(20) == 4
