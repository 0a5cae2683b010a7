"""The tournaments' face settings beside the events (the public page's switch).

A setting configures a face, not the tournament: turning the public page off is no
event and changes no hash. One row per tournament whose settings were ever set (none:
the defaults); ``public_page`` is 0 or 1 (one type in both databases). The same SQL
serves SQLite and PostgreSQL (``?`` placeholders, which the dialect turns into its own);
``memory://`` keeps the settings in a dict.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ledger.store import TournamentSettings

#: the side records' name in the database (stored schema: never renamed)
STORED_AS = "tledger_tournament_settings"
#: the columns in the order the queries read and write them
COLUMNS = ("tournament", "public_page", "changed_at", "changed_by")
#: made when a store is opened (a store made before the switch gains them then)
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {STORED_AS} ("
    "tournament TEXT PRIMARY KEY, public_page INTEGER NOT NULL, changed_at TEXT, "
    "changed_by TEXT)"
)
SELECT = f"SELECT {', '.join(COLUMNS)} FROM {STORED_AS} WHERE tournament = ?"
#: one statement: insert, or replace what was stored (two writers: the last wins)
UPSERT = (
    f"INSERT INTO {STORED_AS} ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)}) "
    "ON CONFLICT (tournament) DO UPDATE SET public_page = excluded.public_page, "
    "changed_at = excluded.changed_at, changed_by = excluded.changed_by"
)


def row_of(settings: TournamentSettings) -> tuple[Any, ...]:
    """The settings as the stored columns (times as ISO 8601 text, as tokens keep them)."""
    changed = None if settings.changed_at is None else settings.changed_at.isoformat()
    return (settings.tournament, int(settings.public_page), changed, settings.changed_by)


def settings_of(row: Any) -> TournamentSettings:
    """A row (its columns by name) as the port's settings."""
    changed = row["changed_at"]
    return TournamentSettings(row["tournament"], bool(row["public_page"]),
                              None if changed is None else datetime.fromisoformat(str(changed)),
                              row["changed_by"])  # fmt: skip
