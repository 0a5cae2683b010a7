"""Lists over HTTP: before publication no token that may read a tournament
receives a card of another player's list, not through ``/log``, ``/events`` nor the
event stream (the events commit to lists by hash only); ``GET .../lists`` answers 409
until the rules allow it, then every list with the hash its event recorded.

SQLite and PostgreSQL (``TLEDGER_TEST_POSTGRES``; a database of the test's own there).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from commands.handler import Handler
from commands.models import parse_command
from ledger.list_events import list_hash
from ledger.url import open_store
from tests.e2e.test_http import Api, token
from tests.e2e.test_stream import app_server, opened
from tests.stores import KINDS, fresh_postgres_database, store_url

SECRET = "Secret Card Alpha"
DECK: dict[str, Any] = {
    "leader": "Hidden Leader | Never Shown", "base": "Concealed Base",
    "deck": [{"card": f"{SECRET} {i}", "count": 3} for i in range(17)],
    "sideboard": [{"card": f"{SECRET} Side", "count": 5}],  # 5 copies: one rule broken
}  # fmt: skip
OWN: dict[str, Any] = {"leader": "Open Leader | Mine", "base": "Echo Base",
                       "deck": [{"card": "Own Card", "count": 3}]}  # fmt: skip
HIDDEN = (SECRET, "Hidden Leader", "Concealed Base")


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield store_url("sqlite", tmp_path, "lists.sqlite3")
    else:
        with fresh_postgres_database(store_url("postgres", tmp_path)) as own:
            yield own


def tournament(url: str) -> None:
    handler = Handler(open_store(url))
    for command in [
        {"type": "create_tournament", "name": "Lists", "ruleset": "swu-1.4",
         "options": {"rounds": 1, "cut": 0}},
        {"type": "register_player", "player": "p1"},
        {"type": "register_player", "player": "p2"},
    ]:  # fmt: skip
        handler.handle(parse_command({"tournament": "t", **command}))


def unseen(body: str) -> bool:
    return not any(word in body for word in HIDDEN)


def test_a_player_never_receives_another_players_cards_before_publication(url: str) -> None:
    tournament(url)
    with app_server(url) as base:
        org = Api(base, token(url, "--role", "organizer"))
        p1 = Api(base, token(url, "--role", "player", "--tournament", "t", "--player", "p1"))
        p2 = Api(base, token(url, "--role", "player", "--tournament", "t", "--player", "p2"))
        reader = Api(base, token(url, "--role", "reader", "--tournament", "t"))
        p1_secret = token(url, "--role", "player", "--tournament", "t", "--player", "p1")
        with opened(base, p1_secret, tournament="t") as sse:
            caught_up = sse.events(3)
            answer = p2.post("t", type="submit_list", player="p2", list=DECK)
            assert answer.status_code == 200, answer.text
            assert unseen(answer.text)  # the submitter gets the summary, not its cards back
            assert p1.post("t", type="submit_list", player="p1", list=OWN).status_code == 200
            live = sse.events(2)
        frames = caught_up + live
        assert [f["event"] for f in live] == ["list_submitted", "list_submitted"]
        assert all(unseen(f["data"]) for f in frames), frames
        for api in (p1, reader):
            for path, params in (("/tournaments/t/log", {}), ("/events", {"tournament": "t"}),
                                 ("/tournaments/t/log", {"type": "list_submitted"})):  # fmt: skip
                got = api.get(path, **params)
                assert got.status_code == 200 and unseen(got.text), (path, got.text)
            refused = api.get("/tournaments/t/lists")
            assert refused.status_code == 409, refused.text
            assert "lists are shown after the event (swu-1.4 §7.1)" in refused.json()["error"]
        [event] = [e for e in p1.get("/tournaments/t/log").json()["events"]
                   if e["type"] == "list_submitted" and e["player"] == "p2"]  # fmt: skip
        assert event["violations"] == [{"rule": "copies", "section": "swu-1.4 §2.3.1.1",
                                        "count": 1}]  # fmt: skip

        for command in ({"type": "pair_round"}, {"type": "start_round"},
                        {"type": "report_result", "round": 1, "players": ["p1", "p2"],
                         "result": {"games": [2, 0], "draws": 0}},
                        {"type": "finish_tournament"}):  # fmt: skip
            done = org.post("t", **command)
            assert done.status_code == 200, done.text
        published = p1.get("/tournaments/t/lists")
        assert published.status_code == 200, published.text
        shown = {e["player"]: e for e in published.json()["lists"]}
        assert published.json()["scope"] == "event" and set(shown) == {"p1", "p2"}
        assert shown["p2"]["list"]["deck"] == DECK["deck"]
        salt = shown["p2"]["salt"]
        assert (
            shown["p2"]["list_hash"] == event["list_hash"] == list_hash(shown["p2"]["list"], salt)
        )
        # a reader of the log who guessed the list exactly could not have confirmed it
        assert list_hash(shown["p2"]["list"]) != event["list_hash"] and len(salt) == 32
        again = p1.get("/tournaments/t/lists")
        assert again.headers["ETag"] == published.headers["ETag"]
