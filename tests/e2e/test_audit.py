"""The audit end to end: tampering found by seq, pairings re-derived, export and import,
erasure that leaves no byte behind, replay, diff and explain."""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import GENESIS, seal
from ledger.events import RoundPaired, Table
from ledger.url import open_store
from replay.verify import verify

ROOT = Path(__file__).resolve().parents[2]
SWISS8 = ROOT / "examples" / "swiss8.jsonl"


def cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "audit.sqlite3"
    assert cli("apply", str(SWISS8), "--store", f"sqlite:///{path}").exit_code == 0
    return path


def url(path: Path) -> str:
    return f"sqlite:///{path}"


def rows(path: Path) -> list[tuple[str, int, bytes]]:
    with sqlite3.connect(path) as con:
        return con.execute("SELECT originator_id, originator_version, state FROM stored_events "
                           "ORDER BY originator_version").fetchall()  # fmt: skip


def set_state(path: Path, version: int, state: bytes) -> None:
    with sqlite3.connect(path) as con:
        con.execute("UPDATE stored_events SET state = ? WHERE originator_version = ?",
                    (state, version))  # fmt: skip


def broken_at(path: Path) -> int | None:
    store = open_store(url(path))
    return verify("swiss8", store.load_raw("swiss8"), None).broken_at


def test_an_untouched_store_verifies(db: Path) -> None:
    result = cli("verify", "swiss8", "--store", url(db), "--json")
    assert result.exit_code == 0
    view = json.loads(result.stdout)
    assert view["ok"] and view["events"] == 27 and [p["kind"] for p in view["pairings"]] == [
        "manual", "manual", "manual"]  # fmt: skip


