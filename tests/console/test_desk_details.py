"""What a tired organizer reads at the desk: a table without a report reads "playing"
while its time runs and "missing" in amber once it is over (a table's extension keeps
it playing); the Cut & finish page lists who made the cut, by seed, with the Swiss
record they made it with; a refusal that names teams or players by id (the lifecycle
and the deciders know ids only) names them by their registered names."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.models import parse_command
from commands.reads.people import named_sentence
from projections.lifecycle import final_teams
from projections.standings import swiss_standings
from tests.console.test_formats import NOW, Clock, clock, handler
from tests.console.test_lifecycle import play_swiss
from tests.console.test_organizer import flash, run_round_one, with_players

FSI, PDI = "\u2068", "\u2069"
__all__ = ["clock", "handler"]  # the fixtures, used by name: a time the test moves


def states(page: str, pattern: str) -> dict[str, str]:
    """Table number -> the state the page shows it in (``pattern`` has the groups
    ``table``, ``cls`` and ``state``), checking the class agrees with the words."""
    found = {}
    for m in re.finditer(pattern, page, re.S):
        assert m["cls"] == m["state"].replace(" ", "-"), m.group(0)
        found[m["table"]] = m["state"]
    return found


def chips(page: str) -> dict[str, str]:
    return states(page, r'class="chip state-(?P<cls>[\w-]+)"[^>]*>Table (?P<table>\d+) · '
                        r"(?P<state>[\w ]+?)(?: · |</a>)")  # fmt: skip


def cards(page: str) -> dict[str, str]:
    return states(page, r'Table (?P<table>\d+)\s*<span class="state-(?P<cls>[\w-]+)">'
                        r"(?P<state>[\w ]+)</span>")  # fmt: skip


def rows(page: str) -> dict[str, str]:
    return states(page, r"<tr><td>(?P<table>\d+)</td>.*?<td class=\"state-(?P<cls>[\w-]+)\">"
                        r"(?P<state>[\w ]+)</td></tr>")  # fmt: skip


def test_a_table_reads_playing_while_its_time_runs_and_missing_once_it_is_over(
    sign_in: Callable[..., TestClient], handler: Handler, clock: Clock
) -> None:
    """swu-1.4 §4.3.1: a Bo3 Swiss round lasts 55 minutes; a judge's extension moves
    that table's end."""
    console = sign_in()
    run_round_one(console)
    playing = {"1": "playing", "2": "playing", "3": "playing", "4": "playing"}
    results = console.get("/console/t/t1/results").text
    assert chips(results) == playing and "state-missing" not in results
    assert "<strong>4</strong> playing · <strong>0</strong> missing" in results
    assert results.count('<span class="state-playing">playing</span>') == 4, "the round's list"
    assert cards(console.get("/console/t/t1/round").text) == playing
    overview = console.get("/console/t/t1").text
    assert rows(overview) == playing and "4 playing, 0 missing, 0 disputed" in overview
    first = handler.folds.state("t1").rounds[0].matches[0].players
    extension = {"round": "1", "minutes": "10", "match": " ".join(first)}
    assert "time extension granted" in flash(console.post("/console/t/t1/judge/extension",
                                                          data=extension))  # fmt: skip
    clock.now = NOW + timedelta(minutes=60)
    late = {"1": "playing", "2": "missing", "3": "missing", "4": "missing"}
    results = console.get("/console/t/t1/results").text
    assert (
        chips(results) == late
        and "<strong>1</strong> playing · <strong>3</strong> missing" in results
    )
    assert results.count('class="over-time">over time') == 3
    assert results.count('<span class="state-missing">missing</span>') == 3
    assert cards(console.get("/console/t/t1/round").text) == late
    overview = console.get("/console/t/t1").text
    assert rows(overview) == late and "1 playing, 3 missing, 0 disputed" in overview
    clock.now = NOW + timedelta(minutes=65)
    assert set(chips(console.get("/console/t/t1/results").text).values()) == {"missing"}


def test_a_reported_table_keeps_its_state_while_the_round_is_played(
    sign_in: Callable[..., TestClient],
) -> None:
    console = sign_in()
    run_round_one(console)
    console.post("/console/t/t1/results", data={"table": "2", "result": "2-0"})
    results = console.get("/console/t/t1/results").text
    assert chips(results) == {"1": "playing", "3": "playing", "4": "playing"}
    assert cards(console.get("/console/t/t1/round").text)["2"] == "confirmed"


