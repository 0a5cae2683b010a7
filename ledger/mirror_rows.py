"""Which venue a mirrored tournament comes from: one claim per tournament, beside the log.

A hosted mirror keeps a copy of tournaments whose only writer is a venue's ledger. The
first push of a tournament claims its id for the venue token that sent it; a push by
another venue token to a claimed id is refused, and a claimed tournament takes no
commands on the mirror. A claim is a side record like the tokens: no event and no hash.
The same SQL serves SQLite and PostgreSQL (``?`` placeholders, which the dialect turns
into its own); ``memory://`` keeps the claims in a dict.
"""

from __future__ import annotations

#: the side records' name in the database (stored schema: never renamed)
STORED_AS = "tledger_mirrors"
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {STORED_AS} ("
    "tournament TEXT PRIMARY KEY, token_id TEXT NOT NULL, claimed_at TEXT NOT NULL)"
)
#: the first claim wins: a second one leaves the row as it is
CLAIM = (
    f"INSERT INTO {STORED_AS} (tournament, token_id, claimed_at) VALUES (?, ?, ?) "
    "ON CONFLICT (tournament) DO NOTHING"
)
SELECT = f"SELECT token_id FROM {STORED_AS} WHERE tournament = ?"
