"""lcg-2.1d "Team-Turniere (2 gegen 2)": registration by team, team scoring, the final
match between teams level on points, and what a team event refuses."""

from __future__ import annotations

from typing import Any

import pytest

from commands.errors import (
    DuplicatePlayer,
    InvalidCommand,
    RuleViolation,
    WrongPhase,
)
from commands.handler import personal_data
from commands.idempotency import command_digest
from commands.models import parse_command
from ledger.events import CutMade, ListSubmitted, RoundPaired, TeamRegistered
from projections.elimination import champion
from projections.errors import InvalidOptions, InvalidResult
from projections.rulesets import ruleset
from projections.rulesets.lcg_teams import ROUND_MINUTES, Lcg21dTeams
from projections.standings import standings
from tests.builders import Given, by_player, create, pair, register, start

TEAMS = ("A", "B", "C", "D")


def team(tid: str, **extra: Any) -> dict[str, Any]:
    low = tid.lower()
    return {"type": "register_team", "tournament": "t1", "team": tid, "name": f"Team {tid}",
            "members": [{"player": f"{low}1", "name": f"{tid} one"},
                        {"player": f"{low}2", "name": f"{tid} two"}], **extra}  # fmt: skip


def games(rnd: int, a: str, b: str, *results: str) -> dict[str, Any]:
    return {"type": "report_result", "tournament": "t1", "round": rnd, "players": [a, b],
            "result": {"game_results": list(results)}}  # fmt: skip


def team_event(rounds: int = 2, *teams: str) -> Given:
    return Given(create(ruleset="lcg-2.1d", team=True, rounds=rounds),
                 *(team(t) for t in teams))  # fmt: skip


def deck(affiliation: str) -> dict[str, Any]:
    sets = [{"set": f"{affiliation} {n}", "number": n} for n in range(1, 11)]
    return {"affiliation": affiliation, "objective_sets": sets}


def four_decks(*members: str) -> dict[str, Any]:
    return {"members": {m: {"light": deck("Jedi"), "dark": deck("Sith")} for m in members}}


# options -------------------------------------------------------------------------


def test_team_option_selects_the_team_rules_of_lcg_2_1d_team_turniere() -> None:
    rules = ruleset("lcg-2.1d", {"team": True})
    assert isinstance(rules, Lcg21dTeams) and rules.team
    assert rules.options == {"team": True, "round_minutes": 90}
    assert not ruleset("lcg-2.1d", {"team": False}).team
    assert ROUND_MINUTES == (80, 100)


def test_a_team_round_lasts_the_announced_80_to_100_minutes_lcg_2_1d_team_turniere_wertung() -> (
    None
):
    """ "Das Zeitlimit pro Runde (zwischen 80 und 100 Minuten) wird vom TO ... bekannt
    gegeben": 90 unless announced, and the final match ("Begegnung") the same."""
    assert ruleset("lcg-2.1d", {"team": True}).round_time().minutes("swiss") == 90
    timed = ruleset("lcg-2.1d", {"team": True, "round_minutes": 100}).round_time()
    assert timed.minutes("swiss") == timed.minutes("elimination", "final") == 100
    for wrong in (79, 101):
        with pytest.raises(InvalidOptions, match="from 80 to 100"):
            ruleset("lcg-2.1d", {"team": True, "round_minutes": wrong})


@pytest.mark.parametrize("ruleset_id", ["swu-1.4", "swu-1.0", "xwing-2.0", "armada-2.0"])
def test_team_option_is_refused_by_other_rulesets_naming_lcg(ruleset_id: str) -> None:
    with pytest.raises(InvalidCommand, match=r"has no team tournaments.*lcg-2\.1d"):
        Given().when(create(ruleset=ruleset_id, team=True))


@pytest.mark.parametrize("options", [{"cut": 8}, {"elimination": "double"}])
def test_team_event_takes_no_final_rounds_options_lcg_2_1d_team_turniere(
    options: dict[str, Any],
) -> None:
    with pytest.raises(InvalidOptions, match="Eine Finalrunde gibt es im Team-Turnier nicht"):
        ruleset("lcg-2.1d", {"team": True, **options})


def test_team_option_must_be_true_or_false() -> None:
    with pytest.raises(InvalidOptions, match="'team' must be true or false"):
        ruleset("lcg-2.1d", {"team": 1})


def test_the_team_option_cannot_be_changed_after_creation() -> None:
    with pytest.raises(InvalidCommand, match="'team' is fixed"):
        Given(create(ruleset="lcg-2.1d")).when(
            {"type": "change_options", "tournament": "t1", "options": {"team": True}}
        )


# registration (Anmeldung) ---------------------------------------------------------------


def test_register_team_records_the_team_and_member_ids_only_lcg_2_1d_team_turniere() -> None:
    [event] = team_event(2, "A").when(team("B"))
    assert isinstance(event, TeamRegistered)
    assert (event.team, event.members) == ("B", ("b1", "b2"))
    assert "Team B" not in event.model_dump_json() and "B one" not in event.model_dump_json()


