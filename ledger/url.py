"""Choose and open a store from one URL (``--store`` or ``TLEDGER_STORE``).

``sqlite:///tledger.sqlite3`` (relative), ``sqlite:////abs/path.sqlite3``
(absolute, as in SQLAlchemy), ``postgresql://user[:password]@host[:port]/db``,
``memory://[NAME]`` (one process only: the same URL opens the same store).
``PERSISTENCE_MODULE`` is always set explicitly: the library silently falls
back to memory when it is unset.
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit

from ledger.errors import StoreURLError
from ledger.store import Store

DEFAULT_URL = "sqlite:///tledger.sqlite3"

#: memory:// stores live as long as the process: the same URL opens the same store.
_MEMORY_STORES: dict[str, Store] = {}


def default_url() -> str:
    return os.environ.get("TLEDGER_STORE") or DEFAULT_URL


def open_store(url: str | None = None) -> Store:
    """Open the store named by ``url`` (default: ``TLEDGER_STORE`` or the local SQLite file)."""
    from ledger import eventsourced as es

    url = url or default_url()
    if url.startswith("memory:"):
        if url not in _MEMORY_STORES:
            env = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
            _MEMORY_STORES[url] = es.EventsourcedStore(url, env, es.Dialect())
        return _MEMORY_STORES[url]
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
        if not path:
            raise StoreURLError(f"store URL {url!r} names no file")
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "30",
            "CREATE_TABLE": "false",
        }
        return es.EventsourcedStore(url, env, es.SQLiteDialect())
    if url.startswith(("postgresql://", "postgres://")):
        return es.EventsourcedStore(url, postgres_env(url), es.PostgresDialect())
    raise StoreURLError(
        f"unknown store URL {url!r}: use sqlite:///FILE, postgresql://USER@HOST/DB or memory://"
    )


def postgres_env(url: str) -> dict[str, str]:
    """The library's POSTGRES_* settings for a PostgreSQL URL."""
    parts = urlsplit(url)
    dbname = parts.path.lstrip("/")
    if not parts.hostname or not dbname:
        raise StoreURLError(f"store URL {url!r} needs a host and a database name")
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname,
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_LOCK_TIMEOUT": "5",
        "POSTGRES_CONNECT_TIMEOUT": "5",
        "POSTGRES_ENABLE_DB_FUNCTIONS": "",
        "CREATE_TABLE": "false",
    }
