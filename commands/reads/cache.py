"""One read side per process: typed read models cached by seq, so that every face reads
the same bytes and a busy venue costs one computation per event.

A model is computed once per (tournament, seq, query) and serialized once; every
request until the next event gets the same bytes and ETag. The current seq comes from
the process's kept fold (``commands.folds``, which the handler decides against too),
which first loads whatever any process appended since, so an entry of an older seq is
never served: a read after a write shows the write. A past point (``as_of``) never
changes: its entries are kept in a bounded LRU and computed from only the prefix they
need; it is served even when the log is damaged after it, as ``tledger replay --until N``
is (``before_damage``), while a read at or past the damage answers the integrity error.
Log pages are ranges of immutable events and are kept the same way; the token
labels they join are fixed when a token is made, before any event it acts in.

Names are not in the log, and ``tledger forget`` erases one without appending an
event: the registry is read again whenever the seq moves and at least every
``names_ttl`` seconds, and a digest of it is part of every key and ETag, so an
erasure shows within that time and a cached name never outlives it.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

import orjson

from commands.errors import UnknownTournament
from commands.folds import Folds
from commands.reads import clockviews, views
from commands.reads.build import build as build
from commands.reads.initiative import initiative_lists
from commands.reads.listviews import published_lists
from commands.reads.lru import Lru
from commands.reads.models import ReadModel, Tournaments, TournamentSummary
from commands.reads.query import LOG_PAGE as LOG_PAGE
from commands.reads.query import LogQuery as LogQuery
from commands.reads.query import Query as Query
from commands.reads.query import StateView as StateView
from commands.reads.token_list import actor_labels
from ledger.errors import ChainBroken, ListDamaged
from ledger.events import TournamentCreated
from ledger.store import ListEntry, Recorded
from projections.state import TournamentState, fold
from replay.points import known_at, load_until, parse_point, past_the_end
from replay.rebuild import gc_paused

#: entries of the tournaments' current seqs (queries: views, rounds, players), kept apart
#: from the past points so that reads of the past never evict what everyone reads now
FRESH_ENTRIES = 1024
#: a damaged, missing or out-of-place event, or a list that no longer matches its event
INTEGRITY = (ChainBroken, ListDamaged)


@dataclass(frozen=True, slots=True)
class Entry:
    """A computed read model, its JSON bytes and its strong ETag."""

    model: ReadModel
    body: bytes
    etag: str
    seq: int


def entry_of(model: ReadModel, head: str, seq: int, key: str) -> Entry:
    """The ETag is the head hash of the point read plus a short hash of what was asked."""
    tag = hashlib.sha1(key.encode()).hexdigest()[:12]
    return Entry(model, views.json_bytes(model), f'"{head}-{tag}"', seq)


def body_size(entry: Entry) -> int:
    return len(entry.body)


@dataclass(frozen=True, slots=True)
class Roster:
    """The registry's names of a tournament as last read, and a digest of them."""

    names: dict[str, str]
    digest: str
    seq: int
    read_at: float


