"""``GET /tournaments/{t}/log?type=&player=&round=``: the log filters of the CLI over
HTTP, paged by the events they keep, cached apart from the unfiltered log."""

from __future__ import annotations

from pathlib import Path

from commands.handler import Handler
from commands.models import parse_command
from commands.reads.cache import LogQuery, ReadSide
from commands.reads.logfilter import LogFilter
from ledger.url import open_store
from tests.e2e.test_read_cache import Client, report, started


def played(tmp_path: Path) -> tuple[Handler, Client]:
    handler = Handler(open_store(f"sqlite:///{tmp_path / 'filters.sqlite3'}"))
    t = started(handler)  # p1 v p2, p3 v p4, ... round 1 started: seq 11
    for pair in (["p1", "p2"], ["p3", "p4"], ["p5", "p6"], ["p7", "p8"]):
        handler.handle(parse_command(report(t, pair)))
    return handler, Client(handler)


def test_the_log_keeps_what_the_query_asks_for(tmp_path: Path) -> None:
    _, api = played(tmp_path)
    page = api.get("/tournaments/t1/log", type="result_reported", player="p3").json()
    assert [(e["seq"], e["players"]) for e in page["events"]] == [(13, ["p3", "p4"])]
    both = api.get("/tournaments/t1/log", type=["round_paired", "round_started"], round=1)
    assert [e["type"] for e in both.json()["events"]] == ["round_paired", "round_started"]
    commas = api.get("/tournaments/t1/log", type="round_paired,round_started").json()
    assert commas == both.json()


def test_an_unknown_type_is_a_422_naming_it(tmp_path: Path) -> None:
    _, api = played(tmp_path)
    answer = api.get("/tournaments/t1/log", type="result_reported,results")
    assert answer.status_code == 422
    assert answer.json()["error"].startswith("unknown event type 'results' (types: ")


def test_a_filtered_log_pages_by_the_events_it_keeps(tmp_path: Path) -> None:
    _, api = played(tmp_path)
    first = api.get("/tournaments/t1/log", type="result_reported", limit=3).json()
    assert [e["seq"] for e in first["events"]] == [12, 13, 14]
    assert first["next_after_seq"] == 14
    rest = api.get("/tournaments/t1/log", type="result_reported", limit=3,
                   after_seq=first["next_after_seq"]).json()  # fmt: skip
    assert [e["seq"] for e in rest["events"]] == [15] and "next_after_seq" not in rest
    exact = api.get("/tournaments/t1/log", type="result_reported", limit=4).json()
    assert "next_after_seq" not in exact  # no kept event follows the fourth
    early = api.get("/tournaments/t1/log", type="result_reported", as_of=13).json()
    assert [e["seq"] for e in early["events"]] == [12, 13]


def test_an_unfiltered_log_is_unchanged_and_cached_apart(tmp_path: Path) -> None:
    handler, api = played(tmp_path)
    plain = api.get("/tournaments/t1/log")
    stored = handler.store.load("t1")
    assert plain.json() == {"tournament": "t1", "events": [r.as_json() for r in stored]}
    filtered = api.get("/tournaments/t1/log", player="p1")
    assert filtered.headers["ETag"] != plain.headers["ETag"]
    side = ReadSide(handler.folds)
    assert side.get("t1", LogQuery()).body == plain.content
    assert side.get("t1", LogQuery(keep=LogFilter(player="p1"))).body == filtered.content
