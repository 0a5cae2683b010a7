"""A running server and a store that changes under it: an older backup restored (the
log's tail cut) or a byte flipped far behind what the server has read. The server
never appends on facts the store no longer holds, never leaves a gap, and answers as a
cold read does once it knows; on SQLite and PostgreSQL. The global feed checks each
event against the one before it in its tournament, as a tournament's own reads do."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from commands.tokens import create_token
from ledger.url import open_store
from tests.e2e.test_damaged_store import delete, execute, flip, originator, tledger, url
from tests.e2e.test_damaged_store import tournament as tournament
from tests.e2e.test_http import served

__all__ = ["url"]


@pytest.fixture
def api(url: str) -> Iterator[httpx.Client]:
    """An organizer's client of a server that checks each tournament's whole log every
    0.2 s (the default is 30 s)."""
    secret = create_token(open_store(url), "organizer", None, None)
    with served(url, "--full-check-every", "0.2") as base:
        yield httpx.Client(base_url=base, headers={"Authorization": f"Bearer {secret}"})


def drop(api: httpx.Client, t: str, player: str) -> httpx.Response:
    return api.post("/commands", json={"type": "drop_player", "tournament": t, "player": player})


def test_a_restored_older_backup_gets_no_command_appended_past_its_end(
    url: str, tournament: str, api: httpx.Client
) -> None:
    assert drop(api, tournament, "p8").status_code == 200  # the server's fold: seq 13
    for seq in (13, 12, 11):  # the backup ends at seq 10
        delete(url, tournament, seq)
    refused = drop(api, tournament, "p7")
    assert refused.status_code == 503, refused.text
    assert refused.json()["error"].startswith("integrity: seq 1")  # the seq the server kept
    assert "now ends at seq 10" in refused.json()["error"]
    assert len(open_store(url).load_raw(tournament)) == 10
    assert tledger(url, "verify", tournament).returncode == 0  # no gap was left
    status = api.get(f"/tournaments/{tournament}/status")  # reloaded with every check
    assert status.status_code == 200 and status.json()["seq"] == 10
    assert drop(api, tournament, "p7").json()["events"][0]["seq"] == 11  # no gap


def test_a_flipped_byte_behind_the_cached_fold_answers_503_and_appends_nothing(
    url: str, tournament: str, api: httpx.Client
) -> None:
    assert api.get(f"/tournaments/{tournament}/standings").status_code == 200  # cached
    flip(url, tournament, 5)
    time.sleep(0.3)  # the server's whole-log check is due
    for path in ("status", "standings", "pairings"):
        answer = api.get(f"/tournaments/{tournament}/{path}")
        assert answer.status_code == 503, (path, answer.text)
        assert answer.json()["error"].startswith("integrity: seq 5: hash does not match")
    refused = drop(api, tournament, "p8")
    assert refused.status_code == 503 and "integrity: seq 5" in refused.json()["error"]
    assert len(open_store(url).load_raw(tournament)) == 11


def swap(url: str, t: str, a: int, b: int) -> None:
    """Exchange the stored bytes of two events (their seqs and positions stay)."""
    where = "WHERE originator_id = ? AND originator_version = ?"
    states = {s: execute(url, f"SELECT state FROM {{table}} {where}", originator(url, t), s)[0][0]
              for s in (a, b)}  # fmt: skip
    for seq, other in ((a, b), (b, a)):
        execute(url, f"UPDATE {{table}} SET state = ? {where}", states[other],
                originator(url, t), seq)  # fmt: skip


def positions(api: httpx.Client, t: str) -> list[int]:
    """The positions of the tournament's events, by its own (scoped) feed."""
    found = api.get("/events", params={"tournament": t, "limit": 1000}).json()["events"]
    return [e["position"] for e in found]


@pytest.mark.parametrize("damage", ["deleted", "swapped"])
def test_the_global_feed_serves_no_event_out_of_its_place(
    url: str, tournament: str, api: httpx.Client, damage: str
) -> None:
    """From a cursor before the tournament's first event, and from one in the middle of
    it: other tournaments' events may lie between (a shared database)."""
    at = positions(api, tournament)
    (delete(url, tournament, 6) if damage == "deleted" else swap(url, tournament, 6, 7))
    said = "event missing" if damage == "deleted" else "prev_hash does not match"
    for after in (at[0] - 1, at[4]):
        answer = api.get("/events", params={"after": after, "limit": 1000})
        assert answer.status_code == 503, (after, answer.text[:200])
        assert answer.json()["error"].startswith(f"integrity: seq 6: {said}")
    with api.stream("GET", "/events/stream", params={"after": at[0] - 1}) as stream:
        text = ""
        for chunk in stream.iter_text():
            text += chunk
            if "event: error" in text:
                break
    assert f"integrity: seq 6: {said}" in text
    assert f'"tournament":"{tournament}","seq":6,' not in text
