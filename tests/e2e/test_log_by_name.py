"""``log --player`` takes what every other command takes: an id or a name only one player
has; an unknown or shared name is one error line (exit 1), never an empty log. Over HTTP
the filter stays ids-only, as the contract, and an unknown id is a 404."""

from __future__ import annotations

import json
from typing import Any

from commands.handler import Handler
from ledger.url import open_store
from tests.e2e.test_cli import cli
from tests.e2e.test_cli_people import errors
from tests.e2e.test_cli_people import store as store
from tests.e2e.test_read_cache import Client


def kept(store: str, *flags: str) -> list[dict[str, Any]]:
    done = cli("log", "t", "--json", *flags, "--store", store)
    assert done.exit_code == 0, done.stderr
    events: list[dict[str, Any]] = json.loads(done.stdout)["events"]
    return events


def test_a_name_finds_the_same_events_as_the_id(store: str) -> None:
    by_id = kept(store, "--player", "p2")
    assert [e["type"] for e in by_id] == ["player_registered", "round_paired"]
    assert kept(store, "--player", "Élan Dorr") == by_id
    assert kept(store, "--player", "elan dorr") == by_id  # accents and case folded
    shown = cli("log", "t", "--player", "Élan Dorr", "--store", store)
    assert shown.exit_code == 0 and "round_paired" in shown.stdout


def test_an_unknown_name_is_one_error_line_exit_1(store: str) -> None:
    for flags in ((), ("--json",), ("--as-of", "3")):
        done = cli("log", "t", "--player", "Marco Rossi", *flags, "--store", store)
        assert done.exit_code == 1 and done.stdout == ""
        assert errors(done) == ["error: log: unknown player 'Marco Rossi'"]
        assert done.stderr.count("\n") == 1


def test_a_shared_name_is_refused_naming_the_ids(store: str) -> None:
    done = cli("log", "t", "--player", "Anna Berg", "--store", store)
    assert done.exit_code == 1 and done.stdout == ""
    assert errors(done) == ["error: log: 'Anna Berg' names 2 players: p5, p6; use an id"]


def test_follow_resolves_the_name_before_it_follows(store: str) -> None:
    done = cli("log", "t", "--follow", "--player", "Nobody", "--store", store)
    assert done.exit_code == 1
    assert errors(done) == ["error: log: unknown player 'Nobody'"]


def test_http_log_filter_by_an_unknown_id_is_a_404(store: str) -> None:
    api = Client(Handler(open_store(store)))
    known = api.get("/tournaments/t/log", player="p2")
    assert known.status_code == 200 and len(known.json()["events"]) == 2
    unknown = api.get("/tournaments/t/log", player="p99")
    assert unknown.status_code == 404
    assert unknown.json()["error"] == "unknown player 'p99'"
    by_name = api.get("/tournaments/t/log", player="Bail")  # the contract is ids
    assert by_name.status_code == 404


def test_an_erased_player_is_still_found_by_id(store: str) -> None:
    assert cli("forget", "t", "p4", "--store", store).exit_code == 0
    assert [e["type"] for e in kept(store, "--player", "p4")][:2] == [
        "player_registered", "round_paired"]  # fmt: skip
    api = Client(Handler(open_store(store)))
    assert api.get("/tournaments/t/log", player="p4").status_code == 200
