"""``tledger import --format json|csv``: a tournament rebuilt from a results document as
one batch after a dry run, with the same standings as the document; a refused document
appends nothing and says why in one line."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from ledger.url import open_store

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs" / "format-5"
EVENTS = ["swu-1.4", "xwing-2.0", "lcg-2.1d-teams"]


def cli(*args: str) -> Any:
    return CliRunner().invoke(app, list(args))


def exported(name: str, fmt: str, tmp_path: Path) -> tuple[str, Path, dict[str, Any]]:
    """The golden event's id, its results document as a file, and its standings."""
    store = tmp_path / "golden.sqlite3"
    shutil.copyfile(LOGS / f"{name}.sqlite3", store)
    url = f"sqlite:///{store}"
    (tournament,) = open_store(url).tournaments()
    document = tmp_path / f"results.{fmt}"
    document.write_bytes(cli("export", tournament, "--format", fmt, "--store", url).stdout_bytes)
    standings = orjson.loads(cli("standings", tournament, "--json", "--store", url).stdout)
    return tournament, document, standings


def ranked(standings: dict[str, Any]) -> list[dict[str, Any]]:
    return list(standings["standings"])


@pytest.mark.parametrize("fmt", ["json", "csv"])
@pytest.mark.parametrize("name", EVENTS)
def test_a_results_document_imports_to_the_same_standings(
    name: str, fmt: str, tmp_path: Path
) -> None:
    _, document, standings = exported(name, fmt, tmp_path)
    url = f"memory://{uuid.uuid4().hex}"
    done = cli("import", str(document), "--format", fmt, "--tournament", "again", "--store", url)
    assert done.exit_code == 0, done.output
    assert "imported again:" in done.stdout
    rebuilt = orjson.loads(cli("standings", "again", "--json", "--store", url).stdout)
    assert ranked(rebuilt) == ranked(standings)


def test_a_dry_run_decides_everything_and_appends_nothing(tmp_path: Path) -> None:
    tournament, document, _ = exported("xwing-2.0", "json", tmp_path)
    url = f"memory://{uuid.uuid4().hex}"
    done = cli("import", str(document), "--format", "json", "--dry-run", "--store", url)
    assert done.exit_code == 0, done.output
    assert done.stdout.startswith(f"dry run: {tournament} would be rebuilt from ")
    assert open_store(url).tournaments() == []


def test_a_document_onto_an_existing_id_is_refused_whole(tmp_path: Path) -> None:
    tournament, document, _ = exported("swu-1.4", "csv", tmp_path)
    url = f"memory://{uuid.uuid4().hex}"
    assert cli("import", str(document), "--format", "csv", "--store", url).exit_code == 0
    before = len(open_store(url).load(tournament))
    again = cli("import", str(document), "--format", "csv", "--store", url)
    assert again.exit_code == 1
    assert again.stderr.strip().endswith(f"tournament {tournament!r} exists already")
    assert "command 1 (create_tournament)" in again.stderr
    assert len(open_store(url).load(tournament)) == before


@pytest.mark.parametrize(
    ("fmt", "text", "said"),
    [("json", "garbage", "not JSON"), ("json", '{"format": "other"}', "not a results document"),
     ("csv", "a,b\n1,2\n", "import: "), ("yaml", "x: 1", "unknown format 'yaml'")],
)  # fmt: skip
def test_a_document_that_cannot_be_read_gets_one_line_and_exit_2(
    fmt: str, text: str, said: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad"
    path.write_text(text)
    url = f"memory://{uuid.uuid4().hex}"
    done = cli("import", str(path), "--format", fmt, "--store", url)
    assert done.exit_code == 2 and said in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert open_store(url).tournaments() == []
