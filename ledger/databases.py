"""The two SQL databases' own ways with the side records (``ledger.dialects.SQLDialect``):
their placeholders, the column that holds a position, how a deletion is made physical,
and how PostgreSQL is told of appends and creates its schema once under concurrency.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import ApplicationRecorder

from ledger import recorders
from ledger.dialects import SCHEMA_LOCK_KEY, SQLDialect, as_bytes
from ledger.store import Listener


class SQLiteDialect(SQLDialect):
    """SQLite keeps deleted bytes in free pages and the WAL unless told otherwise.

    Its position is the rowid, which every index carries after its own columns: an
    index on ``originator_id`` alone orders one stream's rows by position.
    """

    def _originator_param(self, originator: str) -> Any:
        return uuid.UUID(originator).hex

    def _before_delete(self, cur: Any) -> None:
        cur.execute("PRAGMA secure_delete = ON")

    def _after_delete(self, recorder: ApplicationRecorder) -> None:
        with recorder.datastore.transaction(commit=False) as cur:  # type: ignore[attr-defined]
            cur.execute("PRAGMA wal_checkpoint(TRUNCATE)")


#: for the rest of one read-only transaction: streams are joined one by one by their keys
PER_STREAM_PLAN = (
    "SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; "
    "SET LOCAL enable_seqscan = off; SET LOCAL max_parallel_workers_per_gather = 0"
)


class PostgresDialect(SQLDialect):
    """PostgreSQL removes deleted rows physically at the next VACUUM."""

    placeholder = "%s"
    position_column = "notification_id"
    events_stored_as = "tledger_events"
    stream_index_columns = "originator_id, notification_id"
    recorder_topic = recorders.RECORDER_TOPICS["postgres"]
    add_column_guard = "IF NOT EXISTS "

    def listener(self, recorder: ApplicationRecorder) -> Listener | None:
        """LISTEN on the channel the library NOTIFYs in every insert transaction."""
        from ledger.listening import PostgresListener

        datastore = recorder.datastore  # type: ignore[attr-defined]
        channel: str = recorder.channel_name  # type: ignore[attr-defined]
        return PostgresListener(dict(datastore.pool.kwargs), channel)

    def _originator_param(self, originator: str) -> Any:
        return uuid.UUID(originator)

    def _fetch(self, recorder: ApplicationRecorder, sql: str, params: tuple[Any, ...]) -> list[Any]:
        """One statement on a connection in autocommit: a single SELECT is atomic by itself,
        so it needs no BEGIN and ROLLBACK around it (one round trip to the server, not
        three: the check for newer events that every cached read makes)."""
        with recorder.datastore.cursor() as cur:  # type: ignore[attr-defined]
            cur.execute(self._q(sql), params)
            return list(cur.fetchall())

    def rows_after_many(
        self, recorder: ApplicationRecorder, wanted: Sequence[tuple[str, int]]
    ) -> list[list[tuple[int, int, bytes]]]:
        """One statement of the same text for any number of streams (arrays joined
        laterally to a range of the primary key each), so the server plans it once."""
        if not wanted:
            return []
        sql = (
            "SELECT w.k, e.originator_version, e.notification_id AS position, e.state "
            "FROM unnest(%s::int[], %s::uuid[], %s::bigint[]) AS w(k, id, after) "
            f"CROSS JOIN LATERAL (SELECT originator_version, notification_id, state "
            f"FROM {self.events_stored_as} WHERE originator_id = w.id "
            "AND originator_version > w.after) AS e"
        )
        params = (list(range(len(wanted))), [uuid.UUID(o) for o, _ in wanted],
                  [after for _, after in wanted])  # fmt: skip
        out: list[list[tuple[int, int, bytes]]] = [[] for _ in wanted]
        with recorder.datastore.transaction(commit=False) as cur:  # type: ignore[attr-defined]
            # a prepared statement is planned for any ``after``: left to itself the planner
            # expects a third of each stream and scans the whole table; what is wanted is
            # a step along the primary key per stream (a few rows after a kept fold)
            cur.execute(PER_STREAM_PLAN)
            cur.execute(sql, params)
            found = list(cur.fetchall())
        for r in found:
            out[int(r["k"])].append(
                (int(r["originator_version"]), int(r["position"]), as_bytes(r["state"]))
            )
        for rows in out:
            rows.sort()
        return out

    def _columns(self, cur: Any, stored_as: str) -> set[str]:
        cur.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = %s",
            (stored_as,),
        )
        return {str(r["column_name"]) for r in cur.fetchall()}

    @contextmanager
    def schema_lock(self, recorder: ApplicationRecorder) -> Iterator[None]:
        """Concurrent CREATE TABLE IF NOT EXISTS races in PostgreSQL; hold an advisory lock."""
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            yield
