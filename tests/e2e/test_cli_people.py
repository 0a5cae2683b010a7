"""Finding people from the CLI: ``players --search``, ``player`` and every
command that takes a player given a unique name instead of an id; a shared name
refused naming the ids, a blank name refused, a duplicate name accepted with a
warning; nothing appended for any refusal."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_cli import cli

NAMES = {"p1": "Fay", "p2": "Élan Dorr", "p3": "dana", "p4": "Bail", "p5": "Anna Berg",
         "p6": "Anna Berg"}  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> str:
    """Six named players, round 1 p1-p2, p3-p4, p5-p6 paired and started: 9 events."""
    url = f"sqlite:///{tmp_path}/people.sqlite3"
    lines: list[dict[str, Any]] = [
        {"type": "create_tournament", "tournament": "t", "name": "T", "ruleset": "swu-1.4"}
    ]
    lines += [{"type": "register_player", "tournament": "t", "player": p, "name": n,
               "external_id": f"UID-{p}"} for p, n in NAMES.items()]  # fmt: skip
    lines += [{"type": "pair_round", "tournament": "t",
               "pairings": [["p1", "p2"], ["p3", "p4"], ["p5", "p6"]]},
              {"type": "start_round", "tournament": "t"}]  # fmt: skip
    done = cli("apply", "-", "--store", url, stdin="\n".join(json.dumps(x) for x in lines))
    assert done.exit_code == 0, done.stderr
    return url


def seq(store: str) -> int:
    return int(json.loads(cli("status", "t", "--json", "--store", store).stdout)["seq"])


def last_event(store: str) -> dict[str, Any]:
    event: dict[str, Any] = json.loads(cli("log", "t", "--json", "--store", store).stdout)[
        "events"][-1]  # fmt: skip
    return event


def errors(done: Any) -> list[str]:
    return [line for line in done.stderr.splitlines() if line.startswith("error:")]


def test_players_lists_everyone_by_name_as_people_read_it(store: str) -> None:
    done = cli("players", "t", "--store", store)
    assert done.exit_code == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("│")]
    assert [r.split("│")[1].strip() for r in rows] == [
        "Anna Berg", "Anna Berg", "Bail", "dana", "Élan Dorr", "Fay"]  # fmt: skip
    assert "6 player(s)" in done.stdout.splitlines()
    assert max(len(line) for line in done.stdout.splitlines()) <= 80


def test_players_search_finds_names_without_accents_or_case(store: str) -> None:
    done = cli("players", "t", "--search", "ELAN", "--store", store, "--json")
    assert done.exit_code == 0, done.stderr
    model = json.loads(done.stdout)
    assert model["players"] == [{"player": "p2", "name": "Élan Dorr", "status": "active"}]
    assert (model["tournament"], model["seq"]) == ("t", 9)
    assert "UID-" not in done.stdout  # the external id stays in the registry


def test_player_by_a_unique_name_shows_the_history(store: str) -> None:
    lines = [{"type": "grant_time_extension", "tournament": "t", "round": 1,
              "players": ["p1", "p2"], "minutes": 4, "reason": "deck check"}]  # fmt: skip
    assert cli("apply", "-", "--store", store, stdin=json.dumps(lines[0])).exit_code == 0
    done = cli("player", "t", "élan dorr", "--store", store, "--json")
    assert done.exit_code == 0, done.stderr
    history = json.loads(done.stdout)
    assert (history["player"], history["name"]) == ("p2", "Élan Dorr")
    assert [(m["opponent"], m["opponent_name"]) for m in history["matches"]] == [("p1", "Fay")]
    assert [(x["round"], x["minutes"], x["reason"]) for x in history["extensions"]] == [
        (1, 4, "deck check")]  # fmt: skip
    shown = cli("player", "t", "Fay", "--store", store)
    assert shown.exit_code == 0, shown.stderr
    assert "Fay (p1) in t: active" in shown.stdout and "Élan Dorr (p2)" in shown.stdout
    assert "Time extensions" in shown.stdout and "deck check" in shown.stdout
    assert max(len(line) for line in shown.stdout.splitlines()) <= 80


def test_write_commands_take_unique_names(store: str) -> None:
    done = cli("report", "t", "1", "ELAN DORR", "fay", "--games", "2-1", "--store", store)
    assert done.exit_code == 0, done.stderr
    event = last_event(store)
    assert (event["type"], event["players"], event["result"]) == (
        "result_reported", ["p2", "p1"], {"games": [2, 1], "draws": 0})  # fmt: skip
    done = cli("drop", "t", "Dana", "--reason", "went home", "--store", store)
    assert done.exit_code == 0, done.stderr
    dropped = [e for e in json.loads(cli("log", "t", "--json", "--store", store).stdout)["events"]
               if e["type"] == "player_dropped"]  # fmt: skip
    assert [(e["player"], e["reason"]) for e in dropped] == [("p3", "went home")]
    history = json.loads(cli("player", "t", "p3", "--store", store, "--json").stdout)
    assert [(d["after_round"], d["reason"]) for d in history["drops"]] == [(1, "went home")]


def test_explain_takes_a_unique_name(store: str) -> None:
    cli("report", "t", "1", "p1", "p2", "--games", "2-0", "--store", store)
    done = cli("explain", "t", "fay", "--store", store, "--json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["player"] == "p1"


@pytest.mark.parametrize(
    ("args", "said"),
    [(["drop", "t", "Anna Berg"], "drop: 'Anna Berg'"),
     (["report", "t", "1", "anna berg", "p6", "--games", "2-0"], "report: 'anna berg'"),
     (["player", "t", "Anna Berg"], "'Anna Berg'"),
     (["explain", "t", "ANNA BERG"], "'ANNA BERG'")],
)  # fmt: skip
def test_a_shared_name_is_refused_naming_the_ids_and_nothing_is_appended(
    store: str, args: list[str], said: str
) -> None:
    done = cli(*args, "--store", store)
    assert done.exit_code == 1
    assert errors(done) == [f"error: {said} names 2 players: p5, p6; use an id"]
    assert seq(store) == 9


def test_an_unknown_name_is_an_unknown_player(store: str) -> None:
    done = cli("drop", "t", "Nobody", "--store", store)
    assert done.exit_code == 1
    assert errors(done) == ["error: drop: unknown player 'Nobody'"]
    shown = cli("player", "t", "Nobody", "--store", store)
    assert shown.exit_code == 1 and errors(shown) == ["error: unknown player 'Nobody'"]
    assert seq(store) == 9


@pytest.mark.parametrize("name", ["", "   "])
def test_a_blank_name_is_refused_and_nothing_is_appended(store: str, name: str) -> None:
    done = cli("register", "t", "p7", "--name", name, "--store", store)
    assert done.exit_code == 2
    assert errors(done) == ["error: register: name: must not be blank"]
    created = cli("new", "t2", "--name", name, "--store", store)
    assert created.exit_code == 2
    assert errors(created) == ["error: new: name: must not be blank"]
    assert seq(store) == 9
    assert [r["player"] for r in json.loads(cli("players", "t", "--store", store, "--json")
                                            .stdout)["players"]].count("p7") == 0  # fmt: skip
    assert cli("status", "t2", "--store", store).exit_code == 1


def test_a_name_is_stored_without_its_stray_spaces(store: str) -> None:
    assert cli("register", "t", "p7", "--name", "  Cody  ", "--store", store).exit_code == 0
    found = json.loads(cli("players", "t", "--search", "cody", "--store", store, "--json").stdout)
    assert found["players"] == [{"player": "p7", "name": "Cody", "status": "active"}]


def test_a_duplicate_name_is_accepted_with_a_warning(store: str) -> None:
    done = cli("register", "t", "p7", "--name", "BAIL", "--store", store)
    assert done.exit_code == 0, done.stderr
    assert "warning: 'BAIL' is also the name of p4" in done.stderr.splitlines()
    assert done.stdout == "player_registered (seq 10)\n"
    done = cli("register", "t", "p8", "--name", "Anna Bérg", "--store", store, "--json")
    assert done.exit_code == 0, done.stderr
    assert "warning: 'Anna Bérg' is also the name of p5, p6" in done.stderr.splitlines()
    outcome = json.loads(done.stdout)  # stdout holds the outcome's JSON alone
    assert outcome["seq"] == 11 and [e["player"] for e in outcome["events"]] == ["p8"]
    alone = cli("register", "t", "p9", "--name", "Cody", "--store", store)
    assert alone.exit_code == 0 and "warning:" not in alone.stderr
