"""Choose and open a store from one URL (``--store`` or ``TLEDGER_STORE``).

``sqlite:///tledger.sqlite3`` (relative), ``sqlite:////abs/path.sqlite3``
(absolute, as in SQLAlchemy), ``postgresql://user[:password]@host[:port]/db``
(with the parameters of ``POSTGRES_PARAMETERS`` and ``LIBPQ_ENVIRONMENT``),
``memory://[NAME]`` (one process only: the same URL opens the same store).

A URL says what it does or is refused: an in-memory SQLite database would lose
everything at exit, and a parameter we cannot honour is named, never dropped.
``PERSISTENCE_MODULE`` is always set explicitly: the library silently falls
back to memory when it is unset.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit, urlunsplit

from ledger.errors import StoreNotFound, StoreURLError
from ledger.store import Store

DEFAULT_URL = "sqlite:///tledger.sqlite3"

#: memory:// stores live as long as the process: the same URL opens the same store.
_MEMORY_STORES: dict[str, Store] = {}

#: PostgreSQL URL parameters that a setting of the library carries.
POSTGRES_PARAMETERS = {"connect_timeout": "POSTGRES_CONNECT_TIMEOUT"}
#: PostgreSQL connections a store opens when it is opened, and the most it holds
POOL_OPENED, POOL_MOST = 1, 16
#: libpq parameters the library cannot pass (it gives the driver host, port, user,
#: password and database only). libpq reads these environment variables for every
#: parameter a connection leaves unset, so the URL's values are exported there.
LIBPQ_ENVIRONMENT = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "application_name": "PGAPPNAME",
}
SSLMODES = ("disable", "allow", "prefer", "require", "verify-ca", "verify-full")
#: What this process exported for libpq: one value per variable, or a StoreURLError.
_EXPORTED: dict[str, str] = {}


def default_url() -> str:
    return os.environ.get("TLEDGER_STORE") or DEFAULT_URL


def open_store(url: str | None = None, *, create: bool = True) -> Store:
    """Open the store named by ``url`` (default: ``TLEDGER_STORE`` or the local SQLite file).

    ``create=False`` is for reads: a missing SQLite file raises StoreNotFound
    naming it, and nothing is created in its place.
    """
    from ledger import databases, dialects
    from ledger import eventsourced as es

    url = url or default_url()
    if url.startswith("memory:"):
        if url not in _MEMORY_STORES:
            env = {"PERSISTENCE_MODULE": "eventsourcing.popo"}
            _MEMORY_STORES[url] = es.EventsourcedStore(url, env, dialects.Dialect())
        return _MEMORY_STORES[url]
    if url.startswith("sqlite:"):
        path = sqlite_path(url)
        if create:
            create_private(Path(path))
        elif not Path(path).exists():
            raise StoreNotFound(str(Path(path).absolute()))
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": path,
            "SQLITE_LOCK_TIMEOUT": "30",
            "CREATE_TABLE": "false",
        }
        return es.EventsourcedStore(url, env, databases.SQLiteDialect())
    if url.startswith(("postgresql://", "postgres://")):
        env = postgres_env(url)
        export_libpq(libpq_env(url))
        return es.EventsourcedStore(redacted(url), env, databases.PostgresDialect())
    raise StoreURLError(
        f"unknown store URL {redacted(url)!r}: use sqlite:///FILE, "
        "postgresql://USER@HOST/DB or memory://"
    )


def sqlite_path(url: str) -> str:
    """The file a ``sqlite:///`` URL names, or a StoreURLError saying what is wrong."""
    rest = url.removeprefix("sqlite:")
    path, _, query = rest.removeprefix("///").partition("?")
    if rest in ("", "//", "///") or ":memory:" in path or "mode=memory" in query:
        raise StoreURLError(
            f"store URL {url!r} is an in-memory SQLite database: it would lose everything "
            "at exit; use memory:// for a throwaway store, or sqlite:///FILE"
        )
    if not rest.startswith("///"):
        raise StoreURLError(
            f"store URL {url!r} names no file: use sqlite:///FILE (relative) or "
            "sqlite:////abs/path (absolute); a SQLite URL has no host"
        )
    if query:
        raise StoreURLError(f"store URL {url!r}: SQLite takes no parameters (got {query!r})")
    if path.startswith("file:"):
        raise StoreURLError(f"store URL {url!r}: name the file as a path, not a file: URI")
    return path