def test_flipping_any_byte_of_any_stored_event_is_found_at_its_seq(db: Path) -> None:
    original = rows(db)
    for _, version, state in original:
        for offset in sorted({0, len(state) // 3, len(state) // 2, len(state) - 1}):
            flipped = bytearray(state)
            flipped[offset] ^= 0x01
            set_state(db, version, bytes(flipped))
            assert broken_at(db) == version, (version, offset)
            set_state(db, version, state)
    assert broken_at(db) is None


def test_a_deleted_event_is_found_at_its_seq(db: Path) -> None:
    with sqlite3.connect(db) as con:
        con.execute("DELETE FROM stored_events WHERE originator_version = 12")
    result = cli("verify", "swiss8", "--store", url(db))
    assert result.exit_code == 3 and "seq 12" in result.stderr


def test_two_reordered_events_are_found_at_the_first(db: Path) -> None:
    stored = {version: state for _, version, state in rows(db)}
    set_state(db, 14, stored[15])
    set_state(db, 15, stored[14])
    assert broken_at(db) == 14


def test_verify_rederives_automatic_pairings_and_finds_a_forged_one(tmp_path: Path) -> None:
    store_url = f"sqlite:///{tmp_path / 'auto.sqlite3'}"
    handler = Handler(open_store(store_url), seeds=lambda: 5)
    commands = [{"type": "create_tournament", "tournament": "a", "name": "A", "ruleset": "swu-1.4"}]
    commands += [
        {"type": "register_player", "tournament": "a", "player": f"p{i}"} for i in range(7)
    ]
    commands += [{"type": "pair_round", "tournament": "a", "seed": 11}]
    for c in commands:
        handler.handle(parse_command(c))
    ok = json.loads(cli("verify", "a", "--store", store_url, "--json").stdout)
    assert ok["ok"] and ok["pairings"][0]["kind"] == "auto" and ok["pairings"][0]["ok"]

    # a rewrite that re-seals the whole chain still cannot forge a pairing the engine
    # would not have produced
    events = [r.event for r in open_store(store_url).load("a")]
    paired = events[-1]
    assert isinstance(paired, RoundPaired)
    t1, t2 = paired.pairings[0], paired.pairings[1]
    swapped = (
        Table(table=1, players=(t1.players[0], t2.players[0])),
        Table(table=2, players=(t1.players[1], t2.players[1])),
    )
    forged_tables = (*swapped, *paired.pairings[2:])
    forged = seal([*events[:-1], paired.model_copy(update={"pairings": forged_tables})], GENESIS)
    other = f"sqlite:///{tmp_path / 'forged.sqlite3'}"
    open_store(other).append("a", forged, expected_version=0)
    result = cli("verify", "a", "--store", other, "--json")
    assert result.exit_code == 3
    check = json.loads(result.stdout)["pairings"][0]
    assert not check["ok"] and "engine would pair" in check["detail"]


def test_verify_proves_a_published_head_is_part_of_the_log(db: Path) -> None:
    head = json.loads(
        cli("standings", "swiss8", "--json", "--as-of", "20", "--store", url(db)).stdout
    )["head"]
    good = cli("verify", "swiss8", "--head", head, "--store", url(db))
    assert good.exit_code == 0 and "event seq 20" in good.stdout
    bad = cli("verify", "swiss8", "--head", "ab" * 32, "--store", url(db))
    assert bad.exit_code == 3 and "NOT part of this log" in bad.stdout


def test_verify_all_checks_every_tournament(db: Path) -> None:
    cli("new", "second", "--name", "Second", "--store", url(db))
    result = cli("verify", "--all", "--store", url(db))
    assert result.exit_code == 0 and "swiss8:" in result.stdout and "second:" in result.stdout


def targets(tmp_path: Path) -> list[str]:
    found = [f"sqlite:///{tmp_path / 'other.sqlite3'}", f"memory://{uuid.uuid4().hex}"]
    if os.environ.get("TLEDGER_TEST_POSTGRES"):
        found.append(os.environ["TLEDGER_TEST_POSTGRES"])
    return found


def test_export_import_verify_and_identical_standings(tmp_path: Path) -> None:
    name = f"move-{uuid.uuid4().hex[:10]}"  # unique: the PostgreSQL database is shared
    source = url(tmp_path / "source.sqlite3")
    script = SWISS8.read_text().replace('"swiss8"', f'"{name}"')
    assert cli("apply", "-", "--store", source, stdin=script).exit_code == 0
    exported = tmp_path / "export.jsonl"
    assert cli("export", name, "-o", str(exported), "--store", source).exit_code == 0
    lines = exported.read_bytes().splitlines()
    assert len(lines) == 28 and json.loads(lines[0])["format"] == "tledger-export/1"
    original = json.loads(cli("standings", name, "--json", "--store", source).stdout)
    for target in targets(tmp_path):
        result = cli("import", str(exported), "--store", target)
        assert result.exit_code == 0, result.stderr
        assert cli("verify", name, "--store", target).exit_code == 0
        again = json.loads(cli("standings", name, "--json", "--store", target).stdout)
        assert again["standings"] == original["standings"] and again["head"] == original["head"]
        assert cli("import", str(exported), "--store", target).exit_code == 2  # exists already


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "json"])
def test_export_to_dash_writes_standard_output_and_no_file_named_dash(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str
) -> None:
    monkeypatch.chdir(tmp_path)
    plain = cli("export", "swiss8", "--format", fmt, "--store", url(db))
    dashed = cli("export", "swiss8", "--format", fmt, "-o", "-", "--store", url(db))
    assert dashed.exit_code == 0 and dashed.stdout_bytes == plain.stdout_bytes != b""
    assert not (tmp_path / "-").exists()
    assert cli("export", "swiss8", "--format", fmt, "-o", "out", "--store", url(db)).stdout == ""
    assert (tmp_path / "out").read_bytes() == plain.stdout_bytes


def test_export_to_a_file_that_cannot_be_written_is_one_line(db: Path, tmp_path: Path) -> None:
    result = cli("export", "swiss8", "-o", str(tmp_path / "no" / "such.jsonl"), "--store", url(db))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: export: cannot write ")
    assert "Traceback" not in result.output


