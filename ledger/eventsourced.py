"""Store adapters on the ``eventsourcing`` library's persistence layer.

We use only its recorders: ``insert_events`` appends atomically and raises
``IntegrityError`` when a version exists already (our optimistic-concurrency
check), ``select_events`` loads a stream, ``select_notifications`` reads the
global sequence. Topics are our stable event types, never module paths. The
library's aggregates and mapper are not used: their runtime checks cost most of
a rebuild, and our own fold is faster.

Each dialect adds what the library does not give: a stream's events after a
seq together with their global positions (one indexed query, so a load costs
the same at any length of the log), and the player registry table (personal
data, deletable), which our recorders (:mod:`ledger.recorders`) write in the
transaction that appends the events.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.domain import EventSourcingError
from eventsourcing.persistence import (
    ApplicationRecorder,
    InfrastructureFactory,
    IntegrityError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.utils import Environment

from ledger import recorders
from ledger.chain import GENESIS, Checked, Sealed, event_of, load_checked, stored_hash
from ledger.errors import ConcurrencyConflict, StoreUnavailable
from ledger.store import PlayerEntry, Recorded, TokenEntry

NAMESPACE = uuid.UUID("6f1c1f0e-8a8b-4c43-9a59-5f3b7c2d9e10")
PAGE = 1000
SCHEMA_LOCK_KEY = 0x74_6C_65_64  # "tled"


def stream_id(tournament: str) -> uuid.UUID:
    """The library's originator id of a tournament's stream."""
    return uuid.uuid5(NAMESPACE, tournament)


@contextmanager
def translated_errors() -> Iterator[None]:
    """Turn the library's database errors into ours."""
    try:
        yield
    except PersistenceError as exc:
        raise StoreUnavailable(f"store error: {exc}") from exc


