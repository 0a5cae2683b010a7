"""Tournament state: the one fold with many callers.

``evolve`` only applies facts; it never rejects a stored event (rules live in
``decide``). For speed the fold owns one mutable state and ``evolve`` updates it
in place: a 2,048-player event has tens of thousands of events and copying the
state for each would make a rebuild quadratic. ``fold`` itself is pure: the same
events always give an equal, freshly built state.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, assert_never

from ledger.chain import GENESIS
from ledger.events import (
    Actor,
    CutMade,
    DeckCheckRecorded,
    Event,
    MatchResult,
    PairingsRevised,
    PenaltyIssued,
    PlayerDisqualified,
    PlayerDropped,
    PlayerRegistered,
    PlayerRejoined,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    RoundStarted,
    Stage,
    TimeExtensionGranted,
    TournamentCreated,
    TournamentFinished,
)
from ledger.store import Recorded

MatchStatus = Literal["pending", "unconfirmed", "disputed", "confirmed", "bye"]
TableState = Literal["missing", "unconfirmed", "disputed", "confirmed"]
#: A match's status as an organizer names its table (design: round lifecycle): no
#: report yet is "missing", one player's self-report "unconfirmed", conflicting player
#: reports "disputed"; a bye is confirmed.
TABLE_STATE: dict[MatchStatus, TableState] = {
    "pending": "missing", "unconfirmed": "unconfirmed", "disputed": "disputed",
    "confirmed": "confirmed", "bye": "confirmed",
}  # fmt: skip
RoundState = Literal["paired", "started", "complete"]
OFFICIAL_ROLES = frozenset({"organizer", "judge", "scorekeeper"})


@dataclass
class Report:
    """One report of a match result, oriented to the match's player order."""

    seq: int
    actor: Actor
    result: MatchResult


@dataclass
class Match:
    round: int
    table: int | None
    players: tuple[str, ...]
    stage: Stage
    bracket: str | None = None
    slot: str | None = None
    light: str | None = None
    chooses_side: str | None = None
    reports: list[Report] = field(default_factory=list)
    corrections: list[Report] = field(default_factory=list)
    result: MatchResult | None = None
    status: MatchStatus = "pending"
    extension_minutes: int = 0

    @property
    def is_bye(self) -> bool:
        return len(self.players) == 1

    def opponent(self, player: str) -> str | None:
        others = [p for p in self.players if p != player]
        return others[0] if others else None

    def oriented(self, players: tuple[str, str], result: MatchResult) -> MatchResult:
        """``result`` as given for ``players``, turned to this match's order."""
        return result if players[0] == self.players[0] else result.swapped()


@dataclass
class Round:
    number: int
    stage: Stage
    method: str
    seed: int | None
    engine: str | None
    paired_seq: int
    matches: list[Match] = field(default_factory=list)
    by_pair: dict[frozenset[str], Match] = field(default_factory=dict)
    started_at: datetime | None = None

    def match_of(self, a: str, b: str) -> Match | None:
        return self.by_pair.get(frozenset((a, b)))

    def match_for(self, player: str) -> Match | None:
        return next((m for m in self.matches if player in m.players), None)

    @property
    def state(self) -> RoundState:
        if all(m.status in ("confirmed", "bye") for m in self.matches):
            return "complete"
        return "started" if self.started_at is not None else "paired"


@dataclass
class Player:
    id: str
    seq: int
    first_round: int
    dropped: bool = False
    dropped_after: int | None = None
    disqualified: bool = False
    rejoined: list[int] = field(default_factory=list)
    missed: list[int] = field(default_factory=list)
    penalties: list[PenaltyIssued] = field(default_factory=list)
    deductions: float = 0.0
    #: each drop with the rounds paired before it (the history shows "after round N")
    drops: list[tuple[int, PlayerDropped]] = field(default_factory=list)

    @property
    def active(self) -> bool:
        return not self.dropped and not self.disqualified


@dataclass(frozen=True, slots=True)
class CommandSeen:
    """The events one client command appended (seq ``first`` to ``last``) and the digest
    of its body (``None`` in logs written before bodies were remembered)."""

    first: int
    last: int
    digest: str | None


