"""The two SQL databases' own ways with the side records (``ledger.dialects.SQLDialect``):
their placeholders, the column that holds a position, how a deletion is made physical,
and how PostgreSQL is told of appends and creates its schema once under concurrency.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from eventsourcing.persistence import ApplicationRecorder

from ledger import recorders
from ledger.dialects import SCHEMA_LOCK_KEY, SQLDialect
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
