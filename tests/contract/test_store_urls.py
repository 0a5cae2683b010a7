"""Store URLs that say what they do: an in-memory SQLite URL, a parameter we cannot honour
and a read on a missing file are refused with one line naming the problem; new SQLite
files are readable by their owner only.

PostgreSQL parameters are checked with the URL parser alone; one test connects with
``?sslmode=disable`` when ``TLEDGER_TEST_POSTGRES`` names a database.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from ledger import url as store_url
from ledger.errors import LedgerError, StoreNotFound, StoreURLError
from ledger.url import export_libpq, libpq_env, open_store, postgres_env, redacted, sqlite_path

ROOT = Path(__file__).resolve().parents[2]
PG = "postgresql://ada:s3cret@db.example:5433/ledger"


def refused(url: str) -> str:
    with pytest.raises(StoreURLError) as caught:
        if url.startswith("sqlite"):
            sqlite_path(url)
        else:
            postgres_env(url)
    return str(caught.value)


# SQLite URLs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "url", ["sqlite:///:memory:", "sqlite://", "sqlite:///", "sqlite:///?mode=memory"]
)
def test_an_in_memory_sqlite_url_is_refused_pointing_to_memory_urls(url: str) -> None:
    message = refused(url)
    assert "would lose everything at exit" in message and "use memory://" in message


def test_open_store_refuses_an_in_memory_sqlite_url_and_cli_reads_exit_3() -> None:
    with pytest.raises(StoreURLError, match="in-memory SQLite"):
        open_store("sqlite:///:memory:")
    result = CliRunner().invoke(app, ["status", "t1", "--store", "sqlite:///:memory:"])
    assert result.exit_code == 3 and "use memory://" in result.stderr


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("sqlite:///t.sqlite3?mode=ro", "SQLite takes no parameters (got 'mode=ro')"),
        ("sqlite://host/t.sqlite3", "a SQLite URL has no host"),
        ("sqlite:///file:t.sqlite3", "not a file: URI"),
    ],
)
def test_a_sqlite_url_that_would_mean_something_else_is_refused(url: str, says: str) -> None:
    assert says in refused(url)


def test_relative_and_absolute_sqlite_paths_are_as_in_sqlalchemy() -> None:
    assert sqlite_path("sqlite:///tledger.sqlite3") == "tledger.sqlite3"
    assert sqlite_path("sqlite:////srv/t/ledger.sqlite3") == "/srv/t/ledger.sqlite3"


# PostgreSQL URLs -----------------------------------------------------------------


def test_a_postgres_url_sets_the_librarys_settings_explicitly() -> None:
    env = postgres_env(PG)
    assert env["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_DBNAME"]) == (
        "db.example", "5433", "ledger")  # fmt: skip
    assert (env["POSTGRES_USER"], env["POSTGRES_PASSWORD"]) == ("ada", "s3cret")
    assert env["POSTGRES_ENABLE_DB_FUNCTIONS"] == "" and env["POSTGRES_LOCK_TIMEOUT"] == "5"


def test_a_store_opens_one_connection_and_holds_sixteen_at_most() -> None:
    """A command-line run opens one connection, not the library's five; a server's pool
    grows to sixteen as its threads ask (DEPLOY.md counts on it)."""
    env = postgres_env(PG)
    opened, overflow = int(env["POSTGRES_POOL_SIZE"]), int(env["POSTGRES_MAX_OVERFLOW"])
    assert (opened, opened + overflow) == (1, 16)


@pytest.mark.skipif(
    not os.environ.get("TLEDGER_TEST_POSTGRES"),
    reason="TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)",
)
def test_opening_a_postgres_store_opens_one_connection() -> None:
    url = os.environ["TLEDGER_TEST_POSTGRES"]
    store = open_store(url)
    try:
        pool = store._recorder.datastore.pool  # type: ignore[attr-defined]
        pool.wait(timeout=5)
        stats = pool.get_stats()  # the opening's own schema check may take a second one
        assert (stats["pool_min"], stats["pool_max"]) == (1, 16) and stats["pool_size"] <= 2
    finally:
        store.close()


def test_connect_timeout_is_carried_by_the_librarys_setting() -> None:
    assert postgres_env(f"{PG}?connect_timeout=12")["POSTGRES_CONNECT_TIMEOUT"] == "12"
    assert postgres_env(PG)["POSTGRES_CONNECT_TIMEOUT"] == "5"


def test_ssl_parameters_go_to_libpq_through_its_environment() -> None:
    url = f"{PG}?sslmode=verify-full&sslrootcert=/etc/ssl/ca%20root.pem&application_name=tl"
    expected = {"PGSSLMODE": "verify-full", "PGSSLROOTCERT": "/etc/ssl/ca root.pem",
                "PGAPPNAME": "tl"}  # fmt: skip
    assert libpq_env(url) == expected
    assert "PGSSLMODE" not in postgres_env(url) and libpq_env(PG) == {}


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ("target_session_attrs=read-write", "parameter 'target_session_attrs' is not supported"),
        ("sslmode=required", "sslmode 'required' is not one of disable, allow, prefer"),
        ("sslmode=disable&sslmode=require", "parameter 'sslmode' is given twice"),
        ("sslmode=", "parameter 'sslmode' needs a value"),
        ("connect_timeout=soon", "connect_timeout 'soon' must be a whole number"),
        ("connect_timeout=0", "connect_timeout '0' must be a whole number of seconds >= 1"),
    ],
)
def test_a_postgres_parameter_we_cannot_honour_is_refused_by_name(query: str, says: str) -> None:
    assert says in refused(f"{PG}?{query}")


def test_an_unknown_parameter_lists_the_supported_ones() -> None:
    assert refused(f"{PG}?pool=9").endswith(
        "(supported: application_name, connect_timeout, sslcert, sslkey, sslmode, sslrootcert)"
    )


def test_a_password_never_reaches_an_error_line() -> None:
    assert "s3cret" not in refused("postgresql://ada:s3cret@db.example:port/ledger")
    assert redacted(f"{PG}?sslmode=disable") == (
        "postgresql://ada:***@db.example:5433/ledger?sslmode=disable"
    )


@pytest.fixture
def libpq_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Whatever a test exports for libpq is undone afterwards."""
    monkeypatch.setattr(store_url, "_EXPORTED", {})
    for name in store_url.LIBPQ_ENVIRONMENT.values():
        monkeypatch.setenv(name, "placeholder")
        monkeypatch.delenv(name)
    yield


