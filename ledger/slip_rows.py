"""The match slips' report codes beside the events, so a slip can report its own match.

A code is a credential, like an API token: it is kept in side records of its own, never in
a hashed event, and only as its SHA-256. Each player of a match holds a code of their
own, so a report through a code is that player's and no one else's: the row keeps the
holder in ``player``, and its ``player_a`` and ``player_b`` are the holder and the
opponent, in that order. So the stored key (tournament, round, ``player_a``,
``player_b``) is one code per player of a match, and issuing a new one replaces the old,
which then stops working. A row made before players held codes of their own has no
``player``: its code reports as either player of its match, whose players it holds in
table order; the holder's new code of that order replaces it. Stores made then gain the
column when they are opened (``Dialect.setup``). The same SQL serves SQLite and
PostgreSQL (``?`` placeholders, which the dialect turns into its own); ``memory://``
keeps them in :class:`MemorySlipCodes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from ledger.store import SlipCodeEntry

#: the side records' name in the database (stored schema: never renamed)
STORED_AS = "tledger_slip_codes"
#: the columns in the order the queries read and write them
COLUMNS = ("code_hash", "tournament", "round_number", "player_a", "player_b", "issued_at",
           "player")  # fmt: skip
#: came with each player's own code: older records gain it as NULLable text
ADDED_COLUMNS = {"player": "TEXT"}
#: made when a store is opened (a store made before slips gains them then)
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {STORED_AS} ("
    "code_hash TEXT PRIMARY KEY, tournament TEXT NOT NULL, round_number INTEGER NOT NULL, "
    "player_a TEXT NOT NULL, player_b TEXT NOT NULL, issued_at TEXT NOT NULL, player TEXT, "
    "UNIQUE (tournament, round_number, player_a, player_b))"
)
#: one statement per code: a player's new code replaces their old one (or the match's
#: code of before), so two processes issuing codes for the same match at once leave
#: one code each and never fail
UPSERT = (
    f"INSERT INTO {STORED_AS} ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)}) "
    "ON CONFLICT (tournament, round_number, player_a, player_b) DO UPDATE SET "
    "code_hash = excluded.code_hash, issued_at = excluded.issued_at, player = excluded.player"
)
SELECT = f"SELECT {', '.join(COLUMNS)} FROM {STORED_AS} WHERE code_hash = ?"
SELECT_ROUND = (f"SELECT {', '.join(COLUMNS)} FROM {STORED_AS} "
                "WHERE tournament = ? AND round_number = ?")  # fmt: skip


def match_key(entry: SlipCodeEntry) -> tuple[str, int, str, str]:
    """The unique key of the stored codes: the match, its holder first."""
    return entry.tournament, entry.round, *entry.players


def row_of(entry: SlipCodeEntry) -> tuple[Any, ...]:
    """The entry as the stored columns (times as ISO 8601 text, as the tokens keep them)."""
    return (entry.code_hash, *match_key(entry), entry.issued_at.isoformat(), entry.player)


def entry_of(row: Any) -> SlipCodeEntry:
    """A row (its columns by name) as the port's entry."""
    return SlipCodeEntry(row["code_hash"], row["tournament"], int(row["round_number"]),
                         (row["player_a"], row["player_b"]),
                         datetime.fromisoformat(str(row["issued_at"])),
                         row["player"])  # fmt: skip


class MemorySlipCodes:
    """The codes of a ``memory://`` store: the same replacement rule, in two dicts."""

    def __init__(self) -> None:
        self._by_hash: dict[str, SlipCodeEntry] = {}
        self._by_match: dict[tuple[str, int, str, str], str] = {}

    def put(self, entries: Sequence[SlipCodeEntry]) -> None:
        for entry in entries:
            old = self._by_match.get(match_key(entry))
            if old is not None:
                del self._by_hash[old]
            self._by_hash[entry.code_hash] = entry
            self._by_match[match_key(entry)] = entry.code_hash

    def get(self, code_hash: str) -> SlipCodeEntry | None:
        return self._by_hash.get(code_hash)

    def of_round(self, tournament: str, round_number: int) -> list[SlipCodeEntry]:
        return [e for e in self._by_hash.values()
                if e.tournament == tournament and e.round == round_number]  # fmt: skip
