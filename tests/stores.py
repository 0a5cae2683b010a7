"""The store URLs that tests run against: a SQLite file, or the PostgreSQL that CI names."""

from __future__ import annotations

import os
from pathlib import Path

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
