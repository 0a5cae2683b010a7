"""Deck checks (swu-1.4 §6; lcg-2.1d "Deck check", "Sanctions"): the time a check during a
match adds, the game loss or corrected result an illegal deck costs, the lcg-2.1d
annulled games and the disqualification for a deck that cannot be made legal, and the
10 percent target of checks counted in the status."""

from __future__ import annotations

import re

import pytest

from commands.errors import RuleViolation, WrongPhase
from ledger.events import (
    DeckCheckRecorded,
    MatchResult,
    PlayerDisqualified,
    ResultCorrected,
    TimeExtensionGranted,
)
from tests.builders import report
from tests.plain_views import status_view
from tests.unit.discipline_steps import (
    AT,
    corrected,
    deck_check,
    forfeit,
    games,
    issued,
    match,
    points,
    records,
    running,
    then,
)


def deck_checked(player: str, rnd: int, timing: str, outcome: str = "legal",
                 minutes: int = 6) -> DeckCheckRecorded:  # fmt: skip
    return DeckCheckRecorded(**AT, player=player, round=rnd, timing=timing, outcome=outcome,
                             minutes=minutes)  # fmt: skip


def deck_check_time(a: str, b: str, minutes: int, rnd: int = 1) -> TimeExtensionGranted:
    return TimeExtensionGranted(**AT, round=rnd, players=(a, b), minutes=minutes,
                                reason="deck check (swu-1.4 §6)")  # fmt: skip


@pytest.mark.parametrize("timing", ["before_game_1", "between_games"])
def test_deck_check_during_the_match_adds_time_spent_plus_3_minutes_swu14_6(timing: str) -> None:
    given = running()
    then(given.apply(deck_check("p2", 1, timing, minutes=7)),
         deck_checked("p2", 1, timing, minutes=7), deck_check_time("p1", "p2", 10))  # fmt: skip
    assert match(given, 1, "p1", "p2").extension_minutes == 10
    assert match(given, 1, "p3", "p4").extension_minutes == 0


def test_deck_check_time_adds_to_earlier_extensions_swu14_6() -> None:
    given = running()
    given.apply(deck_check("p1", 1, "before_game_1", minutes=2))
    given.apply(deck_check("p2", 1, "between_games", minutes=0))
    assert match(given, 1, "p1", "p2").extension_minutes == 5 + 3


def test_deck_check_after_the_match_adds_no_time_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(deck_check("p1", 1, "after_match")), deck_checked("p1", 1, "after_match"))
    assert match(given, 1, "p1", "p2").extension_minutes == 0


def test_deck_check_after_the_match_before_its_report_adds_no_time_swu14_6() -> None:
    then(running().when(deck_check("p1", 1, "after_match")),
         deck_checked("p1", 1, "after_match"))  # fmt: skip


def test_illegal_deck_during_the_match_costs_a_game_loss_there_swu14_6() -> None:
    given = running()
    then(given.apply(deck_check("p1", 1, "between_games", "illegal", minutes=4)),
         deck_checked("p1", 1, "between_games", "illegal", minutes=4),
         deck_check_time("p1", "p2", 7),
         issued("p1", 1, "game_loss", "illegal deck found in a deck check"))  # fmt: skip
    assert match(given, 1, "p1", "p2").status == "pending"


def test_illegal_deck_after_the_match_gives_the_opponent_a_game_in_that_match_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 1], draws=0))
    then(given.apply(deck_check("p1", 1, "after_match", "illegal")),
         deck_checked("p1", 1, "after_match", "illegal"),
         issued("p1", 1, "game_loss", "illegal deck found in a deck check"),
         corrected("p1", "p2", games(1, 2), games(2, 1),
                   "illegal deck found in a deck check"))  # fmt: skip
    assert records(given)["p2"] == (1, 0, 0)


def test_illegal_deck_of_a_2_0_winner_after_the_match_makes_it_2_1_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    events = given.apply(deck_check("p1", 1, "after_match", "illegal"))
    assert isinstance(events[-1], ResultCorrected) and events[-1].result == games(2, 1)
    assert records(given)["p1"] == (1, 0, 0)


