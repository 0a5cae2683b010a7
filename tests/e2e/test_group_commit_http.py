"""Commands sent at once over HTTP to a real ``tledger serve`` (SQLite and PostgreSQL),
committed in groups: every accepted command is stored once, the seqs of each tournament
run without a gap, every client is answered with its own command's events, and a
command refused beside them is refused alone. A retried command id is answered with
its first outcome.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ledger.url import open_store
from tests.e2e.test_http import served, setup, token
from tests.public_event import clean_postgres
from tests.stores import KINDS, store_url

#: clients sending at once, and commands each
CLIENTS, EACH = 10, 6


@pytest.fixture(params=KINDS)
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    return store_url(request.param, tmp_path_factory.mktemp("group"), "group.sqlite3")


@pytest.fixture
def base(store: str) -> Iterator[str]:
    with served(store) as url:
        yield url


def warning(t: str, command_id: str, player: str = "p01") -> dict[str, Any]:
    return {"tournament": t, "type": "issue_penalty", "round": 1, "player": player,
            "penalty": "warning", "infraction": "slow play", "command_id": command_id}  # fmt: skip


def at_once(base: str, secret: str, bodies: list[list[dict[str, Any]]]) -> list[httpx.Response]:
    """One client (a thread and a connection) per list of bodies, all starting together;
    every answer, in the order of the bodies."""
    answers: dict[tuple[int, int], httpx.Response] = {}
    start = threading.Barrier(len(bodies))

    def client(n: int) -> None:
        with httpx.Client(base_url=base, timeout=60,
                          headers={"Authorization": f"Bearer {secret}"}) as http:  # fmt: skip
            start.wait()
            for i, body in enumerate(bodies[n]):
                answers[n, i] = http.post("/commands", json=body)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(len(bodies))]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=180)
    return [answers[n, i] for n in range(len(bodies)) for i in range(len(bodies[n]))]


@pytest.mark.parametrize("spread", [3, 1], ids=["many tournaments", "one tournament"])
def test_commands_at_once_are_stored_once_each_answered_with_its_own(
    store: str, base: str, spread: int
) -> None:
    tournaments = [setup(store, base)[0] for _ in range(spread)]
    secret = token(store, "--role", "organizer")
    bodies = [[warning(tournaments[n % spread], f"c{n}-{i}") for i in range(EACH)]
              for n in range(CLIENTS)]  # fmt: skip
    bodies[0].append(warning(tournaments[0], "refused", player="nobody"))
    bodies[1].append(warning(tournaments[0], "c0-0"))  # a retry of another client's id
    answers = at_once(base, secret, bodies)
    sent = [b for per in bodies for b in per]
    try:
        first: dict[str, Any] = {}
        for body, answer in zip(sent, answers, strict=True):
            if body["command_id"] == "refused":
                assert answer.status_code == 409 and "nobody" in answer.text
                continue
            assert answer.status_code == 200, answer.text
            events = answer.json()["events"]
            if body["command_id"] in first:  # the retry: the first outcome again
                assert events == first[body["command_id"]]
                continue
            first[body["command_id"]] = events
            assert [e["command_id"] for e in events] == [body["command_id"]]
        opened = open_store(store)
        for t in tournaments:
            loaded = opened.load(t)
            assert [r.seq for r in loaded] == list(range(1, len(loaded) + 1))
            ids = [r.event.command_id for r in loaded if r.event.command_id]
            assert len(ids) == len(set(ids))
            assert sorted(ids) == sorted(b["command_id"] for per in bodies for b in per
                                         if b["tournament"] == t
                                         and b["command_id"] != "refused"
                                         and b is not bodies[1][-1])  # fmt: skip
        opened.close()
    finally:
        clean_postgres(store, *tournaments)