class ReadSide:
    """The read models of one store's tournaments, cached (one per process)."""

    def __init__(self, folds: Folds, as_of_cache: int = 256, names_ttl: float = 1.0,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.folds, self.store = folds, folds.store
        self.names_ttl, self.clock = names_ttl, clock
        self.fresh: Lru[Entry] = Lru(FRESH_ENTRIES, body_size)
        self.past: Lru[Entry] = Lru(as_of_cache, body_size)
        self._times: Lru[int] = Lru(as_of_cache)
        self._rosters: dict[str, Roster] = {}
        self._summaries: dict[str, TournamentSummary] = {}

    def get(self, tournament: str, query: Query | LogQuery, as_of: str | None = None) -> Entry:
        """The read model now, or as known at ``as_of`` (a seq or a UTC time)."""
        if as_of is None and isinstance(query, Query):
            return self.folds.read(tournament, lambda s: self._fresh_entry(tournament, query, s))
        try:
            seq, roster = self.folds.read(tournament, lambda s: self._now(tournament, s, query))
        except INTEGRITY as damage:
            if as_of is None:
                raise
            return self._before_damage(tournament, query, as_of, damage)
        point, prefix = (seq, None) if as_of is None else self._point(tournament, as_of, seq)
        if isinstance(query, LogQuery):
            return self._log(tournament, query, point)
        return self._past_entry(tournament, query, point, roster, prefix)

    def _before_damage(self, tournament: str, query: Query | LogQuery, as_of: str,
                       damage: ChainBroken | ListDamaged) -> Entry:  # fmt: skip
        """A point before the first damaged seq from its prefix alone, each event checked as
        it loads (``tledger replay --until N``); at or past the damage, the damage."""
        parsed = parse_point(as_of)
        if isinstance(parsed, int):
            events = self.store.load(tournament, until=min(parsed, damage.seq - 1))
            if parsed > len(events):  # at or past the damage, or the store went back
                raise damage
        else:  # a time after every intact event may be after the damaged one too
            events = self.store.load(tournament, until=damage.seq - 1)
            if known_at(events, parsed) == len(events):
                raise damage
            events = events[: known_at(events, parsed)]
        point = len(events)
        if isinstance(query, LogQuery):
            return self._log(tournament, query, point)
        roster = self._read_roster(tournament, fold(events), 0.0)
        return self._past_entry(tournament, query, point, roster, events)

    def damage(self, tournament: str) -> ChainBroken | ListDamaged | None:
        """The integrity error a read of the tournament answers now (None: its log holds)."""
        try:
            self.folds.read(tournament, lambda s: s.seq)
        except INTEGRITY as found:
            return found
        return None

    def current(self, tournament: str, queries: Sequence[Query], now: datetime | None = None
                ) -> list[Entry]:  # fmt: skip
        """Several read models of the current seq, computed under one hold of the
        tournament's lock: a page that shows them together never mixes two points. With
        ``now``, a ``status`` asked for flags its tables over time as ``status_at``."""

        def view(state: TournamentState) -> list[Entry]:
            late: tuple[tuple[str, ...], ...] = ()
            if now is not None:
                clock = self._fresh_entry(tournament, Query("clock"), state).model
                late = clockviews.late(clock, now)
            return [self._fresh_entry(tournament, replace(q, late=late)
                                      if q.view == "status" else q, state)
                    for q in queries]  # fmt: skip

        return self.folds.read(tournament, view)

    def status_at(self, tournament: str, now: datetime) -> Entry:
        """The current status with the tables over time at ``now`` flagged, from the clock
        of the same seq (one hold of the lock): the flags are in the key, so the ETag
        changes when a table runs over, and only then."""
        return self.current(tournament, [Query("status")], now)[0]

    def cached_status(self, tournament: str, now: datetime) -> Entry | None:
        """``status_at`` when both entries are computed already (None: ask ``status_at``),
        from one check of the store."""
        point = self._checked_point(tournament)
        clock = self._kept(tournament, Query("clock"), point)
        if point is None or clock is None:
            return None
        return self._kept(tournament, Query("status", late=clockviews.late(clock.model, now)),
                          point)  # fmt: skip

    def cached(self, tournament: str, query: Query) -> Entry | None:
        """The current entry when it is computed already, without waiting (see
        ``cached_many``); None when it is not."""
        return self._kept(tournament, query, self._checked_point(tournament))

    def cached_many(self, tournament: str, queries: Sequence[Query]) -> list[Entry] | None:
        """The current entries of ``queries`` when every one is computed already, all of
        one seq; None when any is missing. The store is checked once for newer events
        (one indexed query), so a read after another process's write never gets an older
        entry, and a page of five read models costs one query, not five. No lock is
        taken: a read of what is computed never waits behind a command. Cheap enough to
        run on the server's event loop, which skips a worker thread per read."""
        point = self._checked_point(tournament)
        found = [self._kept(tournament, q, point) for q in queries]
        kept = [e for e in found if e is not None]
        return kept if len(kept) == len(found) else None

    def _checked_point(self, tournament: str) -> tuple[int, str] | None:
        """The current seq and the names' digest, when the store ends exactly where the
        kept fold was brought up to (``Folds.current_point``: no lock taken) and the names
        were read at that seq within ``names_ttl``; None otherwise (the caller computes
        or waits in a worker thread)."""
        point = self.folds.current_point(tournament)
        roster = self._rosters.get(tournament)
        if point is None or roster is None or roster.seq != point[0]:
            return None
        if self.clock() - roster.read_at >= self.names_ttl:
            return None
        return point[0], roster.digest

    def _kept(self, tournament: str, query: Query, point: tuple[int, str] | None
              ) -> Entry | None:  # fmt: skip
        """The entry of ``query`` computed at ``point`` (an entry of a seq never changes,
        so the lookup needs no lock of the tournament)."""
        if point is None:
            return None
        seq, digest = point
        return self.fresh.get((tournament, seq, query.key, digest))

    def holds(self, tournament: str) -> bool:
        """Whether anything of the tournament is kept (an unknown one leaves nothing)."""
        keys = [*self.fresh.held(), *self.past.held(), *self._times.held()]
        return (tournament in self._rosters or tournament in self._summaries
                or any(isinstance(k, tuple) and k[0] == tournament for k in keys))  # fmt: skip

    def _now(self, tournament: str, state: TournamentState, query: Query | LogQuery | None = None
             ) -> tuple[int, Roster]:  # fmt: skip
        """The current seq and names; a log filtered by a player the tournament never had
        (erased ones it had) is refused as a read of an unknown player (404), not
        answered with nothing."""
        if not state.exists:
            raise UnknownTournament(tournament)
        asked = query.keep.player if isinstance(query, LogQuery) else None
        if asked is not None and asked not in state.players:
            raise views.PlayerNotFound(asked)
        return state.seq, self._roster(tournament, state)

    def _fresh_entry(self, tournament: str, query: Query, state: TournamentState) -> Entry:
        """Under the tournament's lock: the entry of the current seq, computed once (the
        lock makes the requests that arrive meanwhile wait for it)."""
        seq, roster = self._now(tournament, state)
        key = (tournament, seq, query.key, roster.digest)
        entry = self.fresh.get(key)
        if entry is None:
            model = build(state, query, roster.names, self._lists_for(tournament, state, query))
            entry = entry_of(model, state.head, seq, f"{query.key}|{roster.digest}")
            self.fresh.put(key, entry)
        return entry

    def _lists_for(
        self, tournament: str, state: TournamentState, query: Query
    ) -> Sequence[ListEntry]:
        """The ``tledger_lists`` rows a query needs: only pairings, and only where the
        ruleset gives initiative by list points and lists were submitted. They change
        only with an event, so the entry's seq keys them too."""
        if query.view != "pairings":
            return ()
        return initiative_lists(self.store, state)

    def _roster(self, tournament: str, state: TournamentState) -> Roster:
        now, seq = self.clock(), state.seq
        roster = self._rosters.get(tournament)
        if roster is None or roster.seq != seq or now - roster.read_at >= self.names_ttl:
            roster = self._rosters[tournament] = self._read_roster(tournament, state, now)
        return roster

    def _read_roster(self, tournament: str, state: TournamentState, now: float) -> Roster:
        names = views.registered_names(self.store.players(tournament), state.teams)
        digest = hashlib.sha1(orjson.dumps(sorted(names.items()))).hexdigest()[:12]
        return Roster(names, digest, state.seq, now)

    def _point(self, tournament: str, as_of: str, seq: int) -> tuple[int, list[Recorded] | None]:
        """The seq a point names, and the prefix if finding it read one. A time past the
        newest event is now; a time before it never names another seq again."""
        parsed = parse_point(as_of)
        if isinstance(parsed, int):
            if parsed > seq:
                raise past_the_end(parsed, seq)
            return parsed, None
        known = self._times.get((tournament, parsed.isoformat()))
        if known is not None:
            return known, None
        newest = self.store.load(tournament, after=seq - 1, head=None, until=seq)
        if newest and newest[-1].event.at <= parsed:
            return seq, None
        events = load_until(self.store, tournament, parsed)[:seq]
        self._times.put((tournament, parsed.isoformat()), len(events))
        return len(events), events

    def _past_entry(
        self, tournament: str, query: Query, point: int, roster: Roster,
        prefix: Sequence[Recorded] | None,
    ) -> Entry:  # fmt: skip
        key = (tournament, point, query.key, roster.digest)
        found = self.past.get(key) or self.fresh.get(key)
        if found is not None:
            return found
        with gc_paused():
            events = prefix if prefix is not None else self.store.load(tournament, until=point)
            state = fold(events)
        if not state.exists:
            raise UnknownTournament(tournament)
        model = build(state, query, roster.names, self._lists_for(tournament, state, query))
        entry = entry_of(model, state.head, point, f"{query.key}|{roster.digest}")
        self.past.put(key, entry)
        return entry

    def _log(self, tournament: str, query: LogQuery, point: int) -> Entry:
        """Events ``after_seq`` + 1 .. of the log up to ``point``: one indexed query."""
        if query.keep.active:
            return self._filtered_log(tournament, query, point)
        end = min(point, query.after_seq + query.limit)
        more = query.after_seq + query.limit < point
        key = (tournament, end, query.key, more)
        found = self.past.get(key)
        if found is not None:
            return found
        events = (self.store.load(tournament, after=query.after_seq, head=None, until=end)
                  if end > query.after_seq else [])  # fmt: skip
        labels = actor_labels(self.store.tokens()) if events else {}
        model = views.log_page(tournament, events, end if more else None, labels=labels)
        last = events[-1].event.hash if events else ""
        entry = entry_of(model, last, end, f"{query.key}|{end}|{more}")
        self.past.put(key, entry)
        return entry

    def _filtered_log(self, tournament: str, query: LogQuery, point: int) -> Entry:
        """The first ``limit`` events after ``after_seq`` (up to ``point``) that the filter
        keeps, read a page of the log at a time; ``next_after_seq`` (the last one's seq)
        only when another kept event follows."""
        key = (tournament, point, query.key)
        found = self.past.get(key)
        if found is not None:
            return found
        kept: list[Recorded] = []
        cursor = query.after_seq
        while cursor < point and len(kept) <= query.limit:
            end = min(point, cursor + LOG_PAGE)
            page = self.store.load(tournament, after=cursor, head=None, until=end)
            kept += query.keep.apply(page)[: query.limit + 1 - len(kept)]
            cursor = end
        more = len(kept) > query.limit
        shown = kept[: query.limit]
        labels = actor_labels(self.store.tokens()) if shown else {}
        model = views.log_page(tournament, shown, shown[-1].seq if more else None, labels=labels)
        last = shown[-1].event.hash if shown else ""
        entry = entry_of(model, last, point, f"{query.key}|{point}|{more}")
        self.past.put(key, entry)
        return entry

    def lists(self, tournament: str) -> Entry:
        """The lists that may be shown now (commands.reads.listviews: WrongPhase before), read
        from ``tledger_lists`` and checked against their events on every request: they
        are asked for rarely, and never cached beside the views every token reads."""

        def view(state: TournamentState) -> Entry:
            seq, roster = self._now(tournament, state)
            model = published_lists(state, roster.names, self.store.lists(tournament))
            return entry_of(model, state.head, seq, f"lists|{roster.digest}")

        return self.folds.read(tournament, view)

    def tournaments(self, scope: str | None) -> Tournaments:
        """Every tournament (or the one a scoped token may read), in order of creation."""
        ids = self.store.tournaments() if scope is None else [scope]
        return Tournaments(tournaments=[s for t in ids if (s := self._summary(t)) is not None])

    def summary(self, tournament: str, kept_only: bool = False) -> TournamentSummary | None:
        """The tournament's name and ruleset (None: no such tournament); ``kept_only``:
        only one read before (no store read, so cheap on a server's event loop)."""
        return self._summaries.get(tournament) if kept_only else self._summary(tournament)

    def _summary(self, tournament: str) -> TournamentSummary | None:
        """From the tournament's first event, which never changes (kept once read)."""
        found = self._summaries.get(tournament)
        if found is None:
            first = self.store.load(tournament, until=1)
            created = first[0].event if first else None
            if not isinstance(created, TournamentCreated):
                return None
            found = TournamentSummary(tournament=tournament, name=created.name,
                                      ruleset=created.ruleset, created_at=created.at)  # fmt: skip
            self._summaries[tournament] = found
        return found