def test_team_and_member_names_go_to_the_registry_and_not_into_the_digest() -> None:
    command = parse_command({**team("A"), "command_id": "c1"})
    entries = {(e.player, e.name) for e in personal_data(command)}
    assert entries == {("A", "Team A"), ("a1", "A one"), ("a2", "A two")}
    members = [{"player": "a1", "name": "X"}, {"player": "a2"}]
    renamed = parse_command({**team("A"), "command_id": "c1", "name": "Other", "members": members})
    assert command_digest(command) == command_digest(renamed)


def test_registered_team_is_the_competitor_in_state() -> None:
    state = team_event(2, "A", "B").state
    assert sorted(state.players) == ["A", "B"]
    assert state.teams == {"A": ("a1", "a2"), "B": ("b1", "b2")}


def test_register_team_is_refused_in_a_singles_event() -> None:
    with pytest.raises(RuleViolation, match="not a team tournament"):
        Given(create(ruleset="lcg-2.1d")).when(team("A"))


def test_register_player_is_refused_in_a_team_event_pointing_to_register_team() -> None:
    with pytest.raises(RuleViolation, match="register_team"):
        team_event(2, "A").when(register("p1")[0])


@pytest.mark.parametrize(
    ("command", "taken"),
    [
        (team("A"), "A"),  # the team again
        ({**team("X"), "members": [{"player": "a1"}, {"player": "x2"}]}, "a1"),  # a member
        ({**team("a2"), "members": [{"player": "y1"}, {"player": "y2"}]}, "a2"),  # id of one
        ({**team("X"), "members": [{"player": "A"}, {"player": "x2"}]}, "A"),  # a team's id
    ],
)
def test_ids_are_unique_across_teams_and_members(command: dict[str, Any], taken: str) -> None:
    with pytest.raises(DuplicatePlayer, match=repr(taken)):
        team_event(2, "A").when(command)


def test_a_team_is_two_different_players() -> None:
    with pytest.raises(RuleViolation, match="named twice"):
        team_event(2).when({**team("X"), "members": [{"player": "x1"}, {"player": "x1"}]})
    with pytest.raises(RuleViolation, match="also a member's id"):
        team_event(2).when({**team("X"), "members": [{"player": "X"}, {"player": "x1"}]})
    with pytest.raises(InvalidCommand, match="members"):
        parse_command({**team("X"), "members": [{"player": "x1"}]})


def test_a_team_may_register_with_its_four_decks_lcg_2_1d_team_turniere_anmeldung() -> None:
    events = team_event(2).when(team("A", list=four_decks("a1", "a2")))
    assert [type(e) for e in events] == [TeamRegistered, ListSubmitted]
    listed = events[1]
    assert isinstance(listed, ListSubmitted) and listed.player == "A" and not listed.violations


def test_a_teams_list_names_exactly_its_members_decks() -> None:
    with pytest.raises(InvalidCommand, match="decks of its members a1, a2"):
        team_event(2).when(team("A", list=four_decks("a1", "zz")))
    with pytest.raises(InvalidCommand, match=r"not a lcg-2\.1d list"):
        team_event(2).when(team("A", list={"light": deck("Jedi"), "dark": deck("Sith")}))


def test_submit_list_for_a_team_checks_each_members_decks_by_the_deck_rules() -> None:
    decks = four_decks("a1", "a2")
    decks["members"]["a2"]["light"] = {"affiliation": "Jedi", "objective_sets": []}
    [event] = team_event(2, "A").when(
        {"type": "submit_list", "tournament": "t1", "player": "A", "list": decks}
    )
    assert isinstance(event, ListSubmitted)
    assert [(v.rule, v.count) for v in event.violations] == [("objective_sets", 1)]


# scoring (Wertung) --------------------------------------------------------------------


def test_a_drawn_game_gives_each_team_2_points_lcg_2_1d_team_turniere_wertung() -> None:
    rules = ruleset("lcg-2.1d", {"team": True})
    first, second = rules.outcomes(("A", "B"), parse_result(["draw", "draw"]))
    assert (first.points, second.points) == (4, 4)
    assert first.result == second.result == "draw"


def test_a_won_game_scores_3_and_more_game_points_wins_the_match() -> None:
    """The team section replaces only the draw: a win stays 3, as in "Wertung"."""
    rules = ruleset("lcg-2.1d", {"team": True})
    first, second = rules.outcomes(("A", "B"), parse_result(["A", "draw"]))
    assert (first.points, first.result, second.points, second.result) == (5, "win", 2, "loss")
    first, second = rules.outcomes(("A", "B"), parse_result(["A", "B"]))
    assert (first.points, second.points, first.result) == (3, 3, "draw")
    assert rules.bye().points == 6


def test_team_standings_count_2_per_drawn_game() -> None:
    given = team_event(2, "A", "B")
    given.apply(pair(["A", "B"]))
    given.apply(start())
    given.apply(games(1, "A", "B", "A", "draw"))
    rows = by_player(standings(given.state))
    assert (rows["A"].scores.points, rows["B"].scores.points) == (5, 2)


