"""lcg-2.1d (Star Wars: Das Kartenspiel, Turnierregeln 2.1D): results, standings, tables.

Every worked example of RULES.md "lcg-2.1d" for Swiss play is reproduced here;
the document has no numbered sections, so tests cite its German headings
("Wertung", "Tabellen-Stärke", "Finalrunden", ...).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from ledger.events import (
    ORGANIZER,
    EventBase,
    MatchResult,
    PlayerRegistered,
    ResultReported,
    RoundPaired,
    RoundStarted,
    Table,
    TournamentCreated,
)
from projections.errors import InvalidOptions, InvalidResult
from projections.rulesets import ruleset
from projections.rulesets.base import Outcome, Record
from projections.rulesets.lcg_2_1d import Lcg21d, beaten_by, head_to_head
from projections.standings import standings
from projections.state import TournamentState
from tests.builders import by_player, state_of

AT = datetime(2014, 8, 1, 10, 0, tzinfo=UTC)
BASE: dict[str, Any] = {"tournament": "t1", "at": AT, "actor": ORGANIZER}
LCG = Lcg21d()


# -- helpers: literal events folded into a state ----------------------------------


def created(options: dict[str, Any] | None = None) -> TournamentCreated:
    return TournamentCreated(
        **BASE, name="Lokalmeisterschaft", ruleset="lcg-2.1d", options=options or {}, seed=11
    )


def registered(*players: str) -> list[EventBase]:
    return [PlayerRegistered(**BASE, player=p) for p in players]


def round_of(
    number: int, *matches: tuple[str, ...] | tuple[str, str, list[str]]
) -> list[EventBase]:
    """A manually paired, started and fully reported Swiss round.

    Each match is ``(a, b, [game 1, game 2])``; a one-player tuple is a bye.
    """
    tables = [
        Table(table=None if len(m) == 1 else i, players=m[:2]) for i, m in enumerate(matches, 1)
    ]
    events: list[EventBase] = [
        RoundPaired(**BASE, round=number, method="manual", pairings=tuple(tables)),
        RoundStarted(**BASE, round=number),
    ]
    for m in matches:
        if len(m) == 3:
            a, b, games = m
            events.append(
                ResultReported(
                    **BASE, round=number, players=(a, b),
                    result=MatchResult(game_results=tuple(games)),
                )
            )  # fmt: skip
    return events


def games(*results: str) -> MatchResult:
    return MatchResult(game_results=results)


# -- registry and options -------------------------------------------------------------


def test_registry_builds_lcg_with_double_elimination_finals_finalrunden() -> None:
    rules = ruleset("lcg-2.1d")
    assert isinstance(rules, Lcg21d)
    assert rules.options == {"elimination": "double", "round_minutes": 70, "final_minutes": 35}
    assert rules.tiebreaker_keys == ("sos", "sos2")


def test_single_elimination_is_refused_since_finals_are_doppel_ko_finalrunden() -> None:
    with pytest.raises(InvalidOptions, match=r"double elimination \(Finalrunden: Doppel-K\.o\."):
        Lcg21d({"elimination": "single"})


def test_swu_options_are_unknown_to_lcg() -> None:
    with pytest.raises(InvalidOptions, match=r"lcg-2\.1d has no option 'format'"):
        Lcg21d({"format": "bo3"})
    with pytest.raises(InvalidOptions, match=r"lcg-2\.1d has no option 'tier'"):
        Lcg21d({"tier": "competitive"})


# -- Wertung: the document's worked examples ---------------------------------------------


def test_thomas_wins_both_games_against_nicole_six_to_nothing_wertung() -> None:
    thomas, nicole = LCG.outcomes(("Thomas", "Nicole"), games("Thomas", "Thomas"))
    assert thomas == Outcome("Nicole", "win", 6, games_won=2)
    assert nicole == Outcome("Thomas", "loss", 0, games_lost=2)


def test_thomas_win_and_time_out_draw_against_johanna_is_four_to_one_wertung() -> None:
    thomas, johanna = LCG.outcomes(("Thomas", "Johanna"), games("Thomas", "draw"))
    assert thomas == Outcome("Johanna", "win", 4, games_won=1, games_drawn=1)
    assert johanna == Outcome("Thomas", "loss", 1, games_lost=1, games_drawn=1)


def test_thomas_and_gregor_win_one_game_each_three_to_three_is_a_drawn_match_wertung() -> None:
    thomas, gregor = LCG.outcomes(("Thomas", "Gregor"), games("Gregor", "Thomas"))
    assert thomas == Outcome("Gregor", "draw", 3, games_won=1, games_lost=1)
    assert gregor == Outcome("Thomas", "draw", 3, games_won=1, games_lost=1)
    assert LCG.winner(("Thomas", "Gregor"), games("Gregor", "Thomas")) is None


def test_two_time_out_draws_score_two_each_zeitlimit() -> None:
    first, second = LCG.outcomes(("p1", "p2"), games("draw", "draw"))
    assert (first.result, first.points, second.result, second.points) == ("draw", 2, "draw", 2)


def test_game_results_name_players_so_the_order_of_players_does_not_matter() -> None:
    assert LCG.outcomes(("Johanna", "Thomas"), games("Thomas", "draw"))[1].points == 4


def test_thomas_three_matches_add_up_in_the_standings_wertung() -> None:
    state = state_of(
        created(),
        registered("Thomas", "Nicole", "Johanna", "Gregor"),
        round_of(1, ("Thomas", "Nicole", ["Thomas", "Thomas"]),
                 ("Johanna", "Gregor", ["Gregor", "Gregor"])),
        round_of(2, ("Johanna", "Thomas", ["Thomas", "draw"]),
                 ("Nicole", "Gregor", ["Nicole", "draw"])),
        round_of(3, ("Thomas", "Gregor", ["Gregor", "Thomas"]),
                 ("Nicole", "Johanna", ["Johanna", "Johanna"])),
    )  # fmt: skip
    rows = by_player(standings(state))
    assert rows["Thomas"].scores.points == 6 + 4 + 3
    assert rows["Thomas"].scores.record == Record(wins=2, losses=0, draws=1)
    assert rows["Nicole"].scores.points == 0 + 4 + 0
    assert rows["Johanna"].scores.points == 0 + 1 + 6
    assert rows["Gregor"].scores.points == 6 + 1 + 3
    assert rows["Johanna"].scores.record == Record(wins=1, losses=2, draws=0)


# -- result validation ------------------------------------------------------------------


@pytest.mark.parametrize("results", [("p1",), ("p1", "p2", "p1"), ()])
def test_swiss_match_needs_exactly_two_games_ablauf_eines_turniers(
    results: tuple[str, ...],
) -> None:
    with pytest.raises(InvalidResult, match=r"two games.*jede Begegnung besteht aus 2 Spielen"):
        LCG.validate_result(("p1", "p2"), games(*results), "swiss")


def test_game_result_must_be_a_player_of_the_match_or_draw() -> None:
    with pytest.raises(InvalidResult, match="'p3' is neither a player of this match nor 'draw'"):
        LCG.validate_result(("p1", "p2"), games("p1", "p3"), "swiss")


def test_player_named_draw_is_refused_as_ambiguous() -> None:
    with pytest.raises(InvalidResult, match="player id 'draw' cannot be told apart"):
        LCG.validate_result(("draw", "p2"), games("p2", "p2"), "swiss")


def test_swu_and_miniatures_result_shapes_are_refused() -> None:
    message = re.escape("expected one of: {game_results}")
    with pytest.raises(InvalidResult, match=message):
        LCG.validate_result(("p1", "p2"), MatchResult(games=(2, 0), draws=0), "swiss")
    with pytest.raises(InvalidResult, match=message):
        LCG.validate_result(("p1", "p2"), MatchResult(points=(6, 0)), "swiss")


def test_elimination_match_is_one_game_einzelspiel_runden() -> None:
    LCG.validate_result(("p1", "p2"), games("p2"), "elimination")
    assert LCG.winner(("p1", "p2"), games("p2")) == "p2"
    with pytest.raises(InvalidResult, match=r"single game.*Einzelspiel-Runden"):
        LCG.validate_result(("p1", "p2"), games("p2", "p2"), "elimination")


def test_elimination_game_cannot_end_drawn_spielende_durch_zeitablauf() -> None:
    with pytest.raises(InvalidResult, match="Spielende durch Zeitablauf"):
        LCG.validate_result(("p1", "p2"), games("draw"), "elimination")


# -- byes ----------------------------------------------------------------------------


def test_bye_scores_six_points_as_two_won_games() -> None:
    assert LCG.bye() == Outcome(None, "win", 6, games_won=2)


def test_bye_is_not_an_opponent_for_strength_tabellen_staerke() -> None:
    scores = LCG.scores({"p1": [LCG.bye()]})
    assert scores["p1"].points == 6
    assert scores["p1"].tiebreakers == {"sos": 0, "sos2": 0}
    assert scores["p1"].record == Record(wins=1, losses=0, draws=0)


# -- Tabellen-Stärke: sos and sos2 on a hand-computed event -----------------------------


def five_player_event() -> TournamentState:
    """R1: A beats B 6:0, C and D 3:3, E bye. R2: E beats A 4:1, B beats C 6:0, D bye."""
    return state_of(
        created(),
        registered("A", "B", "C", "D", "E"),
        round_of(1, ("A", "B", ["A", "A"]), ("C", "D", ["C", "D"]), ("E",)),
        round_of(2, ("A", "E", ["E", "draw"]), ("B", "C", ["B", "B"]), ("D",)),
    )


def test_points_sum_game_points_with_byes_worth_six_wertung() -> None:
    rows = by_player(standings(five_player_event()))
    points = {p: s.scores.points for p, s in rows.items()}
    assert points == {"A": 7, "B": 6, "C": 3, "D": 9, "E": 10}
    assert rows["D"].scores.record == Record(wins=1, losses=0, draws=1)


def test_sos_sums_opponents_points_and_sos2_sums_their_sos_tabellen_staerke() -> None:
    """sos: A = B 6 + E 10 = 16; B = A 7 + C 3 = 10; C = D 9 + B 6 = 15;
    D = C 3 (the bye is no opponent); E = A 7 (likewise).
    sos2: A = 10 + 7 = 17; B = 16 + 15 = 31; C = 3 + 10 = 13; D = 15; E = 16.
    """
    rows = by_player(standings(five_player_event()))
    tiebreakers = {p: s.scores.tiebreakers for p, s in rows.items()}
    assert tiebreakers == {
        "A": {"sos": 16, "sos2": 17},
        "B": {"sos": 10, "sos2": 31},
        "C": {"sos": 15, "sos2": 13},
        "D": {"sos": 3, "sos2": 15},
        "E": {"sos": 7, "sos2": 16},
    }


def test_standings_rank_by_points_first_tabellen_staerke() -> None:
    assert [s.player for s in standings(five_player_event())] == ["E", "D", "A", "B", "C"]


def test_dropped_opponent_still_counts_with_the_points_they_finished_with() -> None:
    records = {"p1": [Outcome("p2", "win", 6)], "p2": [Outcome("p1", "loss", 0), LCG.bye()]}
    assert LCG.scores(records)["p1"].tiebreakers == {"sos": 6, "sos2": 6}


# -- Tabellen-Stärke: head to head -------------------------------------------------------


def head_to_head_event() -> TournamentState:
    """A beats B in round 1, both end on 10 points, but B has the stronger schedule.

    Points: A 6+0+4 = 10, B 0+6+4 = 10, C 12, D 7, E 13, F 0.
    sos: A = B 10 + E 13 + D 7 = 30; B = A 10 + C 12 + E 13 = 35.
    """
    return state_of(
        created(),
        registered("A", "B", "C", "D", "E", "F"),
        round_of(1, ("A", "B", ["A", "A"]), ("C", "D", ["C", "C"]), ("E", "F", ["E", "E"])),
        round_of(2, ("B", "C", ["B", "B"]), ("A", "E", ["E", "E"]), ("D", "F", ["D", "D"])),
        round_of(3, ("A", "D", ["A", "draw"]), ("B", "E", ["B", "draw"]), ("C", "F", ["C", "C"])),
    )


def test_tied_player_who_beat_the_other_goes_first_despite_lower_sos_tabellen_staerke() -> None:
    rows = standings(head_to_head_event())
    scores = {s.player: s.scores for s in rows}
    assert scores["A"].points == scores["B"].points == 10
    assert scores["A"].tiebreakers["sos"] == 30 < scores["B"].tiebreakers["sos"] == 35
    assert [s.player for s in rows] == ["E", "C", "A", "B", "D", "F"]
    assert [s.rank for s in rows] == [1, 2, 3, 4, 5, 6]


def test_head_to_head_event_sos2_is_the_sum_of_opponents_sos() -> None:
    rows = by_player(standings(head_to_head_event()))
    assert rows["A"].scores.tiebreakers == {"sos": 30, "sos2": 35 + 20 + 22}
    assert rows["B"].scores.tiebreakers == {"sos": 35, "sos2": 30 + 17 + 20}


def test_tied_player_who_beat_every_other_tied_player_goes_first_then_again() -> None:
    """A beat B and C, B beat C: A, B, C whatever order sos gave them."""
    beaten = {"A": {"B", "C"}, "B": {"C"}, "C": set[str]()}
    assert head_to_head(["C", "B", "A"], beaten) == ["A", "B", "C"]


def test_without_a_player_who_beat_all_tied_sos_decides_then_head_to_head_again() -> None:
    """A beat B; C met neither. C leads on sos, then A goes before B."""
    beaten = {"A": {"B"}, "B": set[str](), "C": set[str]()}
    assert head_to_head(["C", "B", "A"], beaten) == ["C", "A", "B"]


def test_tied_player_who_did_not_meet_every_other_tied_player_cannot_go_first() -> None:
    beaten = {"A": {"B"}, "B": set[str](), "C": set[str]()}
    assert head_to_head(["B", "C", "A"], beaten) == ["B", "C", "A"]


def test_drawn_match_is_not_beating_the_opponent_tabellen_staerke() -> None:
    records = {"A": [Outcome("B", "draw", 3)], "B": [Outcome("A", "draw", 3)]}
    assert beaten_by(records) == {"A": set(), "B": set()}


def test_after_a_rematch_beat_means_more_wins_than_losses_against_the_player() -> None:
    records = {
        "A": [Outcome("B", "win", 6), Outcome("B", "loss", 0), Outcome("B", "win", 4)],
        "B": [Outcome("A", "loss", 0), Outcome("A", "win", 6), Outcome("A", "loss", 1)],
    }
    assert beaten_by(records) == {"A": {"B"}, "B": set()}
    records["A"].pop()
    records["B"].pop()
    assert beaten_by(records) == {"A": set(), "B": set()}


def test_head_to_head_never_moves_a_player_across_a_points_group() -> None:
    """F lost to everyone; E beat A but has more points: groups stay in points order."""
    rows = standings(head_to_head_event())
    points = [s.scores.points for s in rows]
    assert points == sorted(points, reverse=True)


# -- rounds and finals ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "rounds"),
    [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (16, 4), (17, 5), (64, 6), (65, 7)],
)
def test_rounds_default_to_ceil_log2_of_players_ablauf_eines_turniers(
    players: int, rounds: int
) -> None:
    assert LCG.rounds_planned(players) == rounds


def test_explicit_rounds_always_win() -> None:
    assert Lcg21d({"rounds": 6}).rounds_planned(9) == 6


@pytest.mark.parametrize("players", [4, 16, 200])
def test_no_finals_without_a_cut_option_finalrunden(players: int) -> None:
    assert LCG.cut_size(players) == 0


@pytest.mark.parametrize("cut", [8, 16])
def test_finals_take_the_announced_cut_finalrunden(cut: int) -> None:
    assert Lcg21d({"cut": cut}).cut_size(40) == cut
