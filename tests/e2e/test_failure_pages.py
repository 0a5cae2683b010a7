"""Failures people can read: on a damaged copy of a store, every HTML face (the console
and its printouts, the public page, the projector's clock, the slip page) answers a page
of its own style and language that names the event, the damaged seq and the way out
(the projector's in type read across the room), with the status the API gives (503),
while the JSON API keeps its one-line JSON; the console marks the event on its home
list and its audit pages still read the log up to the damage; a read ``as_of`` a seq
before the damage is served, one at or past it is not. Against a real ``tledger
serve`` on SQLite and PostgreSQL; the limits' 429 pages in process (FastAPI's
TestClient, the limits set low)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from commands.api.limits import Settings
from commands.handler import Handler
from commands.tokens import create_token
from commands.web import create_app
from commands.web.app import face_of
from ledger.errors import StoreUnavailable
from ledger.url import open_store
from tests.e2e.test_damaged_store import flip
from tests.e2e.test_http import served
from tests.e2e.test_slip_report import WON, Event, make_event, post
from tests.stores import KINDS, own_database, store_url

DAMAGED = 6  # of 7: created, four players, round 1 paired (the damaged event), started


@dataclass
class Venue:
    """A store with an intact event and a damaged copy's event, served."""

    url: str
    base: str
    damaged: Event
    intact: Event
    secret: str

    def console(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, cookies={"tledger_console": self.secret},
                            timeout=30)  # fmt: skip

    def api(self) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.secret}"}
        return httpx.Client(base_url=self.base, headers=headers, timeout=30)

    def players(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, timeout=30)


@pytest.fixture(scope="module", params=KINDS)
def venue(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
          ) -> Iterator[Venue]:  # fmt: skip
    """On SQLite, or a PostgreSQL database of the module's own (a damaged stream in the
    shared one would break every test beside it that reads the whole store)."""
    shared = store_url(request.param, tmp_path_factory.mktemp("failures"), "venue.sqlite3")
    with own_database(shared) as url:
        damaged, intact = make_event(url), make_event(url)
        flip(url, damaged.id, DAMAGED)
        secret = create_token(open_store(url), "organizer", None, None)
        with served(url) as base:
            yield Venue(url, base, damaged, intact, secret)


def integrity_page(answer: httpx.Response, tournament: str) -> str:
    """The page's text, after checking that it is an HTML integrity page naming the seq."""
    assert answer.status_code == 503, (answer.request.url, answer.text[:300])
    assert answer.headers["content-type"].startswith("text/html"), answer.request.url
    text = answer.text
    assert text.startswith("<!doctype html>") and '{"error"' not in text
    assert f"seq {DAMAGED}" in text.lower(), answer.request.url
    words = re.sub(r"<[^>]+>", "", text)  # the command's words are kept from breaking
    assert f"tledger replay {tournament} --until {DAMAGED - 1}" in words
    assert f'href="/console/t/{tournament}/audit#verify"' in text
    return text


def test_every_console_page_answers_a_damaged_log_with_the_console_s_page(venue: Venue) -> None:
    t = venue.damaged.id
    with venue.console() as console:
        for path in ("", "/players", "/round", "/results", "/judge", "/print/pairings",
                     "/print/standings"):  # fmt: skip
            text = integrity_page(console.get(f"/console/t/{t}{path}"), t)
            assert "tledger console" in text and "What to do" in text
            assert "Restore the store from a backup" in text
            assert f'href="/console/t/{t}/audit?as_of={DAMAGED - 1}"' in text


