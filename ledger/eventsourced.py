"""Store adapters on the ``eventsourcing`` library's persistence layer.

We use only its recorders: ``insert_events`` appends atomically and raises
``IntegrityError`` when a version exists already (our optimistic-concurrency
check), ``select_events`` loads a stream, ``select_notifications`` reads the
global sequence. Topics are our stable event types, never module paths. The
library's aggregates and mapper are not used: their runtime checks cost most of
a rebuild, and our own fold is faster.

What the library does not give comes from a dialect per database
(:mod:`ledger.dialects`): positions with a stream's events, the scoped-stream
index, the player registry, the deck lists, the tokens, the match slips' codes and
the tournaments' face settings.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from eventsourcing.domain import EventSourcingError
from eventsourcing.persistence import (
    ApplicationRecorder,
    InfrastructureFactory,
    IntegrityError,
    PersistenceError,
    StoredEvent,
)
from eventsourcing.utils import Environment

from ledger.chain import GENESIS, Checked, Sealed, event_of, load_checked, stored_hash
from ledger.dialects import Dialect
from ledger.errors import ConcurrencyConflict, StoreUnavailable, StoreWentBack
from ledger.recorders import Tip
from ledger.store import (
    Listener,
    ListEntry,
    PlayerEntry,
    Recorded,
    SlipCodeEntry,
    TokenEntry,
    TournamentSettings,
)

NAMESPACE = uuid.UUID("6f1c1f0e-8a8b-4c43-9a59-5f3b7c2d9e10")
PAGE = 1000


def stream_id(tournament: str) -> uuid.UUID:
    """The library's originator id of a tournament's stream."""
    return uuid.uuid5(NAMESPACE, tournament)


def creation_order(entry: TokenEntry) -> tuple[bool, float, str]:
    """Oldest first in every database; tokens made before ``created_at`` existed first."""
    made = entry.created_at
    return made is not None, made.timestamp() if made else 0.0, entry.token_id


@contextmanager
def translated_errors() -> Iterator[None]:
    """Turn the library's database errors into ours."""
    try:
        yield
    except PersistenceError as exc:
        raise StoreUnavailable(f"store error: {exc}") from exc