def test_a_team_result_has_two_games_in_every_round() -> None:
    rules = ruleset("lcg-2.1d", {"team": True})
    with pytest.raises(InvalidResult, match="two games"):
        rules.validate_result(("A", "B"), parse_result(["A"]), "elimination")
    with pytest.raises(InvalidResult, match="does not take"):
        rules.validate_result(("A", "B"), parse_result(["A", "B"], light="A"), "swiss")


def parse_result(games_: list[str], **extra: Any) -> Any:
    from ledger.events import MatchResult

    return MatchResult(game_results=tuple(games_), **extra)


# the final match (Turnierstruktur) --------------------------------------------------------


def played(results: dict[str, list[str]]) -> Given:
    """Two rounds of four teams: round 1 A v B, C v D; round 2 A v C, B v D."""
    given = team_event(2, *TEAMS)
    given.apply(pair(["A", "B"], ["C", "D"]))
    given.apply(start())
    given.apply(games(1, "A", "B", *results["AB"]))
    given.apply(games(1, "C", "D", *results["CD"]))
    given.apply(pair(["A", "C"], ["B", "D"]))
    given.apply(start())
    given.apply(games(2, "A", "C", *results["AC"]))
    given.apply(games(2, "B", "D", *results["BD"]))
    return given


#: A and C both end on 9 (6:0, then 3:3 against each other); B and D on 3
TIED = {"AB": ["A", "A"], "CD": ["C", "C"], "AC": ["A", "C"], "BD": ["B", "D"]}
ALONE = {"AB": ["A", "A"], "CD": ["C", "C"], "AC": ["A", "A"], "BD": ["B", "D"]}


def test_teams_level_at_the_top_play_a_final_match_lcg_2_1d_team_turniere() -> None:
    given = played(TIED)
    top = [s.player for s in standings(given.state)][:2]
    cut, paired = given.when({"type": "pair_round", "tournament": "t1"})
    assert isinstance(cut, CutMade) and cut.seeds == tuple(top) and cut.format == "single"
    assert isinstance(paired, RoundPaired) and paired.stage == "elimination"
    assert [t.players for t in paired.pairings] == [tuple(top)]


def test_finish_is_refused_while_the_final_match_is_due() -> None:
    with pytest.raises(WrongPhase, match="level on points: pair_round pairs their final"):
        played(TIED).when({"type": "finish_tournament", "tournament": "t1"})


def test_no_final_match_when_the_top_team_is_alone_on_points() -> None:
    given = played(ALONE)
    with pytest.raises(WrongPhase, match="no team is level with the leader"):
        given.when({"type": "pair_round", "tournament": "t1"})
    given.apply({"type": "finish_tournament", "tournament": "t1"})
    assert given.state.finished and standings(given.state)[0].player == "A"


def test_the_final_match_decides_ranks_1_and_2_without_adding_points() -> None:
    given = played(TIED)
    given.apply({"type": "pair_round", "tournament": "t1"})
    seed1, seed2 = given.state.cut.seeds if given.state.cut else ("", "")
    given.apply(start())
    given.apply(games(3, seed1, seed2, seed2, "draw"))
    assert champion(given.state) == seed2
    rows = standings(given.state)
    assert [r.player for r in rows[:2]] == [seed2, seed1]
    assert rows[0].scores.points == rows[1].scores.points == 9
    given.apply({"type": "finish_tournament", "tournament": "t1"})
    assert given.state.finished


def test_a_final_level_on_game_points_goes_to_the_team_ranked_higher_after_swiss() -> None:
    given = played(TIED)
    given.apply({"type": "pair_round", "tournament": "t1"})
    seed1, seed2 = given.state.cut.seeds if given.state.cut else ("", "")
    given.apply(start())
    given.apply(games(3, seed2, seed1, seed2, seed1))
    assert champion(given.state) == seed1


def test_more_than_two_level_at_the_top_send_the_two_best_by_tiebreakers() -> None:
    given = team_event(1, "A", "B", "C", "D", "E", "F")
    given.apply(pair(["A", "B"], ["C", "D"], ["E", "F"]))
    given.apply(start())
    for a, b in (("A", "B"), ("C", "D"), ("E", "F")):
        given.apply(games(1, a, b, a, a))
    ranked = [s.player for s in standings(given.state)]
    assert sorted(ranked[:3]) == ["A", "C", "E"]  # three on 6 points
    cut, paired = given.when({"type": "pair_round", "tournament": "t1"})
    assert isinstance(cut, CutMade) and cut.seeds == tuple(ranked[:2])
    assert isinstance(paired, RoundPaired) and paired.pairings[0].players == tuple(ranked[:2])


def test_make_cut_is_refused_eine_finalrunde_gibt_es_im_team_turnier_nicht() -> None:
    with pytest.raises(RuleViolation, match="Eine Finalrunde gibt es im Team-Turnier nicht"):
        played(TIED).when({"type": "make_cut", "tournament": "t1", "size": 2})
