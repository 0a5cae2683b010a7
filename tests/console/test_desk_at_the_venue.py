"""What the desk reads at a venue: the plan (rounds by players on the new-event form and
the Overview), a warning before round 1 starts with lists expected and missing
(swu-1.4 §3.1.3), tables of a round not started reading "not started", counts in the
number they need, the event's name heading its pages; a typed result refused keeps
what was typed beside its error with the table number selected for the next one, and
a confirmed table links to its correction; a team event counts teams, names its
champion on the public page and takes results by seat; a level elimination match
says how it was decided (swu-1.4 §4.3.2)."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient

from commands.api.public import models_of, page_queries
from commands.handler import Handler
from commands.pages import public as pages
from commands.reads.cache import ReadSide
from commands.reads.views import status
from commands.text.result_text import hint
from ledger.url import open_store
from tests.console.test_organizer import created, flash, registered, run_round_one, seq
from tests.public_event import run

Signer = Callable[..., TestClient]
STATIC = Path(__file__).resolve().parents[2] / "commands" / "console" / "static"


def test_the_new_event_form_shows_the_rulesets_rounds_by_players(sign_in: Signer) -> None:
    console = sign_in()
    page = console.get("/console/new?ruleset=swu-1.4").text
    assert "<td>9–16 players</td>" in page and "<td>4 rounds</td>" in page
    assert "<td>17–32 players</td>" in page and "<td>top 8</td>" in page
    expected = console.get("/console/new?ruleset=swu-1.4&players=24").text
    assert "24 players: 5 rounds, then a top 8 cut" in expected
    assert console.get("/console/new?ruleset=swu-1.4&players=").status_code == 200


def test_the_overview_shows_the_plan_the_events_name_and_tables_not_started(
    sign_in: Signer,
) -> None:
    console = sign_in()
    created(console, tier="casual")
    registered(console)
    before = console.get("/console/t/t1").text
    assert "Plan: <strong>3 Swiss rounds</strong>, no cut" in before
    assert "(for 8 players, by the ruleset's table)" in before
    console.post("/console/t/t1/round/pair", data={})
    page = console.get("/console/t/t1").text
    assert "<h1><bdi>Store Showdown</bdi>" in page and "<title>\u2068Store Showdown\u2069" in page
    assert "Plan: <strong>3 Swiss rounds</strong>, no cut" in page
    assert '<td class="state-not-started">not started</td>' in page and "missing<" not in page
    assert "not started" in console.get("/console/t/t1/round").text
    console.post("/console/t/t1/round/start", data={})
    assert '<td class="state-playing">playing</td>' in console.get("/console/t/t1").text


def test_round_1_warns_when_lists_are_expected_and_missing(sign_in: Signer) -> None:
    console = sign_in()
    created(console, tier="competitive")
    registered(console)
    console.post("/console/t/t1/round/pair", data={})
    warning = "0 of 8 lists submitted (swu-1.4 §3.1.3): starting round 1 locks the lists"
    assert warning in console.get("/console/t/t1/round").text
    assert warning in console.get("/console/t/t1").text
    assert (
        'data-confirm="Start round 1? 0 of 8 lists submitted'
        in console.get("/console/t/t1/round").text
    )
    casual = sign_in()
    created(casual, "t2", tier="casual")
    registered(casual, "t2")
    assert "lists submitted" not in casual.get("/console/t/t2").text


def test_one_result_to_enter_is_said_in_the_singular(sign_in: Signer, handler: Handler) -> None:
    console = sign_in()
    run_round_one(console)
    for table in ("1", "2", "3"):
        console.post("/console/t/t1/results", data={"table": table, "result": "2-0"})
    assert "Round 1 is under way: 1 result to enter" in console.get("/console/t/t1").text


def test_a_refused_line_keeps_what_was_typed_beside_its_error_with_the_table_selected(
    sign_in: Signer, handler: Handler
) -> None:
    console = sign_in()
    run_round_one(console)
    before = seq(handler)
    answer = console.post("/console/t/t1/results", data={"table": "8", "result": "2-0"})
    assert "table=8" in answer.headers["location"] and "result=2-0" in answer.headers["location"]
    page = console.get(answer.headers["location"]).text
    field = re.search(r'<input id="entry-table"[^>]*>', page)
    assert field is not None and 'value="8"' in field.group(0)
    assert "autofocus" in field.group(0) and "data-select" in field.group(0)
    assert 'id="entry-result" name="result" value="2-0"' in page
    assert re.search(r'id="entry-error"[^>]*>round 1 has no table 8<', page)
    assert 'class="flash error"' not in page, "stated once, beside the field"
    assert seq(handler) == before
    script = (STATIC / "console.js").read_text()
    assert 'hasAttribute("data-select")' in script and ".select()" in script


def test_a_confirmed_table_links_to_its_correction_instead_of_naming_a_command(
    sign_in: Signer, handler: Handler
) -> None:
    console = sign_in()
    run_round_one(console)
    console.post("/console/t/t1/results", data={"table": "1", "result": "2-0"})
    before = seq(handler)
    again = console.post("/console/t/t1/results", data={"table": "1", "result": "0-2"})
    assert "correct_result" not in flash(again) and seq(handler) == before
    page = console.get(again.headers["location"]).text
    a, b = handler.folds.state("t1").rounds[0].matches[0].players
    assert "table 1 has a confirmed result: change it with a correction" in page
    assert f'href="/console/t/t1/results/correct?round=1&amp;a={a}&amp;b={b}"' in page


def teams_finished(handler: Handler) -> None:
    """An lcg-2.1d team event of four teams, its two rounds played and finished."""
    run(handler, "tt", {"type": "create_tournament", "name": "Pair Cup", "ruleset": "lcg-2.1d",
                        "options": {"team": True, "rounds": 2}})  # fmt: skip
    for n, (team, members) in enumerate(
        (
            ("Rebel Cell", "Ada Bo"),
            ("Rogue Pair", "Cy Di"),
            ("Twin Suns", "Ed Fay"),
            ("Outer Rim", "Gus Hal"),
        )
    ):
        first, second = members.split()
        run(handler, "tt", {"type": "register_team", "team": f"team{n + 1}", "name": team,
                            "members": [{"player": f"m{2 * n + 1}", "name": first},
                                        {"player": f"m{2 * n + 2}", "name": second}]})  # fmt: skip
    for _ in (1, 2):
        run(handler, "tt", {"type": "pair_round"}, {"type": "start_round"})
        current = handler.folds.state("tt").current
        assert current is not None
        for m in current.matches:
            if len(m.players) == 2:
                run(handler, "tt", {"type": "report_result", "round": current.number,
                                    "players": list(m.players),
                                    "result": {"game_results": [m.players[0]] * 2}})  # fmt: skip
    run(handler, "tt", {"type": "finish_tournament"})


def test_a_team_event_counts_teams_names_its_champion_and_takes_results_by_seat(
    sign_in: Signer, handler: Handler
) -> None:
    teams_finished(handler)
    console = sign_in()
    overview = console.get("/console/t/tt").text
    assert "4 of 4 teams active" in overview and "(a team event makes no cut)" in overview
    state = handler.folds.state("tt")
    champion = status(state).champion
    assert champion is not None
    assert re.search(
        r'class="org-champion">Champion: <strong><bdi>[^<]+ \(\w+, \w+\)</bdi>', overview
    )
    finals = console.get("/console/t/tt/finals").text
    assert f"Champion: <strong><bdi>{champion}</bdi>" not in finals
    assert re.search(r"Champion: <strong><bdi>[^<]+ \(\w+, \w+\)</bdi>", finals)
    assert "Make the cut" not in finals
    assert "1,draw" in hint(state) and "p1" not in hint(state) and "m1" not in hint(state)
    side = ReadSide(handler.folds)
    public = pages.render_page(models_of(side, "tt", side.current("tt", page_queries(None)),
                                         None), "en", '"e"')  # fmt: skip
    assert "4 teams" in public and re.search(r'class="champion">Champion: <strong><bdi>', public)


def test_a_level_semifinal_says_how_it_was_decided_on_the_public_page() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    run(handler, "cut", {"type": "create_tournament", "name": "Cup", "ruleset": "swu-1.4",
                         "options": {"rounds": 1, "cut": 4}})  # fmt: skip
    run(handler, "cut", *({"type": "register_player", "player": f"p{i}", "name": f"N{i}"}
                          for i in range(1, 5)))  # fmt: skip
    run(handler, "cut", {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]},
        {"type": "start_round"})  # fmt: skip
    for pair in (["p1", "p2"], ["p3", "p4"]):
        run(handler, "cut", {"type": "report_result", "round": 1, "players": pair,
                             "result": {"games": [2, 0], "draws": 0}})  # fmt: skip
    run(handler, "cut", {"type": "make_cut"}, {"type": "pair_round"}, {"type": "start_round"})
    semi = handler.folds.state("cut").rounds[-1].matches[0]
    level = {"games": [1, 1], "draws": 1, "winner": semi.players[1], "decided_by": "base_hp"}
    run(handler, "cut", {"type": "report_result", "round": 2, "players": list(semi.players),
                         "result": level})  # fmt: skip
    side = ReadSide(handler.folds)
    public = pages.render_page(models_of(side, "cut", side.current("cut", page_queries(None)),
                                         None), "en", '"e"')  # fmt: skip
    names = handler.store.players("cut")
    assert f'class="decided">level: won on base HP: <bdi>{names[semi.players[1]].name}' in public
