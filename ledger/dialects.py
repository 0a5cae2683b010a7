"""Per-database extras the ``eventsourcing`` recorders do not give.

A stream's events after a seq, with their global positions, in one indexed query
(so a load costs the same at any length of the log); one tournament's events after
a global position by the stream's index (a scoped reader never scans the global
log); the players' names registry (personal data, deletable: our recorders in
:mod:`ledger.recorders` write it in the transaction that appends the events); API
tokens (with their label, expiry and revocation; a store made before those existed
gains their columns when it is opened, so its tokens keep working); the match slips'
report codes (hashes only, one per player of a match, good for that match alone); the
tournaments' face settings (the public page's switch: a face's configuration, not an
event); deck lists and their salts beside the events committing to them (:mod:`ledger.list_rows`);
on a hosted mirror, the venues' claims (:mod:`ledger.mirror_rows`) and the players'
reports held for their venues (:mod:`ledger.relay_rows`).
All of these are side records beside the log, never in it. The base class keeps them
in memory for ``memory://``; the SQL dialects share their queries and differ in
placeholders, position column, erasure and how a stored record's columns are read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from eventsourcing.persistence import ApplicationRecorder

from ledger import list_rows, mirror_rows, recorders, relay_rows, settings_rows, slip_rows
from ledger.memory_dialect import Dialect as Dialect
from ledger.store import (
    ListEntry,
    PlayerEntry,
    RelayedEntry,
    SlipCodeEntry,
    TokenEntry,
    TournamentSettings,
)
from ledger.token_rows import (
    ADDED_TOKEN_COLUMNS,
    TOKEN_COLUMNS,
    time_text,
    token_of,
)

SCHEMA_LOCK_KEY = 0x74_6C_65_64  # "tled"


def as_bytes(value: Any) -> bytes:
    """A stored state as bytes, whatever a damaged row holds (text, NULL): the chain check
    then names the seq, instead of a TypeError escaping."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    return b"" if value is None else str(value).encode("utf-8", "replace")