def test_the_cut_page_lists_the_top_cut_by_seed_with_names_and_records(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = with_players(sign_in())
    play_swiss(console, handler)
    assert "Top 4 cut" not in console.get("/console/t/t1/finals").text
    assert "cut made" in flash(console.post("/console/t/t1/finals/cut", data={"size": "4"}))
    page = console.get("/console/t/t1/finals").text
    assert "Top 4 cut" in page
    listed = page.split("Top 4 cut")[1].split("</ol>")[0]
    state = handler.folds.state("t1")
    assert state.cut is not None
    names = handler.store.players("t1")
    records = {s.player: s.scores.record for s in swiss_standings(state)}
    shown = re.findall(
        r'<span class="org-rank">(\d+)</span> <strong><bdi>([^<]+)</bdi></strong>'
        r' <span class="muted">(\w+)</span>\s*<span>(\d+-\d+-\d+)</span>',
        listed,
    )
    expected = [(str(n), names[p].name, p,
                 f"{records[p].wins}-{records[p].losses}-{records[p].draws}")
                for n, p in enumerate(state.cut.seeds, start=1)]  # fmt: skip
    assert shown == expected and len(shown) == 4
    assert shown[0][3] == "3-0-0", "the top seed won every Swiss round"


def run(handler: Handler, t: str, **command: Any) -> None:
    handler.handle(parse_command({"tournament": t, **command}))


def team(tid: str, name: str, *members: tuple[str, str]) -> dict[str, Any]:
    return {"type": "register_team", "team": tid, "name": name,
            "members": [{"player": p, "name": n} for p, n in members]}  # fmt: skip


def test_a_refusal_names_the_teams_level_on_points_by_their_names(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    """lcg-2.1d "Team-Turniere": two teams level on points at the top after the Swiss
    rounds play a final match, so the finish is refused until it is played."""
    run(handler, "teams", type="create_tournament", name="Team Night", ruleset="lcg-2.1d",
        options={"team": True, "rounds": 1})  # fmt: skip
    run(handler, "teams", **team("team1", "Rebel Cell", ("p1", "Ada"), ("p2", "Ben")))
    run(handler, "teams", **team("team2", "Rogue Pair", ("p3", "Cid"), ("p4", "Dex")))
    run(handler, "teams", **team("team3", "Twin Suns", ("p5", "Eli"), ("p6", "Fin")))
    run(handler, "teams", **team("team4", "Outer Rim", ("p7", "Gia"), ("p8", "Hux")))
    run(handler, "teams", type="pair_round", pairings=[["team1", "team2"], ["team3", "team4"]])
    run(handler, "teams", type="start_round")
    for a, b in (("team1", "team2"), ("team3", "team4")):
        run(handler, "teams", type="report_result", round=1, players=[a, b],
            result={"game_results": [a, a]})  # fmt: skip
    console = sign_in()
    answer = flash(console.post("/console/t/teams/finals/finish", data={}))
    top = final_teams(handler.folds.state("teams"))
    assert top is not None and set(top) == {"team1", "team3"}
    named = {"team1": "Rebel Cell (Ada, Ben)", "team3": "Twin Suns (Eli, Fin)"}
    level = (f"{FSI}{named[top[0]]}{PDI} and {FSI}{named[top[1]]}{PDI} are level on points: "
             "pair_round pairs their final match")  # fmt: skip
    assert level in answer, answer
    assert "team1" not in answer and "team3" not in answer
    assert not handler.folds.state("teams").finished


def test_ids_in_a_sentence_are_named_as_whole_words_only() -> None:
    names = {"p1": "Ada", "p10": "Bo", "team1": "Rebel Cell (Ada, Bo)"}
    assert named_sentence("p10 and p1 v team1: p1x, xp1, p1-b, p1.", names) == (
        "Bo and Ada v Rebel Cell (Ada, Bo): p1x, xp1, p1-b, Ada."
    )
    assert named_sentence("p3 dropped", names) == "p3 dropped", "an erased player keeps the id"
    assert named_sentence("p1 won", names, lambda n: f"[{n}]") == "[Ada] won"
    numbered = {"8": "Ada", "12649": "Bo"}
    assert named_sentence("round 2: table 8 needs 12649", numbered) == (
        "round 2: table 8 needs 12649"
    ), "digits read as rounds and tables"
