"""armada-2.0: the Star Wars: Armada 2.0 tournament regulation (German), section by section.

Sections are the document's headings: "Ende der Runde" (Aufgabe, Gegenseitige
Zerstörung), "Berechnung der Siegpunkte", "Höhe des Sieges", "Turnierpunkte",
"Tiebreaker" (Tabellenstärke), "Paarungen" (Freilos) and "Turnierstrukturen".
Worked examples are quoted from RULES.md and the document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from ledger.events import MatchResult, Stage
from projections.errors import InvalidOptions, InvalidResult
from projections.rulesets import ruleset
from projections.rulesets.armada_2_0 import Armada20
from projections.rulesets.base import Outcome

PAIR = ("elly", "salvatore")


def rules(**options: Any) -> Armada20:
    return Armada20(options)


def outcomes(result: dict[str, Any], players: tuple[str, str] = PAIR) -> tuple[Outcome, Outcome]:
    return Armada20().outcomes(players, MatchResult(**result))


def check(result: dict[str, Any] | MatchResult, stage: Stage = "swiss") -> None:
    given = result if isinstance(result, MatchResult) else MatchResult(**result)
    Armada20().validate_result(PAIR, given, stage)


def summary(outcome: Outcome) -> tuple[str, float, float]:
    return outcome.result, outcome.points, outcome.mov


# "Ende der Runde" and "Höhe des Sieges": the worked examples -----------------------


def test_ende_der_runde_example_elly_177_against_salvatore_49_mov_128_scores_7_and_4() -> None:
    elly, salvatore = outcomes({"points": [177, 49]})
    assert summary(elly) == ("win", 7, 128)
    assert summary(salvatore) == ("loss", 4, 0)


def test_hoehe_des_sieges_example_bastian_400_against_karo_225_mov_175_scores_8_and_3() -> None:
    bastian, karo = outcomes({"points": [400, 225]}, ("bastian", "karo"))
    assert summary(bastian) == ("win", 8, 175)
    assert summary(karo) == ("loss", 3, 0)


def test_hoehe_des_sieges_the_loser_always_has_mov_0() -> None:
    elly, salvatore = outcomes({"points": [10, 390]})
    assert summary(elly) == ("loss", 1, 0)
    assert summary(salvatore) == ("win", 10, 380)


def test_hoehe_des_sieges_clamps_to_400_when_objectives_push_a_total_beyond_it() -> None:
    elly, salvatore = outcomes({"points": [520, 40]})
    assert summary(elly) == ("win", 10, 400)
    assert summary(salvatore) == ("loss", 1, 0)


def test_each_outcome_names_the_opponent() -> None:
    elly, salvatore = outcomes({"points": [177, 49]})
    assert (elly.opponent, salvatore.opponent) == ("salvatore", "elly")


# "Turnierpunkte": the table by the winner's MoV -------------------------------------


@pytest.mark.parametrize(
    ("mov", "win", "loss"),
    [(1, 6, 5), (59, 6, 5), (60, 7, 4), (139, 7, 4), (140, 8, 3), (219, 8, 3), (220, 9, 2),
     (299, 9, 2), (300, 10, 1), (400, 10, 1)],
)  # fmt: skip
def test_turnierpunkte_follow_the_winners_mov(mov: int, win: int, loss: int) -> None:
    winner, loser = outcomes({"points": [mov + 10, 10]})
    assert (winner.points, winner.mov, loser.points) == (win, mov, loss)


# "Berechnung der Siegpunkte": equal points and mutual destruction ---------------------


def test_equal_points_the_second_player_named_as_winner_wins_with_mov_0() -> None:
    elly, salvatore = outcomes({"points": [200, 200], "winner": "salvatore"})
    assert summary(elly) == ("loss", 5, 0)
    assert summary(salvatore) == ("win", 6, 0)


def test_equal_points_without_naming_the_second_player_are_refused() -> None:
    with pytest.raises(InvalidResult, match="second player"):
        check({"points": [200, 200]})


def test_gegenseitige_zerstoerung_the_named_second_player_wins_with_mov_0_on_any_points() -> None:
    elly, salvatore = outcomes({"points": [450, 400], "winner": "salvatore"})
    assert summary(elly) == ("loss", 5, 0)
    assert summary(salvatore) == ("win", 6, 0)


def test_the_second_player_must_be_a_player_of_the_match() -> None:
    with pytest.raises(InvalidResult, match="not a player"):
        check({"points": [200, 200], "winner": "karo"})


# "Ende der Runde": Aufgabe (concession) ---------------------------------------------


def test_aufgabe_the_conceding_player_gets_0_points_and_mov_0() -> None:
    elly, _ = outcomes({"points": [300, 20], "concession": "elly"})
    assert summary(elly) == ("loss", 0, 0)


def test_aufgabe_the_winner_keeps_the_tables_value_from_mov_140() -> None:
    elly, salvatore = outcomes({"points": [300, 20], "concession": "salvatore"})
    assert summary(elly) == ("win", 9, 280)
    assert summary(salvatore) == ("loss", 0, 0)


def test_aufgabe_the_winner_keeps_the_tables_value_at_exactly_mov_140() -> None:
    elly, _ = outcomes({"points": [190, 50], "concession": "salvatore"})
    assert summary(elly) == ("win", 8, 140)


def test_aufgabe_below_mov_140_the_winner_gets_8_points_and_mov_140() -> None:
    elly, _ = outcomes({"points": [120, 60], "concession": "salvatore"})
    assert summary(elly) == ("win", 8, 140)


def test_aufgabe_by_the_player_ahead_on_points_gives_the_winner_8_points_and_mov_140() -> None:
    elly, salvatore = outcomes({"points": [250, 100], "concession": "elly"})
    assert summary(salvatore) == ("win", 8, 140)
    assert summary(elly) == ("loss", 0, 0)


def test_aufgabe_on_equal_points_needs_no_second_player() -> None:
    check({"points": [100, 100], "concession": "elly"})


# validation ------------------------------------------------------------------------


def test_siegpunkte_are_never_negative() -> None:
    with pytest.raises(InvalidResult, match="negative"):
        check(MatchResult.model_construct(points=(120, -5)))


def test_siegpunkte_above_400_are_taken_because_objectives_add_to_them() -> None:
    check({"points": [575, 120]})


def test_a_result_of_another_shape_is_refused() -> None:
    with pytest.raises(InvalidResult, match="does not take"):
        check({"game_results": ["elly", "draw"]})


def test_a_final_salvo_is_not_an_armada_result() -> None:
    with pytest.raises(InvalidResult, match="does not take"):
        check({"points": [200, 200], "winner": "elly", "decided_by": "final_salvo"})


# "Paarungen": Freilos and ungepaarte Niederlage ---------------------------------------


def test_paarungen_a_bye_is_a_win_with_8_points_and_mov_140() -> None:
    bye = Armada20().bye()
    assert (summary(bye), bye.is_bye) == (("win", 8, 140), True)


def test_paarungen_a_dropped_player_may_ask_to_rejoin_the_same_stage() -> None:
    assert Armada20.rejoin_allowed


def test_paarungen_an_unpaired_loss_scores_nothing_and_has_no_opponent() -> None:
    loss = Armada20().unpaired_loss()
    assert (summary(loss), loss.opponent, loss.is_bye) == (("loss", 0, 0), None, False)


# "Tiebreaker": points, MoV, Tabellenstärke ----------------------------------------------


def season() -> dict[str, list[Outcome]]:
    """Two rounds of three players and a rejoining fourth.

    R1: A beats B 300-100 (MoV 200: 8/3), C bye (8), D unpaired loss.
    R2: C beats A 160-100 (MoV 60: 7/4), B and D tie 150-150, D is the second
    player (6/5 for D, B 5). Per round: A 12/2, B 8/2, C 15/2, D 6/2.
    """
    armada = Armada20()
    records: dict[str, list[Outcome]] = {p: [] for p in "ABCD"}

    def play(a: str, b: str, points: Sequence[int], **extra: Any) -> None:
        first, second = armada.outcomes((a, b), MatchResult(points=tuple(points), **extra))
        records[a].append(first)
        records[b].append(second)

    play("A", "B", [300, 100])
    records["C"].append(armada.bye())
    records["D"].append(armada.unpaired_loss())
    play("C", "A", [160, 100])
    play("B", "D", [150, 150], winner="D")
    return records


def test_tiebreaker_keys_are_mov_and_sos() -> None:
    assert Armada20.tiebreaker_keys == ("mov", "sos")
    assert set(Armada20().scores(season())["A"].tiebreakers) == {"mov", "sos"}


def test_tiebreaker_points_are_the_sum_of_tournament_points_byes_included() -> None:
    scores = Armada20().scores(season())
    assert {p: s.points for p, s in scores.items()} == {"A": 12, "B": 8, "C": 15, "D": 6}


def test_tiebreaker_hoehe_des_sieges_is_summed_bye_included() -> None:
    scores = Armada20().scores(season())
    assert {p: s.tiebreakers["mov"] for p, s in scores.items()} == {
        "A": 200,
        "B": 0,
        "C": 140 + 60,
        "D": 0,
    }


def test_tiebreaker_record_counts_wins_and_losses() -> None:
    scores = Armada20().scores(season())
    assert (scores["D"].record.wins, scores["D"].record.losses) == (1, 1)
    assert (scores["A"].record.wins, scores["A"].record.losses) == (1, 1)


def test_tabellenstaerke_is_the_mean_of_opponents_points_per_round_played() -> None:
    scores = Armada20().scores(season())
    assert scores["A"].tiebreakers["sos"] == (8 / 2 + 15 / 2) / 2


def test_tabellenstaerke_leaves_byes_out_of_the_opponents() -> None:
    assert Armada20().scores(season())["C"].tiebreakers["sos"] == 12 / 2


def test_tabellenstaerke_counts_an_opponents_unpaired_loss_as_a_round_played() -> None:
    assert Armada20().scores(season())["B"].tiebreakers["sos"] == (12 / 2 + 6 / 2) / 2


def test_tabellenstaerke_leaves_the_players_own_unpaired_loss_out_of_the_opponents() -> None:
    assert Armada20().scores(season())["D"].tiebreakers["sos"] == 8 / 2


def test_tiebreaker_key_orders_by_points_then_mov_then_sos() -> None:
    scores = Armada20().scores(season())
    c = scores["C"]
    assert c.key == (15, 200, 6.0)
    assert sorted(scores, key=lambda p: scores[p].key, reverse=True) == ["C", "A", "B", "D"]


# options -----------------------------------------------------------------------------


def test_options_default_to_the_basic_structure() -> None:
    assert Armada20().options == {"structure": "basic"}


def test_the_registry_builds_armada_20() -> None:
    assert isinstance(ruleset("armada-2.0", {"structure": "advanced"}), Armada20)


@pytest.mark.parametrize(
    "options",
    [{"structure": "premium"}, {"squad_points": 400}, {"format": "bo1"}],
    ids=["unknown-structure", "squad-points-is-xwing-only", "unknown-option"],
)
def test_options_the_ruleset_does_not_take_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions):
        Armada20(options)


# "Turnierstrukturen" -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds"), [(4, 3), (32, 3), (33, 4), (48, 4), (49, 5), (300, 5)]
)
def test_basis_struktur_rounds_without_cut(players: int, rounds: int) -> None:
    basic = rules(structure="basic")
    assert (basic.table_rounds(players), basic.table_cut(players)) == (rounds, 0)


@pytest.mark.parametrize(
    ("players", "rounds", "cut"),
    [(9, 3, 0), (28, 3, 0), (29, 4, 2), (44, 4, 2), (45, 5, 2), (90, 5, 2), (91, 5, 4),
     (400, 5, 4)],
)  # fmt: skip
def test_fortgeschrittene_struktur_rounds_and_cut(players: int, rounds: int, cut: int) -> None:
    advanced = rules(structure="advanced")
    assert (advanced.table_rounds(players), advanced.table_cut(players)) == (rounds, cut)


def test_fortgeschrittene_struktur_below_9_players_uses_the_basic_row() -> None:
    advanced = rules(structure="advanced")
    assert (advanced.table_rounds(6), advanced.table_cut(6)) == (3, 0)


@pytest.mark.parametrize(("players", "rounds"), [(2, 1), (3, 2)])
def test_turnierstrukturen_below_4_players_play_ceil_log2_rounds(players: int, rounds: int) -> None:
    assert rules().table_rounds(players) == rounds


def test_eigenstaendige_struktur_uses_the_organizers_rounds_and_cut() -> None:
    independent = rules(structure="independent", rounds=6, cut=8)
    assert (independent.rounds_planned(40), independent.cut_size(40)) == (6, 8)


def test_eigenstaendige_struktur_without_options_plays_basic_rounds_and_no_cut() -> None:
    independent = rules(structure="independent")
    assert (independent.rounds_planned(40), independent.cut_size(40)) == (4, 0)


def test_explicit_rounds_override_the_table() -> None:
    assert rules(rounds=2).rounds_planned(60) == 2
