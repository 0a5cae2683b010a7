"""Deck, squad and fleet lists beside the events: the side records ``tledger_lists``.

An event commits to a list by its hash and says no card (:mod:`ledger.list_events`);
the list and its full violation messages are kept here, one row per list event
(tournament, seq), written by our recorders (:mod:`ledger.recorders`) in the
transaction that appends the event, as the player registry is: a refused, conflicting
or crashed append leaves no list behind. Each row keeps the salt of its hash; a store
made before salts gains the column when it is opened, its rows with an empty salt (the
unsalted rule they were hashed by). Reading a list checks it against its event
(:func:`checked`): a row that is missing, names another player or no longer hashes to
the event's ``list_hash`` with its salt is an integrity error naming the seq. The same SQL serves
SQLite and PostgreSQL (``?`` placeholders, which the dialect turns into its own);
``memory://`` keeps the rows in its recorder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from ledger.errors import ListDamaged
from ledger.list_events import list_hash
from ledger.store import ListEntry

#: the side records' name in the database (stored schema: never renamed)
STORED_AS = "tledger_lists"
#: the columns in the order the queries read and write them (JSON kept as text)
COLUMNS = ("tournament", "seq", "player", "list_hash", "list", "violations", "salt")
#: columns a store made before them gains when it is opened, with their SQL type
ADDED_COLUMNS = {"salt": "TEXT NOT NULL DEFAULT ''"}
#: made when a store is opened (a store made before lists gains them then)
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {STORED_AS} ("
    "tournament TEXT NOT NULL, seq INTEGER NOT NULL, player TEXT NOT NULL, "
    "list_hash TEXT NOT NULL, list TEXT NOT NULL, violations TEXT NOT NULL, "
    "salt TEXT NOT NULL DEFAULT '', PRIMARY KEY (tournament, seq))"
)
#: insert or replace: the event appended in this transaction holds this seq now, so its
#: list wins over any row a damaged store may hold there
UPSERT = (
    f"INSERT INTO {STORED_AS} ({', '.join(COLUMNS)}) VALUES ({', '.join('?' for _ in COLUMNS)}) "
    "ON CONFLICT (tournament, seq) DO UPDATE SET player = excluded.player, "
    "list_hash = excluded.list_hash, list = excluded.list, violations = excluded.violations, "
    "salt = excluded.salt"
)
SELECT = f"SELECT {', '.join(COLUMNS)} FROM {STORED_AS} WHERE tournament = ? ORDER BY seq"


def row_of(entry: ListEntry) -> tuple[Any, ...]:
    """The entry as the stored columns."""
    return (entry.tournament, entry.seq, entry.player, entry.list_hash,
            orjson.dumps(entry.list).decode(), orjson.dumps(entry.violations).decode(),
            entry.salt)  # fmt: skip


def rows(kwargs: Mapping[str, Any]) -> list[tuple[Any, ...]]:
    """The rows passed to ``insert_events`` as ``lists=[...]``, in one order."""
    entries: Sequence[ListEntry] = kwargs.get("lists") or ()
    return sorted((row_of(e) for e in entries), key=lambda r: (r[0], r[1]))


def entry_of(row: Any) -> ListEntry:
    """A row (its columns by name) as the port's entry; unreadable JSON reads as an
    empty list, which then fails :func:`checked` naming the seq."""
    try:
        data, found = orjson.loads(row["list"]), orjson.loads(row["violations"])
    except (orjson.JSONDecodeError, TypeError):
        data, found = {}, []
    return ListEntry(str(row["tournament"]), int(row["seq"]), str(row["player"]),
                     str(row["list_hash"]), data if isinstance(data, dict) else {},
                     tuple(found) if isinstance(found, list) else (),
                     str(row["salt"] or ""))  # fmt: skip


def checked(
    tournament: str, stored: Mapping[int, ListEntry], seq: int, player: str, digest: str
) -> ListEntry:
    """The list the event at ``seq`` committed to (``player``, ``digest``), or ListDamaged."""
    entry = stored.get(seq)
    if entry is None:
        raise ListDamaged(tournament, seq, f"the list of {player} is missing from {STORED_AS}")
    if entry.player != player or entry.list_hash != digest:
        raise ListDamaged(tournament, seq, "the stored list does not match the event's "
                                           "player and list_hash")  # fmt: skip
    if not hashes_to(entry.list, entry.salt, digest):
        raise ListDamaged(tournament, seq, "the stored list does not hash to its list_hash")
    return entry


def hashes_to(data: dict[str, Any], salt: str, digest: str) -> bool:
    """Whether ``data`` with ``salt`` hashes to ``digest`` (a salt that is not hex, as a
    damaged row may hold, hashes to nothing)."""
    try:
        return list_hash(data, salt) == digest
    except ValueError:
        return False
