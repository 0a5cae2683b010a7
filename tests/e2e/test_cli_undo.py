"""Undo from the command line: each undo is a new event with its reason,
shown by ``log`` beside the act it undoes; refusals are one line with nothing appended."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.test_cli import cli


def store_with(tmp_path: Path, *lines: dict[str, Any]) -> str:
    store = f"sqlite:///{tmp_path}/u.sqlite3"
    created = [{"type": "create_tournament", "tournament": "t", "name": "T", "ruleset": "swu-1.4"}]
    created += [{"type": "register_player", "tournament": "t", "player": f"p{i}"}
                for i in range(1, 6)]  # fmt: skip
    text = "\n".join(json.dumps(x) for x in [*created, *lines])
    done = cli("apply", "-", "--store", store, stdin=text)
    assert done.exit_code == 0, done.stderr
    return store


def log(store: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(cli("log", "t", "--json", "--store", store).stdout)[
        "events"
    ]
    return events


def test_withdraw_and_change_options_before_round_1(tmp_path: Path) -> None:
    store = store_with(tmp_path)
    done = cli("withdraw", "t", "p5", "--reason", "registered twice", "--store", store)
    assert done.exit_code == 0 and "registration_withdrawn" in done.stdout
    done = cli("change-options", "t", "-o", "rounds=2", "-o", "format=bo1", "--reason",
               "short day", "--store", store)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    last = log(store)[-1]
    assert last["type"] == "options_changed" and last["options"] == {"rounds": 2, "format": "bo1"}
    assert last["reason"] == "short day"
    status = json.loads(cli("status", "t", "--json", "--store", store).stdout)
    assert status["players"] == 4 and status["rounds_planned"] == 2


def test_reinstate_and_reopen(tmp_path: Path) -> None:
    store = store_with(tmp_path, {"type": "drop_player", "tournament": "t", "player": "p3"})
    done = cli("reinstate", "t", "p3", "--reason", "dropped the wrong player", "--store", store)
    assert done.exit_code == 0, done.stderr
    entry = log(store)[-1]
    assert entry["type"] == "player_reinstated"
    assert entry["actor"] == {"role": "organizer", "id": "local"}
    assert entry["reason"] == "dropped the wrong player"
    status = json.loads(cli("status", "t", "--json", "--store", store).stdout)
    assert status["active_players"] == 5


def test_undo_refusals_are_one_line_and_append_nothing(tmp_path: Path) -> None:
    store = store_with(tmp_path)
    before = len(log(store))
    cases = [
        (["reinstate", "t", "p1", "--reason", "x"],
         "error: reinstate: player 'p1' has not dropped"),
        (["reopen", "t", "--reason", "x"], "error: reopen: tournament 't' is not finished"),
        (["withdraw", "t", "p9", "--reason", "x"], "error: withdraw: unknown player 'p9'"),
        (["change-options", "t", "-o", "seed=3"],
         "error: change-options: the seed is fixed when the tournament is created"),
        (["reinstate", "t", "p1"], "Missing option '--reason'"),
    ]  # fmt: skip
    for args, message in cases:
        done = cli(*args, "--store", store)
        assert done.exit_code != 0
        assert message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert len(log(store)) == before
