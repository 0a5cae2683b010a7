"""Revoked and expired tokens against a real server (``tledger serve`` in a subprocess, on
SQLite and PostgreSQL): a ``token revoke`` run by another process is refused within the
server's ``--token-recheck`` seconds, an expired token at once, each with a one-line
401; the log over HTTP shows the token's label."""

from __future__ import annotations

import subprocess
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from commands.tokens import create_token, token_hash
from ledger.url import open_store
from tests.e2e.test_http import TLEDGER, Api, served, setup
from tests.stores import KINDS, store_url

RECHECK = 1.0
#: what a request and a subprocess may add to the bound on a slow machine
SLACK = 2.0


@pytest.fixture(params=KINDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return store_url(request.param, tmp_path, "tokens.sqlite3")


def token_id(store: str, secret: str) -> str:
    entry = open_store(store).token(token_hash(secret))
    assert entry is not None
    return entry.token_id


def test_a_token_revoked_by_another_process_stops_working_within_the_recheck_time(
    store: str,
) -> None:
    with served(store, "--token-recheck", str(RECHECK)) as base:
        t, _ = setup(store, base, ["p1", "p2"])
        secret = create_token(open_store(store), "judge", t, None, label="Anna (head judge)")
        judge = Api(base, secret)
        assert judge.get(f"/tournaments/{t}/status").status_code == 200  # now kept
        revoke = [TLEDGER, "token", "revoke", token_id(store, secret), "--store", store]
        subprocess.run(revoke, check=True, capture_output=True)
        revoked_at = time.monotonic()
        while (answer := judge.get(f"/tournaments/{t}/status")).status_code == 200:
            assert time.monotonic() - revoked_at < RECHECK + SLACK, "still accepted"
            time.sleep(0.05)
        assert (answer.status_code, answer.json()) == (401, {"error": "token revoked"})
        sent = judge.post(t, type="drop_player", player="p1")
        assert (sent.status_code, sent.json()) == (401, {"error": "token revoked"})


def test_an_expired_token_is_refused_at_once_even_while_kept(store: str) -> None:
    with served(store, "--token-recheck", "600") as base:
        t, _ = setup(store, base, ["p1", "p2"])
        expires = datetime.now(UTC) + timedelta(seconds=2)
        reader = Api(base, create_token(open_store(store), "reader", t, None, expires_at=expires))
        assert reader.get(f"/tournaments/{t}/status").status_code == 200  # kept for 600 s
        time.sleep(max(0.0, (expires - datetime.now(UTC)).total_seconds()) + 0.05)
        answer = reader.get(f"/tournaments/{t}/status")
        assert (answer.status_code, answer.json()) == (401, {"error": "token expired"})


def test_the_log_over_http_shows_the_label_of_the_token_that_acted(store: str) -> None:
    with served(store) as base:
        t, org = setup(store, base, ["p1", "p2"])
        judge = Api(base, create_token(open_store(store), "judge", t, None, label="Anna"))
        warned = judge.post(t, type="issue_penalty", player="p1", round=1, penalty="warning",
                            infraction="slow play")  # fmt: skip
        assert warned.status_code == 200, warned.text
        events = org.get(f"/tournaments/{t}/log").json()["events"]
        labelled = [(e["type"], e["actor"]["role"], e["actor_label"]) for e in events
                    if "actor_label" in e]  # fmt: skip
        assert labelled == [("penalty_issued", "judge", "Anna")]
