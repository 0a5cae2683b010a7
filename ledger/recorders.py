"""The library's application recorders, extended to write the player registry atomically.

A player's name and external id live outside the hashed log (an erasure must
not touch a hashed byte), but they must be written in the same transaction as
the event that registers the player, or not at all: a refused, conflicting or
crashed registration leaves no name behind.
The ``eventsourcing`` library extends a recorder by subclassing: its process
recorders write their tracking record in ``_insert_events``, inside the
transaction that inserts the events. These recorders write registry rows there.
``insert_events(stored, players=[...])`` passes the rows. Deck, squad and fleet lists are
kept out of the hashed log the same way, in ``tledger_lists`` (:mod:`ledger.list_rows`):
``insert_events(stored, lists=[...])``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError, ProgrammingError, StoredEvent
from eventsourcing.popo import POPOApplicationRecorder, POPOFactory
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.sqlite import SQLiteApplicationRecorder
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier

from ledger import list_rows, mirror_rows
from ledger.chain import stored_hash
from ledger.errors import Claimed, StoreWentBack
from ledger.store import Claim, ListEntry, PlayerEntry

#: the player registry's name in the database (stored schema: never renamed)
PLAYERS_STORED_AS = "tledger_players"

#: Insert or replace: the event appended in this transaction names the player, so its
#: name wins over any row a version before atomic registration may have left.
UPSERT_PLAYER = (
    f"INSERT INTO {PLAYERS_STORED_AS} (tournament, player, name, external_id) "
    "VALUES (?, ?, ?, ?) ON CONFLICT (tournament, player) DO UPDATE SET "
    "name = excluded.name, external_id = excluded.external_id"
)


#: PostgreSQL: the same for many rows in one statement, as four binary text arrays (one
#: round trip for a pushed batch's 2,048 registrations; a key twice in one statement is
#: an error there, so :func:`upsert_players` sends each key once, its last entry)
UPSERT_PLAYERS_PG = (
    f"INSERT INTO {PLAYERS_STORED_AS} (tournament, player, name, external_id) "
    "SELECT * FROM unnest(%b::text[], %b::text[], %b::text[], %b::text[]) "
    "ON CONFLICT (tournament, player) DO UPDATE SET "
    "name = excluded.name, external_id = excluded.external_id"
)


def upsert_players(curs: Any, players: Sequence[tuple[str, str, str, str | None]]) -> None:
    """The registry rows in one statement (PostgreSQL), the last entry of a key winning
    as it would row by row."""
    last = {(t, p): (t, p, n, x) for t, p, n, x in players}
    columns = [list(column) for column in zip(*sorted(last.values()), strict=True)]
    curs.execute(UPSERT_PLAYERS_PG, columns)


def rows(kwargs: dict[str, Any]) -> list[tuple[str, str, str, str | None]]:
    """The registry rows passed to ``insert_events``, in one order (no lock-order deadlock)."""
    entries: Sequence[PlayerEntry] = kwargs.get("players") or ()
    return sorted((e.tournament, e.player, e.name, e.external_id) for e in entries)


@dataclass(frozen=True, slots=True)
class Tip:
    """Where the appender last saw its tournament's log end: the seq and hash the
    decision was made on (seq 0 and the genesis hash for a new tournament)."""

    tournament: str
    seq: int
    hash: str


#: the newest stored event of a stream before a version: its version and bytes
TIP_QUERY = (
    "SELECT originator_version, state FROM {table} WHERE originator_id = ? "
    "AND originator_version < ? ORDER BY originator_version DESC LIMIT 1"
)


#: a seq above any stream's: ``TIP_QUERY`` with it finds the stream's newest event
ANY_SEQ = 2**62

#: one append of a group: its stored events and the keywords ``insert_events`` takes
#: (players, lists, tip, claim; ``stream``: the stream's id when there are no events)
Insert = tuple[Sequence[StoredEvent], dict[str, Any]]
#: what one append of a group came to: its notification ids, or why it wrote nothing
#: (IntegrityError: its version is taken; StoreWentBack: its tip is gone; Claimed: a
#: venue holds the tournament)
Inserted = Sequence[int] | IntegrityError | StoreWentBack | Claimed


def claim_of(stored_events: Sequence[StoredEvent], kwargs: dict[str, Any]) -> Claim | None:
    """The claim this append's transaction decides: every append of events, and a
    venue's claim alone (a first push of nothing); None for an empty command's."""
    claim: Claim | None = kwargs.get("claim")
    if claim is None or not (stored_events or claim.token_id is not None):
        return None
    return claim


#: the newest stored event of each of several streams (PostgreSQL): one step back along
#: the primary key each, whatever the streams' lengths
NEWEST_QUERY = (
    "SELECT s.id AS originator_id, e.originator_version, e.state FROM unnest(%s::uuid[]) "
    "AS s(id) CROSS JOIN LATERAL (SELECT originator_version, state FROM {table} "
    "WHERE originator_id = s.id ORDER BY originator_version DESC LIMIT 1) AS e"
)


def check_tip(tip: Tip | None, found: tuple[int, bytes] | None) -> None:
    """Refuse an append whose stream no longer ends at its tip, inside the transaction
    that would append: a store that went back (``StoreWentBack``) or, when it went on,
    another writer first (the version's uniqueness then refuses the insert, and the
    appender reloads and decides again)."""
    if tip is None:
        return
    seq, data = found if found is not None else (0, b"")
    if seq > tip.seq:
        return
    same = seq == tip.seq and (seq == 0 or stored_hash(tip.tournament, seq, data)[1] == tip.hash)
    if not same:
        raise StoreWentBack(tip.tournament, tip.seq, seq)


class SQLiteLedgerRecorder(SQLiteApplicationRecorder):
    """SQLite: the events and their registry rows commit together."""

    def _insert_events(
        self, c: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        found: Any = None
        if stored_events:  # after the insert, which holds the write lock (no lock upgrade)
            found = self._newest(c, stored_events[0].originator_id,
                                 stored_events[0].originator_version)  # fmt: skip
            check_tip(kwargs.get("tip"), found)
        if (claim := claim_of(stored_events, kwargs)) is not None:

            def held() -> int:  # with no events, read once the claim's insert took the lock
                row = found if stored_events else self._newest(c, kwargs["stream"], ANY_SEQ)
                return int(row[0]) if row else 0

            mirror_rows.settle(c, "?", claim, held)
        if players := rows(kwargs):
            c.executemany(UPSERT_PLAYER, players)
        for row in list_rows.rows(kwargs):
            c.execute(list_rows.UPSERT, row)
        return ids

    def _newest(self, c: Any, originator: Any, before: int) -> Any:
        """The stream's newest event before seq ``before``: (seq, bytes), or None."""
        stream = originator.hex if isinstance(originator, UUID) else originator
        c.execute(TIP_QUERY.format(table=self.events_table_name), (stream, before))
        return c.fetchone()

    def insert_many(self, inserts: Sequence[Insert]) -> list[Inserted]:
        """Group commit: every insert of ``inserts`` in one transaction and one commit,
        each in a savepoint of its own (a taken version, a moved tip or a venue's claim
        rolls back that one alone)."""
        out: list[Inserted] = []
        with self.datastore.transaction(commit=True) as c:
            for stored, kwargs in inserts:
                c.execute("SAVEPOINT one_append")
                try:
                    ids = self._insert_events(c, stored, **kwargs)
                except (sqlite3.IntegrityError, StoreWentBack, Claimed) as exc:
                    c.execute("ROLLBACK TO one_append")
                    out.append(IntegrityError(exc) if isinstance(exc, sqlite3.Error) else exc)
                else:
                    out.append(ids or [])
                c.execute("RELEASE one_append")
        return out


