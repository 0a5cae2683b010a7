"""Deck lists and a mirror: a list stays at the venue until its ruleset publishes it
(swu-1.4 §7.1: after the event); the push then carries it, checked on the mirror against
the hash its event committed to, and the mirror shows it as the venue does."""

from __future__ import annotations

from typing import Any

from commands.handler import Handler
from commands.models import parse_command
from ledger.url import open_store
from tests.e2e.mirroring import client, mirror, new_id, push, stored, venue_token
from tests.e2e.mirroring import mirror_url as mirror_url
from tests.e2e.mirroring import venue_url as venue_url
from tests.e2e.test_http_lists import DECK, HIDDEN, OWN


def run(handler: Handler, t: str, *commands: dict[str, Any]) -> None:
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))


def test_lists_travel_once_published(venue_url: str, mirror_url: str) -> None:
    t = new_id()
    handler = Handler(open_store(venue_url))
    run(handler, t,
        {"type": "create_tournament", "name": "Lists", "ruleset": "swu-1.4",
         "options": {"rounds": 1, "cut": 0}},
        {"type": "register_player", "player": "p1", "name": "Ann"},
        {"type": "register_player", "player": "p2", "name": "Ben"},
        {"type": "submit_list", "player": "p1", "list": OWN},
        {"type": "submit_list", "player": "p2", "list": DECK})  # fmt: skip
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base:
        assert push(venue_url, t, base, secret).returncode == 0
        assert open_store(mirror_url).lists(t) == []
        api = client(base, secret)
        assert api.get(f"/tournaments/{t}/lists").status_code == 409
        assert not any(h in api.get(f"/tournaments/{t}/log").text for h in HIDDEN)
        run(handler, t, {"type": "pair_round"}, {"type": "start_round"},
            {"type": "report_result", "round": 1, "players": ["p1", "p2"],
             "result": {"games": [2, 0], "draws": 0}},
            {"type": "finish_tournament"})  # fmt: skip
        done = push(venue_url, t, base, secret)
        assert done.returncode == 0 and "2 published lists" in done.stdout, done.stdout
        assert stored(mirror_url, t) == stored(venue_url, t)
        shown = api.get(f"/tournaments/{t}/lists")
        assert shown.status_code == 200, shown.text
        lists = {e["player"]: e["list"] for e in shown.json()["lists"]}
        assert lists["p2"]["deck"] == DECK["deck"] and lists["p1"]["base"] == OWN["base"]
        forged = dict(shown.json()["lists"][0], list=OWN | {"base": "Forged Base"})
        body = {"after": api.get(f"/tournaments/{t}/head").json(), "events": [],
                "lists": [{k: forged[k] for k in ("seq", "player", "list_hash", "list")}
                          | {"salt": forged["salt"] or ""}]}  # fmt: skip
        refused = api.post(f"/tournaments/{t}/push", json=body)
        assert refused.status_code == 422 and "is not the one its event commits to" in refused.text
