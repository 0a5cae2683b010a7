"""Reading results exports and turning them into the contract's commands,
without a store: the order of the commands, what the CSV's player columns mean, and
one-line errors for files that cannot be read."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from commands.text.results_data import (
    Change,
    InvalidResults,
    Member,
    PlayedRound,
    PlayedTable,
    Registered,
    Team,
)
from commands.text.results_data import Results as ResultsData
from commands.text.results_import import commands_of, standings_differences
from commands.text.results_parse import read_csv, read_json
from commands.text.results_roster import returns_of

WIN = {"points": [200, 50]}


def results(**changes: Any) -> ResultsData:
    """Five players, two Swiss rounds with a bye each, a cut of two and its final."""
    base = ResultsData(
        tournament="t", name="Night", ruleset="xwing-2.0", options={"rounds": 2}, seed=7,
        finished=True,
        players=[Registered(f"p{i}", f"P{i}") for i in range(1, 5)] + [Registered("p5", "P5", 2)],
        rounds=[
            PlayedRound(1, "swiss", True, [PlayedTable(("p3",)), PlayedTable(("p2", "p4"), 2, WIN),
                                           PlayedTable(("p1", "p3"), 1, WIN)]),
            PlayedRound(2, "swiss", True, [PlayedTable(("p1", "p2"), 1, WIN),
                                           PlayedTable(("p4", "p5"), 2, None),
                                           PlayedTable(("p3",))]),
            PlayedRound(3, "elimination", True, [PlayedTable(("p1", "p2"), 1, WIN)]),
        ],
        changes=[Change("p4", "dropped", 2), Change("p3", "dropped", 2, after_cut=True)],
        cut_size=2,
    )  # fmt: skip
    for key, value in changes.items():
        setattr(base, key, value)
    return base


def kinds(commands: list[dict[str, Any]]) -> list[str]:
    return [c["type"] + (f":{c['player']}" if "player" in c else "") for c in commands]


def test_commands_follow_the_rounds_with_each_change_in_its_gap_and_the_cut_after_swiss() -> None:
    commands = commands_of(results(), "again")
    assert all(c["tournament"] == "again" for c in commands)
    assert commands[0] == {"type": "create_tournament", "tournament": "again", "name": "Night",
                           "ruleset": "xwing-2.0", "options": {"rounds": 2, "seed": 7}}  # fmt: skip
    assert kinds(commands) == [
        "create_tournament", *(f"register_player:p{i}" for i in range(1, 5)),
        "pair_round", "start_round", "report_result", "report_result",
        "register_player:p5",
        "pair_round", "start_round", "report_result",
        "drop_player:p4", "make_cut", "drop_player:p3",
        "pair_round", "start_round", "report_result",
        "finish_tournament",
    ]  # fmt: skip


def test_a_swiss_round_is_paired_by_hand_in_table_order_with_the_byes_last() -> None:
    pairings = [c for c in commands_of(results()) if c["type"] == "pair_round"]
    assert pairings[0]["pairings"] == [["p1", "p3"], ["p2", "p4"], ["p3"]]
    assert "pairings" not in pairings[2]  # the bracket pairs elimination rounds


def test_a_match_without_a_confirmed_result_is_not_reported() -> None:
    reports = [c for c in commands_of(results()) if c["type"] == "report_result"]
    assert [c["players"] for c in reports if c["round"] == 2] == [["p1", "p2"]]


def test_a_return_read_from_a_csv_is_a_rejoin_where_the_ruleset_has_one() -> None:
    back = [Change("p4", "dropped", 0), Change("p4", "returned", 1)]
    xwing = kinds(commands_of(results(changes=back)))
    swu = kinds(commands_of(results(changes=back, ruleset="swu-1.4", options={})))
    assert "rejoin_player:p4" in xwing and "reinstate_player:p4" in swu


def test_each_stretch_of_missed_rounds_is_a_drop_before_and_a_return_after_it() -> None:
    assert returns_of("p7", [2, 3, 5]) == [
        Change("p7", "dropped", 1), Change("p7", "returned", 3),
        Change("p7", "dropped", 4), Change("p7", "returned", 5),
    ]  # fmt: skip
    assert returns_of("p7", []) == []


def test_standings_differences_name_the_rank_and_a_missing_row() -> None:
    a = [{"rank": 1, "player": "p1"}, {"rank": 2, "player": "p2"}]
    assert standings_differences(a, a) == []
    found = standings_differences(a, [{"rank": 1, "player": "p2"}])
    assert found[0].startswith("rank 1: export") and "ranks 2 players" in found[1]


# reading files -------------------------------------------------------------------------

CSV = (
    "\ufeffrank,player,name,points,wins,losses,draws,dropped,mov,sos,first_round,"
    "missed_rounds,dropped_after_round,status\r\n"
    "1,p1,Ada,1,1,0,0,false,350,0.5,1,,,active\r\n"
    "2,p2,Bo,0,0,1,0,true,50,1,1,,1,dropped\r\n"
    "\r\n"
    "round,stage,table,bracket,player_a,name_a,player_b,name_b,state,games_a,games_b,draws,"
    "points_a,points_b,winner,decided_by,game_results,light,no_show,concession,"
    "intentional_draw,double_loss\r\n"
    "1,swiss,1,,p1,Ada,p2,Bo,confirmed,,,,200,50,,,,,,,,\r\n"
    "\r\n"
    "field,value\r\n"
    "format,tledger-results-csv/1\r\n"
    'options,"{""rounds"":1}"\r\n'
    'tiebreakers,"[""mov"",""sos""]"\r\n'
    "tournament,t\r\nname,Night\r\nruleset,xwing-2.0\r\nseed,7\r\nstage,swiss\r\n"
    "seq,9\r\nhead,abc\r\n"
)


def test_a_csv_reads_back_as_standings_rows_rounds_and_changes() -> None:
    read = read_csv(CSV.encode())
    assert read.standings[0] == {
        "rank": 1, "player": "p1", "name": "Ada", "points": 1,
        "record": {"wins": 1, "losses": 0, "draws": 0}, "dropped": False,
        "tiebreakers": {"mov": 350, "sos": 0.5},
    }  # fmt: skip
    table = PlayedTable(("p1", "p2"), 1, {"points": [200, 50]})
    assert read.rounds == [PlayedRound(1, "swiss", True, [table])]
    assert read.changes == [Change("p2", "dropped", 1)]
    assert (read.seed, read.options, read.finished) == (7, {"rounds": 1}, False)


@pytest.mark.parametrize(
    ("broken", "complaint"),
    [
        (CSV.replace("\r\n\r\nfield,value", "\r\nfield,value"), "expected 3 sections"),
        (CSV.replace("0.5,1,,,active", "half,1,,,active"), "line 2: 'half' is not a number"),
        (CSV.replace("false,350", "maybe,350"), "line 2: 'maybe' is neither true nor false"),
        (CSV.replace(",status\r\n", ",state\r\n"), "line 1: the header lacks status"),
        (
            CSV.replace("200,50,,,,,,,,", "200,50,,,,,,,"),
            "line 6: 21 cells where the header has 22",
        ),
        (CSV.replace("seed,7", "seed,"), "the event section has no seed"),
        (CSV.replace("results-csv/1", "results-csv/9"), "does not name the format"),
        (CSV.replace("1,swiss,1,", "2,swiss,1,"), "the results name rounds [2]"),
    ],
)
def test_a_csv_that_cannot_be_read_is_refused_naming_where(broken: str, complaint: str) -> None:
    with pytest.raises(InvalidResults) as caught:
        read_csv(broken.encode())
    assert complaint in str(caught.value)


def test_a_csv_that_is_not_utf8_is_refused() -> None:
    with pytest.raises(InvalidResults, match="not UTF-8"):
        read_csv(b"rank,\xff\r\n")


def test_a_json_document_is_checked_field_by_field() -> None:
    with pytest.raises(InvalidResults, match="not JSON"):
        read_json(b"{")
    with pytest.raises(InvalidResults, match="format must be 'tledger-results/1'"):
        read_json(b'{"format": "tledger-export/1"}')
    doc = {"format": "tledger-results/1", "tournament": "t", "name": "N", "ruleset": "swu-1.4",
           "options": {}, "seed": 1, "stage": "swiss", "players": [], "roster_changes": [],
           "penalties": [], "standings": [], "seq": 1, "head": "h",
           "rounds": [{"round": 1, "stage": "swiss", "started": True, "byes": [],
                       "matches": [{"players": ["p1"]}]}]}  # fmt: skip
    with pytest.raises(InvalidResults, match=r"rounds\[0\]\.matches\[0\]\.players: not two"):
        read_json(orjson.dumps(doc))
    doc["rounds"] = []
    doc["seed"] = "one"
    with pytest.raises(InvalidResults, match=r"document\.seed: not the JSON type"):
        read_json(orjson.dumps(doc))


# team events (lcg-2.1d "Team-Turniere") -----------------------------------------------

TEAM_CSV = (
    CSV.replace(
        ",status\r\n", ",status,team_name,member_1,member_1_name,member_2,member_2_name\r\n"
    )
    .replace(",,,active\r\n", ",,,active,Rebels,a1,Ada,a2,Ann\r\n")
    .replace(",1,dropped\r\n", ",1,dropped,Bothans,b1,Bo,b2,Bree\r\n")
    .replace('"{""rounds"":1}"', '"{""rounds"":1,""team"":true}"')
    .replace("ruleset,xwing-2.0", "ruleset,lcg-2.1d")
)


def test_a_team_events_csv_registers_each_team_with_its_two_members() -> None:
    read = read_csv(TEAM_CSV.encode())
    registered = [c for c in commands_of(read) if c["type"].startswith("register_")]
    assert registered[0] == {
        "type": "register_team", "tournament": "t", "team": "p1", "name": "Rebels",
        "members": [{"player": "a1", "name": "Ada"}, {"player": "a2", "name": "Ann"}],
    }  # fmt: skip
    assert [c["type"] for c in registered] == ["register_team", "register_team"]


def test_a_team_event_without_its_members_or_teams_elsewhere_are_refused() -> None:
    with pytest.raises(InvalidResults, match="line 3: team 'p2' without its two members"):
        read_csv(TEAM_CSV.replace(",b1,Bo,", ",,Bo,").encode())
    with pytest.raises(InvalidResults, match="names no members of p1, p2"):
        read_csv(CSV.replace('"{""rounds"":1}"', '"{""rounds"":1,""team"":true}"').encode())
    with pytest.raises(InvalidResults, match="not a team event"):
        read_csv(TEAM_CSV.replace(',""team"":true', "").encode())


def test_a_team_event_makes_no_cut_its_final_match_is_paired_with_its_cut() -> None:
    """ "Eine Finalrunde gibt es im Team-Turnier nicht": ``make_cut`` is refused, the
    final match of two teams level at the top comes with ``pair_round``."""
    teams = [Team(p.player, p.name, (Member(f"{p.player}a", "A"), Member(f"{p.player}b", "B")))
             for p in results().players]  # fmt: skip
    team_event = results(ruleset="lcg-2.1d", options={"rounds": 2, "team": True}, teams=teams,
                         changes=[])  # fmt: skip
    assert "make_cut" not in kinds(commands_of(team_event))
    assert "make_cut" in kinds(commands_of(results(changes=[])))


def test_a_drop_during_the_elimination_rounds_comes_after_its_round() -> None:
    late = [Change("p2", "dropped", 3, after_cut=True)]
    assert kinds(commands_of(results(changes=late)))[-2:] == ["drop_player:p2",
                                                             "finish_tournament"]  # fmt: skip
