"""A stream's cursor past the end of the global sequence is a 400 naming the end
(``after`` or ``Last-Event-ID``, one tournament's stream or all): a position this store
never gave out would otherwise wait in silence for events the client believes it has.
A cursor at the end follows from there."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest

from ledger.url import open_store
from tests.e2e.test_http import PLAYERS, setup, token
from tests.e2e.test_stream import app_server, opened
from tests.stores import KINDS, store_url


@pytest.mark.parametrize("kind", KINDS)
def test_a_cursor_past_the_end_is_a_400_naming_the_end(kind: str, tmp_path: Path) -> None:
    url = store_url(kind, tmp_path)
    with app_server(url) as base:
        t, _ = setup(url, base, PLAYERS[:2])
        end = open_store(url).head_position()
        secret = token(url, "--role", "reader")
        auth = {"Authorization": f"Bearer {secret}"}
        far = end + 10**6  # past the end even while other tests append to a shared store
        for params, headers, named in (
            ({"after": str(far)}, {}, f"after {far}"),
            ({"after": str(far + 1), "tournament": t}, {}, f"after {far + 1}"),
            ({}, {"Last-Event-ID": str(far + 2)}, f"Last-Event-ID {far + 2}"),
        ):
            answer = httpx.get(f"{base}/events/stream", params=params, timeout=10,
                               headers={**auth, **headers})  # fmt: skip
            assert answer.status_code == 400, params
            said = re.fullmatch(rf"{named} is past the end of the event sequence \(its last "
                                r"position is (\d+)\)", answer.json()["error"])  # fmt: skip
            assert said is not None, answer.json()
            assert int(said.group(1)) == end if kind == "sqlite" else int(said.group(1)) >= end


def test_a_cursor_at_the_end_follows_from_there(tmp_path: Path) -> None:
    url = store_url("sqlite", tmp_path)
    with app_server(url) as base:
        t, org = setup(url, base, PLAYERS[:2])
        end = open_store(url).head_position()
        secret = token(url, "--role", "reader")
        with opened(base, secret, tournament=t, after=end) as sse:
            assert org.post(t, type="register_player", player="late", name="Late").is_success
            assert [int(f["id"]) for f in sse.events(1)] == [end + 1]