def still_there(
    tournament: str, seq: int, head: str, rows: list[tuple[int, int, bytes]]
) -> list[tuple[int, int, bytes]]:
    """The rows after ``seq``, once the first row proved that the stored event ``seq`` is
    still the one with hash ``head`` (StoreWentBack otherwise)."""
    if not rows or rows[0][0] != seq:
        raise StoreWentBack(tournament, seq)
    if stored_hash(tournament, seq, rows[0][2])[1] != head:
        raise StoreWentBack(tournament, seq, seq)
    return rows[1:]


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
                if create_table is not None:  # the in-memory recorder stores nothing to create
                    create_table()
                dialect.setup(self._recorder)

    def load(
        self, tournament: str, after: int = 0, head: str | None = GENESIS, until: int | None = None
    ) -> list[Recorded]:
        kept = after > 0 and head is not None
        rows = self._rows(tournament, after - 1 if kept else after, until)
        if kept:
            try:
                rows = still_there(tournament, after, head or "", rows)
            except StoreWentBack as exc:
                stored = self._rows(tournament, 0, None)
                raise StoreWentBack(tournament, after, stored[-1][0] if stored else 0) from exc
        return [
            Recorded(c.seq, c.position, e) for c, e in load_checked(tournament, rows, after, head)
        ]

    def load_raw(self, tournament: str, after: int = 0) -> list[tuple[int, int, bytes]]:
        return self._rows(tournament, after, None)

    def _rows(self, tournament: str, after: int, until: int | None) -> list[tuple[int, int, bytes]]:
        with translated_errors():
            originator = str(stream_id(tournament))
            return self._dialect.rows_after(self._recorder, originator, after, until)

    def append(
        self,
        tournament: str,
        events: Sequence[Sealed],
        expected_version: int,
        players: Sequence[PlayerEntry] = (),
        lists: Sequence[ListEntry] = (),
    ) -> list[Recorded]:
        first = events[0].event.prev_hash if events else GENESIS
        ids = self.append_stored(tournament, [(s.event.type, s.data) for s in events],
                                 expected_version, first, players, lists)  # fmt: skip
        return [Recorded(expected_version + n, p, s.event)
                for n, (p, s) in enumerate(zip(ids, events, strict=True), start=1)]  # fmt: skip

    def append_stored(
        self,
        tournament: str,
        stored: Sequence[tuple[str, bytes]],
        expected_version: int,
        prev_hash: str,
        players: Sequence[PlayerEntry] = (),
        lists: Sequence[ListEntry] = (),
    ) -> list[int]:
        originator = stream_id(tournament)
        versions = list(range(expected_version + 1, expected_version + 1 + len(stored)))
        rows = [StoredEvent(originator, v, topic, data)
                for v, (topic, data) in zip(versions, stored, strict=True)]  # fmt: skip
        tip = Tip(tournament, expected_version, prev_hash)
        try:
            ids = list(self._recorder.insert_events(rows, players=players, lists=lists,
                                                    tip=tip) or [])  # fmt: skip
        except IntegrityError as exc:
            raise ConcurrencyConflict(tournament, expected_version) from exc
        except PersistenceError as exc:
            raise StoreUnavailable(f"store error: {exc}") from exc
        self._dialect.remember(str(originator), versions, ids)
        return ids

    def scan(
        self, position: int, limit: int, tournament: str | None = None
    ) -> tuple[list[tuple[str, Recorded]], int]:
        with translated_errors():
            notes = self._recorder.select_notifications(position, limit, inclusive_of_start=False)
        last = notes[-1].id if notes else position
        if tournament is not None:
            stream = stream_id(tournament)  # as each recorder hands it back: UUID or text
            wanted = {stream, str(stream), stream.hex}
            notes = [n for n in notes if n.originator_id in wanted]
        out = []
        for n in notes:
            data, digest = stored_hash(None, n.originator_version, n.state)
            name = str(data.get("tournament"))
            event = event_of(name, Checked(n.originator_version, n.id, data, digest))
            out.append((name, Recorded(n.originator_version, n.id, event)))
        return out, last

    def stream_after(self, tournament: str, position: int, limit: int) -> list[Recorded]:
        with translated_errors():
            rows = self._dialect.stream_rows(
                self._recorder, str(stream_id(tournament)), position, limit
            )
        if not rows:
            return []
        checked = load_checked(tournament, rows, rows[0][0] - 1, None)
        return [Recorded(c.seq, c.position, e) for c, e in checked]

    def head_position(self) -> int:
        with translated_errors():
            return int(self._recorder.max_notification_id() or 0)

    def listener(self) -> Listener | None:
        return self._dialect.listener(self._recorder)

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

    def lists(self, tournament: str) -> list[ListEntry]:
        with translated_errors():
            return self._dialect.lists(self._recorder, tournament)

    def put_lists(self, entries: Sequence[ListEntry]) -> None:
        with translated_errors():
            self._dialect.put_lists(self._recorder, entries)

    def put_token(self, entry: TokenEntry) -> None:
        with translated_errors():
            self._dialect.put_token(self._recorder, entry)

    def token(self, token_hash: str) -> TokenEntry | None:
        with translated_errors():
            return self._dialect.token(self._recorder, token_hash)

    def tokens(self, tournament: str | None = None) -> list[TokenEntry]:
        with translated_errors():
            found = self._dialect.tokens(self._recorder, tournament)
        return sorted(found, key=creation_order)

    def revoke_token(self, token_id: str, at: datetime) -> bool:
        with translated_errors():
            return self._dialect.revoke_token(self._recorder, token_id, at)

    def put_slip_codes(self, entries: Sequence[SlipCodeEntry]) -> None:
        with translated_errors():
            self._dialect.put_slip_codes(self._recorder, entries)

    def slip_code(self, code_hash: str) -> SlipCodeEntry | None:
        with translated_errors():
            return self._dialect.slip_code(self._recorder, code_hash)

    def tournament_settings(self, tournament: str) -> TournamentSettings:
        with translated_errors():
            found = self._dialect.tournament_settings(self._recorder, tournament)
        return found if found is not None else TournamentSettings(tournament)

    def put_tournament_settings(self, settings: TournamentSettings) -> None:
        with translated_errors():
            self._dialect.put_tournament_settings(self._recorder, settings)

    def head(self, tournament: str) -> tuple[int, str]:
        with translated_errors():
            last = self._recorder.select_events(stream_id(tournament), desc=True, limit=1)
        if not last:
            return 0, GENESIS
        seq = last[0].originator_version
        return seq, stored_hash(tournament, seq, bytes(last[0].state))[1]

    def claim(self, tournament: str, token_id: str, at: datetime) -> str:
        with translated_errors():
            return self._dialect.claim(self._recorder, tournament, token_id, at)

    def claimed_by(self, tournament: str) -> str | None:
        with translated_errors():
            return self._dialect.claimed_by(self._recorder, tournament)

    def close(self) -> None:
        self._factory.close()
