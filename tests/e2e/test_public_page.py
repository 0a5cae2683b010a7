"""The public page over HTTP against a real ``tledger serve`` (SQLite and PostgreSQL): no
token, ETags and 304, the off switch and an unknown tournament answering the same 404,
``?q=`` filtering on the server, the language, the live stream sending the new seq
after a command, and the ``tledger public`` command."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator

import httpx
import pytest

from commands.handler import Handler
from commands.pages.policy import CONTENT_SECURITY_POLICY
from ledger.url import open_store
from tests.e2e.test_cli import cli
from tests.e2e.test_http import Api, served, token
from tests.e2e.test_stream import app_server
from tests.public_event import clean_postgres, running_event
from tests.stores import KINDS, store_url

CLOSED = "This tournament has no public page."


@pytest.fixture(params=KINDS, scope="module")
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    return store_url(request.param, tmp_path_factory.mktemp("public"), "public.sqlite3")


@pytest.fixture(scope="module")
def base(store: str) -> Iterator[str]:
    """One ``tledger serve`` for the module's tests on each store: every test reads its own
    tournament, so none sees another's."""
    with served(store) as url:
        yield url


@pytest.fixture
def event(store: str) -> Iterator[str]:
    """A running event (40 players, round 2 under way); gone from PostgreSQL afterwards."""
    t = f"pub-{uuid.uuid4().hex[:10]}"
    running_event(Handler(open_store(store)), t)
    yield t
    clean_postgres(store, t)


def tables_in(html: str) -> int:
    return len(re.findall(r'<li class="match"', html))


def seq_of(html: str) -> int:
    found = re.search(r'id="view" data-seq="(\d+)"', html)
    assert found is not None
    return int(found.group(1))


