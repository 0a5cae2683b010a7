"""The limited and team formats in the organizer's console (which does everything the
CLI does): an lcg-2.1d team event registered by paste and paired, an SWU draft's
pods and deck building, options changed before round 1 and refused after, and the
tables still playing after their time marked on the Results page."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from ledger.url import open_store
from tests.console.test_organizer import flash, registered, seq

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
TEAMS = ["Rebel Cell; Ada; Ben", "Rogue Pair; Cid; Dex", "Twin Suns\tEli\tFin",
         "Outer Rim, Gia, Hux"]  # fmt: skip


class Clock:
    """The shell's time now, moved on by a test (``Handler(clock=...)``)."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def handler(clock: Clock) -> Handler:
    """The console's handler with a time the test moves (overrides conftest's)."""
    return Handler(open_store(f"memory://{uuid.uuid4().hex}"), clock=clock)


def created(console: TestClient, ruleset: str, t: str, **options: str) -> Any:
    fields = {"ruleset": ruleset, "tournament": t, "name": "Format Night",
              **{f"{ruleset}.{k}": v for k, v in options.items()}}  # fmt: skip
    return console.post("/console/new", data=fields)


def limited(console: TestClient, deck_format: str) -> TestClient:
    """``console`` after creating t1 in ``deck_format`` and pasting eight names."""
    created(console, "swu-1.4", "t1", deck_format=deck_format)
    registered(console)
    return console


def deck(affiliation: str) -> dict[str, Any]:
    sets = [{"set": f"{affiliation} set", "number": n} for n in range(1, 11)]
    return {"affiliation": affiliation, "objective_sets": sets}


# lcg-2.1d "Team-Turniere"


def test_the_new_event_form_offers_lcg_team_events_and_their_round_time(
    sign_in: Callable[..., TestClient],
) -> None:
    page = sign_in().get("/console/new?ruleset=lcg-2.1d").text
    assert 'name="lcg-2.1d.team"' in page and '<option value="true">' in page
    assert "default: 70; 90 with team true" in page  # lcg-2.1d Team-Turniere "Wertung"


