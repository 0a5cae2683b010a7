"""The side records of a ``memory://`` store, kept in memory: the base every SQL dialect
(``ledger.dialects``) overrides with its queries. See ``ledger.dialects`` for what each
record is."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from eventsourcing.persistence import ApplicationRecorder

from ledger import recorders, relay_rows, slip_rows
from ledger.store import (
    Listener,
    ListEntry,
    PlayerEntry,
    RelayedEntry,
    SlipCodeEntry,
    TokenEntry,
    TournamentSettings,
)
from ledger.token_rows import acts_on


class Dialect:
    """Per-database extras; this one keeps them in memory (the ``memory://`` store)."""

    def __init__(self) -> None:
        self._positions: dict[tuple[str, int], int] = {}
        self._tokens: dict[str, TokenEntry] = {}
        self._slip_codes = slip_rows.MemorySlipCodes()
        self._settings: dict[str, TournamentSettings] = {}
        self._relayed = relay_rows.MemoryRelayed()

    def configure(self, env: dict[str, str]) -> dict[str, str]:
        """The library's settings that make it build our recorder (ledger.recorders)."""
        return {**env, "PERSISTENCE_MODULE": recorders.MEMORY_FACTORY_TOPIC}

    def setup(self, recorder: ApplicationRecorder) -> None:
        """Create whatever side records the dialect keeps."""

    @contextmanager
    def schema_lock(self, recorder: ApplicationRecorder) -> Iterator[None]:
        """Serialize creating them between processes where the database needs it."""
        yield

    def remember(self, originator: str, versions: Sequence[int], ids: Sequence[int]) -> None:
        self._positions.update({(originator, v): p for v, p in zip(versions, ids, strict=True)})

    def rows_after(
        self, recorder: ApplicationRecorder, originator: str, after: int, until: int | None
    ) -> list[tuple[int, int, bytes]]:
        """(seq, position, stored bytes) of the stream's events after seq ``after`` (up to
        seq ``until`` when given)."""
        stored = recorder.select_events(uuid.UUID(originator), gt=after or None, lte=until)
        get = self._positions.get
        return [
            (s.originator_version, get((originator, s.originator_version), 0), bytes(s.state))
            for s in stored
        ]

    def rows_after_many(
        self, recorder: ApplicationRecorder, wanted: Sequence[tuple[str, int]]
    ) -> list[list[tuple[int, int, bytes]]]:
        """``rows_after`` of several streams (originator, after), in their order."""
        return [self.rows_after(recorder, originator, after, None) for originator, after in wanted]

    def stream_rows(
        self, recorder: ApplicationRecorder, originator: str, position: int, limit: int
    ) -> list[tuple[int, int, bytes]]:
        """(seq, position, stored bytes) of up to ``limit`` of the stream's events after
        global ``position``."""
        rows = self.rows_after(recorder, originator, 0, None)
        return [r for r in rows if r[1] > position][:limit]

    def listener(self, recorder: ApplicationRecorder) -> Listener | None:
        """Nothing to listen to: readers poll."""
        return None

    def _registry(self, recorder: ApplicationRecorder) -> dict[tuple[str, str], PlayerEntry]:
        registry: dict[tuple[str, str], PlayerEntry] = recorder.registry  # type: ignore[attr-defined]
        return registry

    def players(self, recorder: ApplicationRecorder, tournament: str) -> dict[str, PlayerEntry]:
        return {p: e for (t, p), e in self._registry(recorder).items() if t == tournament}

    def forget(self, recorder: ApplicationRecorder, tournament: str, player: str) -> bool:
        return self._registry(recorder).pop((tournament, player), None) is not None

    def lists(self, recorder: ApplicationRecorder, tournament: str) -> list[ListEntry]:
        kept: dict[tuple[str, int], ListEntry] = recorder.lists  # type: ignore[attr-defined]
        return sorted((e for (t, _), e in kept.items() if t == tournament), key=lambda e: e.seq)

    def put_lists(self, recorder: ApplicationRecorder, entries: Sequence[ListEntry]) -> None:
        """Keep lists beside events appended before (a mirror's published lists)."""
        kept: dict[tuple[str, int], ListEntry] = recorder.lists  # type: ignore[attr-defined]
        kept.update({(e.tournament, e.seq): e for e in entries})

    def put_token(self, recorder: ApplicationRecorder, entry: TokenEntry) -> None:
        self._tokens[entry.token_hash] = entry

    def token(self, recorder: ApplicationRecorder, token_hash: str) -> TokenEntry | None:
        return self._tokens.get(token_hash)

    def tokens(self, recorder: ApplicationRecorder, tournament: str | None) -> list[TokenEntry]:
        return [e for e in self._tokens.values() if acts_on(e, tournament)]

    def revoke_token(self, recorder: ApplicationRecorder, token_id: str, at: datetime) -> bool:
        found = [h for h, e in self._tokens.items()
                 if e.token_id == token_id and e.revoked_at is None]  # fmt: skip
        for digest in found:
            self._tokens[digest] = dataclasses.replace(self._tokens[digest], revoked_at=at)
        return bool(found)

    def put_slip_codes(self, recorder: ApplicationRecorder, entries: Sequence[SlipCodeEntry]
                       ) -> None:  # fmt: skip
        self._slip_codes.put(entries)

    def slip_code(self, recorder: ApplicationRecorder, code_hash: str) -> SlipCodeEntry | None:
        return self._slip_codes.get(code_hash)

    def slip_codes_of(self, recorder: ApplicationRecorder, tournament: str, round_number: int
                      ) -> list[SlipCodeEntry]:  # fmt: skip
        return self._slip_codes.of_round(tournament, round_number)

    # -- the tournaments' face settings (the public page's switch) -------------------

    def tournament_settings(
        self, recorder: ApplicationRecorder, tournament: str
    ) -> TournamentSettings | None:
        """The stored settings of a tournament, or None (it has the defaults)."""
        return self._settings.get(tournament)

    def put_tournament_settings(
        self, recorder: ApplicationRecorder, settings: TournamentSettings
    ) -> None:
        self._settings[settings.tournament] = settings

    # -- mirrored tournaments' claims (ledger.mirror_rows) ---------------------------

    def claimed_by(self, recorder: ApplicationRecorder, tournament: str) -> str | None:
        """The venue token id that claimed ``tournament``, or None (not mirrored)."""
        return self._claims(recorder).get(tournament)

    def _claims(self, recorder: ApplicationRecorder) -> dict[str, str]:
        claims: dict[str, str] = recorder.claims  # type: ignore[attr-defined]
        return claims

    # -- players' reports held for the venue (ledger.relay_rows) -------------------

    def hold_relayed(self, recorder: ApplicationRecorder, entry: RelayedEntry) -> bool:
        return self._relayed.put(entry)

    def relayed(self, recorder: ApplicationRecorder, tournament: str, status: str | None,
                code_hash: str | None) -> list[RelayedEntry]:  # fmt: skip
        return self._relayed.of(tournament, status, code_hash)

    def settle_relayed(self, recorder: ApplicationRecorder, tournament: str, ident: str,
                       status: str, seq: int | None, reason: str | None,
                       at: datetime) -> RelayedEntry | None:  # fmt: skip
        return self._relayed.settle(tournament, ident, status, seq, reason, at)