def test_the_page_needs_no_token_and_answers_304_until_the_log_moves(
    store: str, event: str, base: str
) -> None:
    page = httpx.get(f"{base}/t/{event}")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert tables_in(page.text) == 20 and "Store Showdown Berlin" in page.text
    etag = page.headers["etag"]
    again = httpx.get(f"{base}/t/{event}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    organizer = Api(base, token(store, "--role", "organizer"))
    outstanding = organizer.get(f"/tournaments/{event}/outstanding").json()["tables"]
    assert organizer.post(event, type="report_result", round=2,
                          players=outstanding[0]["players"],
                          result={"games": [2, 0], "draws": 0}).status_code == 200  # fmt: skip
    moved = httpx.get(f"{base}/t/{event}", headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["etag"] != etag
    assert seq_of(moved.text) == seq_of(page.text) + 1


def test_the_page_is_gzipped_for_a_client_that_takes_it(store: str, event: str, base: str) -> None:
    plain = httpx.get(f"{base}/t/{event}", headers={"Accept-Encoding": "identity"})
    zipped = httpx.get(f"{base}/t/{event}", headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers
    assert zipped.headers["content-encoding"] == "gzip"
    assert zipped.text == plain.text, "the same page"
    assert zipped.headers["etag"] != plain.headers["etag"]
    assert int(zipped.headers["content-length"]) < len(plain.content) / 3


def test_a_page_turned_off_and_an_unknown_tournament_answer_the_same_404(
    store: str, event: str
) -> None:
    off = cli("public", event, "--off", "--store", store)
    assert off.exit_code == 0 and f"public page of {event}: off (404) at /t/{event}" in off.stdout
    with served(store) as base:
        hidden = httpx.get(f"{base}/t/{event}")
        unknown = httpx.get(f"{base}/t/no-such-{event}")
        assert hidden.status_code == unknown.status_code == 404
        assert CLOSED in hidden.text and hidden.text == unknown.text
        for path in ("content", "live", "clock", "clock/content"):
            assert httpx.get(f"{base}/t/{event}/{path}").status_code == 404
            assert httpx.get(f"{base}/t/no-such-{event}/{path}").status_code == 404
        assert "Store Showdown" not in hidden.text
    on = cli("public", event, "--on", "--store", store)
    assert on.exit_code == 0 and "on at" in on.stdout
    with served(store) as base:
        assert httpx.get(f"{base}/t/{event}").status_code == 200
        clock = httpx.get(f"{base}/t/{event}/clock")
        assert clock.status_code == 200 and 'class="countdown"' in clock.text
        assert clock.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
        again = httpx.get(
            f"{base}/t/{event}/clock", headers={"If-None-Match": clock.headers["ETag"]}
        )
        assert again.status_code == 304


def test_q_keeps_only_the_tables_it_finds(store: str, event: str, base: str) -> None:
    found = httpx.get(f"{base}/t/{event}", params={"q": "élan"})
    assert tables_in(found.text) == 1 and "Élan Müller" in found.text
    assert 'value="élan"' in found.text, "the box keeps what was asked"
    by_id = httpx.get(f"{base}/t/{event}", params={"q": "P40"})
    assert tables_in(by_id.text) == 1 and "Leia Organa" in by_id.text
    none = httpx.get(f"{base}/t/{event}", params={"q": "zzz"})
    assert tables_in(none.text) == 0 and "Nobody found for" in none.text
    assert httpx.get(f"{base}/t/{event}", params={"q": "x" * 201}).status_code == 422


def test_the_language_follows_lang_or_the_browser(store: str, event: str, base: str) -> None:
    german = httpx.get(f"{base}/t/{event}", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert "Wo spiele ich?" in german.text
    english = httpx.get(f"{base}/t/{event}?lang=en", headers={"Accept-Language": "de"})
    assert "Where do I play?" in english.text
    assert german.headers["etag"] != english.headers["etag"]
    refused = httpx.get(f"{base}/t/{event}?lang=fr")
    assert refused.status_code == 422 and "lang" in refused.text  # a page, as every answer here
    assert refused.headers["content-type"].startswith("text/html")


def test_the_content_part_answers_with_its_own_etag(store: str, event: str, base: str) -> None:
    page = httpx.get(f"{base}/t/{event}")
    content = httpx.get(f"{base}/t/{event}/content")
    assert content.status_code == 200 and content.text.lstrip().startswith('<div id="view"')
    held = re.search(r'data-etag="([^"]+)"', page.text)
    assert held is not None, "the page tells its script the content's tag"
    for encoding in ("gzip", "identity"):
        again = httpx.get(f"{base}/t/{event}/content", headers={
            "If-None-Match": held.group(1).replace("&#34;", '"'),
            "Accept-Encoding": encoding})  # fmt: skip
        assert again.status_code == 304


def test_the_live_stream_sends_the_new_seq_after_a_command(
    store: str, event: str, base: str
) -> None:
    organizer = Api(base, token(store, "--role", "organizer"))
    start = int(organizer.get(f"/tournaments/{event}/status").json()["seq"])
    with httpx.stream("GET", f"{base}/t/{event}/live", timeout=30) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        frames = (json.loads(line[6:]) for line in stream.iter_lines()
                  if line.startswith("data: "))  # fmt: skip
        first = next(frames)
        assert first["seq"] == start and set(first) == {"seq", "head"}
        table = organizer.get(f"/tournaments/{event}/outstanding").json()["tables"][0]
        organizer.post(event, type="report_result", round=2, players=table["players"],
                       result={"games": [2, 1], "draws": 0})  # fmt: skip
        after = next(frames)
        status = organizer.get(f"/tournaments/{event}/status").json()
        assert after == {"seq": start + 1, "head": status["head"]}


def test_the_public_routes_stay_out_of_the_api_document(store: str, event: str, base: str) -> None:
    paths = httpx.get(f"{base}/openapi.json").json()["paths"]
    assert not [p for p in paths if p.startswith("/t/")]


def test_public_without_a_switch_prints_the_state_and_refuses_an_unknown_tournament(
    store: str, event: str
) -> None:
    shown = cli("public", event, "--store", store, "--json")
    assert json.loads(shown.stdout) == {"tournament": event, "public_page": True,
                                        "path": f"/t/{event}"}  # fmt: skip
    unknown = cli("public", f"no-{event}", "--off", "--store", store)
    assert unknown.exit_code == 1
    assert unknown.stderr.strip() == f"error: public: unknown tournament 'no-{event}'"
    judge = cli("public", event, "--off", "--actor", "judge:AK", "--store", store)
    assert judge.exit_code == 1 and "only an organizer" in judge.stderr
    assert open_store(store).tournament_settings(event).public_page is True


def test_past_its_share_of_live_streams_a_page_gets_429_and_polls(store: str, event: str) -> None:
    with app_server(store, public_streams=1) as base:
        with httpx.stream("GET", f"{base}/t/{event}/live", timeout=30) as first:
            lines = first.iter_lines()  # kept: a dropped iterator would close the stream
            assert next(line for line in lines if line.startswith("data: "))
            second = httpx.get(f"{base}/t/{event}/live", timeout=30)
            assert second.status_code == 429 and "polls instead" in second.text
        assert httpx.get(f"{base}/t/{event}/content").status_code == 200
