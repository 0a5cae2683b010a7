"""Who did it, on the command line: ``--actor ROLE:ID`` or ``TLEDGER_ACTOR`` on
every command that writes, ``apply``'s default actor, ``token create|list|revoke``,
and the log showing a token's label."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from commands.cli import grids
from commands.cli.main import app
from tests.e2e.test_cli import cli
from tests.e2e.test_cli_results import event

ORGANIZER = {"role": "organizer", "id": "local"}


def run(*args: str, env: dict[str, str] | None = None, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), env=env, input=stdin)


def log(store: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads(cli("log", "t", "--json", "--store", store).stdout)[
        "events"
    ]
    return events


def status(store: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(cli("status", "t", "--json", "--store", store).stdout)
    return found


def lines(*commands: dict[str, Any]) -> str:
    return "\n".join(json.dumps({"tournament": "t", **c}) for c in commands)


def test_a_judge_named_by_actor_is_recorded_on_the_event(tmp_path: Path) -> None:
    store = event(tmp_path, "swu-1.4")
    done = cli("report", "t", "1", "p3", "p4", "--games", "2-0", "--actor", "judge:AK",
               "--store", store)  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert log(store)[-1]["actor"] == {"role": "judge", "id": "AK"}
    assert log(store)[0]["actor"] == ORGANIZER, "without --actor: the local organizer"


@pytest.mark.parametrize(
    "command",
    [["extend", "t", "1", "p1", "p2", "--minutes", "3"],
     ["penalty", "t", "p1", "--round", "1", "--penalty", "warning",
      "--infraction", "slow play"],
     ["deck-check", "t", "p1", "--round", "1", "--timing", "after_match", "--outcome", "legal"],
     ["disqualify", "t", "p1", "--reason", "cheating"]],
)  # fmt: skip
def test_every_writing_command_takes_the_actor_from_tledger_actor(
    tmp_path: Path, command: list[str]
) -> None:
    store = event(tmp_path, "swu-1.4")
    done = run(*command, "--store", store, env={"TLEDGER_ACTOR": "judge:AK"})
    assert done.exit_code == 0, done.stderr
    assert log(store)[-1]["actor"] == {"role": "judge", "id": "AK"}


def test_actor_wins_over_tledger_actor(tmp_path: Path) -> None:
    store = event(tmp_path, "swu-1.4")
    done = run("report", "t", "1", "p1", "p2", "--games", "2-0", "--actor", "scorekeeper:S1",
               "--store", store, env={"TLEDGER_ACTOR": "judge:AK"})  # fmt: skip
    assert done.exit_code == 0, done.stderr
    assert log(store)[-1]["actor"] == {"role": "scorekeeper", "id": "S1"}


@pytest.mark.parametrize(
    ("command", "said"),
    [(["pair", "t"], "error: pair: a player may not send pair_round (only organizer)"),
     (["drop", "t", "p1"], "error: drop: a judge may not send drop_player (only organizer)"),
     (["correct", "t", "1", "p1", "p2", "--games", "0-2", "--reason", "x"],
      "error: correct: a scorekeeper may not send correct_result (only judge, organizer)")],
)  # fmt: skip
def test_an_actor_may_send_only_what_its_role_may_send_over_http(
    tmp_path: Path, command: list[str], said: str
) -> None:
    store = event(tmp_path, "swu-1.4")
    before = len(log(store))
    role = said.split(" a ")[1].split(" ")[0]
    done = run(*command, "--actor", f"{role}:X1", "--store", store)
    assert done.exit_code == 1 and done.stderr.strip().splitlines()[-1] == said
    assert len(log(store)) == before


@pytest.mark.parametrize(
    ("value", "message"),
    [("judg:Anna", "error: --actor 'judg:Anna': role must be one of organizer, judge, "
                   "scorekeeper, player"),
     # the value is shown escaped: the override would reorder the error line itself
     ("judge:A\u202eK", "error: --actor 'judge:A\\u202eK': the id must be printable "
                        "(contains U+202E RIGHT-TO-LEFT OVERRIDE)")],
)  # fmt: skip
def test_a_bad_actor_is_one_line_exit_2_and_appends_nothing(
    tmp_path: Path, value: str, message: str
) -> None:
    store = event(tmp_path, "swu-1.4")
    for args in (["start", "t"], ["report", "t", "1", "p1", "p2", "--games", "2-0"]):
        done = cli(*args, "--actor", value, "--store", store)
        assert done.exit_code == 2
        assert done.stderr == message + "\n"
    bad_env = run("drop", "t", "p1", "--store", store, env={"TLEDGER_ACTOR": value})
    assert bad_env.exit_code == 2 and bad_env.stderr == message + "\n"
    assert status(store)["seq"] == 7


def test_a_players_self_report_is_unconfirmed_until_the_opponent_matches_it(
    tmp_path: Path,
) -> None:
    store = event(tmp_path, "swu-1.4")
    report = ["report", "t", "1", "p1", "p2", "--games", "2-1", "--store", store]
    assert cli(*report, "--actor", "player:p1").exit_code == 0
    assert status(store)["tables"][0] == {"table": 1, "players": ["p1", "p2"],
                                          "state": "unconfirmed"}  # fmt: skip
    assert cli(*report, "--actor", "player:p2").exit_code == 0
    assert status(store)["tables"][0]["state"] == "confirmed"
    other = cli("report", "t", "1", "p3", "p4", "--games", "2-0", "--actor", "player:p1",
                "--store", store)  # fmt: skip
    assert other.exit_code == 1 and "may report only their own match" in other.stderr


def test_apply_acts_as_its_actor_for_lines_without_one_and_a_lines_own_actor_wins(
    tmp_path: Path,
) -> None:
    store = event(tmp_path, "swu-1.4")
    result = {"games": [2, 0], "draws": 0}
    stdin = lines(
        {"type": "report_result", "round": 1, "players": ["p1", "p2"], "result": result},
        {"type": "report_result", "round": 1, "players": ["p3", "p4"], "result": result,
         "actor": {"role": "player", "id": "p3"}},
    )  # fmt: skip
    done = cli("apply", "-", "--actor", "scorekeeper:S1", "--store", store, stdin=stdin)
    assert done.exit_code == 0, done.stderr
    assert [e["actor"] for e in log(store)[-2:]] == [
        {"role": "scorekeeper", "id": "S1"}, {"role": "player", "id": "p3"}]  # fmt: skip
    refused = cli("apply", "-", "--actor", "judg:x", "--store", store, stdin=stdin)
    assert refused.exit_code == 2 and "role must be one of" in refused.stderr
    assert status(store)["seq"] == 9


def test_apply_without_actor_keeps_the_local_organizer(tmp_path: Path) -> None:
    store = event(tmp_path, "swu-1.4")
    assert cli("apply", "-", "--store", store, stdin=lines({"type": "start_round"})).exit_code
    assert all(e["actor"] == ORGANIZER for e in log(store))


# tokens


def token_list(store: str, *args: str) -> list[dict[str, Any]]:
    done = cli("token", "list", "--json", "--store", store, *args)
    assert done.exit_code == 0, done.stderr
    listed: list[dict[str, Any]] = json.loads(done.stdout)["tokens"]
    return listed


def test_token_create_list_and_revoke(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path}/tokens.sqlite3"
    made = cli("token", "create", "--role", "judge", "--tournament", "t", "--label",
               "Anna (head judge)", "--expires", "8h", "--store", store)  # fmt: skip
    assert made.exit_code == 0, made.stderr
    secret = made.stdout.strip()
    assert secret.startswith("tl_") and "'Anna (head judge)', expires" in made.stderr
    cli("token", "create", "--role", "reader", "--tournament", "other", "--store", store)
    [judge] = token_list(store, "--tournament", "t")
    assert set(judge) == {"token_id", "role", "tournament", "player", "label", "created_at",
                          "expires_at", "revoked_at", "state"}  # fmt: skip
    assert (judge["role"], judge["label"], judge["state"]) == ("judge", "Anna (head judge)",
                                                               "active")  # fmt: skip
    assert judge["expires_at"] > judge["created_at"] and judge["revoked_at"] is None
    assert len(token_list(store)) == 2
    listed = run("token", "list", "--store", store, env={"COLUMNS": "80"})
    assert listed.exit_code == 0 and secret not in listed.stdout
    assert "Anna (head" in listed.stdout and judge["token_id"] in listed.stdout
    assert max(len(line) for line in listed.stdout.splitlines()) <= 80

    revoked = cli("token", "revoke", judge["token_id"], "--store", store)
    assert revoked.exit_code == 0
    assert revoked.stdout.startswith(f"revoked token {judge['token_id']} (Anna (head judge)) at ")
    [after] = token_list(store, "--tournament", "t")
    assert after["state"] == "revoked" and after["revoked_at"] is not None
    again = cli("token", "revoke", judge["token_id"], "--store", store)
    assert again.exit_code == 0 and "was revoked already at" in again.stdout
    assert token_list(store, "--tournament", "t")[0]["revoked_at"] == after["revoked_at"]
    unknown = cli("token", "revoke", "nosuchid", "--store", store)
    assert unknown.exit_code == 2
    assert unknown.stderr == ("error: token revoke: no token has the id 'nosuchid' "
                              "(see tledger token list)\n")  # fmt: skip


@pytest.mark.parametrize(
    ("flags", "message"),
    [(["--expires", "2020-01-01T00:00Z"], "is not in the future"),
     (["--expires", "tomorrow"], "is neither a duration (30m, 8h, 2d) nor an ISO 8601 time"),
     (["--label", "a\tb"], "--label must be printable (contains U+0009 TAB)")],
)  # fmt: skip
def test_token_create_refuses_a_bad_expiry_or_label(
    tmp_path: Path, flags: list[str], message: str
) -> None:
    store = f"sqlite:///{tmp_path}/tokens.sqlite3"
    assert cli("token", "create", "--role", "reader", "--store", store).exit_code == 0
    done = cli("token", "create", "--role", "judge", *flags, "--store", store)
    assert done.exit_code == 2 and message in done.stderr and done.stdout == ""
    assert [t["role"] for t in token_list(store)] == ["reader"]


def test_the_log_shows_the_label_of_a_token_actor(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = event(tmp_path, "swu-1.4")
    cli("token", "create", "--role", "judge", "--label", "Anna (head judge)", "--store", store)
    [judge] = token_list(store)
    actor = {"role": "judge", "id": f"judge-{judge['token_id']}"}  # as the API records it
    stdin = lines({"type": "drop_player", "player": "p1", "actor": actor})
    assert cli("apply", "-", "--store", store, stdin=stdin).exit_code == 0
    events = log(store)
    # the drop and the forfeit of the open match it causes, both by the judge's token
    label = "Anna (head judge)"
    assert [(e["type"], e.get("actor_label")) for e in events if e["actor"] == actor] == [
        ("player_dropped", label), ("result_reported", label)]  # fmt: skip
    assert all("actor_label" not in e for e in events if e["actor"] != actor)
    monkeypatch.setattr(grids, "console", Console(width=200))  # the module's is made once
    assert label in cli("log", "t", "--store", store).stdout