def test_the_public_page_the_projector_and_the_slip_page_answer_a_players_page(
    venue: Venue,
) -> None:
    t, code = venue.damaged.id, venue.damaged.codes["p1"]
    before = len(open_store(venue.url).load_raw(t))
    with venue.players() as players:
        for path in (f"/t/{t}", f"/t/{t}/content", f"/t/{t}/clock", f"/t/{t}/clock/content",
                     f"/s/{code}"):  # fmt: skip
            text = integrity_page(players.get(path), t)
            assert "The results record of this event is damaged" in text
            assert 'http-equiv="refresh"' in text and "/static/failure.css" in text
        text = integrity_page(players.get(f"/t/{t}", params={"lang": "de"}), t)
        assert "Beschädigt bei Seq 6" in text and '<html lang="de">' in text
        german = {"Accept-Language": "de-DE,de;q=0.9"}
        assert "beschädigt" in integrity_page(players.get(f"/s/{code}", headers=german), t)
        integrity_page(post(players, code, **WON), t)
    assert len(open_store(venue.url).load_raw(t)) == before, "nothing appended"


def test_the_api_keeps_its_json_errors(venue: Venue) -> None:
    t = venue.damaged.id
    with venue.api() as api:
        answer = api.get(f"/tournaments/{t}/standings")
        assert answer.status_code == 503
        assert answer.json()["error"].startswith(f"integrity: seq {DAMAGED}: hash does not")
        refused = api.post("/commands", json={"type": "drop_player", "tournament": t,
                                              "player": "p4"})  # fmt: skip
        assert refused.status_code == 503 and "integrity: seq 6" in refused.json()["error"]
        unknown = api.get("/tournaments/nothing-here/status")
        assert unknown.status_code == 404 and set(unknown.json()) == {"error"}
        assert api.get("/no/such/route").json() == {"detail": "Not Found"}


@pytest.mark.parametrize("view", ["status", "standings", "pairings", "clock", "players"])
def test_a_read_as_of_a_seq_before_the_damage_is_served_and_one_past_it_is_not(
    venue: Venue, view: str
) -> None:
    t = venue.damaged.id
    with venue.api() as api:
        before = api.get(f"/tournaments/{t}/{view}", params={"as_of": DAMAGED - 1})
        assert before.status_code == 200, before.text
        assert before.json()["seq"] == DAMAGED - 1
        for point in (DAMAGED, DAMAGED + 1):
            after = api.get(f"/tournaments/{t}/{view}", params={"as_of": point})
            assert after.status_code == 503 and f"seq {DAMAGED}" in after.json()["error"]


def test_the_log_as_of_a_seq_before_the_damage_holds_its_events(venue: Venue) -> None:
    with venue.api() as api:
        log = api.get(f"/tournaments/{venue.damaged.id}/log", params={"as_of": DAMAGED - 1})
        assert [e["seq"] for e in log.json()["events"]] == list(range(1, DAMAGED))


def test_a_read_as_of_a_time_before_the_damage_is_served_and_one_after_it_is_not(
    venue: Venue,
) -> None:
    t = venue.damaged.id
    with venue.api() as api:
        log = api.get(f"/tournaments/{t}/log", params={"as_of": DAMAGED - 1}).json()
        third = log["events"][2]["at"]
        status = api.get(f"/tournaments/{t}/status", params={"as_of": third})
        assert status.status_code == 200 and status.json()["seq"] == 3
        later = api.get(f"/tournaments/{t}/status", params={"as_of": "2999-01-01T00:00:00Z"})
        assert later.status_code == 503 and f"seq {DAMAGED}" in later.json()["error"]


def test_the_console_home_marks_the_damaged_event_only(venue: Venue) -> None:
    with venue.console() as console:
        home = console.get("/console")
    assert home.status_code == 200
    assert home.text.count(f"damaged at seq {DAMAGED}") == 1
    row = home.text.split(f'href="/console/t/{venue.damaged.id}"')[1].split("</tr>")[0]
    assert f"damaged at seq {DAMAGED}" in row
    assert f'href="/console/t/{venue.damaged.id}/audit#verify"' in row


