"""The typed read models: what every face shows of a tournament (design: The read side).

The CLI's ``--json``, the HTTP API and every later face (printouts, public pages,
the console) render these models and compute nothing of their own. Their JSON is
the design's contract (Command contract), so the field order and every value are
those the plain-dict views gave before the models existed; a model grows only by
adding fields. A field left out of the JSON when unset (``exclude_if``) is one the
contract shows only when it applies; ``names`` fields (``exclude=True``) carry the
players' display names for human faces without changing the contract's JSON.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from projections.rulesets.base import ResultForm

Number = int | float
TableStateName = Literal["missing", "unconfirmed", "disputed", "confirmed"]
StageName = Literal["registration", "swiss", "cut", "elimination", "finished"]


def unset(value: object) -> bool:
    return value is None


class ReadModel(BaseModel):
    """Immutable once computed: a cached model is shared by every request of its seq."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class DeckChecks(ReadModel):
    checked: int
    target: int


class TableState(ReadModel):
    """One table of the current round and where its result stands (design: round
    lifecycle): no report yet, one player's self-report, conflicting player reports,
    or confirmed (byes are confirmed)."""

    table: int | None
    players: list[str]
    state: TableStateName


class Status(ReadModel):
    tournament: str
    ruleset: str
    options: dict[str, Any]
    stage: StageName
    round: int
    round_state: Literal["paired", "started", "complete"] | None
    rounds_planned: int
    cut_size: int
    players: int
    active_players: int
    seq: int
    position: int
    head: str
    deck_checks: DeckChecks
    tables: list[TableState]
    champion: str | None = Field(None, exclude_if=unset)
    names: dict[str, str] = Field(default_factory=dict, exclude=True)


class Record(ReadModel):
    wins: int
    losses: int
    draws: int


class StandingRow(ReadModel):
    rank: int
    player: str
    name: str
    points: Number
    record: Record
    dropped: bool
    tiebreakers: dict[str, Number]


class Standings(ReadModel):
    tournament: str
    ruleset: str
    seq: int
    head: str
    standings: list[StandingRow]


class PairingTable(ReadModel):
    """One table; LCG final games also say who plays light or who chooses a side."""

    table: int | None
    players: list[str]
    light: str | None = Field(None, exclude_if=unset)
    chooses_side: str | None = Field(None, exclude_if=unset)


class Pairings(ReadModel):
    round: int
    stage: StageName
    seq: int
    head: str
    pairings: list[PairingTable]
    names: dict[str, str] = Field(default_factory=dict, exclude=True)


class BracketMatch(ReadModel):
    """One elimination match; ``name`` (what people call it: "semifinal", "lower round
    1") and ``result`` (turned to ``players``' order) are for human faces only."""

    table: int | None
    players: list[str]
    bracket: Literal["upper", "lower", "final"] | None
    winner: str | None
    name: str = Field("", exclude=True)
    result: dict[str, Any] | None = Field(None, exclude=True)


class BracketRound(ReadModel):
    round: int
    matches: list[BracketMatch]
    name: str = Field("", exclude=True)


class BracketSeed(ReadModel):
    """A place of the bracket by seed, best first; ``playoff`` names the player who
    plays ``player`` for it first (the uneven cut's playoff, swu-1.0 §4.1.2)."""

    seed: int
    player: str
    playoff: str | None = None


class Bracket(ReadModel):
    """The elimination rounds as paired. ``seeds``, ``champion`` and the names stay out
    of the contract's JSON (``bracket --json``, whose golden logs are kept byte for
    byte); the status carries the champion."""

    format: Literal["single", "double"] | None
    rounds: list[BracketRound]
    names: dict[str, str] = Field(default_factory=dict, exclude=True)
    seeds: list[BracketSeed] = Field(default_factory=list, exclude=True)
    champion: str | None = Field(None, exclude=True)


class LoggedEvent(ReadModel):
    """An event as its JSON model plus its ``seq`` and ``position`` (design: log); the
    fields of each event type follow as they are stored (``/schema/events.json``).
    ``actor_label`` names the holder of the API token that acted ("Anna (head
    judge)"): joined from the token table when read, never stored in the event."""

    model_config = ConfigDict(frozen=True, extra="allow")

    seq: int
    position: int
    type: str
    version: int
    actor_label: str | None = Field(None, exclude_if=unset)


class LogPage(ReadModel):
    """Events oldest first; ``next_after_seq`` is given when more events follow this page
    (ask again with ``after_seq`` set to it)."""

    tournament: str
    events: list[LoggedEvent]
    next_after_seq: int | None = Field(None, exclude_if=unset)


class Outstanding(ReadModel):
    """The current round's tables whose result is not confirmed yet, and how many tables
    are in each state: the scorekeeper's and the judges' queue."""

    tournament: str
    round: int
    round_state: Literal["paired", "started", "complete"] | None
    seq: int
    head: str
    counts: dict[TableStateName, int]
    tables: list[TableState]


class PlayedMatch(ReadModel):
    """One of the player's matches: the result is turned to the player's side (their
    games first), ``state`` as in the status's tables."""

    round: int
    stage: Literal["swiss", "elimination"]
    table: int | None
    opponent: str | None
    opponent_name: str | None
    state: TableStateName
    result: dict[str, Any] | None


class PenaltyEntry(ReadModel):
    at: datetime
    round: int
    penalty: str
    infraction: str
    points: Number | None