def create_private(file: Path) -> None:
    """Create a new store file readable by its owner only (0600): it holds players'
    names and the hashes of API tokens. SQLite gives the -wal and -shm files it
    makes later the mode of the database file; an existing file is left alone."""
    try:
        os.close(os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        return
    except OSError:
        return  # a missing folder or no permission: opening the store reports it


def postgres_env(url: str) -> dict[str, str]:
    """The library's POSTGRES_* settings for a PostgreSQL URL."""
    parts = urlsplit(url)
    dbname = parts.path.lstrip("/")
    if not parts.hostname or not dbname:
        raise StoreURLError(f"store URL {redacted(url)!r} needs a host and a database name")
    try:
        port = parts.port or 5432
    except ValueError:
        raise StoreURLError(f"store URL {redacted(url)!r} has no valid port") from None
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname,
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_LOCK_TIMEOUT": "5",
        "POSTGRES_CONNECT_TIMEOUT": "5",
        # the pool opens one connection at once and grows to 16 as threads ask for more
        # (the library opens its whole pool size at once: 5 for a `tledger status`)
        "POSTGRES_POOL_SIZE": str(POOL_OPENED),
        "POSTGRES_MAX_OVERFLOW": str(POOL_MOST - POOL_OPENED),
        "POSTGRES_ENABLE_DB_FUNCTIONS": "",
        "CREATE_TABLE": "false",
    }
    params = url_parameters(url)
    env.update({POSTGRES_PARAMETERS[k]: v for k, v in params.items() if k in POSTGRES_PARAMETERS})
    return env


def libpq_env(url: str) -> dict[str, str]:
    """The libpq environment variables a PostgreSQL URL's parameters ask for."""
    params = url_parameters(url)
    return {LIBPQ_ENVIRONMENT[k]: v for k, v in params.items() if k in LIBPQ_ENVIRONMENT}


def url_parameters(url: str) -> dict[str, str]:
    """A PostgreSQL URL's query parameters, each known, given once and valid."""
    known = sorted({*POSTGRES_PARAMETERS, *LIBPQ_ENVIRONMENT})
    params: dict[str, str] = {}
    for key, value in parse_qsl(urlsplit(url).query, keep_blank_values=True):
        if key not in known:
            raise StoreURLError(
                f"store URL parameter {key!r} is not supported (supported: {', '.join(known)})"
            )
        if key in params:
            raise StoreURLError(f"store URL parameter {key!r} is given twice")
        if not value:
            raise StoreURLError(f"store URL parameter {key!r} needs a value")
        params[key] = value
    check_values(params)
    return params


def check_values(params: dict[str, str]) -> None:
    mode = params.get("sslmode")
    if mode is not None and mode not in SSLMODES:
        raise StoreURLError(f"store URL sslmode {mode!r} is not one of {', '.join(SSLMODES)}")
    timeout = params.get("connect_timeout")
    if timeout is not None and not (timeout.isascii() and timeout.isdigit() and int(timeout)):
        raise StoreURLError(
            f"store URL connect_timeout {timeout!r} must be a whole number of seconds >= 1"
        )


def export_libpq(variables: dict[str, str]) -> None:
    """Give libpq the URL's parameters through its environment, the only way the
    library lets them reach a connection. The environment is the process's: a
    second store asking for another value is refused rather than silently mixed."""
    for name, value in variables.items():
        before = _EXPORTED.get(name)
        if before is not None and before != value:
            param = next(k for k, v in LIBPQ_ENVIRONMENT.items() if v == name)
            raise StoreURLError(
                f"store URL {param}={value!r} conflicts with {param}={before!r} of a store "
                "this process opened before (libpq takes it from the process environment)"
            )
    for name, value in variables.items():
        os.environ[name] = value
        _EXPORTED[name] = value


def redacted(url: str) -> str:
    """The URL as it may be printed: a password never reaches an error line or a log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
