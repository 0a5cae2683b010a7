"""The state a tournament folds into: players, rounds, matches and their reports.

Plain mutable dataclasses, owned by one fold (:mod:`projections.state`) and changed
only by its steps (:mod:`projections.steps`); every reader treats them as read-only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from ledger.chain import GENESIS
from ledger.events import (
    Actor,
    CutMade,
    DeckCheckRecorded,
    MatchResult,
    PenaltyIssued,
    PlayerDropped,
    Stage,
    TimeExtensionGranted,
)
from ledger.limited_events import DeckBuildingStarted, PodsAssigned
from ledger.list_events import ViolationCount

MatchStatus = Literal["pending", "unconfirmed", "disputed", "confirmed", "bye"]
TableState = Literal["missing", "unconfirmed", "disputed", "confirmed"]
#: A match's status as an organizer names its table in the round's overview: no
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
    #: when it was recorded (the event's time): the judges' queue shows who said what when
    at: datetime | None = None


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
    #: each player's match (the first in table order), kept with ``by_pair``
    by_player: dict[str, Match] = field(default_factory=dict)
    started_at: datetime | None = None

    def match_of(self, a: str, b: str) -> Match | None:
        return self.by_pair.get(frozenset((a, b)))

    def match_for(self, player: str) -> Match | None:
        return self.by_player.get(player)

    def index(self) -> None:
        """Index ``matches`` again by pair and by player (after they were replaced)."""
        self.by_pair = {frozenset(m.players): m for m in self.matches}
        self.by_player = {}
        for match in self.matches:
            for player in match.players:
                self.by_player.setdefault(player, match)

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
    #: rounds from which a player dropped in error plays again (player_reinstated)
    reinstated: list[int] = field(default_factory=list)
    missed: list[int] = field(default_factory=list)
    penalties: list[PenaltyIssued] = field(default_factory=list)
    deductions: float = 0.0
    #: each drop with the rounds paired before it (the history shows "after round N")
    drops: list[tuple[int, PlayerDropped]] = field(default_factory=list)
    #: the seq of the player's latest drop (the loss recorded with it is the next seq)
    dropped_seq: int | None = None

    @property
    def active(self) -> bool:
        return not self.dropped and not self.disqualified


@dataclass(frozen=True, slots=True)
class DeckList:
    """A player's list in force: the last submitted before locking, or a correction's.
    The fold holds its hash and seq only: the cards are in ``tledger_lists``."""

    player: str
    hash: str
    seq: int
    violations: tuple[ViolationCount, ...] = ()
    corrected: bool = False


@dataclass(frozen=True, slots=True)
class PresentedCheck:
    """A deck check that recorded what was presented: its seq (where
    ``tledger_lists`` keeps the presented list), the event, and the player's list in
    force just before it, which it was compared with (none: the player had no list)."""

    seq: int
    check: DeckCheckRecorded
    compared: DeckList | None


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
    #: lcg-2.1d team events ("Team-Turniere"): team id -> its two members' ids; each team
    #: is also in ``players``, the competitors that are paired and ranked
    teams: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: registered ids not in Unicode NFC (logs written before ids were normalized), by
    #: their NFC form: a new id reading the same is the one already registered
    other_forms: dict[str, str] = field(default_factory=dict)
    rounds: list[Round] = field(default_factory=list)
    round1_players: int | None = None
    deck_checks: list[DeckCheckRecorded] = field(default_factory=list)
    extensions: list[TimeExtensionGranted] = field(default_factory=list)
    cut: CutMade | None = None
    #: each player's list in force and whether submissions are closed
    lists: dict[str, DeckList] = field(default_factory=dict)
    lists_locked: bool = False
    #: the deck checks that recorded a presented list, in seq order
    presented_checks: list[PresentedCheck] = field(default_factory=list)
    #: SWU limited events (swu-1.4 §2.3.2): the draft's pods in force (the last assignment)
    #: and the seq that assigned them; the deck-building phase once started
    pods: PodsAssigned | None = None
    pods_seq: int = 0
    deck_building: DeckBuildingStarted | None = None
    #: (actor role, actor id, command_id) -> the command's events, so that a retry with
    #: the same body returns the original outcome and another body is refused.
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