def test_a_team_event_is_registered_by_pasting_teams_and_its_round_1_is_paired(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    answer = created(console, "lcg-2.1d", "teams", team="true", round_minutes="90")
    assert "error" not in answer.headers["location"], flash(answer)
    state = handler.folds.state("teams")
    assert state.options["team"] is True and state.options["round_minutes"] == 90
    page = console.get("/console/t/teams/players").text
    assert "Register a team" in page and "Paste teams" in page and "Paste a list" not in page
    assert 'value="team1"' in page and 'value="p1"' in page and 'value="p2"' in page
    before = seq(handler, "teams")
    answer = console.post("/console/t/teams/players/paste-teams", data={"list": "\n".join(TEAMS)})
    assert "registered 4 teams" in flash(answer)
    state = handler.folds.state("teams")
    assert state.seq == before + 4  # one append of four team_registered
    assert state.teams == {"team1": ("p1", "p2"), "team2": ("p3", "p4"),
                           "team3": ("p5", "p6"), "team4": ("p7", "p8")}  # fmt: skip
    page = console.get("/console/t/teams/players").text
    assert "Rebel Cell (Ada, Ben)" in page and "Hux" in page and "p8" in page
    assert 'value="team5"' in page and 'value="p9"' in page and 'value="p10"' in page
    answer = console.post("/console/t/teams/round/pair", data={})
    assert "paired" in flash(answer) and "error" not in flash(answer)
    assert len(handler.folds.state("teams").rounds[0].matches) == 2
    assert "Rebel Cell (Ada, Ben)" in console.get("/console/t/teams/round").text


def test_one_team_registers_with_its_members_and_a_pasted_line_of_two_names_is_refused(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    created(console, "lcg-2.1d", "teams", team="true")
    answer = console.post("/console/t/teams/players/register-team", data={
        "team": "rebels", "name": "Rebel Cell", "member1": "a1", "member1_name": "Ada",
        "member2": "a2", "member2_name": "Ben"})  # fmt: skip
    assert "registered team Rebel Cell" in flash(answer)
    assert handler.folds.state("teams").teams == {"rebels": ("a1", "a2")}
    before = seq(handler, "teams")
    answer = console.post("/console/t/teams/players/paste-teams",
                          data={"list": "Rogue Pair; Cid; Dex\nLonely; Eve"})  # fmt: skip
    assert "line 2: a team is 'Team name; Member 1; Member 2'" in flash(answer)
    answer = console.post("/console/t/teams/players/register",
                          data={"player": "p9", "name": "Solo"})  # fmt: skip
    assert "is a team tournament; register players as a team of two" in flash(answer)
    assert seq(handler, "teams") == before


def test_a_teams_four_decks_are_submitted_as_json_on_the_lists_page(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    created(console, "lcg-2.1d", "teams", team="true")
    console.post("/console/t/teams/players/paste-teams", data={"list": TEAMS[0]})
    page = console.get("/console/t/teams/lists").text
    assert "The team's four decks" in page and "Rebel Cell (Ada, Ben)" in page
    decks = {
        "members": {
            "p1": {"light": deck("Jedi"), "dark": deck("Sith")},
            "p2": {"light": deck("Rebel Alliance"), "dark": deck("Imperial Navy")},
        }
    }
    pasted = {"player": "team1", "list": orjson.dumps(decks).decode()}
    answer = console.post("/console/t/teams/lists/submit", data=pasted)
    assert "list of team1 recorded" in flash(answer), flash(answer)
    assert "team1" in handler.folds.state("teams").lists
    assert "submitted" in console.get("/console/t/teams/lists").text


# swu-1.4 §2.3.2 limited events


def test_a_drafts_pods_are_assigned_shown_and_printed_before_deck_building(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = limited(sign_in(), "draft")
    assert "assign the draft pods" in console.get("/console/t/t1").text
    page = console.get("/console/t/t1/round").text
    assert "Assign pods" in page and "Start deck building" not in page
    answer = console.post("/console/t/t1/round/pods", data={"size": "4", "seed": "7"})
    assert "pods assigned" in flash(answer)
    pods = handler.folds.state("t1").pods
    assert pods is not None and pods.seed == 7 and [len(p.players) for p in pods.pods] == [4, 4]
    page = console.get("/console/t/t1/round").text
    first = pods.pods[0].players[0]
    assert "Pod 2" in page and "Seat 4" in page and first in page
    assert 'href="/console/t/t1/print/pods"' in page and "Assign pods again" in page
    printed = console.get("/console/t/t1/print/pods")
    assert printed.status_code == 200 and "Ada" in printed.text
    assert "start deck building" in console.get("/console/t/t1").text


def test_deck_building_starts_with_its_end_and_a_countdown_and_then_round_1_is_next(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = limited(sign_in(), "sealed")
    assert "Assign pods" not in console.get("/console/t/t1/round").text
    answer = console.post("/console/t/t1/round/deckbuilding", data={"minutes": "45"})
    assert "deck building started" in flash(answer)
    ends = NOW + timedelta(minutes=45)
    page = console.get("/console/t/t1/round").text
    assert f'data-ends="{ends.isoformat()}"' in page and "ends <strong>09:45 UTC</strong>" in page
    overview = console.get("/console/t/t1").text
    assert "pair round 1" in overview and f'data-ends="{ends.isoformat()}"' in overview
    answer = console.post("/console/t/t1/round/deckbuilding", data={})
    assert "deck building started already at 09:00 UTC" in flash(answer)


def test_draft_deck_building_is_refused_before_the_pods_and_takes_30_minutes_by_default(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = limited(sign_in(), "draft")
    answer = console.post("/console/t/t1/round/deckbuilding", data={})
    assert "assign_pods first" in flash(answer)
    console.post("/console/t/t1/round/pods", data={})
    console.post("/console/t/t1/round/deckbuilding", data={})
    started = handler.folds.state("t1").deck_building
    assert started is not None and started.minutes == 30


def test_a_judge_cannot_assign_pods(sign_in: Callable[..., TestClient], handler: Handler) -> None:
    limited(sign_in(), "draft")
    before = seq(handler)
    judge = sign_in("judge", "t1")
    assert "error" in flash(judge.post("/console/t/t1/round/pods", data={}))
    assert seq(handler) == before


# change_options (tledger change-options)


def test_options_change_before_round_1_with_null_back_to_the_default_and_not_after(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    created(console, "swu-1.4", "t1", rounds="5")
    registered(console)
    page = console.get("/console/t/t1").text
    assert "Change options" in page and 'name="option.format"' in page and "now: 5" in page
    answer = console.post("/console/t/t1/options", data={
        "option.format": "bo1", "option.rounds": "null", "option.tier": "",
        "reason": "store rules"})  # fmt: skip
    assert "options changed: format, rounds" in flash(answer), flash(answer)
    state = handler.folds.state("t1")
    assert state.options["format"] == "bo1" and "rounds" not in state.options
    assert state.options["tier"] == "competitive"
    assert "no option given" in flash(console.post("/console/t/t1/options", data={}))
    console.post("/console/t/t1/round/pair", data={})
    before = seq(handler)
    answer = console.post("/console/t/t1/options", data={"option.format": "bo3"})
    assert "error=round 1 is paired: options are fixed" in flash(answer)
    assert seq(handler) == before
    assert "Change options" not in console.get("/console/t/t1").text


# round clocks: over time


def test_the_results_page_marks_tables_still_playing_after_their_time(
    sign_in: Callable[..., TestClient], handler: Handler, clock: Clock
) -> None:
    console = sign_in()
    created(console, "swu-1.4", "t1")
    registered(console)
    console.post("/console/t/t1/round/pair", data={})
    console.post("/console/t/t1/round/start", data={})
    assert "over time" not in console.get("/console/t/t1/results").text
    console.post("/console/t/t1/results", data={"table": "1", "result": "2-0"})
    clock.now = NOW + timedelta(hours=3)
    page = console.get("/console/t/t1/results").text
    assert "3 over time" in page
    assert "Table 1 · " not in page and page.count('class="over-time">over time') == 3
