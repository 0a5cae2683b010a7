"""Reads check what they read: a damaged, deleted or reordered event is never served,
so nobody acts on a log that was changed behind the ledger's back. The CLI exits 3
with ``integrity: seq N: ...``; the API answers 503 with the same message as JSON; no
Traceback, no plain-text 500. On SQLite and PostgreSQL. Every read command runs in
process; a refused command runs in a real ``tledger`` process, for its exit code."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from ledger.eventsourced import stream_id
from ledger.url import open_store
from tests.e2e.test_cli import cli
from tests.e2e.test_http import served
from tests.stores import KINDS, own_database, store_url

TLEDGER = str(Path(sys.executable).with_name("tledger"))
PLAYERS = [f"p{i}" for i in range(1, 9)]


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file, or a PostgreSQL database of the test's own: a damaged stream in the
    shared one would break every test beside it that reads the global sequence."""
    with own_database(store_url(request.param, tmp_path, "damaged.sqlite3")) as own:
        yield own


@pytest.fixture
def tournament(url: str) -> str:
    """Created, eight players, round 1 paired and started: 11 events."""
    t = f"d-{uuid.uuid4().hex[:10]}"
    handler = Handler(open_store(url))
    for command in [
        {"type": "create_tournament", "name": "Damaged", "ruleset": "swu-1.4"},
        *({"type": "register_player", "player": p} for p in PLAYERS),
        {"type": "pair_round", "seed": 3},
        {"type": "start_round"},
    ]:
        handler.handle(parse_command({"tournament": t, **command}))
    return t


def execute(url: str, sql: str, *params: object) -> list[tuple[object, ...]]:
    """Run one statement on the store's database, behind the ledger's back."""
    if url.startswith("sqlite:///"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as con:
            return con.execute(sql.replace("{table}", "stored_events"), params).fetchall()
    import psycopg

    with psycopg.connect(url, autocommit=True) as con:
        sql = sql.replace("{table}", "tledger_events").replace("?", "%s")
        cur = con.execute(sql, params)  # type: ignore[arg-type]
        return cur.fetchall() if cur.description else []


def originator(url: str, t: str) -> object:
    return stream_id(t).hex if url.startswith("sqlite") else stream_id(t)


def flip(url: str, t: str, seq: int) -> None:
    where = "WHERE originator_id = ? AND originator_version = ?"
    [(state,)] = execute(url, f"SELECT state FROM {{table}} {where}", originator(url, t), seq)
    damaged = bytes(state).replace(b'"actor":', b'"actoR":')  # type: ignore[call-overload]
    execute(url, f"UPDATE {{table}} SET state = ? {where}", damaged, originator(url, t), seq)


def delete(url: str, t: str, seq: int) -> None:
    execute(url, "DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?",
            originator(url, t), seq)  # fmt: skip


def tledger(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``tledger`` in a process of its own."""
    return subprocess.run([TLEDGER, *args, "--store", url], capture_output=True, text=True)


READS = [("status",), ("standings",), ("pairings",), ("log", "--json"), ("bracket",),
         ("replay", "--until", "10"), ("explain", "p1")]  # fmt: skip


@pytest.mark.parametrize("damage", ["flipped", "deleted"])
def test_every_cli_read_of_a_damaged_store_exits_3_naming_the_seq(
    url: str, tournament: str, damage: str
) -> None:
    (flip if damage == "flipped" else delete)(url, tournament, 5)
    detail = "hash does not match" if damage == "flipped" else "event missing"
    for read in READS:
        done = cli(read[0], tournament, *read[1:], "--store", url)
        assert done.exit_code == 3, (read, done.stdout, done.stderr, done.exception)
        assert f"integrity: seq 5: {detail}" in done.stderr, (read, done.stderr)
        assert "Traceback" not in done.stderr and done.stdout == ""


def test_a_command_on_a_damaged_store_appends_nothing(url: str, tournament: str) -> None:
    flip(url, tournament, 5)
    done = tledger(url, "drop", tournament, "p1")
    assert done.returncode == 3 and "integrity: seq 5" in done.stderr
    assert len(open_store(url).load_raw(tournament)) == 11


def test_export_refuses_a_damaged_log(url: str, tournament: str) -> None:
    delete(url, tournament, 11)
    execute(url, "UPDATE {table} SET originator_version = 11 WHERE originator_id = ? AND "
            "originator_version = 10", originator(url, tournament))  # fmt: skip
    done = cli("export", tournament, "--store", url)
    assert done.exit_code == 3 and "integrity: seq 10: event missing" in done.stderr


@pytest.fixture
def server(url: str) -> Iterator[str]:
    with served(url) as base:
        yield base


def test_the_api_answers_503_with_the_integrity_error_as_json(
    url: str, tournament: str, server: str
) -> None:
    secret = create_token(open_store(url), "organizer", None, None)
    api = httpx.Client(base_url=server, headers={"Authorization": f"Bearer {secret}"})
    assert api.get(f"/tournaments/{tournament}/status").status_code == 200  # cached now
    report = {"type": "drop_player", "tournament": tournament, "player": "p8"}
    assert api.post("/commands", json=report).status_code == 200  # the server's fold: seq 13
    Handler(open_store(url)).handle(parse_command({**report, "player": "p6"}))  # 14, 15
    flip(url, tournament, 14)  # after the server's cached fold: checked as it loads
    for path in ("status", "standings", "pairings", "log"):
        answer = api.get(f"/tournaments/{tournament}/{path}")
        assert answer.status_code == 503, (path, answer.text)
        assert answer.json()["error"].startswith("integrity: seq 14: hash does not match")
    answer = api.get(f"/tournaments/{tournament}/standings", params={"as_of": 15})
    assert answer.status_code == 503 and "integrity: seq 14" in answer.json()["error"]
    answer = api.post("/commands", json={**report, "player": "p7"})
    assert answer.status_code == 503 and "integrity: seq 14" in answer.json()["error"]
    assert len(open_store(url).load_raw(tournament)) == 15
