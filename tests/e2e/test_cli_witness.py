"""``tledger verify T --witness FILE``: heads printed on paper catch what a
chain cannot, a truncated tail or a consistent re-hash; exit 3 like a broken chain,
a malformed witness file exit 2."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from ledger.chain import GENESIS, seal
from ledger.events import ResultReported
from ledger.url import open_store

ROOT = Path(__file__).resolve().parents[2]
SWISS8 = ROOT / "examples" / "swiss8.jsonl"


def cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


@pytest.fixture
def db(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'venue.sqlite3'}"
    assert cli("apply", str(SWISS8), "--store", url).exit_code == 0
    return url


def heads(url: str) -> dict[int, str]:
    events = json.loads(cli("log", "swiss8", "--json", "--store", url).stdout)["events"]
    return {e["seq"]: e["hash"] for e in events}


def printed(url: str, *seqs: int) -> str:
    """Witness lines as copied from printouts."""
    known = heads(url)
    return "".join(f"seq {s} {known[s]}\n" for s in seqs)


def verify(url: str, *witness_files: Path | str, as_json: bool = False,
           stdin: str | None = None) -> Any:  # fmt: skip
    args = ["verify", "swiss8", "--store", url]
    for f in witness_files:
        args += ["--witness", str(f)]
    return cli(*args, *(["--json"] if as_json else []), stdin=stdin)


def test_witnesses_of_the_log_pass(db: str, tmp_path: Path) -> None:
    wall = tmp_path / "wall.txt"
    wall.write_text("# pairings round 1, standings round 2\n" + printed(db, 10, 21).upper())
    result = verify(db, wall)
    assert result.exit_code == 0, result.stderr
    assert "witness line 2 (seq 10): ok" in result.stdout
    assert "witness line 3 (seq 21): ok" in result.stdout


def test_a_truncated_store_verifies_as_a_chain_but_not_against_a_later_witness(
    db: str, tmp_path: Path
) -> None:
    wall = tmp_path / "wall.txt"
    wall.write_text(printed(db, 10, 27))
    with sqlite3.connect(db.removeprefix("sqlite:///")) as con:
        con.execute("DELETE FROM stored_events WHERE originator_version > 20")
    assert cli("verify", "swiss8", "--store", db).exit_code == 0  # the chain cannot tell
    result = verify(db, wall)
    assert result.exit_code == 3
    assert result.stderr.strip() == (
        "error: integrity: witness line 2 (seq 27): the log ends at seq 20 — truncated, "
        "or the witness is from another store (or its seq was mistyped)"
    )
    assert "witness line 1 (seq 10): ok" in result.stdout


def test_a_consistently_re_hashed_rewrite_fails_the_witness_printed_before_it(
    db: str, tmp_path: Path
) -> None:
    """Round 1's result of table 1 turned around and every later event re-hashed: the chain
    and the pairings verify, the head posted with round 2's standings does not."""
    wall = tmp_path / "wall.txt"
    wall.write_text(printed(db, 10, 21))
    events = [r.event for r in open_store(db).load("swiss8")]
    first = next(i for i, e in enumerate(events) if isinstance(e, ResultReported))
    report = events[first]
    assert isinstance(report, ResultReported)
    events[first] = report.model_copy(update={"result": report.result.swapped()})
    forged = f"sqlite:///{tmp_path / 'forged.sqlite3'}"
    open_store(forged).append("swiss8", seal(events, GENESIS), expected_version=0)
    assert cli("verify", "swiss8", "--store", forged).exit_code == 0
    result = verify(forged, wall)
    assert result.exit_code == 3
    assert "witness line 2 (seq 21): the log has " in result.stderr
    assert "— the log was rewritten after it was printed" in result.stderr


def test_a_witness_from_the_future_fails_and_says_why_it_may(db: str) -> None:
    result = verify(db, "-", stdin=f"seq 57 {'3fa2' * 16}\n")
    assert result.exit_code == 3
    assert "witness line 1 (seq 57): the log ends at seq 27 — truncated, or the witness is " \
        "from another store" in result.stderr  # fmt: skip


def test_json_adds_the_witnesses_and_a_contradicted_one_makes_it_not_ok(
    db: str, tmp_path: Path
) -> None:
    plain = json.loads(cli("verify", "swiss8", "--json", "--store", db).stdout)
    wall = tmp_path / "wall.txt"
    wall.write_text(printed(db, 10) + f"seq 99 {'ab' * 32}\n")
    result = verify(db, wall, as_json=True)
    assert result.exit_code == 3
    view = json.loads(result.stdout)
    assert plain["ok"] and not view["ok"]
    assert {k: v for k, v in view.items() if k not in ("witnesses", "ok")} == {
        k: v for k, v in plain.items() if k != "ok"}  # fmt: skip
    assert view["witnesses"] == [
        {"file": str(wall), "line": 1, "seq": 10, "hash": heads(db)[10], "ok": True,
         "reason": None, "digits": 64},
        {"file": str(wall), "line": 2, "seq": 99, "hash": "ab" * 32, "ok": False,
         "reason": "the log ends at seq 27 — truncated, or the witness is from another "
                   "store (or its seq was mistyped)", "digits": 64},
    ]  # fmt: skip


def test_several_files_and_stdin_are_checked_each_named_by_its_file(
    db: str, tmp_path: Path
) -> None:
    wall, desk = tmp_path / "wall.txt", tmp_path / "desk.txt"
    wall.write_text(printed(db, 10))
    desk.write_text(printed(db, 16))
    result = verify(db, wall, desk, "-", stdin=f"seq 3 {'0' * 64}\n")
    assert result.exit_code == 3
    assert f"witness {wall} line 1 (seq 10): ok" in result.stdout
    assert f"witness {desk} line 1 (seq 16): ok" in result.stdout
    assert "error: integrity: witness stdin line 1 (seq 3): the log has" in result.stderr


def test_a_malformed_witness_file_is_a_one_line_input_error(db: str, tmp_path: Path) -> None:
    wall = tmp_path / "wall.txt"
    wall.write_text(printed(db, 10) + "seq 16 3fa2c91e\n")
    result = verify(db, wall)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.strip() == (
        f"error: verify: witness file {wall} line 2: a head hash is 64 hex digits, or the "
        "first 16 or more of them; got 8 characters '3fa2c91e' (copy the whole head as the "
        "page prints it)"
    )
    missing = verify(db, tmp_path / "absent.txt")
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_witnesses_name_one_tournament(db: str, tmp_path: Path) -> None:
    wall = tmp_path / "wall.txt"
    wall.write_text(printed(db, 10))
    result = cli("verify", "--all", "--witness", str(wall), "--store", db)
    assert result.exit_code == 2 and "name the tournament" in result.stderr


def test_the_first_16_digits_of_a_head_are_checked_and_said_to_be(db: str) -> None:
    result = verify(db, "-", stdin=f"seq 10 {heads(db)[10][:16].upper()}\n")
    assert result.exit_code == 0, result.stderr
    assert "witness line 1 (seq 10): ok (matched 16 of 64 hex digits)" in result.stdout
    short = verify(db, "-", stdin=f"seq 10 {heads(db)[10][:12]}\n")
    assert short.exit_code == 2 and "got 12 characters" in short.stderr
