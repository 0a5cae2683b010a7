"""A match slip's report page over HTTP: a player reports through the code on their half
of the slip, the opponent confirms through the code on theirs, a report through one
code waits for the other code or an official, a dispute waits for a judge, and a code
reports as its holder in its own match of its own round and nothing else. A code from
before players held their own works on as it did. Nothing is appended on any refusal.

The main flows run against a real ``tledger serve`` on SQLite and PostgreSQL; the
rest against the application in process (FastAPI's TestClient) on SQLite.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from commands.api.limits import Settings
from commands.handler import Handler
from commands.models import parse_command
from commands.slipcodes import code_hash, issue_codes
from commands.web import create_app
from ledger.slip_rows import STORED_AS
from ledger.store import SlipCodeEntry
from ledger.url import open_store
from tests.e2e.test_http import served, token
from tests.stores import KINDS, store_url

NOW = datetime(2026, 11, 28, 10, 0, tzinfo=UTC)
NAMES = {"p1": "Ada", "p2": "Ben", "p3": "Cyra", "p4": "Dov"}
WON = {"games_0": "2", "games_1": "1", "draws": "0"}
LOST = {"games_0": "1", "games_1": "2", "draws": "0"}


@dataclass
class Event:
    """A tournament with round 1 paired (p1-p2 at table 1, p3-p4 at table 2), and each
    player's slip code of its round 1."""

    url: str
    handler: Handler
    id: str = field(default_factory=lambda: f"s-{uuid.uuid4().hex[:10]}")
    codes: dict[str, str] = field(default_factory=dict)

    def run(self, **command: Any) -> None:
        self.handler.handle(parse_command({"tournament": self.id, **command}))

    def issue(self, round_number: int = 1) -> dict[str, str]:
        state = self.handler.folds.state(self.id)
        self.codes = issue_codes(self.handler.store, state, round_number, now=NOW)
        return self.codes

    @property
    def seq(self) -> int:
        return self.handler.folds.state(self.id).seq

    def status(self, a: str, b: str, round_number: int = 1) -> str:
        rnd = self.handler.folds.state(self.id).round(round_number)
        match = rnd.match_of(a, b) if rnd else None
        assert match is not None
        return match.status

    def reports(self) -> list[dict[str, Any]]:
        return [r.as_json() for r in self.handler.store.load(self.id)
                if r.event.type == "result_reported"]  # fmt: skip

    def match_code(self, code: str, players: tuple[str, str] = ("p1", "p2")) -> str:
        """A code of the whole match, as issued before players held their own."""
        entry = SlipCodeEntry(code_hash(code.replace("-", "")), self.id, 1, players, NOW)
        self.handler.store.put_slip_codes([entry])
        return code


def make_event(url: str, ruleset: str = "swu-1.4", start: bool = True) -> Event:
    event = Event(url, Handler(open_store(url)))
    event.run(type="create_tournament", name="Slip Night", ruleset=ruleset)
    for player, name in NAMES.items():
        event.run(type="register_player", player=player, name=name)
    event.run(type="pair_round", pairings=[["p1", "p2"], ["p3", "p4"]])
    if start:
        event.run(type="start_round")
    event.issue()
    return event


def forget_codes(url: str, tournament: str) -> None:
    """The shared PostgreSQL keeps no codes of a test (its events stay, as every test's)."""
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as db:
            db.execute(f"DELETE FROM {STORED_AS} WHERE tournament = %s", (tournament,))