@dataclass
class TournamentState:
    """Everything a decision or a read model needs to know about one tournament."""

    id: str = ""
    name: str = ""
    ruleset: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    created_at: datetime | None = None
    players: dict[str, Player] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    round1_players: int | None = None
    deck_checks: list[DeckCheckRecorded] = field(default_factory=list)
    extensions: list[TimeExtensionGranted] = field(default_factory=list)
    cut: CutMade | None = None
    #: (actor role, actor id, command_id) -> the command's events (design: Events).
    command_ids: dict[tuple[str, str, str], CommandSeen] = field(default_factory=dict)
    finished: bool = False
    seq: int = 0
    position: int = 0
    head: str = GENESIS

    @property
    def exists(self) -> bool:
        return self.seq > 0

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def active_players(self) -> list[str]:
        return [p.id for p in self.players.values() if p.active]

    @property
    def stage(self) -> str:
        if self.finished:
            return "finished"
        if self.cut is not None and (not self.rounds or self.rounds[-1].stage == "swiss"):
            return "cut"
        if not self.rounds:
            return "registration"
        return self.rounds[-1].stage

    def round(self, number: int) -> Round | None:
        return self.rounds[number - 1] if 1 <= number <= len(self.rounds) else None


def _created(state: TournamentState, e: TournamentCreated, seq: int) -> None:
    state.id, state.name, state.ruleset = e.tournament, e.name, e.ruleset
    state.options, state.seed, state.created_at = dict(e.options), e.seed, e.at


def _registered(state: TournamentState, e: PlayerRegistered, seq: int) -> None:
    state.players[e.player] = Player(e.player, seq, first_round=len(state.rounds) + 1)


def _dropped(state: TournamentState, e: PlayerDropped, seq: int) -> None:
    player = state.players[e.player]
    player.dropped, player.dropped_after = True, len(state.rounds)
    player.drops.append((len(state.rounds), e))


def _rejoined(state: TournamentState, e: PlayerRejoined, seq: int) -> None:
    """A returning player missed every round paired while they were away."""
    player = state.players[e.player]
    away_from = (player.dropped_after or 0) + 1
    player.missed += [r.number for r in state.rounds[away_from - 1 :] if r.stage == "swiss"]
    player.dropped, player.dropped_after = False, None
    player.rejoined.append(len(state.rounds) + 1)


def _paired(state: TournamentState, e: RoundPaired, seq: int) -> None:
    rnd = Round(e.round, e.stage, e.method, e.seed, e.engine, paired_seq=seq)
    for t in e.pairings:
        match = Match(e.round, t.table, t.players, e.stage, t.bracket, t.slot, t.light,
                      t.chooses_side)  # fmt: skip
        if match.is_bye:
            match.status = "bye"
        rnd.matches.append(match)
        rnd.by_pair[frozenset(t.players)] = match
    if e.round == 1 and e.stage == "swiss":
        state.round1_players = sum(len(t.players) for t in e.pairings)
    state.rounds.append(rnd)


def _started(state: TournamentState, e: RoundStarted, seq: int) -> None:
    rnd = state.round(e.round)
    if rnd is not None:
        rnd.started_at = e.at


def _reported(state: TournamentState, e: ResultReported, seq: int) -> None:
    rnd = state.round(e.round)
    match = rnd.match_of(*e.players) if rnd else None
    if match is None:
        return
    result = match.oriented(e.players, e.result)
    match.reports.append(Report(seq, e.actor, result))
    settle(match)


def settle(match: Match) -> None:
    """Decide what a match's reports add up to (design: round lifecycle).

    A correction wins over every report. An official's report (organizer,
    judge, scorekeeper) is confirmed and the latest one wins; players'
    self-reports confirm each other when both agree, and leave the match
    disputed when they differ.
    """
    if match.corrections:
        match.result, match.status = match.corrections[-1].result, "confirmed"
        return
    official = [r for r in match.reports if r.actor.role in OFFICIAL_ROLES]
    if official:
        match.result, match.status = official[-1].result, "confirmed"
        return
    latest: dict[str, MatchResult] = {r.actor.id: r.result for r in match.reports}
    results = [latest[p] for p in match.players if p in latest]
    if len(results) == 2:
        agreed = results[0] == results[1]
        match.result = results[0] if agreed else None
        match.status = "confirmed" if agreed else "disputed"
    else:
        match.result, match.status = None, "unconfirmed"


