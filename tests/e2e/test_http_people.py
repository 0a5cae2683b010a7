"""``GET /tournaments/{t}/players?search=`` against a real server (a person at the desk
finds a player by the name they say): sorted by name as people read them, searched without
accents or case, cached with an ETag per search, read with the same tokens as every other
read."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from commands.handler import Handler
from commands.models import parse_command
from ledger.url import open_store
from tests.e2e.test_http import Api, served, token
from tests.stores import KINDS, store_url

NAMES = {"p1": "Fay", "p2": "Élan Dorr", "p3": "dana", "p4": "Bail"}


@pytest.fixture(params=KINDS, scope="module")
def store(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    return store_url(request.param, tmp_path_factory.mktemp("people"), "people.sqlite3")


@pytest.fixture(scope="module")
def base(store: str) -> Iterator[str]:
    """One server on the module's store; each test reads tournaments of its own."""
    with served(store) as url:
        yield url


def named_event(store: str) -> str:
    """A tournament of four named players (set up in-process), p3 dropped."""
    t = f"people-{uuid.uuid4().hex[:10]}"
    handler = Handler(open_store(store))
    commands = [{"type": "create_tournament", "name": "People", "ruleset": "swu-1.4"},
                *({"type": "register_player", "player": p, "name": n, "external_id": f"UID-{p}"}
                  for p, n in NAMES.items()),
                {"type": "drop_player", "player": "p3"}]  # fmt: skip
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))
    return t


def test_players_are_listed_by_name_and_searched_without_accents(store: str, base: str) -> None:
    t = named_event(store)
    api = Api(base, token(store, "--role", "reader", "--tournament", t))
    everyone = api.get(f"/tournaments/{t}/players")
    assert everyone.status_code == 200
    assert [(r["name"], r["status"]) for r in everyone.json()["players"]] == [
        ("Bail", "active"), ("dana", "dropped"), ("Élan Dorr", "active"), ("Fay", "active"),
    ]  # fmt: skip
    assert "UID-" not in everyone.text
    found = api.get(f"/tournaments/{t}/players", search="elan")
    assert found.status_code == 200
    assert found.json() == {"tournament": t, "seq": 6, "head": found.json()["head"],
                            "players": [{"player": "p2", "name": "Élan Dorr",
                                         "status": "active"}]}  # fmt: skip
    assert found.headers["ETag"] != everyone.headers["ETag"]
    again = api.client.get(f"/tournaments/{t}/players", params={"search": "elan"},
                           headers={"If-None-Match": found.headers["ETag"]})  # fmt: skip
    assert again.status_code == 304
    assert api.get(f"/tournaments/{t}/players/p2").json()["name"] == "Élan Dorr"
    assert api.get(f"/tournaments/{t}/players", search="x" * 201).status_code == 422


def test_players_are_read_with_the_same_tokens_as_every_read(store: str, base: str) -> None:
    t, other = named_event(store), named_event(store)
    assert Api(base, None).get(f"/tournaments/{t}/players").status_code == 401
    scoped = Api(base, token(store, "--role", "reader", "--tournament", other))
    assert scoped.get(f"/tournaments/{t}/players", search="fay").status_code == 403
    organizer = Api(base, token(store, "--role", "organizer"))
    assert organizer.get("/tournaments/nope/players").status_code == 404