@pytest.mark.usefixtures("libpq_environment")
def test_a_second_store_asking_libpq_for_another_sslmode_is_refused() -> None:
    export_libpq({"PGSSLMODE": "disable"})
    assert os.environ["PGSSLMODE"] == "disable"
    export_libpq({"PGSSLMODE": "disable"})
    with pytest.raises(StoreURLError, match="sslmode='require' conflicts with sslmode='disable'"):
        export_libpq({"PGSSLMODE": "require"})
    assert os.environ["PGSSLMODE"] == "disable"


def test_sslmode_disable_connects_to_postgres() -> None:
    url = os.environ.get("TLEDGER_TEST_POSTGRES")
    if not url:
        pytest.skip("TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)")
    with_ssl = f"{url}{'&' if '?' in url else '?'}sslmode=disable"
    probe = "import sys; from ledger.url import open_store; open_store(sys.argv[1]).tournaments()"
    run = subprocess.run([sys.executable, "-c", probe, with_ssl], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert run.returncode == 0, run.stderr


# a read on a missing SQLite file ---------------------------------------------------


def test_a_read_on_a_missing_file_names_it_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreNotFound) as caught:
        open_store("sqlite:///missing.sqlite3", create=False)
    assert str(caught.value) == f"no store at {tmp_path / 'missing.sqlite3'} (nothing created)"
    assert isinstance(caught.value, LedgerError)
    assert list(tmp_path.iterdir()) == []


def test_a_read_on_an_existing_file_opens_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/t.sqlite3"
    open_store(url).close()
    assert open_store(url, create=False).tournaments() == []


READS = [
    ["status", "t1"], ["standings", "t1"], ["pairings", "t1"], ["bracket", "t1"],
    ["log", "t1"], ["verify", "t1"], ["verify", "--all"], ["replay", "t1", "--until", "1"],
    ["diff", "t1", "1", "2"], ["explain", "t1", "p1"], ["export", "t1"], ["forget", "t1", "p1"],
]  # fmt: skip


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a))
def test_read_commands_on_a_missing_store_exit_3_and_create_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    path = tmp_path / "typo.sqlite3"
    result = CliRunner().invoke(app, [*args, "--store", f"sqlite:///{path}"])
    assert result.exit_code == 3
    assert result.stderr.strip() == f"error: no store at {path} (nothing created)"
    assert list(tmp_path.iterdir()) == []


def test_a_writing_command_still_creates_the_store(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    result = CliRunner().invoke(app, ["new", "t1", "--name", "Showdown", "--store",
                                      f"sqlite:///{path}"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert path.exists()


# file modes ------------------------------------------------------------------------


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def written(path: Path) -> Any:
    """A store at ``path`` with one tournament appended (so the WAL files exist)."""
    result = CliRunner().invoke(app, ["new", "t1", "--name", "Showdown", "--store",
                                      f"sqlite:///{path}"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return result


def test_a_new_sqlite_store_and_its_wal_files_are_readable_by_the_owner_only(
    tmp_path: Path,
) -> None:
    path = tmp_path / "private.sqlite3"
    store = open_store(f"sqlite:///{path}")
    written(path)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["private.sqlite3", "private.sqlite3-shm",
                                       "private.sqlite3-wal"]  # fmt: skip
    assert {f.name: mode(f) for f in files} == {f.name: 0o600 for f in files}
    store.close()


def test_an_existing_store_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    open_store(f"sqlite:///{path}").close()
    path.chmod(0o640)
    written(path)
    assert mode(path) == 0o640
