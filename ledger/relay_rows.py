"""Players' reports that a hosted mirror holds for their venue, beside the mirrored log.

A mirrored tournament has one writer, its venue. A player who reports through a slip's
code on the mirror's slip page is checked there (the code, the guesses) and the report
is held here, pending, as the command the venue takes: the venue pulls the pending
ones, decides each as that player's report, and answers for each whether it was applied
(with its seq) or refused (with the reason). The mirror appends nothing to the log it
mirrors: the applied report comes back with the venue's next push. ``id`` is the command
id the mirror draws (so the venue never applies one twice); ``n`` orders the reports as
they came. A row is a side record like the slip codes: no event and no hash. The same
SQL serves SQLite and PostgreSQL (``?`` placeholders, which the dialect turns into its
own); ``memory://`` keeps them in :class:`MemoryRelayed`.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from ledger.store import RelayedEntry
from ledger.token_rows import time_of, time_text

#: the side records' name in the database (stored schema: never renamed)
STORED_AS = "tledger_relayed"
COLUMNS = ("id", "tournament", "code_hash", "command", "received_at", "status", "reason",
           "seq", "settled_at")  # fmt: skip
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {STORED_AS} ("
    "id TEXT PRIMARY KEY, tournament TEXT NOT NULL, code_hash TEXT NOT NULL, "
    "command TEXT NOT NULL, received_at TEXT NOT NULL, status TEXT NOT NULL, reason TEXT, "
    "seq INTEGER, settled_at TEXT)"
)
#: the venue's pull (a tournament's pending reports) and a player's page (one code's)
INDEXES = (
    f"CREATE INDEX IF NOT EXISTS {STORED_AS}_pending ON {STORED_AS} (tournament, status)",
    f"CREATE INDEX IF NOT EXISTS {STORED_AS}_code ON {STORED_AS} (code_hash)",
)
#: a report sent again with the same id (a resent form) is held once
INSERT = (
    f"INSERT INTO {STORED_AS} ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)}) "
    "ON CONFLICT (id) DO NOTHING RETURNING id"
)
#: the venue's answer settles a pending report once: a second answer changes nothing
SETTLE = (
    f"UPDATE {STORED_AS} SET status = ?, reason = ?, seq = ?, settled_at = ? "
    "WHERE id = ? AND tournament = ? AND status = 'pending'"
)
SELECT_ONE = f"SELECT {', '.join(COLUMNS)} FROM {STORED_AS} WHERE id = ? AND tournament = ?"
SELECT = f"SELECT {', '.join(COLUMNS)} FROM {STORED_AS} WHERE tournament = ?"
#: in the order they came (the received time, then the id for two at the same instant)
ORDER = " ORDER BY received_at, id"


def row_of(entry: RelayedEntry) -> tuple[Any, ...]:
    return (entry.id, entry.tournament, entry.code_hash, entry.command,
            time_text(entry.received_at), entry.status, entry.reason, entry.seq,
            time_text(entry.settled_at))  # fmt: skip


def entry_of(row: Any) -> RelayedEntry:
    received = time_of(row["received_at"])
    assert received is not None
    return RelayedEntry(str(row["id"]), str(row["tournament"]), str(row["code_hash"]),
                        str(row["command"]), received, str(row["status"]), row["reason"],
                        None if row["seq"] is None else int(row["seq"]),
                        time_of(row["settled_at"]))  # fmt: skip


def query(status: str | None, code_hash: str | None) -> tuple[str, tuple[Any, ...]]:
    """The SELECT of a tournament's reports, of one status and one code when given; the
    parameters after the tournament's."""
    sql, params = SELECT, tuple[Any, ...]()
    if status is not None:
        sql, params = sql + " AND status = ?", (status,)
    if code_hash is not None:
        sql, params = sql + " AND code_hash = ?", (*params, code_hash)
    return sql + ORDER, params


class MemoryRelayed:
    """The held reports of a ``memory://`` store, in the order they came."""

    def __init__(self) -> None:
        self._rows: dict[str, RelayedEntry] = {}

    def put(self, entry: RelayedEntry) -> bool:
        if entry.id in self._rows:
            return False
        self._rows[entry.id] = entry
        return True

    def of(self, tournament: str, status: str | None, code_hash: str | None
           ) -> list[RelayedEntry]:  # fmt: skip
        found = [e for e in self._rows.values() if e.tournament == tournament
                 and status in (None, e.status) and code_hash in (None, e.code_hash)]  # fmt: skip
        return sorted(found, key=lambda e: (e.received_at, e.id))

    def settle(self, tournament: str, ident: str, status: str, seq: int | None,
               reason: str | None, at: datetime) -> RelayedEntry | None:  # fmt: skip
        entry = self._rows.get(ident)
        if entry is None or entry.tournament != tournament:
            return None
        if entry.status == "pending":
            entry = self._rows[ident] = dataclasses.replace(
                entry, status=status, seq=seq, reason=reason, settled_at=at)  # fmt: skip
        return entry