def _corrected(state: TournamentState, e: ResultCorrected, seq: int) -> None:
    rnd = state.round(e.round)
    match = rnd.match_of(*e.players) if rnd else None
    if match is not None:
        match.corrections.append(Report(seq, e.actor, match.oriented(e.players, e.result)))
        settle(match)


def _revised(state: TournamentState, e: PairingsRevised, seq: int) -> None:
    """Replace the re-paired tables; every other table stays as published."""
    rnd = state.round(e.round)
    if rnd is None:
        return
    gone = {frozenset(t.players) for t in e.replaced}
    kept = [m for m in rnd.matches if frozenset(m.players) not in gone]
    new = [Match(e.round, t.table, t.players, rnd.stage, t.bracket, t.slot, t.light,
                 t.chooses_side) for t in e.tables]  # fmt: skip
    for match in new:
        if match.is_bye:
            match.status = "bye"
    rnd.matches = sorted([*kept, *new], key=lambda m: (m.table is None, m.table or 0))
    rnd.by_pair = {frozenset(m.players): m for m in rnd.matches}


def _disqualified(state: TournamentState, e: PlayerDisqualified, seq: int) -> None:
    player = state.players[e.player]
    player.disqualified = True
    if not player.dropped:
        player.dropped_after = len(state.rounds)


def _penalized(state: TournamentState, e: PenaltyIssued, seq: int) -> None:
    player = state.players[e.player]
    player.penalties.append(e)
    if e.penalty == "point_deduction" and e.points:
        player.deductions += e.points


def _deck_checked(state: TournamentState, e: DeckCheckRecorded, seq: int) -> None:
    state.deck_checks.append(e)


def _extended(state: TournamentState, e: TimeExtensionGranted, seq: int) -> None:
    state.extensions.append(e)
    rnd = state.round(e.round)
    match = rnd.match_for(e.players[0]) if rnd else None
    if match is not None:
        match.extension_minutes += e.minutes


def _cut(state: TournamentState, e: CutMade, seq: int) -> None:
    state.cut = e


def _finished(state: TournamentState, e: TournamentFinished, seq: int) -> None:
    state.finished = True


def apply_event(state: TournamentState, event: Event, seq: int) -> None:
    """The per-event step of ``evolve``. Exhaustive: an event added to ``Event`` and not
    wired here fails mypy at ``assert_never`` (design: Style). The commonest events of a
    large tournament come first: a class pattern is one ``isinstance`` check."""
    match event:
        case ResultReported():
            _reported(state, event, seq)
        case PlayerRegistered():
            _registered(state, event, seq)
        case RoundPaired():
            _paired(state, event, seq)
        case RoundStarted():
            _started(state, event, seq)
        case TournamentCreated():
            _created(state, event, seq)
        case PlayerDropped():
            _dropped(state, event, seq)
        case PlayerRejoined():
            _rejoined(state, event, seq)
        case ResultCorrected():
            _corrected(state, event, seq)
        case PairingsRevised():
            _revised(state, event, seq)
        case PlayerDisqualified():
            _disqualified(state, event, seq)
        case PenaltyIssued():
            _penalized(state, event, seq)
        case DeckCheckRecorded():
            _deck_checked(state, event, seq)
        case TimeExtensionGranted():
            _extended(state, event, seq)
        case CutMade():
            _cut(state, event, seq)
        case TournamentFinished():
            _finished(state, event, seq)
        case _:
            assert_never(event)


def evolve(state: TournamentState, recorded: Recorded) -> TournamentState:
    """Apply one stored fact to the state (in place) and return it."""
    event: Event = recorded.event
    apply_event(state, event, recorded.seq)
    if event.command_id is not None:
        remember_command(state, event, recorded.seq)
    state.seq, state.position, state.head = recorded.seq, recorded.position, event.hash
    return state


def remember_command(state: TournamentState, event: Event, seq: int) -> None:
    """A client's command id, scoped to its actor, with the seqs and digest of its events."""
    assert event.command_id is not None
    key = (event.actor.role, event.actor.id, event.command_id)
    seen = state.command_ids.get(key)
    first = seen.first if seen is not None else seq
    state.command_ids[key] = CommandSeen(first, seq, event.command_digest)


def fold(events: Iterable[Recorded]) -> TournamentState:
    """Build the state of a tournament from its events, oldest first."""
    state = TournamentState()
    for recorded in events:
        evolve(state, recorded)
    return state
