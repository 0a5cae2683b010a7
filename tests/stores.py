"""The store URLs that tests run against: a SQLite file, or the PostgreSQL that CI names
(shared by every test that runs, so each keeps to tournaments of its own, or takes a
database of its own)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

KINDS = ["sqlite", "postgres"]


def store_url(kind: str, tmp_path: Path, filename: str = "store.sqlite3") -> str:
    """A SQLite file under ``tmp_path``, or ``TLEDGER_TEST_POSTGRES`` (skipped when unset)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / filename}"
    url = os.environ.get("TLEDGER_TEST_POSTGRES")
    if not url:
        pytest.skip("TLEDGER_TEST_POSTGRES is not set (CI sets it to the local PostgreSQL)")
    return url


@contextmanager
def fresh_postgres_database(url: str) -> Iterator[str]:
    """A database of this test's own next to the shared one (dropped afterwards)."""
    import psycopg

    parts = urlsplit(url)
    name = f"tledger_old_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE {name} WITH (FORCE)")


@contextmanager
def own_database(url: str) -> Iterator[str]:
    """``url`` itself, or for PostgreSQL a fresh database of the test's own: for a test that
    reads the whole store (its head, its listener), which others append to meanwhile."""
    if not url.startswith("postgresql"):
        yield url
        return
    with fresh_postgres_database(url) as own:
        yield own