def test_the_history_reads_the_log_up_to_the_damage_and_names_it(venue: Venue) -> None:
    t = venue.damaged.id
    with venue.console() as console:
        history = console.get(f"/console/t/{t}/history")
    assert history.status_code == 200
    assert f"Damaged at seq {DAMAGED}" in history.text
    for seq in range(1, DAMAGED):
        assert f'id="seq-{seq}"' in history.text
    assert f'id="seq-{DAMAGED}" class="damaged-row"' in history.text
    assert "hash does not match the stored bytes" in history.text
    assert f'id="seq-{DAMAGED + 1}"' not in history.text


def test_the_audit_page_works_on_the_damaged_event(venue: Venue) -> None:
    t, good = venue.damaged.id, DAMAGED - 1
    with venue.console() as console:
        audit = console.get(f"/console/t/{t}/audit")
        assert audit.status_code == 200 and f"Damaged at seq {DAMAGED}" in audit.text
        assert '<option value="p1">' in audit.text  # the players known before it
        past = console.get(f"/console/t/{t}/audit", params={"as_of": good})
        assert past.status_code == 200 and f"As of seq {good}" in past.text
        beyond = console.get(f"/console/t/{t}/audit", params={"as_of": DAMAGED})
        assert beyond.status_code == 200 and f"integrity: seq {DAMAGED}" in beyond.text
        diff = console.get(f"/console/t/{t}/audit", params={"a": 2, "b": good})
        assert diff.status_code == 200 and f"Seq 2 → {good}" in diff.text
        why = console.get(f"/console/t/{t}/audit", params={"explain": "p1", "as_of": good})
        assert why.status_code == 200 and 'class="card explained"' in why.text
        verify = console.post(f"/console/t/{t}/audit/verify", data={"witnesses": ""})
        assert verify.status_code == 200
        assert f"Chain broken at seq {DAMAGED}" in verify.text


def test_not_found_answers_a_page_on_each_face(venue: Venue) -> None:
    with venue.console() as console:
        missing = console.get("/console/t/nothing-here")
        assert missing.status_code == 404 and "text/html" in missing.headers["content-type"]
        assert "Not found" in missing.text and "nothing-here" in missing.text
        nowhere = console.get("/console/no/such/page")
        assert nowhere.status_code == 404 and "tledger console" in nowhere.text
    with venue.players() as players:
        for path in ("/t/nothing-here", "/s/WXYZ-WXYZ", "/t/nothing-here/no/such/page"):
            answer = players.get(path)
            assert answer.status_code == 404, path
            assert answer.headers["content-type"].startswith("text/html"), path
            assert not answer.text.startswith("{"), path
        wrong = players.get(f"/t/{venue.intact.id}", params={"lang": "fr"})
        assert wrong.status_code == 422 and "text/html" in wrong.headers["content-type"]
        assert "That request was not understood" in wrong.text


def test_too_many_wrong_slip_codes_answer_a_page(
    tmp_path: Path,
) -> None:
    event = make_event(f"sqlite:///{tmp_path / 'limits.sqlite3'}")
    app = create_app(event.handler, Settings(slip_miss_burst=2))
    http = TestClient(app, client=("10.0.0.66", 50000))
    assert [http.get(f"/s/{c}").status_code for c in ("AAAA-AAAA", "BBBB-BBBB")] == [404] * 2
    blocked = http.get("/s/CCCC-CCCC")
    assert blocked.status_code == 429 and "Retry-After" in blocked.headers
    assert blocked.headers["content-type"].startswith("text/html")
    assert "Too many wrong codes" in blocked.text
    retry = http.get(f"/t/{event.id}", params={"lang": "xx"})  # a players' page, not 429
    assert retry.status_code == 422 and "text/html" in retry.headers["content-type"]


def test_the_face_is_decided_by_the_route() -> None:
    assert face_of("/console") == face_of("/console/t/x/audit") == "console"
    assert face_of("/t/x") == face_of("/t/x/clock") == face_of("/s/AB-CD") == "players"
    assert face_of("/s") == "players"
    for api in ("/tournaments/x/standings", "/commands", "/events/stream", "/static/base.css",
                "/console/static/console.css", "/consoles", "/healthz", "/sx"):  # fmt: skip
        assert face_of(api) == "api", api


