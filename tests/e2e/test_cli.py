"""The tledger CLI end to end: the JSON Lines contract, read shapes, errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
SWISS8 = ROOT / "examples" / "swiss8.jsonl"
TLEDGER = str(Path(sys.executable).with_name("tledger"))


def cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


@pytest.fixture
def sqlite(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.sqlite3"


def seqs(store: str, t: str = "swiss8") -> int:
    return int(json.loads(cli("status", t, "--json", "--store", store).stdout)["seq"])


def test_scripted_event_gives_the_same_standings_twice_and_on_sqlite_and_memory(
    tmp_path: Path,
) -> None:
    outputs = []
    for store in (f"sqlite:///{tmp_path}/a.sqlite3", f"sqlite:///{tmp_path}/b.sqlite3",
                  f"memory://{uuid.uuid4().hex}"):  # fmt: skip
        assert cli("apply", str(SWISS8), "--store", store).exit_code == 0
        standings = json.loads(cli("standings", "swiss8", "--json", "--store", store).stdout)
        outputs.append(standings)
    # the head hash differs (each run records its own times); the standings do not
    assert outputs[0]["standings"] == outputs[1]["standings"] == outputs[2]["standings"]
    top = outputs[0]["standings"][0]
    assert top == {
        "rank": 1, "player": "p6", "name": "Fennec", "points": 9,
        "record": {"wins": 3, "losses": 0, "draws": 0}, "dropped": False,
        "tiebreakers": top["tiebreakers"],
    }  # fmt: skip
    assert set(top["tiebreakers"]) == {"omw", "gw", "ogw"}


def test_status_prints_the_contract_shape(sqlite: str) -> None:
    cli("apply", str(SWISS8), "--store", sqlite)
    status = json.loads(cli("status", "swiss8", "--json", "--store", sqlite).stdout)
    assert set(status) >= {"tournament", "ruleset", "options", "stage", "round", "round_state",
                           "rounds_planned", "cut_size", "players", "active_players", "seq",
                           "position", "head"}  # fmt: skip
    assert (status["stage"], status["round"], status["round_state"]) == ("swiss", 3, "complete")
    assert (status["players"], status["rounds_planned"], status["seq"]) == (8, 3, 27)


def test_pairings_and_log_print_the_contract_shapes(sqlite: str) -> None:
    cli("apply", str(SWISS8), "--store", sqlite)
    pairings = json.loads(
        cli("pairings", "swiss8", "--json", "--round", "1", "--store", sqlite).stdout
    )
    assert pairings["round"] == 1 and pairings["stage"] == "swiss"
    assert pairings["pairings"][0] == {"table": 1, "players": ["p1", "p2"]}
    log = json.loads(cli("log", "swiss8", "--json", "--store", sqlite).stdout)
    first = log["events"][0]
    assert (first["seq"], first["position"], first["type"], first["version"]) == (
        1, 1, "tournament_created", 1)  # fmt: skip
    assert first["actor"] == {"role": "organizer", "id": "local"}
    assert len(log["events"]) == 27


def test_standings_as_of_shows_what_was_known_then(sqlite: str) -> None:
    cli("apply", str(SWISS8), "--store", sqlite)
    early = json.loads(
        cli("standings", "swiss8", "--json", "--as-of", "9", "--store", sqlite).stdout
    )
    assert early["seq"] == 9 and all(r["points"] == 0 for r in early["standings"])


@pytest.mark.parametrize(
    ("line", "code", "message"),
    [
        ("{not json", 2, "line 1: malformed JSON"),
        ('{"type": "launch_rockets", "tournament": "swiss8"}', 2, "unknown command type"),
        ('{"type": "register_player", "tournament": "swiss8", "player": "p9", "colour": 1}', 2,
         "colour: unknown field"),
        ('{"type": "register_player", "tournament": "swiss8", "player": "p1"}', 1,
         "'p1' is registered already"),
        ('{"type": "drop_player", "tournament": "nope", "player": "p1"}', 1, "unknown tournament"),
        ('{"type": "report_result", "tournament": "swiss8", "round": 3, "players": ["p1", "p6"],'
         ' "result": {"games": [5, 0], "draws": 0}}', 2, "impossible in Bo3"),
    ],
)  # fmt: skip
def test_bad_input_gets_one_line_an_exit_code_and_appends_nothing(
    sqlite: str, line: str, code: int, message: str
) -> None:
    cli("apply", str(SWISS8), "--store", sqlite)
    result = cli("apply", "-", "--store", sqlite, stdin=line + "\n")
    assert result.exit_code == code
    errors = [x for x in result.stderr.splitlines() if x.startswith("error:")]
    assert len(errors) == 1 and message in errors[0]
    assert seqs(sqlite) == 27


def test_apply_stops_at_the_first_rejected_line_and_names_it(sqlite: str) -> None:
    lines = SWISS8.read_text().splitlines()[:3]
    lines.append('{"type": "register_player", "tournament": "swiss8", "player": "p1"}')
    lines.append('{"type": "register_player", "tournament": "swiss8", "player": "p5"}')
    result = cli("apply", "-", "--store", sqlite, stdin="\n".join(lines) + "\n")
    assert result.exit_code == 1
    assert "error: line 4: " in result.stderr and "'p1' is registered already" in result.stderr
    assert seqs(sqlite) == 3


def test_unknown_tournament_on_a_read_command_exits_1(sqlite: str) -> None:
    assert cli("new", "other", "--name", "Other", "--store", sqlite).exit_code == 0
    result = cli("standings", "nope", "--store", sqlite)
    assert result.exit_code == 1 and "unknown tournament 'nope'" in result.stderr


def test_a_read_on_a_missing_store_file_names_it_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "typo.sqlite3"
    result = cli("standings", "t1", "--store", f"sqlite:///{missing}")
    assert result.exit_code == 3 and str(missing) in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_bad_store_url_is_a_store_error(tmp_path: Path) -> None:
    result = cli("status", "x", "--store", "mongodb://nowhere")
    assert result.exit_code == 3 and "unknown store URL" in result.stderr


def test_organizer_runs_a_round_with_subcommands_in_a_real_process(tmp_path: Path) -> None:
    """The installed ``tledger`` entry point: the store it makes, its exit codes and its
    structured log line on stderr (the steps between run in process, as elsewhere)."""
    store = ["--store", f"sqlite:///{tmp_path}/t.sqlite3"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([TLEDGER, *args, *store], capture_output=True, text=True)

    assert run("new", "t1", "--name", "Weekly", "-o", "format=bo1").returncode == 0
    for p in ("p1", "p2", "p3"):
        assert cli("register", "t1", p, "--name", p.upper(), *store).exit_code == 0
    assert cli("pair", "t1", "--seed", "4", *store).exit_code == 0
    assert cli("start", "t1", *store).exit_code == 0
    table = json.loads(cli("pairings", "t1", "--json", *store).stdout)["pairings"][0]
    a, b = table["players"]
    reported = run("report", "t1", "1", a, b, "--games", "1-0")
    assert reported.returncode == 0, reported.stderr
    assert '"command": "report_result"' in reported.stderr  # one structured log line
    standings = json.loads(run("standings", "t1", "--json").stdout)["standings"]
    assert [r["points"] for r in standings] == [3, 3, 0]
    assert run("verify", "t1").returncode == 0
    assert run("report", "t1", "1", a, b, "--games", "2-0").returncode == 2


def test_forget_erases_the_name_and_the_chain_still_verifies(sqlite: str) -> None:
    cli("apply", str(SWISS8), "--store", sqlite)
    assert cli("forget", "swiss8", "p6", "--store", sqlite).exit_code == 0
    standings = json.loads(cli("standings", "swiss8", "--json", "--store", sqlite).stdout)
    assert standings["standings"][0]["name"] == "(erased)"
    assert cli("verify", "swiss8", "--store", sqlite).exit_code == 0


def test_version_prints_the_installed_version() -> None:
    from importlib.metadata import version

    result = cli("--version")
    assert result.exit_code == 0 and result.stdout == f"tledger {version('tledger')}\n"
