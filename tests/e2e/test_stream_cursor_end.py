"""A stream's cursor past the end of the global sequence is a 400 naming the end
(``after`` or ``Last-Event-ID``, one tournament's stream or all): a position this store
never gave out would otherwise wait in silence for events the client believes it has.
A cursor at the end follows from there."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.e2e.test_http import PLAYERS, setup, token
from tests.e2e.test_stream import app_server, opened
from tests.stores import store_url


def test_a_cursor_past_the_end_is_a_400_naming_the_end(tmp_path: Path) -> None:
    url = store_url("sqlite", tmp_path)
    with app_server(url) as base:
        t, org = setup(url, base, PLAYERS[:2])
        end = org.get("/events", limit=1000).json()["last"]
        secret = token(url, "--role", "reader")
        auth = {"Authorization": f"Bearer {secret}"}
        said = f"is past the end of the event sequence (its last position is {end})"
        for params, headers, named in (
            ({"after": "999999"}, {}, "after 999999"),
            ({"after": str(end + 1), "tournament": t}, {}, f"after {end + 1}"),
            ({}, {"Last-Event-ID": "999999"}, "Last-Event-ID 999999"),
        ):
            answer = httpx.get(f"{base}/events/stream", params=params, timeout=10,
                               headers={**auth, **headers})  # fmt: skip
            assert answer.status_code == 400, params
            assert answer.json() == {"error": f"{named} {said}"}


def test_a_cursor_at_the_end_follows_from_there(tmp_path: Path) -> None:
    url = store_url("sqlite", tmp_path)
    with app_server(url) as base:
        t, org = setup(url, base, PLAYERS[:2])
        end = org.get("/events", limit=1000).json()["last"]
        secret = token(url, "--role", "reader")
        with opened(base, secret, tournament=t, after=end) as sse:
            assert org.post(t, type="register_player", player="late", name="Late").is_success
            assert [int(f["id"]) for f in sse.events(1)] == [end + 1]