class PostgresLedgerRecorder(PostgresApplicationRecorder):
    """PostgreSQL: the registry rows join the transaction that inserts the events."""

    def _insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        claim = claim_of(stored_events, kwargs)
        if claim is not None:  # who holds the id is read under the lock every append takes
            self._lock_table(curs)
        found = None
        stream = stored_events[0].originator_id if stored_events else kwargs.get("stream")
        if stream is not None and (stored_events or claim is not None):
            table = f"{self.datastore.schema}.{self.events_table_name}"
            before = stored_events[0].originator_version if stored_events else ANY_SEQ
            curs.execute(TIP_QUERY.format(table=table).replace("?", "%s"), (stream, before))
            row = curs.fetchone()
            found = (int(row["originator_version"]), bytes(row["state"])) if row else None
        if stored_events:
            check_tip(kwargs.get("tip"), found)
        if claim is not None:
            mirror_rows.settle(curs, "%s", claim, lambda: found[0] if found else 0)
        super()._insert_events(curs, stored_events, **kwargs)
        if players := rows(kwargs):  # one statement for many rows (a pushed registration)
            upsert_players(curs, players)
        for row in list_rows.rows(kwargs):
            curs.execute(list_rows.UPSERT.replace("?", "%s"), row)

    def insert_many(self, inserts: Sequence[Insert]) -> list[Inserted]:
        """Group commit in a few round trips: the table locked (no other writer inserts
        until this commit) and the channel notified once; the newest event of every
        stream read in one query and each insert's tip checked against it in order, and
        the claims of their tournaments in one more (a group holds commands only: a
        taken version, a moved tip or a venue's claim refuses that insert alone, before
        anything is written); then the events of every insert left in one INSERT, their
        rows, and one commit."""
        out: list[Inserted] = []
        with self.datastore.get_connection() as conn, conn.transaction(), conn.cursor() as curs:
            self._lock_table(curs)
            self._notify_channel(curs)
            table = f"{self.datastore.schema}.{self.events_table_name}"
            streams = list({s[0].originator_id for s, _ in inserts if s})
            curs.execute(NEWEST_QUERY.format(table=table), (streams,))
            newest = {str(r["originator_id"]): (int(r["originator_version"]), bytes(r["state"]))
                      for r in curs.fetchall()}  # fmt: skip
            claims = [c for s, kwargs in inserts if (c := claim_of(s, kwargs)) is not None]
            curs.execute(mirror_rows.SELECT_ANY, ([c.tournament for c in claims],))
            held = {str(r["tournament"]): str(r["token_id"]) for r in curs.fetchall()}
            kept: list[tuple[int, Sequence[StoredEvent], dict[str, Any]]] = []
            for stored, kwargs in inserts:
                claim = claim_of(stored, kwargs)
                if claim is not None and claim.tournament in held:  # a venue's: commands go there
                    out.append(Claimed(claim.tournament, held[claim.tournament]))
                    continue
                stream = str(stored[0].originator_id)
                found = newest.get(stream)
                if found is not None and found[0] >= stored[0].originator_version:
                    out.append(IntegrityError(f"{stream}: version {found[0]} is taken"))
                    continue
                try:
                    check_tip(kwargs.get("tip"), found)
                except StoreWentBack as exc:
                    out.append(exc)
                    continue
                newest[stream] = (stored[-1].originator_version, stored[-1].state)
                kept.append((len(out), stored, kwargs))
                out.append([])
            if kept:
                every = [e for _, stored, _ in kept for e in stored]
                self._insert_rows(curs, every)
                ids = list(self._fetch_ids_after_insert_events(curs, every) or [])
                for index, stored, _ in kept:
                    out[index], ids = ids[: len(stored)], ids[len(stored) :]
                players = sorted(r for _, _, kwargs in kept for r in rows(kwargs))
                if players:
                    upsert_players(curs, players)
                lists = [r for _, _, kwargs in kept for r in list_rows.rows(kwargs)]
                if lists:
                    curs.executemany(list_rows.UPSERT.replace("?", "%s"), lists)
        return out

    def _insert_stored_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> None:
        """The library's insert (the table lock, the notification, one statement returning
        the new positions), with the events sent as four arrays of plain columns in
        PostgreSQL's binary format: the library's array of composite values goes as
        text, every byte of every event escaped on both sides, which costs most of a
        large append (a mirror's pushed batch, an import)."""
        self._lock_table(curs)
        self._notify_channel(curs)
        self._insert_rows(curs, stored_events)

    def _fetch_ids_after_insert_events(
        self, curs: Any, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        """The new positions the insert returned, read as plain tuples: the library reads
        them as a dict per row, which costs more than the insert itself does per event
        of a large append."""
        factory = curs.row_factory
        curs.row_factory = tuple_row
        try:
            ids = [int(row[0]) for row in curs.fetchall()]
        finally:
            curs.row_factory = factory
        if len(ids) != len(stored_events):
            raise ProgrammingError(f"the insert returned {len(ids)} positions "
                                   f"for {len(stored_events)} events")  # fmt: skip
        return ids

    def _insert_rows(self, curs: Any, stored_events: Sequence[StoredEvent]) -> None:
        """The rows in one statement returning their positions, as binary column arrays
        (``%b``: a ``%s`` lets psycopg send a list of bytes as a text array, each event
        hex-escaped and quoted)."""
        kind = self.datastore.originator_id_type
        statement = SQL(
            "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
            "SELECT * FROM unnest(%b::" + kind + "[], %b::bigint[], %b::text[], %b::bytea[]) "
            "RETURNING notification_id"
        ).format(schema=Identifier(self.datastore.schema),
                 table=Identifier(self.events_table_name))  # fmt: skip
        columns = (
            [e.originator_id for e in stored_events],
            [e.originator_version for e in stored_events],
            [e.topic for e in stored_events],
            [e.state for e in stored_events],
        )
        curs.execute(statement, columns, binary=True)


class MemoryLedgerRecorder(POPOApplicationRecorder):
    """In memory: the registry, the lists and the venues' claims are updated under the
    recorder's lock, after the insert."""

    def __init__(self) -> None:
        super().__init__()
        self.registry: dict[tuple[str, str], PlayerEntry] = {}
        self.lists: dict[tuple[str, int], ListEntry] = {}
        self.claims: dict[str, str] = {}

    def _insert_events(
        self, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        with self._database_lock:
            stream = stored_events[0].originator_id if stored_events else kwargs.get("stream")
            first = stored_events[0].originator_version if stored_events else ANY_SEQ
            versions = self._stored_events_index[str(stream)] if stream is not None else {}
            newest = max((v for v in versions if v < first), default=0)
            if stored_events:
                found = (newest, self._stored_events[versions[newest]].state) if newest else None
                check_tip(kwargs.get("tip"), found)
            claim = claim_of(stored_events, kwargs)
            if claim is not None:
                refused = mirror_rows.refusal(claim, self.claims.get(claim.tournament), newest)
                if refused is not None:
                    raise refused
            ids = super()._insert_events(stored_events, **kwargs)
            if claim is not None and claim.token_id is not None:
                self.claims.setdefault(claim.tournament, claim.token_id)
            entries: Sequence[PlayerEntry] = kwargs.get("players") or ()
            self.registry.update({(e.tournament, e.player): e for e in entries})
            kept: Sequence[ListEntry] = kwargs.get("lists") or ()
            self.lists.update({(e.tournament, e.seq): e for e in kept})
            return ids

    def insert_many(self, inserts: Sequence[Insert]) -> list[Inserted]:
        """Each insert of ``inserts`` whole or not at all, under the recorder's lock (in
        memory there is nothing to commit)."""
        out: list[Inserted] = []
        with self._database_lock:
            for stored, kwargs in inserts:
                try:
                    out.append(self.insert_events(stored, **kwargs) or [])
                except (IntegrityError, StoreWentBack, Claimed) as exc:
                    out.append(exc)
        return out


class MemoryLedgerFactory(POPOFactory):
    """The in-memory factory, building the recorder above."""

    def application_recorder(self) -> MemoryLedgerRecorder:
        return MemoryLedgerRecorder()


#: Settings that make each library factory build our recorder.
RECORDER_TOPICS = {
    "sqlite": "ledger.recorders:SQLiteLedgerRecorder",
    "postgres": "ledger.recorders:PostgresLedgerRecorder",
}
MEMORY_FACTORY_TOPIC = "ledger.recorders:MemoryLedgerFactory"
