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

import functools
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

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
from ledger.errors import ConcurrencyConflict, LedgerError, StoreUnavailable, StoreWentBack
from ledger.recorders import Insert, Tip
from ledger.store import (
    Append,
    Claim,
    Listener,
    ListEntry,
    PlayerEntry,
    Recorded,
    RelayedEntry,
    SlipCodeEntry,
    TokenEntry,
    TournamentSettings,
)

NAMESPACE = uuid.UUID("6f1c1f0e-8a8b-4c43-9a59-5f3b7c2d9e10")
PAGE = 1000


@functools.lru_cache(maxsize=4096)
def stream_id(tournament: str) -> uuid.UUID:
    """The library's originator id of a tournament's stream (kept: every load and append
    asks for it, and a name-based UUID costs a hash)."""
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


def insert_of(append: Append) -> Insert:
    """The library's stored events of one append, and the keywords our recorders take with
    them: the registry rows, the lists, the tip the decision was made on, and the claim
    check of a command (a tournament a venue claimed takes none on a hosted mirror)."""
    originator = stream_id(append.tournament)
    first = append.expected_version + 1
    stored = [StoredEvent(originator, first + i, s.event.type, s.data)
              for i, s in enumerate(append.events)]  # fmt: skip
    head = append.events[0].event.prev_hash if append.events else GENESIS
    tip = Tip(append.tournament, append.expected_version, head)
    return stored, {"players": append.players, "lists": append.lists, "tip": tip,
                    "claim": Claim(append.tournament)}  # fmt: skip


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
        return self._checked(tournament, after, head, rows)

    def load_many(
        self, wanted: Sequence[tuple[str, int, str | None]]
    ) -> list[list[Recorded] | LedgerError]:
        asked = [(t, after - 1 if after > 0 and head is not None else after)
                 for t, after, head in wanted]  # fmt: skip
        with translated_errors():
            found = self._dialect.rows_after_many(
                self._recorder, [(str(stream_id(t)), after) for t, after in asked]
            )
        out: list[list[Recorded] | LedgerError] = []
        for (tournament, after, head), rows in zip(wanted, found, strict=True):
            try:
                out.append(self._checked(tournament, after, head, rows))
            except LedgerError as exc:
                out.append(exc)
        return out

    def _checked(
        self, tournament: str, after: int, head: str | None, rows: list[tuple[int, int, bytes]]
    ) -> list[Recorded]:
        """The rows after ``after`` checked as ``load`` checks them (``rows`` start at the
        event ``after`` itself when ``head`` is given)."""
        if after > 0 and head is not None:
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
        stored, kwargs = insert_of(Append(tournament, events, expected_version, players, lists))
        ids = self._insert(tournament, expected_version, stored, kwargs)
        return [Recorded(r.originator_version, p, s.event)
                for r, p, s in zip(stored, ids, events, strict=True)]  # fmt: skip

    def append_stored(
        self,
        tournament: str,
        stored: Sequence[tuple[str, bytes]],
        expected_version: int,
        prev_hash: str,
        players: Sequence[PlayerEntry] = (),
        lists: Sequence[ListEntry] = (),
        claim: Claim | None = None,
    ) -> list[int]:
        originator = stream_id(tournament)
        rows = [StoredEvent(originator, expected_version + n, topic, data)
                for n, (topic, data) in enumerate(stored, start=1)]  # fmt: skip
        tip = Tip(tournament, expected_version, prev_hash)
        return self._insert(tournament, expected_version, rows,
                            {"players": players, "lists": lists, "tip": tip, "claim": claim,
                             "stream": originator})  # fmt: skip

    def _insert(self, tournament: str, expected_version: int, stored: Sequence[StoredEvent],
                kwargs: dict[str, Any]) -> list[int]:  # fmt: skip
        """One append's rows inserted with its side rows and tip check; their positions."""
        try:
            ids = list(self._recorder.insert_events(stored, **kwargs) or [])
        except IntegrityError as exc:
            raise ConcurrencyConflict(tournament, expected_version) from exc
        except PersistenceError as exc:
            raise StoreUnavailable(f"store error: {exc}") from exc
        if stored:
            versions = [s.originator_version for s in stored]
            self._dialect.remember(str(stored[0].originator_id), versions, ids)
        return ids

    def append_many(self, appends: Sequence[Append]) -> list[list[Recorded] | LedgerError]:
        inserts = [insert_of(a) for a in appends if a.events]
        try:
            done = iter(self._recorder.insert_many(inserts)) if inserts else iter(())  # type: ignore[attr-defined]
        except PersistenceError as exc:
            raise StoreUnavailable(f"store error: {exc}") from exc
        out: list[list[Recorded] | LedgerError] = []
        made = iter(inserts)
        for append in appends:
            if not append.events:
                out.append([])
                continue
            stored, result = next(made)[0], next(done)
            if isinstance(result, IntegrityError):
                out.append(ConcurrencyConflict(append.tournament, append.expected_version))
            elif isinstance(result, LedgerError):  # StoreWentBack, Claimed
                out.append(result)
            else:
                out.append(self._recorded(stored, append.events, list(result)))
        return out

    def _recorded(self, stored: Sequence[StoredEvent], events: Sequence[Sealed],
                  ids: Sequence[int]) -> list[Recorded]:  # fmt: skip
        """The appended events with their seqs and the positions the insert gave them."""
        versions = [s.originator_version for s in stored]
        if stored:
            self._dialect.remember(str(stored[0].originator_id), versions, ids)
        return [Recorded(v, p, s.event) for v, p, s in zip(versions, ids, events, strict=True)]

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

    def slip_codes_of(self, tournament: str, round_number: int) -> list[SlipCodeEntry]:
        with translated_errors():
            return self._dialect.slip_codes_of(self._recorder, tournament, round_number)

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

    def claimed_by(self, tournament: str) -> str | None:
        with translated_errors():
            return self._dialect.claimed_by(self._recorder, tournament)

    def hold_relayed(self, entry: RelayedEntry) -> bool:
        with translated_errors():
            return self._dialect.hold_relayed(self._recorder, entry)

    def relayed(self, tournament: str, status: str | None = None,
                code_hash: str | None = None) -> list[RelayedEntry]:  # fmt: skip
        with translated_errors():
            return self._dialect.relayed(self._recorder, tournament, status, code_hash)

    def settle_relayed(self, tournament: str, ident: str, status: str, seq: int | None,
                       reason: str | None, at: datetime) -> RelayedEntry | None:  # fmt: skip
        with translated_errors():
            return self._dialect.settle_relayed(self._recorder, tournament, ident, status,
                                                seq, reason, at)  # fmt: skip

    def close(self) -> None:
        self._factory.close()
