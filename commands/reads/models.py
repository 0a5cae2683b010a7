"""The typed read models: what every face shows of a tournament.

The CLI's ``--json``, the HTTP API and every HTML face (printouts, public pages, the
console) render these models and compute nothing of their own. Their JSON is the
contract integrators read (the API's OpenAPI document), so the field order and every
value are those the plain-dict views gave before the models existed; a model grows
only by adding fields. A field left out of the JSON when unset (``exclude_if``) is one
the contract shows only when it applies; ``names`` fields (``exclude=True``) carry the
players' display names for human faces without changing the contract's JSON.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

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
    """One table of the current round and where its result stands: no report yet, one
    player's self-report, conflicting player reports, or confirmed (byes are
    confirmed). ``over_time``: still without a confirmed result after its time (the
    round's, or its own with an extension) ran out, in the JSON only then."""

    table: int | None
    players: list[str]
    state: TableStateName
    over_time: bool | None = Field(None, exclude_if=unset)
    #: the state as an organizer reads it: a table of a round not yet started has no
    #: result because nobody has played, so it reads "not started" rather than "missing"
    shown: str = Field("", exclude=True)


class DeckBuilding(ReadModel):
    """A limited event's deck-building phase (swu-1.4 §2.3.2: 30 minutes unless the
    organizer gave another time): when it began and when it ends (ISO 8601 UTC)."""

    started_at: datetime
    ends_at: datetime
    minutes: int


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
    #: a limited event's deck building, once started (swu-1.4 §2.3.2; absent otherwise)
    deck_building: DeckBuilding | None = Field(None, exclude_if=unset)
    names: dict[str, str] = Field(default_factory=dict, exclude=True)
    #: for human faces, beside the contract's JSON: the event's name, whether its
    #: competitors are teams (lcg-2.1d "Team-Turniere"), and the lists the ruleset
    #: expects before round 1 (``ListSchedule.due_before_event``) against those submitted
    name: str = Field("", exclude=True)
    teams: bool = Field(False, exclude=True)
    lists_due: str | None = Field(None, exclude=True)
    lists_submitted: int = Field(0, exclude=True)


class TableClock(ReadModel):
    """One match's end time (null: the round is not started, or the match has no time
    limit) and the minutes added to it (judges' extensions and deck checks); ``state``
    "finished" once its result is confirmed. Whether it runs over is for the face to
    tell from ``ends_at`` and its own time now."""

    table: int | None
    players: list[str]
    ends_at: datetime | None
    extension_minutes: int
    state: Literal["playing", "finished"]


class Clock(ReadModel):
    """A round's clock (``tledger clock T --json``), in absolute UTC times only,
    so one computed model holds for every request until the next event. ``minutes``:
    the round's time limit (null: no limit), ``section``: where the ruleset sets it.
    Before any round is paired the clock is empty (round 0, no tables)."""

    round: int
    started_at: datetime | None
    ends_at: datetime | None
    tables: list[TableClock]
    stage: Literal["swiss", "elimination"] | None
    minutes: int | None
    section: str
    seq: int
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
    """One table; LCG final games also say who plays light or who chooses a side.

    Where the ruleset gives initiative by list points (X-Wing, Armada) and both players
    have a list: ``chooses_initiative`` names the player with fewer points, or
    ``initiative_tie`` says the table decides at random who chooses (both only then in
    the JSON). ``list_points`` (each player's declared points) is for the organizer's
    printout only: never in the JSON, and left empty for every other read, since
    lists are secret until publication."""

    table: int | None
    players: list[str]
    light: str | None = Field(None, exclude_if=unset)
    chooses_side: str | None = Field(None, exclude_if=unset)
    chooses_initiative: str | None = Field(None, exclude_if=unset)
    initiative_tie: bool | None = Field(None, exclude_if=unset)
    list_points: dict[str, int] = Field(default_factory=dict, exclude=True)


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
    #: how a match level on its count went to its winner ("base_hp", "initiative",
    #: "final_salvo", "second_player"; "" when the count decided it)
    decided: str = Field("", exclude=True)


class BracketRound(ReadModel):
    round: int
    matches: list[BracketMatch]
    name: str = Field("", exclude=True)


class BracketSeed(ReadModel):
    """A place of the bracket by seed, best first; ``playoff`` names the player who
    plays ``player`` for it first (the uneven cut's playoff, swu-1.0 §4.1.2);
    ``record``: the Swiss record ``player`` made the cut with."""

    seed: int
    player: str
    playoff: str | None = None
    record: Record | None = Field(None, exclude=True)


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
    """An event as its JSON model plus its ``seq`` and ``position``; the fields of each
    event type follow as they are stored (``/schema/events.json``). ``actor_label``
    names the holder of the API token that acted ("Anna (head judge)"): joined from the
    token records when read, never stored in the event."""

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
    """Time added to one of the player's matches (a judge's extension)."""

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
    the external id is personal data and stays in the registry."""

    player: str
    name: str
    status: PlayerStatus


class Players(ReadModel):
    """The tournament's players sorted by name as people read them (accents and case
    folded: ``commands.reads.people.sort_key``), only those a search finds when one is given."""

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