def test_legal_deck_check_after_the_match_changes_nothing_swu14_6() -> None:
    given = running()
    given.apply(report(1, "p1", "p2", games=[2, 0], draws=0))
    then(given.when(deck_check("p1", 1, "after_match", "legal")),
         deck_checked("p1", 1, "after_match"))  # fmt: skip


def test_illegal_card_annuls_the_offenders_won_games_and_warns_lcg_deck_check() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "p2"]))
    then(given.apply(deck_check("p1", 1, "after_match", "illegal")),
         deck_checked("p1", 1, "after_match", "illegal"),
         issued("p1", 1, "warning", "illegal deck found in a deck check"),
         corrected("p1", "p2", MatchResult(game_results=("annulled", "p2")),
                   MatchResult(game_results=("p1", "p2")),
                   "illegal card found: game annulled (lcg-2.1d)"))  # fmt: skip
    # the annulled game scores for nobody: p1 0, p2 3 (and wins the match)
    assert points(given) == {"p1": 0, "p2": 3, "p3": 0, "p4": 0}
    assert records(given)["p2"] == (1, 0, 0) and records(given)["p1"] == (0, 1, 0)


def test_illegal_card_of_a_player_who_won_no_game_only_warns_lcg_deck_check() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p2", "draw"]))
    then(given.when(deck_check("p1", 1, "after_match", "illegal")),
         deck_checked("p1", 1, "after_match", "illegal"),
         issued("p1", 1, "warning", "illegal deck found in a deck check"))  # fmt: skip


def test_deck_that_cannot_be_made_legal_disqualifies_lcg_deck_check() -> None:
    given = running(rules="lcg-2.1d")
    given.apply(report(1, "p1", "p2", game_results=["p1", "p1"]))
    then(given.apply(deck_check("p1", 1, "after_match", "unfixable")),
         deck_checked("p1", 1, "after_match", "unfixable"),
         PlayerDisqualified(**AT, player="p1",
                            reason="deck cannot be made legal (lcg-2.1d)"))  # fmt: skip
    assert given.state.players["p1"].disqualified


def test_unfixable_deck_before_the_report_also_forfeits_the_open_match_lcg_deck_check() -> None:
    then(running(rules="lcg-2.1d").when(deck_check("p1", 1, "after_match", "unfixable")),
         deck_checked("p1", 1, "after_match", "unfixable"),
         PlayerDisqualified(**AT, player="p1", reason="deck cannot be made legal (lcg-2.1d)"),
         forfeit("p1", "p2", MatchResult(game_results=("p2", "p2")), "disqualified"))  # fmt: skip


@pytest.mark.parametrize("timing", ["before_game_1", "between_games"])
def test_deck_check_other_than_after_the_match_is_refused_lcg_deck_check(timing: str) -> None:
    with pytest.raises(RuleViolation, match=re.escape("lcg-2.1d Decküberprüfung")):
        running(rules="lcg-2.1d").when(deck_check("p1", 1, timing))


@pytest.mark.parametrize("rules", ["swu-1.4", "swu-1.0", "xwing-2.0", "armada-2.0"])
def test_unfixable_outcome_is_refused_outside_lcg_lcg_deck_check(rules: str) -> None:
    with pytest.raises(RuleViolation, match=re.escape("outcome 'unfixable' is the lcg-2.1d rule")):
        running(rules=rules).when(deck_check("p1", 1, "after_match", "unfixable"))


def test_deck_check_of_a_player_with_a_bye_is_refused_swu14_6() -> None:
    """§6: decks presented in a match; a bye presents none."""
    with pytest.raises(WrongPhase, match="player 'p3' has no match in round 1"):
        running(["p1", "p2"], ["p3"]).when(deck_check("p3", 1, "after_match"))


def test_status_counts_deck_checks_against_the_10_percent_target_swu14_6() -> None:
    """128 players -> about 12 checks."""
    players = [f"p{i:03}" for i in range(1, 129)]
    given = running(*[players[i : i + 2] for i in range(0, 128, 2)])
    assert status_view(given.state)["deck_checks"] == {"checked": 0, "target": 12}
    given.apply(deck_check("p001", 1, "before_game_1"))
    given.apply(deck_check("p128", 1, "between_games", "illegal"))
    assert status_view(given.state)["deck_checks"] == {"checked": 2, "target": 12}