def test_a_log_renamed_to_another_tournament_does_not_import(db: Path, tmp_path: Path) -> None:
    exported = cli("export", "swiss8", "--store", url(db)).stdout
    renamed = exported.replace('"swiss8"', '"other"')
    result = cli("import", "-", "--store", url(tmp_path / "t.sqlite3"), stdin=renamed)
    assert result.exit_code == 3 and "seq 1" in result.stderr


def test_import_refuses_a_tampered_or_malformed_export(db: Path, tmp_path: Path) -> None:
    exported = cli("export", "swiss8", "--store", url(db)).stdout
    tampered = exported.replace('"games":[2,0]', '"games":[0,2]', 1)
    target = f"sqlite:///{tmp_path / 'target.sqlite3'}"
    result = cli("import", "-", "--store", target, stdin=tampered)
    assert result.exit_code == 3 and "seq" in result.stderr
    assert cli("import", "-", "--store", target, stdin="hello\n").exit_code == 2
    assert open_store(target).load_raw("swiss8") == []


def test_after_forget_no_byte_of_the_store_or_an_export_holds_the_name(tmp_path: Path) -> None:
    path = tmp_path / "gdpr.sqlite3"
    lines = SWISS8.read_text().replace('"name": "Fennec"',
                                       '"name": "Fennec Shandlingworth", "external_id": "UID-774411"')  # fmt: skip  # noqa: E501
    assert cli("apply", "-", "--store", url(path), stdin=lines).exit_code == 0
    assert cli("forget", "swiss8", "p6", "--store", url(path)).exit_code == 0
    exported = cli("export", "swiss8", "--store", url(path)).stdout.encode()
    files = [f.read_bytes() for f in tmp_path.glob("gdpr.sqlite3*")]
    for secret in (b"Fennec Shandlingworth", b"UID-774411"):
        assert all(secret not in blob for blob in [exported, *files])
    assert cli("verify", "swiss8", "--store", url(path)).exit_code == 0
    standings = json.loads(cli("standings", "swiss8", "--json", "--store", url(path)).stdout)
    assert standings["standings"][0]["name"] == "(erased)"


def test_replay_until_a_time_shows_what_was_known_then(db: Path) -> None:
    log = json.loads(cli("log", "swiss8", "--json", "--store", url(db)).stdout)["events"]
    when = log[11]["at"]  # seq 12
    view = json.loads(cli("replay", "swiss8", "--until", when, "--json", "--store", url(db)).stdout)
    assert view["status"]["seq"] >= 12 and view["status"]["round"] == 1
    bad = cli("replay", "swiss8", "--until", "yesterday", "--store", url(db))
    assert bad.exit_code == 1 and "neither a seq nor" in bad.stderr


def test_diff_shows_events_moves_and_corrections(db: Path) -> None:
    fix = ('{"type":"correct_result","tournament":"swiss8","round":3,"players":["p1","p6"],'
           '"result":{"games":[2,1],"draws":0},"reason":"slip"}\n')  # fmt: skip
    assert cli("apply", "-", "--store", url(db), stdin=fix).exit_code == 0
    view = json.loads(cli("diff", "swiss8", "27", "28", "--json", "--store", url(db)).stdout)
    assert [e["type"] for e in view["events"]] == ["result_corrected"]
    assert view["corrections"][0]["reason"] == "slip"
    moved = {m["player"]: m for m in view["standings"]}
    assert moved["p1"]["to_points"] - moved["p1"]["from_points"] == 3
    assert cli("diff", "swiss8", "28", "27", "--store", url(db)).exit_code == 2


def test_explain_names_opponents_floors_and_sections(db: Path) -> None:
    view = json.loads(cli("explain", "swiss8", "p6", "--json", "--store", url(db)).stdout)
    assert [o["player"] for o in view["opponents"]] == ["p5", "p7", "p1"]
    assert view["opponents"][0]["floored"] is True
    assert view["tiebreakers"]["omw"]["section"] == "swu-1.4 §5.7.1.1"
    assert view["tiebreakers"]["omw"]["value"] == pytest.approx(4 / 9)
    assert cli("explain", "swiss8", "nobody", "--store", url(db)).exit_code == 1
