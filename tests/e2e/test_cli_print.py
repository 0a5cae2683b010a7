"""``tledger print T KIND``: every printout to a file or standard output, its one-line
errors, and that printing never appends to the log."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from tests.printing import rows, text, with_bracket

ROOT = Path(__file__).resolve().parents[2]
SWISS8 = ROOT / "examples" / "swiss8.jsonl"


def cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


@pytest.fixture
def swiss8(tmp_path: Path) -> str:
    store = f"sqlite:///{tmp_path}/t.sqlite3"
    assert cli("apply", str(SWISS8), "--store", store).exit_code == 0
    return store


def status(store: str, tournament: str = "swiss8") -> dict[str, Any]:
    result = cli("status", tournament, "--json", "--store", store)
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


@pytest.mark.parametrize("kind", ["pairings", "standings", "slips"])
def test_each_printout_is_written_to_its_file_and_nothing_is_appended(
    swiss8: str, tmp_path: Path, kind: str
) -> None:
    before = status(swiss8)
    out = tmp_path / f"{kind}.html"
    result = cli("print", "swiss8", kind, "-o", str(out), "--store", swiss8)
    assert result.exit_code == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    words = text(page)
    assert page.startswith("<!doctype html>") and "Store Showdown" in words
    assert f"seq {before['seq']} {before['head']}" in words and "Round 3" in words
    assert "Fennec" in words  # a name from the registry
    assert "<style>" in page and '<link rel="stylesheet"' not in page, "CSS inline: no server"
    assert "<script" not in page
    assert status(swiss8) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["t.sqlite3", out.name])


def test_the_time_printed_is_the_clock_now_in_utc(swiss8: str) -> None:
    before = datetime.now(UTC).replace(second=0, microsecond=0)
    result = cli("print", "swiss8", "standings", "--store", swiss8)
    after = datetime.now(UTC)
    printed = result.stdout.split("printed ", 1)[1][:20]
    at = datetime.strptime(printed, "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
    assert before <= at <= after


def test_dash_writes_the_page_to_standard_output(swiss8: str) -> None:
    result = cli("print", "swiss8", "pairings", "--round", "1", "-o", "-", "--store", swiss8)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("<!doctype html>")
    assert [r[0] for r in rows(result.stdout, "by-table")] == ["1", "2", "3", "4"]
    assert "Round 1" in text(result.stdout)


def test_german_letter_paper(swiss8: str) -> None:
    result = cli("print", "swiss8", "standings", "--lang", "de", "--paper", "letter",
                 "--store", swiss8)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert "size: letter;" in result.stdout and "Rangliste" in text(result.stdout)


def test_the_bracket_prints_after_the_cut(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path}/b.sqlite3"
    event = with_bracket(store=store)
    out = tmp_path / "bracket.html"
    result = cli("print", "t1", "bracket", "-o", str(out), "--store", store)
    assert result.exit_code == 0, result.stderr
    words = text(out.read_text(encoding="utf-8"))
    assert "semifinal" in words and f"seq {event.state.seq} {event.state.head}" in words


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [(["pairing"], 2, "print: unknown kind 'pairing' (use one of: pairings, standings, "
                      "slips, bracket, pods, welcome)"),
     (["pairings", "--round", "9"], 1, "print: round 9 is not paired"),
     (["slips", "--round", "9"], 1, "print: round 9 is not paired"),
     (["bracket"], 1, "print: no cut has been made: there is no bracket to print"),
     (["standings", "--round", "2"], 2, "print: --round applies to pairings and slips, "
                                        "not to standings"),
     (["pairings", "--lang", "fr"], 2, "print: unknown language 'fr' (use one of: en, de)"),
     (["pairings", "--paper", "a3"], 2, "print: unknown paper 'a3' (use one of: a4, letter)"),
     (["pairings", "--base-url", "http://x"], 2, "print: --base-url applies to slips and "
                                                 "welcome, not to pairings"),
     (["slips", "--base-url", "192.168.1.10"], 2, "print: --base-url '192.168.1.10' is not "
                                                  "an http:// or https:// address"),
     (["slips", "-o", "slips.PDF"], 2, "print: no PDF engine installs here without system "
                                       "libraries; write .html and print it from any browser "
                                       "(A4 or Letter)")],
)  # fmt: skip
def test_bad_input_is_one_line_and_appends_nothing(
    swiss8: str, tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    before = status(swiss8)
    result = cli("print", "swiss8", *args, "--store", swiss8)
    assert result.exit_code == code
    assert result.stderr == f"error: {message}\n"
    assert result.stdout == ""
    assert status(swiss8) == before


def test_an_unknown_tournament_and_an_unwritable_file_are_one_line(
    swiss8: str, tmp_path: Path
) -> None:
    result = cli("print", "nope", "pairings", "--store", swiss8)
    assert (result.exit_code, result.stderr) == (1, "error: print: unknown tournament 'nope'\n")
    missing = tmp_path / "no" / "such" / "dir.html"
    result = cli("print", "swiss8", "pairings", "-o", str(missing), "--store", swiss8)
    assert result.exit_code == 2
    assert result.stderr == f"error: print: cannot write {missing}: No such file or directory\n"


def test_slips_with_a_base_url_carry_codes_that_open_each_matchs_report_page(
    swiss8: str,
) -> None:
    """Printed codes are issued by ``commands.slipcodes`` (only their hashes are stored),
    one for each player on their half of the slip, and each one opens the report page of
    its own match as its own player and nobody else's."""
    import re

    from fastapi.testclient import TestClient

    from commands.bootstrap import handler_for
    from commands.web import create_app

    result = cli("print", "swiss8", "slips", "--round", "2",
                 "--base-url", "http://192.168.1.10:8000/", "--store", swiss8)  # fmt: skip
    assert result.exit_code == 0, result.stderr
    codes = re.findall(r'<div class="code-text">([A-Z0-9-]+)</div>', result.stdout)
    assert len(codes) == 8 and len(set(codes)) == 8
    for code in codes:
        assert f"http://192.168.1.10:8000/s/{code}" in result.stdout
    assert result.stdout.count('class="qr"') == 8
    pairings = json.loads(cli("pairings", "swiss8", "--json", "--round", "2",
                              "--store", swiss8).stdout)["pairings"]  # fmt: skip
    rows = json.loads(cli("players", "swiss8", "--json", "--store", swiss8).stdout)["players"]
    names = {r["player"]: r["name"] for r in rows}
    http = TestClient(create_app(handler_for(swiss8)))
    holders = [p for table in pairings for p in table["players"]]
    for code, holder in zip(codes, holders, strict=True):
        page = http.get(f"/s/{code}")
        assert page.status_code == 200
        table = next(t for t in pairings if holder in t["players"])
        shown = {p for p in names if names[p] in page.text}
        assert set(table["players"]) <= shown, (table, shown)
        assert f"Your code, <bdi>{names[holder]}</bdi>" in page.text
    again = cli("print", "swiss8", "slips", "--round", "2",
                "--base-url", "http://192.168.1.10:8000", "--store", swiss8)  # fmt: skip
    assert again.exit_code == 0
    assert http.get(f"/s/{codes[0]}").status_code == 404, "a reprint replaces the codes"