class SQLDialect(Dialect):
    """Shared SQL of the persistent dialects; subclasses set the details."""

    placeholder = "?"
    position_column = "rowid"
    events_stored_as = "stored_events"
    players_stored_as = recorders.PLAYERS_STORED_AS
    tokens_stored_as = "tledger_tokens"
    #: an index that finds one stream's events after a global position (its columns
    #: per database: see the subclasses)
    stream_index = "tledger_stream_position"
    stream_index_columns = "originator_id"
    recorder_topic = recorders.RECORDER_TOPICS["sqlite"]
    #: keeps a second process that adds the same column at once from failing (PostgreSQL)
    add_column_guard = ""

    def configure(self, env: dict[str, str]) -> dict[str, str]:
        return {**env, "APPLICATION_RECORDER_TOPIC": self.recorder_topic}

    def _q(self, sql: str) -> str:
        return sql.replace("?", self.placeholder)

    def setup(self, recorder: ApplicationRecorder) -> None:
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(
                f"CREATE TABLE IF NOT EXISTS {self.players_stored_as} ("
                "tournament TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL, "
                "external_id TEXT, PRIMARY KEY (tournament, player))"
            )
            cur.execute(
                f"CREATE TABLE IF NOT EXISTS {self.tokens_stored_as} ("
                "token_hash TEXT PRIMARY KEY, token_id TEXT NOT NULL, role TEXT NOT NULL, "
                "tournament TEXT, player TEXT, label TEXT, expires_at TEXT, revoked_at TEXT, "
                "created_at TEXT)"
            )
            self._add_columns(cur, self.tokens_stored_as, ADDED_TOKEN_COLUMNS)
            cur.execute(slip_rows.CREATE)  # the match slips' report codes
            self._add_columns(cur, slip_rows.STORED_AS, slip_rows.ADDED_COLUMNS)
            cur.execute(settings_rows.CREATE)  # the faces' settings (the public page's switch)
            cur.execute(mirror_rows.CREATE)  # mirrored tournaments' venues
            cur.execute(relay_rows.CREATE)  # players' reports a mirror holds for the venue
            for index in relay_rows.INDEXES:
                cur.execute(index)
            cur.execute(list_rows.CREATE)  # deck lists beside their events
            self._add_columns(cur, list_rows.STORED_AS, list_rows.ADDED_COLUMNS)
            cur.execute(
                f"CREATE INDEX IF NOT EXISTS {self.stream_index} "
                f"ON {self.events_stored_as} ({self.stream_index_columns})"
            )

    def _add_columns(self, cur: Any, stored_as: str, columns: dict[str, str]) -> None:
        """A record made before some of its ``columns`` (name -> SQL type) gains them:
        tokens their labels and expiry (NULL: none, not revoked), so they keep working;
        slip codes their holder (NULL: a code of the whole match); lists their salt
        (empty: hashed without one). Only a missing column is added: an up-to-date store
        takes no lock on every open."""
        present = self._columns(cur, stored_as)
        for column, kind in columns.items():
            if column not in present:
                cur.execute(f"ALTER TABLE {stored_as} ADD COLUMN "
                            f"{self.add_column_guard}{column} {kind}")  # fmt: skip

    def _columns(self, cur: Any, stored_as: str) -> set[str]:
        """The names of a stored record's columns."""
        cur.execute(f"PRAGMA table_info({stored_as})")
        return {str(r["name"]) for r in cur.fetchall()}

    def remember(self, originator: str, versions: Sequence[int], ids: Sequence[int]) -> None:
        """Persistent stores answer positions from the database itself."""

    def rows_after(
        self, recorder: ApplicationRecorder, originator: str, after: int, until: int | None
    ) -> list[tuple[int, int, bytes]]:
        """One query on the primary key: only the rows after ``after`` (up to ``until``),
        with positions."""
        bound = "" if until is None else " AND originator_version <= ?"
        sql = (
            f"SELECT originator_version, {self.position_column} AS position, state "
            f"FROM {self.events_stored_as} WHERE originator_id = ? AND originator_version > ?"
            f"{bound} ORDER BY originator_version"
        )
        params = (self._originator_param(originator), after)
        found = self._fetch(recorder, sql, params if until is None else (*params, until))
        return [
            (int(r["originator_version"]), int(r["position"]), as_bytes(r["state"])) for r in found
        ]

    def rows_after_many(
        self, recorder: ApplicationRecorder, wanted: Sequence[tuple[str, int]]
    ) -> list[list[tuple[int, int, bytes]]]:
        """One query for every stream (a range of the primary key each), so that checking
        the kept folds of a group of commands costs one round trip."""
        if not wanted:
            return []
        one = (
            f"SELECT CAST(? AS INTEGER) AS k, originator_version, {self.position_column} "
            f"AS position, state FROM {self.events_stored_as} "
            "WHERE originator_id = ? AND originator_version > ?"
        )
        sql = " UNION ALL ".join(f"({one})" if self.placeholder != "?" else one for _ in wanted)
        params = [x for k, (o, after) in enumerate(wanted)
                  for x in (k, self._originator_param(o), after)]  # fmt: skip
        out: list[list[tuple[int, int, bytes]]] = [[] for _ in wanted]
        for r in self._fetch(recorder, sql, tuple(params)):
            out[int(r["k"])].append(
                (int(r["originator_version"]), int(r["position"]), as_bytes(r["state"]))
            )
        for rows in out:
            rows.sort()
        return out

    def stream_rows(
        self, recorder: ApplicationRecorder, originator: str, position: int, limit: int
    ) -> list[tuple[int, int, bytes]]:
        """One range of the stream index: never a scan of the global log."""
        sql = (
            f"SELECT originator_version, {self.position_column} AS position, state "
            f"FROM {self.events_stored_as} WHERE originator_id = ? AND {self.position_column} > ? "
            f"ORDER BY {self.position_column} LIMIT ?"
        )
        found = self._fetch(recorder, sql, (self._originator_param(originator), position, limit))
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
        sql = f"SELECT player, name, external_id FROM {self.players_stored_as} WHERE tournament = ?"
        rows = self._fetch(recorder, sql, (tournament,))
        return {
            r["player"]: PlayerEntry(tournament, r["player"], r["name"], r["external_id"])
            for r in rows
        }

    def lists(self, recorder: ApplicationRecorder, tournament: str) -> list[ListEntry]:
        return [list_rows.entry_of(r) for r in self._fetch(recorder, list_rows.SELECT,
                                                            (tournament,))]  # fmt: skip

    def forget(self, recorder: ApplicationRecorder, tournament: str, player: str) -> bool:
        where = f"FROM {self.players_stored_as} WHERE tournament = ? AND player = ?"
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            self._before_delete(cur)
            cur.execute(self._q(f"SELECT player {where}"), (tournament, player))
            deleted = bool(cur.fetchall())
            cur.execute(self._q(f"DELETE {where}"), (tournament, player))
        self._after_delete(recorder)
        return deleted

    def put_lists(self, recorder: ApplicationRecorder, entries: Sequence[ListEntry]) -> None:
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            for row in list_rows.rows({"lists": entries}):
                cur.execute(self._q(list_rows.UPSERT), row)

    def put_token(self, recorder: ApplicationRecorder, entry: TokenEntry) -> None:
        sql = self._q(
            f"INSERT INTO {self.tokens_stored_as} ({', '.join(TOKEN_COLUMNS)}) "
            f"VALUES ({', '.join('?' for _ in TOKEN_COLUMNS)})"
        )
        row = (entry.token_hash, entry.token_id, entry.role, entry.tournament, entry.player,
               entry.label, time_text(entry.expires_at), time_text(entry.revoked_at),
               time_text(entry.created_at))  # fmt: skip
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(sql, row)

    def token(self, recorder: ApplicationRecorder, token_hash: str) -> TokenEntry | None:
        sql = f"SELECT {', '.join(TOKEN_COLUMNS)} FROM {self.tokens_stored_as} WHERE token_hash = ?"
        rows = self._fetch(recorder, sql, (token_hash,))
        return token_of(rows[0]) if rows else None

    def tokens(self, recorder: ApplicationRecorder, tournament: str | None) -> list[TokenEntry]:
        sql = f"SELECT {', '.join(TOKEN_COLUMNS)} FROM {self.tokens_stored_as}"
        if tournament is None:
            return [token_of(r) for r in self._fetch(recorder, sql, ())]
        where = " WHERE tournament = ? OR tournament IS NULL"
        return [token_of(r) for r in self._fetch(recorder, sql + where, (tournament,))]

    def revoke_token(self, recorder: ApplicationRecorder, token_id: str, at: datetime) -> bool:
        """One statement: two revokes at once leave the first one's time."""
        sql = self._q(
            f"UPDATE {self.tokens_stored_as} SET revoked_at = ? "
            "WHERE token_id = ? AND revoked_at IS NULL RETURNING token_id"
        )
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(sql, (time_text(at), token_id))
            return bool(cur.fetchall())

    def put_slip_codes(self, recorder: ApplicationRecorder, entries: Sequence[SlipCodeEntry]
                       ) -> None:  # fmt: skip
        """All the codes in one transaction (ledger.slip_rows: a new code replaces a
        match's old one)."""
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            for entry in entries:
                cur.execute(self._q(slip_rows.UPSERT), slip_rows.row_of(entry))

    def slip_code(self, recorder: ApplicationRecorder, code_hash: str) -> SlipCodeEntry | None:
        rows = self._fetch(recorder, slip_rows.SELECT, (code_hash,))
        return slip_rows.entry_of(rows[0]) if rows else None

    def slip_codes_of(self, recorder: ApplicationRecorder, tournament: str, round_number: int
                      ) -> list[SlipCodeEntry]:  # fmt: skip
        rows = self._fetch(recorder, slip_rows.SELECT_ROUND, (tournament, round_number))
        return [slip_rows.entry_of(row) for row in rows]

    # -- the tournaments' face settings (the public page's switch) -------------------

    def tournament_settings(
        self, recorder: ApplicationRecorder, tournament: str
    ) -> TournamentSettings | None:
        rows = self._fetch(recorder, settings_rows.SELECT, (tournament,))
        return settings_rows.settings_of(rows[0]) if rows else None

    def put_tournament_settings(
        self, recorder: ApplicationRecorder, settings: TournamentSettings
    ) -> None:
        """One statement: insert, or replace what was stored (two writers: the last wins)."""
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(self._q(settings_rows.UPSERT), settings_rows.row_of(settings))

    def claimed_by(self, recorder: ApplicationRecorder, tournament: str) -> str | None:
        rows = self._fetch(recorder, mirror_rows.SELECT, (tournament,))
        return str(rows[0]["token_id"]) if rows else None

    def hold_relayed(self, recorder: ApplicationRecorder, entry: RelayedEntry) -> bool:
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(self._q(relay_rows.INSERT), relay_rows.row_of(entry))
            return bool(cur.fetchall())

    def relayed(self, recorder: ApplicationRecorder, tournament: str, status: str | None,
                code_hash: str | None) -> list[RelayedEntry]:  # fmt: skip
        sql, params = relay_rows.query(status, code_hash)
        return [relay_rows.entry_of(r) for r in self._fetch(recorder, sql, (tournament, *params))]

    def settle_relayed(self, recorder: ApplicationRecorder, tournament: str, ident: str,
                       status: str, seq: int | None, reason: str | None,
                       at: datetime) -> RelayedEntry | None:  # fmt: skip
        """One transaction: only a pending report is settled, and it is read back."""
        with recorder.datastore.transaction(commit=True) as cur:  # type: ignore[attr-defined]
            cur.execute(self._q(relay_rows.SETTLE),
                        (status, reason, seq, time_text(at), ident, tournament))  # fmt: skip
            cur.execute(self._q(relay_rows.SELECT_ONE), (ident, tournament))
            rows = cur.fetchall()
        return relay_rows.entry_of(rows[0]) if rows else None

    def _before_delete(self, cur: Any) -> None:
        """Hook: make the delete physical where the database allows it."""

    def _after_delete(self, recorder: ApplicationRecorder) -> None:
        """Hook: flush logs that may still hold the deleted bytes."""