class DeckCheckEntry(ReadModel):
    at: datetime
    round: int
    timing: str
    outcome: str
    minutes: int


class ExtensionEntry(ReadModel):
    """Time added to one of the player's matches (a judge's extension, design: clock)."""

    at: datetime
    round: int
    minutes: int
    reason: str | None


class DropEntry(ReadModel):
    """One drop: after which round (0: before round 1 was paired), and why when the
    drop gave a reason. A later return shows in ``rejoined_in_rounds``."""

    at: datetime
    after_round: int
    reason: str | None


class PlayerHistory(ReadModel):
    """A player's event: matches by round, drops and returns, penalties (what a judge
    needs for escalation), deck checks and time extensions."""

    tournament: str
    player: str
    name: str
    seq: int
    head: str
    dropped: bool
    dropped_after_round: int | None
    disqualified: bool
    rejoined_in_rounds: list[int]
    missed_rounds: list[int]
    matches: list[PlayedMatch]
    penalties: list[PenaltyEntry]
    deck_checks: list[DeckCheckEntry]
    extensions: list[ExtensionEntry]
    drops: list[DropEntry]
    #: rounds from which a drop made in error was undone (player_reinstated)
    reinstated_in_rounds: list[int] = Field(default_factory=list)


PlayerStatus = Literal["active", "dropped", "disqualified"]


class PlayerRow(ReadModel):
    """One registered player; the name as in standings (the registry's, or "(erased)");
    the external id stays in the registry (design: Personal data)."""

    player: str
    name: str
    status: PlayerStatus


class Players(ReadModel):
    """The tournament's players sorted by name as people read them (accents and case
    folded: ``commands.people.sort_key``), only those a search finds when one is given."""

    tournament: str
    seq: int
    head: str
    players: list[PlayerRow]


class TournamentSummary(ReadModel):
    tournament: str
    name: str
    ruleset: str
    created_at: datetime


class Tournaments(ReadModel):
    """The tournaments a token may read, in order of creation."""

    tournaments: list[TournamentSummary]


class TokenRow(ReadModel):
    """One API token as ``token list`` shows it: never its secret or its hash. Tokens
    made before labels and expiry have no ``created_at``."""

    token_id: str
    role: str
    tournament: str | None
    player: str | None
    label: str | None
    created_at: datetime | None
    expires_at: datetime | None
    revoked_at: datetime | None
    state: Literal["active", "expired", "revoked"]


class TokenList(ReadModel):
    """The store's API tokens (or those that may act on one tournament), oldest first."""

    tokens: list[TokenRow]


class Letterhead(ReadModel):
    """What every printout says of its event (issue 14, Printouts): its name and ruleset,
    the stage and current round, and the log's ``seq`` and head hash it was printed from
    (the witness ``verify --witness`` checks later: a posted head proves the log was not
    rewritten or truncated since, design: Integrity)."""

    tournament: str
    name: str
    ruleset: str
    stage: StageName
    round: int
    seq: int
    head: str

    @property
    def witness(self) -> str:
        """The one line a person copies from the wall: ``seq N HASH``."""
        return f"seq {self.seq} {self.head}"


class Seat(ReadModel):
    """One line of the pairings by name: a player, their table and their opponent
    (``opponent`` None: a bye)."""

    player: str
    name: str
    table: int | None
    opponent: str | None
    opponent_name: str | None


class Slips(ReadModel):
    """The match slips of one round: every match with two players (a bye has nothing to
    report), in table order, and the boxes its ruleset's result takes (``form``)."""

    tournament: str
    round: int
    stage: Literal["swiss", "elimination"]
    form: ResultForm
    matches: list[PairingTable]
    names: dict[str, str]


class ReportForm(ReadModel):
    """The result a match slip's report page asks for, in its ruleset's shape (design:
    result shapes): ``games`` (SWU: game wins of each, up to ``max_wins``, and drawn
    games, up to ``max_draws``), ``points`` (X-Wing, Armada: victory points of each,
    up to ``max_points`` when the ruleset caps them) or ``game_results`` (LCG: each of
    ``games`` games won by a player, or drawn when ``game_draws``). ``tie`` says how a
    level result is decided: ``table`` (SWU elimination: base HP or initiative, swu-1.4
    §4.3.2), ``final_salvo`` (X-Wing), ``second_player`` (Armada) or ``none``."""

    kind: Literal["games", "points", "game_results"]
    max_wins: int = 0
    max_draws: int = 0
    max_points: int | None = None
    games: int = 0
    game_draws: bool = False
    tie: Literal["none", "table", "final_salvo", "second_player"] = "none"


class SelfReport(ReadModel):
    """A player's latest self-report of the match, turned to the match's player order."""

    player: str
    result: dict[str, Any]


class MatchSlip(ReadModel):
    """One match as its slip's report page shows it (issue 14): the event, the round, the
    table, both players' names, where the result stands (``state`` as in the status's
    tables; ``awaiting``: the player whose confirmation an unconfirmed report waits
    for), the players' reports, the confirmed result, and the form of the result."""

    tournament: str
    event: str
    ruleset: str
    round: int
    stage: Literal["swiss", "elimination"]
    table: int | None
    players: list[str]
    names: dict[str, str]
    state: TableStateName
    round_started: bool
    finished: bool
    awaiting: str | None
    reports: list[SelfReport]
    result: dict[str, Any] | None
    form: ReportForm
    seq: int
    head: str
