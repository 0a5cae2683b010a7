"""The read side cached by seq (commands/reads/cache.py, commands/api/reads.py): ETags and
304s, a read after a write always showing the write (also one by another process),
past points in a bounded cache that read only their prefix, log pages, nothing
cached for an unknown tournament, and the typed OpenAPI document."""

from __future__ import annotations

import subprocess
import threading
import uuid
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from fastapi.testclient import TestClient

from commands.errors import UnknownTournament
from commands.handler import Handler
from commands.models import parse_command
from commands.reads import cache
from commands.reads.cache import LogQuery, Query, ReadSide
from commands.tokens import create_token
from commands.web import create_app
from ledger.store import Recorded, Store
from ledger.url import open_store
from replay import points
from replay.errors import BadPoint
from tests.e2e.test_cli import cli
from tests.e2e.test_http import TLEDGER, served
from tests.stores import KINDS, store_url

PLAYERS = [f"p{n}" for n in range(1, 9)]
TABLES = [PLAYERS[i : i + 2] for i in range(0, len(PLAYERS), 2)]
WON = {"games": [2, 0], "draws": 0}
READS = ["status", "standings", "pairings", "bracket", "outstanding", "players/p1", "players",
         "log"]  # fmt: skip


def started(handler: Handler, t: str = "t1") -> str:
    """Eight players, round 1 paired in order and started: 11 events."""
    commands: list[dict[str, Any]] = [
        {"type": "create_tournament", "name": "Cache", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p, "name": p.upper()} for p in PLAYERS),
        {"type": "pair_round", "pairings": TABLES},
        {"type": "start_round"},
    ]
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))
    return t


def report(t: str, pair: list[str]) -> dict[str, Any]:
    return {"type": "report_result", "tournament": t, "round": 1, "players": pair, "result": WON}


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, tmp_path, "cache.sqlite3")


@pytest.fixture
def handler(tmp_path: Path) -> Handler:
    return Handler(open_store(f"sqlite:///{tmp_path / 'reads.sqlite3'}"))


class Client:
    """The API in process with an organizer token."""

    def __init__(self, handler: Handler) -> None:
        self.http = TestClient(create_app(handler))
        secret = create_token(handler.store, "organizer", None, None)
        self.auth = {"Authorization": f"Bearer {secret}"}

    def get(self, path: str, etag: str | None = None, **params: Any) -> httpx.Response:
        headers = {**self.auth, **({"If-None-Match": etag} if etag else {})}
        response: httpx.Response = self.http.get(path, params=params, headers=headers)
        return response

    def post(self, command: dict[str, Any]) -> httpx.Response:
        response: httpx.Response = self.http.post("/commands", json=command, headers=self.auth)
        return response


def test_a_read_answers_304_without_a_body_when_the_client_holds_its_etag(
    handler: Handler,
) -> None:
    t, api = started(handler), Client(handler)
    for read in READS:
        first = api.get(f"/tournaments/{t}/{read}")
        etag = first.headers["ETag"]
        assert first.status_code == 200 and etag.startswith(f'"{handler.folds.state(t).head}-')
        again = api.get(f"/tournaments/{t}/{read}", etag=etag)
        assert (again.status_code, again.content, again.headers["ETag"]) == (304, b"", etag)
        for listed in (f'"other", {etag}', f"W/{etag}", "*"):
            assert api.get(f"/tournaments/{t}/{read}", etag=listed).status_code == 304
        assert api.get(f"/tournaments/{t}/{read}", etag='"stale"').content == first.content


def test_each_query_has_its_own_etag(handler: Handler) -> None:
    t, api = started(handler), Client(handler)
    tags = {api.get(f"/tournaments/{t}/{read}").headers["ETag"] for read in READS}
    tags.add(api.get(f"/tournaments/{t}/pairings", round=1).headers["ETag"])
    tags.add(api.get(f"/tournaments/{t}/log", limit=3).headers["ETag"])
    assert len(tags) == len(READS) + 2