def test_a_reprint_says_what_it_replaces_and_one_table_can_be_reprinted_alone(
    swiss8: str,
) -> None:
    import re

    base = ("--base-url", "http://192.168.1.10:8000", "--store", swiss8)
    first = cli("print", "swiss8", "slips", "--round", "2", *base)
    assert first.stderr.startswith("Codes for all 4 tables of round 2; none was printed before.")
    again = cli("print", "swiss8", "slips", "--round", "2", *base)
    assert again.stderr.startswith("New codes for all 4 tables of round 2; the slips already "
                                   "on the tables stop working.")  # fmt: skip
    codes = re.findall(r'<div class="code-text">([A-Z0-9-]+)</div>', again.stdout)
    one = cli("print", "swiss8", "slips", "--round", "2", "--table", "2", *base)
    assert one.exit_code == 0, one.stderr
    assert "New codes for table 2 of round 2 (" in one.stderr
    assert "the slip already on table 2 stops working; the other 3 tables keep theirs." in (
        one.stderr)  # fmt: skip
    new = re.findall(r'<div class="code-text">([A-Z0-9-]+)</div>', one.stdout)
    assert len(new) == 2 and not set(new) & set(codes)
    wrong = cli("print", "swiss8", "slips", "--table", "2", "--store", swiss8)
    assert wrong.exit_code == 2 and "--table reprints one slip with new codes" in wrong.stderr