@pytest.fixture(params=KINDS, scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """A served SQLite or PostgreSQL store, one for the module's tests: its URL and the
    server's base URL."""
    url = store_url(request.param, tmp_path_factory.mktemp("slips"), "slips.sqlite3")
    with served(url) as base:
        yield url, base


@pytest.fixture
def live(server: tuple[str, str]) -> Iterator[tuple[Event, str]]:
    """An event of its own on the served store, and the server's base URL."""
    url, base = server
    event = make_event(url)
    try:
        yield event, base
    finally:
        forget_codes(url, event.id)


@pytest.fixture
def local(tmp_path: Path) -> Event:
    return make_event(f"sqlite:///{tmp_path / 'slips.sqlite3'}")


def client(event: Event, settings: Settings | None = None, **options: Any) -> TestClient:
    return TestClient(create_app(event.handler, settings, **options))


def state_line(page: str) -> str:
    """The text of the page's state box (the names' isolation left out)."""
    start = page.index('id="state">') + len('id="state">')
    return " ".join(re.sub("</?bdi>", "", page[start : page.index("</div>", start)]).split())


def post(http: Any, code: str, player: str | None = None, **fields: str) -> Any:
    """The slip form as sent through ``code`` (``player``: the reporter it names)."""
    named = {"player": player} if player is not None else {}
    return http.post(f"/s/{code}", data={**named, **fields})


def test_a_report_through_one_player_s_code_is_confirmed_through_the_opponent_s(
    live: tuple[Event, str],
) -> None:
    event, base = live
    ada, ben = event.codes["p1"], event.codes["p2"]
    with httpx.Client(base_url=base, timeout=30) as http:
        page = http.get(f"/s/{ada}")
        assert page.status_code == 200 and "Ada" in page.text and "Ben" in page.text
        assert state_line(page.text) == "No result yet"
        assert "Your code, <bdi>Ada</bdi>" in page.text and 'name="player"' not in page.text
        first = post(http, ada, **WON)
        assert first.status_code == 200, first.text
        assert state_line(first.text) == "Thanks — waiting for Ben to confirm"
        assert "<bdi>Ben</bdi> confirms with the code on their own half of the slip." in first.text
        assert 'class="confirm"' not in first.text, "Ada's code never confirms as Ben"
        assert event.status("p1", "p2") == "unconfirmed"
        waiting = http.get(f"/s/{ben.lower().replace('-', '')}")  # as typed
        assert "Your code, <bdi>Ben</bdi>" in waiting.text
        assert "I am <bdi>Ben</bdi>: confirm" in waiting.text
        assert state_line(waiting.text) == "Ada reported: confirm if it is right"
        confirm = waiting.text[waiting.text.index('class="confirm"') :]
        second = post(http, ben, **dict(field_pairs(confirm[: confirm.index("</form>")])))
        assert second.status_code == 200, second.text
        assert state_line(second.text) == "Thanks — the result is confirmed"
    assert event.status("p1", "p2") == "confirmed"
    assert [r["actor"] for r in event.reports()] == [
        {"role": "player", "id": "p1"}, {"role": "player", "id": "p2"}]  # fmt: skip
    assert {r["result"]["games"] == [2, 1] for r in event.reports()} == {True}


def test_one_player_s_code_cannot_confirm_as_the_opponent(local: Event) -> None:
    http = client(local)
    ada = local.codes["p1"]
    assert post(http, ada, **WON).status_code == 200
    seq = local.seq
    forged = post(http, ada, "p2", **WON)
    assert forged.status_code == 403
    assert "reports as its holder only" in forged.text
    assert http.post(f"/s/{ada}", json={"player": "p2", **WON}).status_code == 403
    assert local.seq == seq and local.status("p1", "p2") == "unconfirmed"
    assert [r["actor"]["id"] for r in local.reports()] == ["p1"]


def test_a_report_through_one_code_waits_for_an_official_when_the_opponent_never_confirms(
    local: Event,
) -> None:
    http = client(local)
    assert post(http, local.codes["p1"], **WON).status_code == 200
    assert local.status("p1", "p2") == "unconfirmed"
    local.run(type="report_result", round=1, players=["p1", "p2"],
              result={"games": [2, 1], "draws": 0})  # fmt: skip
    assert local.status("p1", "p2") == "confirmed"
    assert state_line(http.get(f"/s/{local.codes['p2']}").text) == "Confirmed"


def test_a_code_from_before_players_held_their_own_reports_as_either_player(
    local: Event,
) -> None:
    http = client(local)
    code = local.match_code("HHHH-JJJJ")
    page = http.get(f"/s/{code}").text
    assert 'name="player"' in page and "Your code" not in page
    assert post(http, code, **WON).status_code == 422, "it says who reports"
    assert post(http, code, "p1", **WON).status_code == 200
    assert "I am <bdi>Ben</bdi>: confirm" in http.get(f"/s/{code}").text
    assert post(http, code, "p2", **WON).status_code == 200
    assert local.status("p1", "p2") == "confirmed"


def test_differing_reports_wait_for_a_judge_whose_report_decides(live: tuple[Event, str]) -> None:
    event, base = live
    ada, ben = event.codes["p1"], event.codes["p2"]
    judge = token(event.url, "--role", "judge", "--tournament", event.id)
    with httpx.Client(base_url=base, timeout=30) as http:
        assert post(http, ada, **WON).status_code == 200
        differing = post(http, ben, **LOST)
        assert differing.status_code == 200
        assert state_line(differing.text) == "Your reports differ: a judge will decide"
        assert event.status("p1", "p2") == "disputed"
        decided = http.post("/commands", headers={"Authorization": f"Bearer {judge}"}, json={
            "type": "report_result", "tournament": event.id, "round": 1,
            "players": ["p1", "p2"], "result": {"games": [2, 1], "draws": 0}})  # fmt: skip
        assert decided.status_code == 200, decided.text
        disputed = decided.json()["events"][0]["disputed"]
        assert [d["player"] for d in disputed] == ["p2"]
        assert state_line(http.get(f"/s/{ada}").text) == "Confirmed"
        seq = event.seq
        refused = post(http, ben, **LOST)
        assert refused.status_code == 409
        assert "This result is confirmed; ask a judge to correct it." in refused.text
    assert event.seq == seq
    assert event.status("p1", "p2") == "confirmed"


def test_a_code_reports_only_its_own_match(local: Event) -> None:
    http = client(local)
    code = local.codes["p1"]
    page = http.get(f"/s/{code}").text
    assert "Cyra" not in page and "Dov" not in page and "p3" not in page
    seq = local.seq
    forged = post(http, code, "p3", **WON)
    assert forged.status_code == 403
    assert "reports as its holder only" in forged.text
    old = local.match_code("HHHH-JJJJ", ("p3", "p4"))
    assert "reports only its own match" in post(http, old, "p1", **WON).text
    absent = post(http, code, no_show="p3")
    assert absent.status_code == 422 and "not a player of this match" in absent.text
    assert local.seq == seq and local.reports() == []
    assert local.status("p3", "p4") == "pending"
    assert http.get(f"/tournaments/{local.id}/log").status_code == 401, "no token, no log"


def test_a_round_1_code_reports_only_round_1_and_nothing_once_it_is_confirmed(
    local: Event,
) -> None:
    old = local.codes["p1"]
    for players in (["p1", "p2"], ["p3", "p4"]):
        local.run(type="report_result", round=1, players=players, result={"games": [2, 0],
                                                                         "draws": 0})  # fmt: skip
    local.run(type="pair_round", pairings=[["p1", "p3"], ["p2", "p4"]])
    local.run(type="start_round")
    http = client(local)
    page = http.get(f"/s/{old}").text
    assert "Round 1 · Table 1" in page and "Cyra" not in page
    assert state_line(page) == "Confirmed"
    assert 'id="report"' not in page, "no form for a confirmed match"
    seq = local.seq
    used = post(http, old, **WON)
    assert used.status_code == 409
    assert "This result is confirmed; ask a judge to correct it." in used.text
    assert local.seq == seq
    assert local.status("p1", "p3", round_number=2) == "pending"


def test_a_replaced_code_is_unknown_and_the_new_one_works(local: Event) -> None:
    old = local.codes["p1"]
    new = local.issue()["p1"]
    http = client(local)
    gone = http.get(f"/s/{old}")
    assert gone.status_code == 404 and "No match has this code." in gone.text
    assert "Ada" not in gone.text
    seq = local.seq
    assert post(http, old, **WON).status_code == 404
    assert local.seq == seq
    assert http.get(f"/s/{new}").status_code == 200


def test_a_round_not_started_shows_the_match_and_takes_no_report(tmp_path: Path) -> None:
    event = make_event(f"sqlite:///{tmp_path / 'early.sqlite3'}", start=False)
    http = client(event)
    code = event.codes["p1"]
    page = http.get(f"/s/{code}").text
    assert "The round has not started yet" in page and 'id="report"' not in page
    seq = event.seq
    early = post(http, code, **WON)
    assert early.status_code == 409 and "has not started" in early.text
    assert event.seq == seq


def field_pairs(form: str) -> list[tuple[str, str]]:
    """The hidden fields of a form's HTML, as (name, value) (player as the first keyword)."""
    pairs = []
    for chunk in form.split("<input")[1:]:
        name = chunk.split('name="')[1].split('"')[0]
        value = chunk.split('value="')[1].split('"')[0]
        pairs.append((name, value))
    return pairs