def as_bytes(value: Any) -> bytes:
    """A stored state as bytes, whatever a damaged row holds (text, NULL): the chain check
    then names the seq, instead of a TypeError escaping."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return b"" if value is None else str(value).encode("utf-8", "replace")


class Dialect:
    """Per-database extras; this one keeps them in memory (the ``memory://`` store)."""

    def __init__(self) -> None:
        self._positions: dict[tuple[str, int], int] = {}
        self._tokens: dict[str, TokenEntry] = {}

    def configure(self, env: dict[str, str]) -> dict[str, str]:
        """The library's settings that make it build our recorder (ledger.recorders)."""
        return {**env, "PERSISTENCE_MODULE": recorders.MEMORY_FACTORY_TOPIC}

    def setup(self, recorder: ApplicationRecorder) -> None:
        """Create whatever tables the dialect needs."""

    @contextmanager
    def schema_lock(self, recorder: ApplicationRecorder) -> Iterator[None]:
        """Serialize table creation between processes where the database needs it."""
        yield

    def remember(self, originator: str, versions: Sequence[int], ids: Sequence[int]) -> None:
        self._positions.update({(originator, v): p for v, p in zip(versions, ids, strict=True)})

    def rows_after(
        self, recorder: ApplicationRecorder, originator: str, after: int
    ) -> list[tuple[int, int, bytes]]:
        """(seq, position, stored bytes) of the stream's events after seq ``after``."""
        stored = recorder.select_events(uuid.UUID(originator), gt=after or None)
        get = self._positions.get
        return [
            (s.originator_version, get((originator, s.originator_version), 0), bytes(s.state))
            for s in stored
        ]

    def _registry(self, recorder: ApplicationRecorder) -> dict[tuple[str, str], PlayerEntry]:
        registry: dict[tuple[str, str], PlayerEntry] = recorder.registry  # type: ignore[attr-defined]
        return registry

    def players(self, recorder: ApplicationRecorder, tournament: str) -> dict[str, PlayerEntry]:
        return {p: e for (t, p), e in self._registry(recorder).items() if t == tournament}

    def forget(self, recorder: ApplicationRecorder, tournament: str, player: str) -> bool:
        return self._registry(recorder).pop((tournament, player), None) is not None

    def put_token(self, recorder: ApplicationRecorder, entry: TokenEntry) -> None:
        self._tokens[entry.token_hash] = entry

    def token(self, recorder: ApplicationRecorder, token_hash: str) -> TokenEntry | None:
        return self._tokens.get(token_hash)


class SQLDialect(Dialect):
    """Shared SQL of the persistent dialects; subclasses set the details."""

    placeholder = "?"
    position_column = "rowid"
    events_table = "stored_events"
    players_table = recorders.PLAYERS_TABLE
    tokens_table = "tledger_tokens"
    recorder_topic = recorders.RECORDER_TOPICS["sqlite"]

    def configure(self, env: dict[str, str]) -> dict[str, str]:
        return {**env, "APPLICATION_RECORDER_TOPIC": self.recorder_topic}

    def _q(self, sql: str) -> str:
        return sql.replace("?", self.placeholder)

    def setup(self, recorder: ApplicationRecorder) -> None:
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(
                f"CREATE TABLE IF NOT EXISTS {self.players_table} ("
                "tournament TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, "
                "external_id TEXT, PRIMARY KEY (tournament, player))"
            )
            cur.execute(
                f"CREATE TABLE IF NOT EXISTS {self.tokens_table} ("
                "token_hash TEXT PRIMARY KEY, token_id TEXT NOT NULL, role TEXT NOT NULL, "
                "tournament TEXT, player TEXT)"
            )

    def remember(self, originator: str, versions: Sequence[int], ids: Sequence[int]) -> None:
        """Persistent stores answer positions from the database itself."""

    def rows_after(
        self, recorder: ApplicationRecorder, originator: str, after: int
    ) -> list[tuple[int, int, bytes]]:
        """One query on the primary key: only the rows after ``after``, with positions."""
        sql = (
            f"SELECT originator_version, {self.position_column} AS position, state "
            f"FROM {self.events_table} WHERE originator_id = ? AND originator_version > ? "
            "ORDER BY originator_version"
        )
        found = self._fetch(recorder, sql, (self._originator_param(originator), after))
        return [
            (int(r["originator_version"]), int(r["position"]), as_bytes(r["state"])) for r in found
        ]

    def _originator_param(self, originator: str) -> Any:
        return originator

    def _fetch(self, recorder: ApplicationRecorder, sql: str, params: tuple[Any, ...]) -> list[Any]:
        with recorder.datastore.transaction(commit=False) as cur:  # type: ignore[attr-defined]
            cur.execute(self._q(sql), params)
            return list(cur.fetchall())

    def players(self, recorder: ApplicationRecorder, tournament: str) -> dict[str, PlayerEntry]:
        sql = f"SELECT player, name, external_id FROM {self.players_table} WHERE tournament = ?"
        rows = self._fetch(recorder, sql, (tournament,))
        return {
            r["player"]: PlayerEntry(tournament, r["player"], r["name"], r["external_id"])
            for r in rows
        }

    def forget(self, recorder: ApplicationRecorder, tournament: str, player: str) -> bool:
        where = f"FROM {self.players_table} WHERE tournament = ? AND player = ?"
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            self._before_delete(cur)
            cur.execute(self._q(f"SELECT player {where}"), (tournament, player))
            deleted = bool(cur.fetchall())
            cur.execute(self._q(f"DELETE {where}"), (tournament, player))
        self._after_delete(recorder)
        return deleted

    def put_token(self, recorder: ApplicationRecorder, entry: TokenEntry) -> None:
        sql = self._q(
            f"INSERT INTO {self.tokens_table} (token_hash, token_id, role, tournament, player) "
            "VALUES (?, ?, ?, ?, ?)"
        )
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(sql, (entry.token_hash, entry.token_id, entry.role, entry.tournament,
                              entry.player))  # fmt: skip

    def token(self, recorder: ApplicationRecorder, token_hash: str) -> TokenEntry | None:
        sql = (
            f"SELECT token_hash, token_id, role, tournament, player FROM {self.tokens_table} "
            "WHERE token_hash = ?"
        )
        rows = self._fetch(recorder, sql, (token_hash,))
        if not rows:
            return None
        r = rows[0]
        return TokenEntry(r["token_hash"], r["token_id"], r["role"], r["tournament"], r["player"])

    def _before_delete(self, cur: Any) -> None:
        """Hook: make the delete physical where the database allows it."""

    def _after_delete(self, recorder: ApplicationRecorder) -> None:
        """Hook: flush logs that may still hold the deleted bytes."""


class SQLiteDialect(SQLDialect):
    """SQLite keeps deleted bytes in free pages and the WAL unless told otherwise."""

    def _originator_param(self, originator: str) -> Any:
        return uuid.UUID(originator).hex

    def _before_delete(self, cur: Any) -> None:
        cur.execute("PRAGMA secure_delete = ON")

    def _after_delete(self, recorder: ApplicationRecorder) -> None:
        with recorder.datastore.transaction(commit=False) as cur:  # type: ignore[attr-defined]
            cur.execute("PRAGMA wal_checkpoint(TRUNCATE)")


class PostgresDialect(SQLDialect):
    """PostgreSQL removes deleted rows physically at the next VACUUM."""

    placeholder = "%s"
    position_column = "notification_id"
    events_table = "tledger_events"
    recorder_topic = recorders.RECORDER_TOPICS["postgres"]

    def _originator_param(self, originator: str) -> Any:
        return uuid.UUID(originator)

    @contextmanager
    def schema_lock(self, recorder: ApplicationRecorder) -> Iterator[None]:
        """Concurrent CREATE TABLE IF NOT EXISTS races in PostgreSQL; hold an advisory lock."""
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            yield


class EventsourcedStore:
    """The store port over one eventsourcing application recorder."""

    def __init__(self, url: str, env: dict[str, str], dialect: Dialect) -> None:
        self.url = url
        try:
            self._factory = InfrastructureFactory.construct(
                Environment("TLEDGER", dialect.configure(env))
            )
        except (EventSourcingError, OSError) as exc:
            raise StoreUnavailable(f"cannot open store {url}: {exc}") from exc
        with translated_errors():
            self._recorder: ApplicationRecorder = self._factory.application_recorder()
            self._dialect = dialect
            with dialect.schema_lock(self._recorder):
                create_table = getattr(self._recorder, "create_table", None)
                if create_table is not None:  # the in-memory recorder has no tables
                    create_table()
                dialect.setup(self._recorder)

    def load(self, tournament: str, after: int = 0, head: str | None = GENESIS) -> list[Recorded]:
        rows = self._rows(tournament, after)
        return [
            Recorded(c.seq, c.position, e) for c, e in load_checked(tournament, rows, after, head)
        ]

    def load_raw(self, tournament: str) -> list[tuple[int, int, bytes]]:
        return self._rows(tournament, 0)

    def _rows(self, tournament: str, after: int) -> list[tuple[int, int, bytes]]:
        with translated_errors():
            return self._dialect.rows_after(self._recorder, str(stream_id(tournament)), after)

    def append(
        self,
        tournament: str,
        events: Sequence[Sealed],
        expected_version: int,
        players: Sequence[PlayerEntry] = (),
    ) -> list[Recorded]:
        originator = stream_id(tournament)
        versions = list(range(expected_version + 1, expected_version + 1 + len(events)))
        stored = [
            StoredEvent(originator, v, s.event.type, s.data)
            for v, s in zip(versions, events, strict=True)
        ]
        try:
            ids = list(self._recorder.insert_events(stored, players=players) or [])
        except IntegrityError as exc:
            raise ConcurrencyConflict(tournament, expected_version) from exc
        except PersistenceError as exc:
            raise StoreUnavailable(f"store error: {exc}") from exc
        self._dialect.remember(str(originator), versions, ids)
        return [Recorded(v, p, s.event) for v, p, s in zip(versions, ids, events, strict=True)]

    def read_after(self, position: int, limit: int) -> list[tuple[str, Recorded]]:
        return self.scan(position, limit)[0]

    def scan(
        self, position: int, limit: int, tournament: str | None = None
    ) -> tuple[list[tuple[str, Recorded]], int]:
        with translated_errors():
            notes = self._recorder.select_notifications(position, limit, inclusive_of_start=False)
        last = notes[-1].id if notes else position
        if tournament is not None:
            wanted = {stream_id(tournament), str(stream_id(tournament)), stream_id(tournament).hex}
            notes = [n for n in notes if n.originator_id in wanted]
        out = []
        for n in notes:
            data, digest = stored_hash(None, n.originator_version, n.state)
            name = str(data.get("tournament"))
            event = event_of(name, Checked(n.originator_version, n.id, data, digest))
            out.append((name, Recorded(n.originator_version, n.id, event)))
        return out, last

    def tournaments(self) -> list[str]:
        found: list[str] = []
        start = 0
        while True:
            with translated_errors():
                page = self._recorder.select_notifications(
                    start, PAGE, topics=["tournament_created"], inclusive_of_start=False
                )
            found.extend(
                str(stored_hash(None, n.originator_version, n.state)[0].get("tournament"))
                for n in page
            )
            if len(page) < PAGE:
                return found
            start = page[-1].id

    def players(self, tournament: str) -> dict[str, PlayerEntry]:
        with translated_errors():
            return self._dialect.players(self._recorder, tournament)

    def forget(self, tournament: str, player: str) -> bool:
        with translated_errors():
            return self._dialect.forget(self._recorder, tournament, player)

    def put_token(self, entry: TokenEntry) -> None:
        with translated_errors():
            self._dialect.put_token(self._recorder, entry)

    def token(self, token_hash: str) -> TokenEntry | None:
        with translated_errors():
            return self._dialect.token(self._recorder, token_hash)

    def close(self) -> None:
        self._factory.close()
