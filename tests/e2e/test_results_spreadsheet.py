"""The CSV export in a spreadsheet: names in any script arrive intact, numbers
arrive as numbers, and a name that looks like a formula is shown, never run."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import uuid
import zipfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from commands.text.results_parse import read_csv

NAMES = {"p1": "Jürgen Öztürk", "p2": "Łukasz Żółć", "p3": "=HYPERLINK(\"http://x\")",
         "p4": "-Minus", "p5": "'Quoted", "p6": "@home"}  # fmt: skip


def cli(*args: str, stdin: str | None = None) -> Any:
    return CliRunner().invoke(app, list(args), input=stdin)


@pytest.fixture
def exported() -> bytes:
    url = f"memory://{uuid.uuid4().hex}"
    t = {"tournament": "u"}
    lines = [{"type": "create_tournament", **t, "name": "Größe", "ruleset": "swu-1.4"}]
    lines += [{"type": "register_player", **t, "player": p, "name": n} for p, n in NAMES.items()]
    lines += [{"type": "pair_round", **t, "pairings": [["p1", "p2"], ["p3", "p4"], ["p5", "p6"]]},
              {"type": "start_round", **t}]  # fmt: skip
    for a, b in (("p1", "p2"), ("p3", "p4"), ("p5", "p6")):
        lines.append({"type": "report_result", **t, "round": 1, "players": [a, b],
                      "result": {"games": [2, 1], "draws": 0}})  # fmt: skip
    assert cli("apply", "-", "--store", url,
               stdin="".join(json.dumps(x) + "\n" for x in lines)).exit_code == 0  # fmt: skip
    result = cli("export", "u", "--format", "csv", "--store", url)
    assert result.exit_code == 0, result.stderr
    data: bytes = result.stdout_bytes
    return data


def test_formula_like_names_are_escaped_and_read_back_unchanged(exported: bytes) -> None:
    text = exported.decode("utf-8-sig")
    assert ',"\'=HYPERLINK(""http://x"")",' in text
    assert ",'-Minus," in text and ",''Quoted," in text and ",'@home," in text
    read = read_csv(exported)
    assert {r["player"]: r["name"] for r in read.standings} == NAMES


def spreadsheet_cells(csv_file: Path, tmp_path: Path) -> list[tuple[str, str]]:
    """(value type, text) of every cell, as LibreOffice Calc imports the file: UTF-8 (what
    its import dialog offers for a file with a byte order mark), comma-separated."""
    env = {**os.environ, "HOME": str(tmp_path)}
    subprocess.run(["soffice", "--headless", "--infilter=CSV:44,34,76,1", "--convert-to", "ods",
                    "--outdir", str(tmp_path / "out"), str(csv_file)],
                   env=env, capture_output=True, check=True, timeout=120)  # fmt: skip
    with zipfile.ZipFile(tmp_path / "out" / "results.ods") as ods:
        content = ods.read("content.xml").decode()
    cells = re.findall(r"<table:table-cell([^>]*)>(.*?)</table:table-cell>", content)
    found = []
    for attributes, body in cells:
        kind = re.search(r'office:value-type="(\w+)"', attributes)
        text = re.sub(r"<[^>]+>", "", body).replace("&apos;", "'").replace("&quot;", '"')
        found.append((kind.group(1) if kind else "", text.replace("&amp;", "&")))
    return found


@pytest.mark.skipif(shutil.which("soffice") is None,
                    reason="LibreOffice (soffice) is not installed on this machine")  # fmt: skip
def test_libreoffice_reads_names_numbers_and_shows_a_formula_as_text(
    exported: bytes, tmp_path: Path
) -> None:
    csv_file = tmp_path / "results.csv"
    csv_file.write_bytes(exported)
    cells = spreadsheet_cells(csv_file, tmp_path)
    texts = [text for _, text in cells]
    assert texts[:3] == ["rank", "player", "name"]  # the byte order mark is not in a cell
    assert "Jürgen Öztürk" in texts and "Łukasz Żółć" in texts
    formula = next(c for c in cells if "HYPERLINK" in c[1])
    assert formula == ("string", '\'=HYPERLINK("http://x")')
    omw = texts.index("omw")
    first_row = cells[texts.index("p1") - 1 :]
    assert first_row[omw][0] == "float"  # a tiebreaker is a number to sort and sum by
    assert "round" in texts and "field" in texts  # all three sections arrived
