"""``GET /tournaments/{t}/clock`` and the status's over-time flag over HTTP, with a frozen
clock (freezegun): the clock's JSON holds absolute times, so its ETag is the head's
and a 304 stays right as time passes; the status's flags are part of its ETag, which
changes when a table runs over, and only then."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg  # noqa: F401  (before any frozen clock: see tests/e2e/test_cli_clock.py)
import pytest
from fastapi.testclient import TestClient
from freezegun import freeze_time

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from commands.web import create_app
from ledger.url import open_store
from tests.e2e.test_cli_clock import table

T = "t1"


class Api:
    def __init__(self) -> None:
        self.handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
        self.http = TestClient(create_app(self.handler))
        secret = create_token(self.handler.store, "reader", T, None)
        self.auth = {"Authorization": f"Bearer {secret}"}

    def run(self, *commands: dict[str, Any]) -> None:
        for command in commands:
            self.handler.handle(parse_command({"tournament": T, **command}))

    def get(self, path: str, etag: str | None = None) -> Any:
        headers = {**self.auth, **({"If-None-Match": etag} if etag else {})}
        return self.http.get(f"/tournaments/{T}/{path}", headers=headers)


@pytest.fixture
def api() -> Iterator[Api]:
    """xwing-2.0, four players, round 1 started at 10:00 UTC; p3 v p4 got 10 more minutes."""
    api = Api()
    with freeze_time("2026-11-21T10:00:00Z"):
        api.run({"type": "create_tournament", "name": "Clock", "ruleset": "xwing-2.0"},
                *({"type": "register_player", "player": f"p{i}"} for i in range(1, 5)),
                {"type": "pair_round", "pairings": [["p1", "p2"], ["p3", "p4"]]},
                {"type": "start_round"})  # fmt: skip
    with freeze_time("2026-11-21T10:30:00Z"):
        api.run({"type": "grant_time_extension", "round": 1, "players": ["p3", "p4"],
                 "minutes": 10, "reason": "table knocked over"})  # fmt: skip
    with api.http:
        yield api


def test_the_clock_is_served_as_the_cli_prints_it_with_an_etag(api: Api) -> None:
    with freeze_time("2026-11-21T10:40:00Z"):
        first = api.get("clock")
    assert first.status_code == 200
    assert first.json() == {
        "round": 1, "started_at": "2026-11-21T10:00:00Z", "ends_at": "2026-11-21T11:15:00Z",
        "tables": [table(1, ["p1", "p2"], "2026-11-21T11:15:00Z", 0),
                   table(2, ["p3", "p4"], "2026-11-21T11:25:00Z", 10)],
        "stage": "swiss", "minutes": 75, "section": "xwing-2.0 Zeitdauer einer Turnierrunde",
        "seq": 8,
    }  # fmt: skip
    with freeze_time("2026-11-21T11:20:00Z"):  # later, the same seq: the same bytes
        again = api.get("clock", first.headers["ETag"])
        assert again.status_code == 304
        assert api.get("clock").content == first.content
    assert api.get("clock?round=1").json()["round"] == 1
    assert api.get("clock?round=2").status_code == 409


def test_status_flags_tables_over_time_and_its_etag_moves_with_them(api: Api) -> None:
    with freeze_time("2026-11-21T11:10:00Z"):
        before = api.get("status")
    assert all("over_time" not in t for t in before.json()["tables"])
    with freeze_time("2026-11-21T11:16:00Z"):
        assert api.get("status", before.headers["ETag"]).status_code == 200
        after = api.get("status")
        assert api.get("status", after.headers["ETag"]).status_code == 304
    assert after.json()["tables"] == [
        {"table": 1, "players": ["p1", "p2"], "state": "missing", "over_time": True},
        {"table": 2, "players": ["p3", "p4"], "state": "missing"},
    ]
    assert after.headers["ETag"] != before.headers["ETag"]
    with freeze_time("2026-11-21T11:30:00Z"):
        late = api.get("status").json()["tables"]
    assert [t.get("over_time") for t in late] == [True, True]


def test_a_reported_table_is_no_longer_over_time(api: Api) -> None:
    with freeze_time("2026-11-21T11:20:00Z"):
        api.run({"type": "report_result", "round": 1, "players": ["p1", "p2"],
                 "result": {"points": [100, 40]}})  # fmt: skip
        tables = api.get("status").json()["tables"]
        clock = api.get("clock").json()
    assert all("over_time" not in t for t in tables)
    assert [t["state"] for t in clock["tables"]] == ["finished", "playing"]


def test_the_clock_needs_a_token_that_reads_the_tournament(api: Api) -> None:
    assert api.http.get(f"/tournaments/{T}/clock").status_code == 401
    other = create_token(api.handler.store, "reader", "t2", None)
    scoped = api.http.get(f"/tournaments/{T}/clock", headers={"Authorization": f"Bearer {other}"})
    assert scoped.status_code == 403
    assert api.http.get("/tournaments/nope/clock", headers=api.auth).status_code == 403