def test_every_new_event_shows_in_the_next_read_and_retires_the_old_etag(
    handler: Handler,
) -> None:
    t, api = started(handler), Client(handler)
    for n, pair in enumerate(TABLES, start=1):
        before = {read: api.get(f"/tournaments/{t}/{read}") for read in READS}
        assert api.post(report(t, pair)).status_code == 200
        for read, old in before.items():
            now = api.get(f"/tournaments/{t}/{read}", etag=old.headers["ETag"])
            assert now.status_code == 200, f"{read} after report {n} answered from the cache"
            assert now.headers["ETag"] != old.headers["ETag"]
        status = api.get(f"/tournaments/{t}/status").json()
        assert status["seq"] == 11 + n
        assert [x["state"] for x in status["tables"]] == ["confirmed"] * n + ["missing"] * (4 - n)
        wins = {r["player"]: r["record"]["wins"] for r in api.get(f"/tournaments/{t}/standings")
                .json()["standings"]}  # fmt: skip
        assert sum(wins.values()) == n


def test_a_read_computes_each_model_once_per_seq_however_many_ask_at_once(
    handler: Handler, monkeypatch: pytest.MonkeyPatch
) -> None:
    t, side = started(handler), ReadSide(handler.folds)
    built: list[str] = []
    original = cache.build

    def counting(state: Any, query: Query, names: Any, *lists: Any) -> Any:
        built.append(query.view)
        return original(state, query, names, *lists)

    monkeypatch.setattr(cache, "build", counting)
    entries: list[cache.Entry] = []
    threads = [threading.Thread(target=lambda: entries.append(side.get(t, Query("standings"))))
               for _ in range(12)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built == ["standings"] and len({id(e) for e in entries}) == 1
    handler.handle(parse_command(report(t, TABLES[0])))
    assert side.get(t, Query("standings")).seq == 12 and built == ["standings"] * 2


def test_a_write_by_another_process_shows_in_the_next_read(url: str) -> None:
    handler = Handler(open_store(url))
    t, api = started(handler, f"c-{uuid.uuid4().hex[:8]}"), Client(handler)
    etag = api.get(f"/tournaments/{t}/standings").headers["ETag"]
    line = orjson.dumps(report(t, TABLES[0]))
    done = subprocess.run([TLEDGER, "apply", "-", "--store", url], input=line,
                          capture_output=True)  # fmt: skip
    assert done.returncode == 0, done.stderr
    fresh = api.get(f"/tournaments/{t}/standings", etag=etag)
    assert fresh.status_code == 200 and fresh.json()["seq"] == 12


def test_a_served_read_shows_a_write_made_by_another_process(url: str) -> None:
    with served(url) as base:
        handler = Handler(open_store(url))
        t = started(handler, f"s-{uuid.uuid4().hex[:8]}")
        secret = create_token(handler.store, "reader", t, None)
        reader = httpx.Client(base_url=base, headers={"Authorization": f"Bearer {secret}"})
        first = reader.get(f"/tournaments/{t}/status")
        held = {"If-None-Match": first.headers["ETag"]}
        assert reader.get(f"/tournaments/{t}/status", headers=held).status_code == 304
        handler.handle(parse_command(report(t, TABLES[1])))
        after = reader.get(f"/tournaments/{t}/status", headers=held)
        assert after.status_code == 200 and after.json()["seq"] == first.json()["seq"] + 1
        assert [x["state"] for x in after.json()["tables"]] == ["missing", "confirmed", "missing",
                                                                "missing"]  # fmt: skip


class Spy:
    """The store, counting the events each load returns."""

    def __init__(self, store: Store) -> None:
        self.store, self.loaded = store, 0

    def load(self, *args: Any, **kwargs: Any) -> list[Recorded]:
        events = self.store.load(*args, **kwargs)
        self.loaded += len(events)
        return events

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def spied(tmp_path: Path) -> tuple[Handler, Spy, str]:
    handler = Handler(open_store(f"sqlite:///{tmp_path / 'spied.sqlite3'}"))
    t = started(handler)
    for pair in TABLES:
        handler.handle(parse_command(report(t, pair)))
    spy = Spy(handler.store)
    handler.store = handler.folds.store = spy
    return handler, spy, t


@pytest.mark.parametrize("kind", ["memory", *KINDS])
def test_a_prefix_load_reads_only_up_to_its_seq_on_every_store(kind: str, tmp_path: Path) -> None:
    url = f"memory://{uuid.uuid4().hex}" if kind == "memory" else store_url(kind, tmp_path)
    store = open_store(url)
    t = started(Handler(store), f"p-{uuid.uuid4().hex[:8]}")
    assert [r.seq for r in store.load(t, until=5)] == [1, 2, 3, 4, 5]
    assert [r.seq for r in store.load(t, after=3, head=None, until=5)] == [4, 5]
    assert [r.seq for r in points.load_prefix(store, t, "7")] == list(range(1, 8))
    with pytest.raises(BadPoint, match=r"seq 12 is past the end of the log \(11 events\)"):
        points.load_prefix(store, t, "12")


def test_past_points_are_cached_in_a_bounded_lru(tmp_path: Path) -> None:
    handler, spy, t = spied(tmp_path)
    side = ReadSide(handler.folds, as_of_cache=3)
    entries = [side.get(t, Query("standings"), str(seq)) for seq in range(1, 11)]
    assert [e.seq for e in entries] == list(range(1, 11)) and len(side.past) == 3
    loaded = spy.loaded
    assert side.get(t, Query("standings"), "10") is entries[-1] and spy.loaded == loaded
    assert side.get(t, Query("standings"), "1") is not entries[0]


def test_a_past_seq_loads_only_its_prefix(tmp_path: Path) -> None:
    handler, spy, t = spied(tmp_path)
    side = ReadSide(handler.folds)
    side.get(t, Query("status"))
    loaded = spy.loaded
    assert side.get(t, Query("status"), "5").model.seq == 5  # type: ignore[attr-defined]
    assert spy.loaded - loaded == 5


def test_a_past_time_reads_a_page_past_it_at_most(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(points, "PAGE", 4)
    handler, spy, t = spied(tmp_path)
    side = ReadSide(handler.folds)
    events = handler.store.load(t)
    side.get(t, Query("status"))  # the handler's fold is current
    loaded = spy.loaded
    at_seq_6 = events[5].event.at.isoformat()
    assert side.get(t, Query("status"), at_seq_6).seq == 6
    assert spy.loaded - loaded <= 1 + 8  # the newest event, then two pages of four
    loaded = spy.loaded
    assert side.get(t, Query("standings"), at_seq_6).seq == 6
    assert spy.loaded - loaded == 6  # the time's seq is known: only the prefix
    assert side.get(t, Query("status"), events[-1].event.at.isoformat()).seq == len(events)


def test_the_log_is_read_in_pages_that_say_where_the_next_one_starts(tmp_path: Path) -> None:
    handler = Handler(open_store(f"sqlite:///{tmp_path / 'long.sqlite3'}"))
    handler.handle(parse_command({"type": "create_tournament", "tournament": "big", "name": "Big",
                                  "ruleset": "swu-1.4"}))  # fmt: skip
    for n in range(1, 1011):
        handler.handle(parse_command({"type": "register_player", "tournament": "big",
                                      "player": f"p{n}"}))  # fmt: skip
    api = Client(handler)
    first = api.get("/tournaments/big/log").json()
    assert len(first["events"]) == 1000 and first["next_after_seq"] == 1000
    rest = api.get("/tournaments/big/log", after_seq=first["next_after_seq"]).json()
    assert [e["seq"] for e in rest["events"]] == list(range(1001, 1012))
    assert "next_after_seq" not in rest
    page = api.get("/tournaments/big/log", after_seq=10, limit=3, as_of=12).json()
    assert ([e["seq"] for e in page["events"]], page.get("next_after_seq")) == ([11, 12], None)
    assert api.get("/tournaments/big/log", after_seq=5000).json()["events"] == []
    assert api.get("/tournaments/big/log", limit=1001).status_code == 422


def test_an_unknown_tournament_caches_nothing(handler: Handler) -> None:
    side = ReadSide(handler.folds)
    for query in (Query("status"), Query("standings"), LogQuery()):
        for as_of in (None, "3", "2026-01-01T00:00:00Z"):
            with pytest.raises(UnknownTournament):
                side.get("nope", query, as_of)
    assert not side.holds("nope") and len(side.past) == 0
    assert side.tournaments("nope").tournaments == []
    assert not side.holds("nope")


def test_an_erased_name_shows_once_the_registry_is_read_again(handler: Handler) -> None:
    now = [0.0]
    t, side = started(handler), ReadSide(handler.folds, names_ttl=1.0, clock=lambda: now[0])
    before = side.get(t, Query("standings"))
    assert handler.store.forget(t, "p1")
    now[0] = 0.5
    assert side.get(t, Query("standings")) is before
    now[0] = 1.0
    after = side.get(t, Query("standings"))
    names = {r["player"]: r["name"] for r in orjson.loads(after.body)["standings"]}
    assert names["p1"] == "(erased)" and after.etag != before.etag


def test_the_openapi_document_describes_every_read_with_its_model(handler: Handler) -> None:
    document = Client(handler).http.get("/openapi.json").json()
    models = {"status": "Status", "standings": "Standings", "pairings": "Pairings",
              "bracket": "Bracket", "outstanding": "Outstanding", "log": "LogPage",
              "players/{player}": "PlayerHistory", "players": "Players"}  # fmt: skip
    for read, model in models.items():
        operation = document["paths"][f"/tournaments/{{tournament}}/{read}"]["get"]
        ok = operation["responses"]["200"]
        assert ok["content"]["application/json"]["schema"] == {
            "$ref": f"#/components/schemas/{model}"}  # fmt: skip
        assert "ETag" in ok["headers"] and "ETag" in operation["responses"]["304"]["headers"]
        assert "If-None-Match" in operation["responses"]["304"]["description"]
    listing = document["paths"]["/tournaments"]["get"]["responses"]["200"]
    assert listing["content"]["application/json"]["schema"]["$ref"].endswith("/Tournaments")
    status = document["components"]["schemas"]["Status"]
    assert {"tables", "seq", "head", "deck_checks"} <= set(status["properties"])


def test_a_token_lists_only_the_tournaments_it_may_read(handler: Handler) -> None:
    started(handler, "t1"), started(handler, "t2")
    api = Client(handler)
    listed = api.get("/tournaments").json()["tournaments"]
    assert [(x["tournament"], x["name"], x["ruleset"]) for x in listed] == [
        ("t1", "Cache", "swu-1.4"), ("t2", "Cache", "swu-1.4")]  # fmt: skip
    scoped = create_token(handler.store, "reader", "t2", None)
    only = api.http.get("/tournaments", headers={"Authorization": f"Bearer {scoped}"}).json()
    assert [x["tournament"] for x in only["tournaments"]] == ["t2"]


def test_the_cli_prints_the_bytes_the_api_sends(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.sqlite3'}"
    handler = Handler(open_store(url))
    t, api = started(handler), Client(handler)
    for read in ("status", "standings", "pairings", "bracket"):
        done = cli(read, t, "--json", "--store", url)
        assert done.exit_code == 0, done.stderr
        assert done.stdout_bytes == api.get(f"/tournaments/{t}/{read}").content + b"\n"
