"""xwing-2.0: the X-Wing 2.0 tournament regulation (German), section by section.

Sections are the document's headings: "Ende der Runde", "Finale Salve",
"Berechnung der Siegpunkte", "Turnierpunkte", "Höhe des Sieges", "Tiebreaker"
(Tabellenstärke), "Paarungen" (Freilos, ungepaarte Niederlage) and
"Turnierstrukturen". Worked examples are quoted from RULES.md and the document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ledger.events import MatchResult, Stage
from projections.errors import InvalidOptions, InvalidResult
from projections.rulesets import ruleset
from projections.rulesets.base import Outcome
from projections.rulesets.tiebreakers import strength_of_schedule
from projections.rulesets.xwing_2_0 import XWing20

PAIR = ("elly", "salvatore")


def rules(**options: Any) -> XWing20:
    return XWing20(options)


def outcomes(result: dict[str, Any], **options: Any) -> tuple[Outcome, Outcome]:
    return rules(**options).outcomes(PAIR, MatchResult(**result))


def check(result: dict[str, Any] | MatchResult, stage: Stage = "swiss", **options: Any) -> None:
    given = result if isinstance(result, MatchResult) else MatchResult(**result)
    rules(**options).validate_result(PAIR, given, stage)


# "Höhe des Sieges" and "Ende der Runde": the worked examples ----------------------


def test_ende_der_runde_example_elly_77_against_salvatore_49_scores_mov_128_and_72() -> None:
    elly, salvatore = outcomes({"points": [77, 49]})
    assert (elly.result, elly.mov) == ("win", 128)
    assert (salvatore.result, salvatore.mov) == ("loss", 72)


def test_hoehe_des_sieges_example_bastian_100_against_karo_24_scores_176_and_24() -> None:
    bastian, karo = XWing20().outcomes(("bastian", "karo"), MatchResult(points=(100, 24)))
    assert (bastian.result, bastian.mov) == ("win", 176)
    assert (karo.result, karo.mov) == ("loss", 24)


def test_hoehe_des_sieges_scales_with_squad_points_200_as_in_second_edition_events() -> None:
    elly, salvatore = outcomes({"points": [177, 49]}, squad_points=200)
    assert (elly.mov, salvatore.mov) == (328, 72)


def test_hoehe_des_sieges_is_the_base_for_both_players_on_equal_points() -> None:
    elly, salvatore = outcomes({"points": [40, 40], "winner": "salvatore"})
    assert (elly.mov, salvatore.mov) == (100, 100)


# "Turnierpunkte" ---------------------------------------------------------------


def test_turnierpunkte_a_win_scores_1_and_a_loss_0() -> None:
    elly, salvatore = outcomes({"points": [30, 62]})
    assert (elly.result, elly.points) == ("loss", 0)
    assert (salvatore.result, salvatore.points) == ("win", 1)


def test_each_outcome_names_the_opponent() -> None:
    elly, salvatore = outcomes({"points": [77, 49]})
    assert (elly.opponent, salvatore.opponent) == ("salvatore", "elly")


# "Finale Salve" ----------------------------------------------------------------


def test_finale_salve_the_named_winner_wins_a_game_tied_on_points() -> None:
    elly, salvatore = outcomes({"points": [55, 55], "winner": "elly", "decided_by": "final_salvo"})
    assert (elly.result, elly.points, salvatore.result) == ("win", 1, "loss")


def test_finale_salve_decides_a_mutual_destruction_both_lists_worth_the_whole() -> None:
    elly, _ = outcomes({"points": [100, 100], "winner": "elly", "decided_by": "final_salvo"})
    assert (elly.result, elly.mov) == ("win", 100)


def test_finale_salve_equal_points_without_a_winner_are_refused() -> None:
    with pytest.raises(InvalidResult, match="Finale Salve"):
        check({"points": [55, 55]})


def test_finale_salve_a_winner_is_refused_when_points_differ() -> None:
    with pytest.raises(InvalidResult, match="Ende der Runde"):
        check({"points": [56, 55], "winner": "salvatore"})


def test_finale_salve_decided_by_must_be_final_salvo() -> None:
    with pytest.raises(InvalidResult, match="final_salvo"):
        check({"points": [55, 55], "winner": "elly", "decided_by": "initiative"})


def test_finale_salve_the_winner_must_be_a_player_of_the_match() -> None:
    with pytest.raises(InvalidResult, match="not a player"):
        check({"points": [55, 55], "winner": "karo"})


# "Ende der Runde": Aufgabe (concession) -----------------------------------------


def test_aufgabe_the_conceding_player_loses_even_when_ahead_on_points() -> None:
    elly, salvatore = outcomes({"points": [80, 30], "concession": "elly"})
    assert (elly.result, salvatore.result) == ("loss", "win")


def test_aufgabe_counts_the_conceding_list_as_destroyed_so_the_winner_has_the_whole_list() -> None:
    elly, salvatore = outcomes({"points": [80, 30], "concession": "elly"})
    assert (salvatore.mov, elly.mov) == (100 + (100 - 80), 100 - (100 - 80))


def test_aufgabe_whole_list_value_scales_with_squad_points() -> None:
    elly, salvatore = outcomes({"points": [10, 150], "concession": "salvatore"}, squad_points=200)
    assert (elly.result, elly.mov, salvatore.mov) == ("win", 200 + 50, 200 - 50)


def test_aufgabe_on_equal_points_needs_no_final_salvo() -> None:
    check({"points": [20, 20], "concession": "salvatore"})


# "Berechnung der Siegpunkte": validation -----------------------------------------


def test_siegpunkte_are_never_negative() -> None:
    with pytest.raises(InvalidResult, match="negative"):
        check(MatchResult.model_construct(points=(-1, 40)))


def test_siegpunkte_above_the_whole_list_are_refused_in_swiss() -> None:
    with pytest.raises(InvalidResult, match="whole list"):
        check({"points": [101, 40]})


def test_siegpunkte_up_to_squad_points_are_taken() -> None:
    check({"points": [200, 0]}, squad_points=200)


def test_siegpunkte_are_not_bounded_above_in_elimination() -> None:
    check({"points": [300, 100]}, stage="elimination", squad_points=200)


def test_a_result_of_another_shape_is_refused() -> None:
    with pytest.raises(InvalidResult, match="does not take"):
        check({"games": [2, 1], "draws": 0})


def test_a_winner_and_a_concession_together_are_refused() -> None:
    with pytest.raises(InvalidResult, match="does not take"):
        check({"points": [20, 20], "winner": "elly", "concession": "salvatore"})


# "Paarungen": Freilos and ungepaarte Niederlage -----------------------------------


def test_paarungen_a_bye_is_a_win_with_mov_150() -> None:
    bye = XWing20().bye()
    assert (bye.result, bye.points, bye.mov, bye.is_bye) == ("win", 1, 150, True)


def test_paarungen_a_bye_is_worth_one_and_a_half_bases_at_squad_points_200() -> None:
    assert rules(squad_points=200).bye().mov == 300


def test_hoehe_des_sieges_a_won_bye_is_worth_two_bases_when_the_organizer_awards_it() -> None:
    assert (XWing20().won_bye().mov, rules(squad_points=200).won_bye().mov) == (200, 400)


def test_paarungen_a_dropped_player_may_ask_to_rejoin_the_same_stage() -> None:
    assert XWing20.rejoin_allowed


def test_paarungen_an_unpaired_loss_scores_nothing_and_has_no_opponent() -> None:
    loss = XWing20().unpaired_loss()
    assert (loss.result, loss.points, loss.mov, loss.opponent) == ("loss", 0, 0, None)
    assert not loss.is_bye


# "Tiebreaker": points, MoV, Tabellenstärke ----------------------------------------


def season(rules_: XWing20) -> dict[str, list[Outcome]]:
    """Three rounds of five players with byes and an unpaired loss.

    R1: A beats B, C beats D, E bye. R2: A beats E, C beats B, D misses the
    round (unpaired loss). R3: D beats E, A beats C, B bye.
    Points per round: A 3/3, B 1/3, C 2/3, D 1/3, E 1/3.
    """
    records: dict[str, list[Outcome]] = {p: [] for p in "ABCDE"}

    def play(a: str, b: str, points: Sequence[int]) -> None:
        first, second = rules_.outcomes((a, b), MatchResult(points=tuple(points)))
        records[a].append(first)
        records[b].append(second)

    play("A", "B", [60, 20])
    play("C", "D", [100, 0])
    records["E"].append(rules_.bye())
    play("A", "E", [45, 30])
    play("C", "B", [70, 50])
    records["D"].append(rules_.unpaired_loss())
    play("D", "E", [100, 99])
    play("A", "C", [51, 50])
    records["B"].append(rules_.bye())
    return records


def test_tiebreaker_keys_are_mov_and_sos() -> None:
    assert XWing20.tiebreaker_keys == ("mov", "sos")
    scores = XWing20().scores(season(XWing20()))
    assert set(scores["A"].tiebreakers) == {"mov", "sos"}


def test_tiebreaker_points_are_the_sum_of_tournament_points_byes_included() -> None:
    scores = XWing20().scores(season(XWing20()))
    assert {p: s.points for p, s in scores.items()} == {"A": 3, "B": 1, "C": 2, "D": 1, "E": 1}


def test_tiebreaker_record_counts_wins_and_losses() -> None:
    scores = XWing20().scores(season(XWing20()))
    assert (scores["D"].record.wins, scores["D"].record.losses) == (1, 2)


def test_tiebreaker_hoehe_des_sieges_is_summed_byes_and_unpaired_losses_included() -> None:
    scores = XWing20().scores(season(XWing20()))
    assert scores["A"].tiebreakers["mov"] == 140 + 115 + 101
    assert scores["E"].tiebreakers["mov"] == 150 + 85 + 99
    assert scores["D"].tiebreakers["mov"] == 0 + 0 + 101


def test_tabellenstaerke_is_the_mean_of_opponents_points_per_round_played() -> None:
    scores = XWing20().scores(season(XWing20()))
    assert scores["A"].tiebreakers["sos"] == 4 / 9  # B 1/3, E 1/3, C 2/3
    assert scores["C"].tiebreakers["sos"] == 5 / 9  # D 1/3, B 1/3, A 1


def test_tabellenstaerke_leaves_byes_out_of_the_opponents() -> None:
    scores = XWing20().scores(season(XWing20()))
    assert scores["B"].tiebreakers["sos"] == 5 / 6  # A 1, C 2/3; the bye is no opponent


def test_tabellenstaerke_counts_an_opponents_unpaired_loss_as_a_round_played() -> None:
    scores = XWing20().scores(season(XWing20()))
    assert scores["E"].tiebreakers["sos"] == 2 / 3  # A 1, D 1/3 (not 1/2)


def test_tabellenstaerke_leaves_the_players_own_unpaired_loss_out_of_the_opponents() -> None:
    scores = XWing20().scores(season(XWing20()))
    assert scores["D"].tiebreakers["sos"] == 1 / 2  # C 2/3, E 1/3


def test_tabellenstaerke_is_zero_without_opponents() -> None:
    assert XWing20().scores({"A": [XWing20().bye()], "B": []})["A"].tiebreakers["sos"] == 0


def test_tabellenstaerke_counts_an_opponent_met_twice_twice() -> None:
    records = {
        "A": [Outcome("B", "win", 1), Outcome("B", "win", 1), Outcome("C", "win", 1)],
        "B": [Outcome("A", "loss", 0), Outcome("A", "loss", 0)],
        "C": [Outcome("A", "loss", 0), Outcome(None, "win", 1)],
    }
    assert strength_of_schedule("A", records) == (0 + 0 + 1 / 2) / 3


def test_tabellenstaerke_ties_exactly_when_equal_so_the_random_tiebreaker_decides() -> None:
    def opponent(wins: int) -> list[Outcome]:
        return [Outcome("x", "win", 1)] * wins + [Outcome("x", "loss", 0)] * (10 - wins)

    records = {
        "P": [Outcome(o, "win", 1) for o in ("o1", "o2", "o3")],
        "Q": [Outcome(o, "win", 1) for o in ("o2", "o2", "o2")],
        "o1": opponent(1),
        "o2": opponent(2),
        "o3": opponent(3),
    }
    # a float sum gives (0.1 + 0.2 + 0.3) / 3 = 0.20000000000000004 against 0.2
    assert strength_of_schedule("P", records) == strength_of_schedule("Q", records) == 0.2


def test_tiebreaker_key_orders_by_points_then_mov_then_sos() -> None:
    scores = XWing20().scores(season(XWing20()))
    a = scores["A"]
    assert a.key == (a.points, a.tiebreakers["mov"], a.tiebreakers["sos"])
    ranked = sorted(scores, key=lambda p: scores[p].key, reverse=True)
    assert ranked[:2] == ["A", "C"] and ranked[2:] == ["E", "B", "D"]


# options -----------------------------------------------------------------------


def test_options_default_to_the_basic_structure_and_100_squad_points() -> None:
    assert XWing20().options == {"structure": "basic", "squad_points": 100, "compat": None}


def test_the_registry_builds_xwing_20_with_its_options() -> None:
    built = ruleset("xwing-2.0", {"squad_points": 200, "rounds": 5})
    assert isinstance(built, XWing20)
    assert (built.squad_points, built.rounds_planned(10)) == (200, 5)


@pytest.mark.parametrize(
    "options",
    [
        {"structure": "casual"},
        {"squad_points": "200"},
        {"squad_points": True},
        {"squad_points": 0},
        {"squad_points": -100},
        {"format": "bo3"},
    ],
    ids=["unknown-structure", "text-squad-points", "bool-squad-points", "zero-squad-points",
         "negative-squad-points", "unknown-option"],
)  # fmt: skip
def test_options_the_ruleset_does_not_take_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        XWing20(options)


# "Turnierstrukturen" -------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [(4, 3, 0), (8, 3, 0), (9, 4, 0), (16, 4, 0), (17, 4, 4), (24, 4, 4), (25, 5, 4),
     (40, 5, 4), (41, 5, 8), (44, 5, 8), (45, 6, 8), (76, 6, 8), (77, 6, 16), (148, 6, 16),
     (149, 7, 16), (600, 7, 16)],
)  # fmt: skip
def test_basis_turnierstruktur_rounds_and_cut(players: int, rounds: int, cut: int) -> None:
    basic = rules(structure="basic")
    assert (basic.table_rounds(players), basic.table_cut(players)) == (rounds, cut)


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [(9, 4, 4), (12, 4, 4), (13, 4, 8), (24, 4, 8), (25, 5, 8), (40, 5, 8), (41, 6, 8),
     (76, 6, 8), (77, 6, 16), (148, 6, 16), (149, 6, 32), (288, 6, 32), (289, 7, 32),
     (512, 7, 32), (513, 8, 32), (2048, 8, 32)],
)  # fmt: skip
def test_fortgeschrittene_turnierstruktur_rounds_and_cut(
    players: int, rounds: int, cut: int
) -> None:
    advanced = rules(structure="advanced")
    assert (advanced.table_rounds(players), advanced.table_cut(players)) == (rounds, cut)


def test_fortgeschrittene_turnierstruktur_below_9_players_uses_the_basic_row() -> None:
    advanced = rules(structure="advanced")
    assert (advanced.table_rounds(8), advanced.table_cut(8)) == (3, 0)


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 2)])
def test_turnierstrukturen_below_4_players_play_ceil_log2_rounds_without_cut(
    players: int, rounds: int
) -> None:
    basic = rules()
    assert (basic.table_rounds(players), basic.table_cut(players)) == (rounds, 0)


def test_eigenstaendige_turnierstruktur_uses_the_organizers_rounds_and_cut() -> None:
    independent = rules(structure="independent", rounds=5, cut=8)
    assert (independent.rounds_planned(12), independent.cut_size(12)) == (5, 8)


def test_eigenstaendige_turnierstruktur_without_options_plays_basic_rounds_and_no_cut() -> None:
    independent = rules(structure="independent")
    assert (independent.rounds_planned(30), independent.cut_size(30)) == (5, 0)


def test_explicit_rounds_and_cut_override_the_table() -> None:
    basic = rules(rounds=2, cut=2)
    assert (basic.rounds_planned(100), basic.cut_size(100)) == (2, 2)


def test_unpaired_losses_count_as_rounds_for_sos_unless_listfortress_compat() -> None:
    """ "Paarungen": a missed round is an unpaired loss; ListFortress divides by rounds played."""
    missed = XWing20().unpaired_loss()
    rejoined = [Outcome("b", "win", 1, mov=300), missed]
    records = {"a": [Outcome("r", "loss", 0, mov=100)], "r": rejoined, "b": []}
    assert XWing20().scores(records)["a"].tiebreakers["sos"] == 0.5
    compat = XWing20({"compat": "listfortress"})
    assert compat.scores(records)["a"].tiebreakers["sos"] == 1.0