def test_an_unreachable_store_answers_a_page_on_each_face_and_json_on_the_api(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = make_event(f"sqlite:///{tmp_path / 'away.sqlite3'}")
    secret = create_token(event.handler.store, "organizer", None, None)
    app = create_app(event.handler)

    def away(*args: object, **kwargs: object) -> None:
        raise StoreUnavailable("could not connect to the database")

    monkeypatch.setattr(event.handler.store, "load", away)
    http = TestClient(app, cookies={"tledger_console": secret})
    for path in (f"/t/{event.id}", f"/t/{event.id}/clock"):
        answer = http.get(path, params={"lang": "de"})
        assert answer.status_code == 503 and "text/html" in answer.headers["content-type"]
        assert "Die Ergebnisse sind gerade nicht erreichbar" in answer.text
    console = http.get(f"/console/t/{event.id}")
    assert console.status_code == 503 and "The store is unavailable" in console.text
    assert "could not connect to the database" in console.text
    api = http.get(f"/tournaments/{event.id}/status",
                   headers={"Authorization": f"Bearer {secret}"})  # fmt: skip
    assert api.status_code == 503
    assert api.json() == {"error": "could not connect to the database"}


def test_a_console_form_from_elsewhere_answers_the_console_s_page(venue: Venue) -> None:
    with venue.console() as console:
        answer = console.post(f"/console/t/{venue.intact.id}/round/start",
                              headers={"Origin": "http://elsewhere.example"})  # fmt: skip
    assert answer.status_code == 403 and "text/html" in answer.headers["content-type"]
    assert "Not allowed" in answer.text and "console&#39;s own pages" in answer.text


def test_a_players_integrity_page_names_the_event_and_the_projector_s_reads_across_a_room(
    tmp_path: Path,
) -> None:
    """The event's name is read beside the damage (its first event, intact), even by a
    process that has read nothing of it before; the projector's page is sized for it."""
    url = f"sqlite:///{tmp_path / 'named.sqlite3'}"
    event = make_event(url)
    flip(url, event.id, DAMAGED)
    http = TestClient(create_app(Handler(open_store(url))))
    named = '<p class="event"><bdi>Slip Night</bdi></p>'
    slip = http.get(f"/s/{event.codes['p1']}")  # the first read of this process
    assert slip.status_code == 503 and named in slip.text
    assert "<title>\u2068Slip Night\u2069 · " in slip.text
    for path in (f"/t/{event.id}", f"/t/{event.id}/clock"):
        assert named in integrity_page_of(http.get(path)), path
    assert 'class="failure damaged projector"' in http.get(f"/t/{event.id}/clock").text
    assert 'class="failure damaged"' in http.get(f"/t/{event.id}").text
    assert 'class="failure damaged"' in http.get(f"/s/{event.codes['p1']}").text
    secret = create_token(open_store(url), "organizer", None, None)
    http.cookies.set("tledger_console", secret)
    console = http.get(f"/console/t/{event.id}")
    assert console.status_code == 503 and "<span><bdi>Slip Night</bdi></span>" in console.text


def test_an_integrity_page_names_the_event_by_its_id_when_its_first_event_is_damaged(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'first.sqlite3'}"
    event = make_event(url)
    flip(url, event.id, 1)
    http = TestClient(create_app(Handler(open_store(url))))
    for path in (f"/t/{event.id}", f"/t/{event.id}/clock", f"/s/{event.codes['p1']}"):
        page = integrity_page_of(http.get(path))
        assert f'<p class="event"><bdi>{event.id}</bdi></p>' in page and "Slip Night" not in page


def integrity_page_of(answer: httpx.Response) -> str:
    assert answer.status_code == 503 and "text/html" in answer.headers["content-type"]
    assert "The results record of this event is damaged" in answer.text
    return answer.text
