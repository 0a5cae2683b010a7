"""Event models: the facts of a tournament, in the past tense.

Every event is a frozen pydantic model with a stable ``type`` literal and a
``version``; the stored name never depends on a Python module path. Events
carry only player ids: names and external ids live in the players' names registry
kept in the store beside the log (:class:`ledger.store.PlayerEntry`, erased by
``Store.forget``), so that an erasure request never touches a hashed byte.
The shared base is in :mod:`ledger.event_base`; the list events, which commit to deck,
squad and fleet lists kept beside the log, are in :mod:`ledger.list_events`; the SWU
limited events' draft pods and deck building (swu-1.4 §2.3.2) in
:mod:`ledger.limited_events`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

import orjson
from pydantic import Field, TypeAdapter

from ledger.event_base import ORGANIZER as ORGANIZER
from ledger.event_base import Actor as Actor
from ledger.event_base import EventBase as EventBase
from ledger.event_base import Frozen as Frozen
from ledger.event_base import Role as Role
from ledger.limited_events import DeckBuildingStarted as DeckBuildingStarted
from ledger.limited_events import Pod as Pod
from ledger.limited_events import PodsAssigned as PodsAssigned
from ledger.list_events import DifferenceCount as DifferenceCount
from ledger.list_events import ListCorrected as ListCorrected
from ledger.list_events import ListsLocked as ListsLocked
from ledger.list_events import ListSubmitted as ListSubmitted

Stage = Literal["swiss", "elimination"]
NonNegative = Annotated[int, Field(ge=0)]


class MatchResult(Frozen):
    """A reported match result; which fields a ruleset takes is checked by the ruleset.

    Numbers follow the order of the reporting command's ``players``.
    """

    games: tuple[NonNegative, NonNegative] | None = None
    draws: NonNegative | None = None
    intentional_draw: bool | None = None
    double_loss: bool | None = None
    winner: str | None = None
    decided_by: Literal["base_hp", "initiative", "final_salvo", "time_count"] | None = None
    points: tuple[NonNegative, NonNegative] | None = None
    concession: str | None = None
    game_results: tuple[str, ...] | None = None
    #: LCG finals: the player who played the light side ("Finalrunden").
    light: str | None = None
    #: The named player did not appear; every ruleset takes it and scores it as its
    #: forfeit (the present player wins a match of the ruleset's usual size).
    no_show: str | None = None

    def fields_set(self) -> frozenset[str]:
        """Names of the fields the reporter gave (the result's shape)."""
        return frozenset(k for k, v in self if v is not None)

    def swapped(self) -> MatchResult:
        """The same result with the two players' numbers exchanged."""
        updates: dict[str, Any] = {}
        if self.games is not None:
            updates["games"] = (self.games[1], self.games[0])
        if self.points is not None:
            updates["points"] = (self.points[1], self.points[0])
        return self.model_copy(update=updates)


class Table(Frozen):
    """One pairing: two players, or one player alone (a bye)."""

    table: int | None = None
    players: tuple[str, str] | tuple[str]
    #: Elimination only: which bracket and which match of it ("U1-1", "L2-1", "GF1").
    bracket: Literal["upper", "lower", "final"] | None = None
    slot: str | None = None
    #: LCG finals ("Finalrunden"): who plays the light side, or who chooses a side.
    light: str | None = None
    chooses_side: str | None = None


class TournamentCreated(EventBase):
    type: Literal["tournament_created"] = "tournament_created"
    version: Literal[1] = 1
    name: str
    ruleset: str
    options: dict[str, Any]
    seed: int


class PlayerRegistered(EventBase):
    type: Literal["player_registered"] = "player_registered"
    version: Literal[1] = 1
    player: str


class TeamRegistered(EventBase):
    """A team of two registered together (lcg-2.1d "Team-Turniere", "Anmeldung"): the
    team is the competitor that is paired and ranked; ``members`` are its two players'
    ids. Names (the team's and the members') live in the registry, as players' do."""

    type: Literal["team_registered"] = "team_registered"
    version: Literal[1] = 1
    team: str
    members: tuple[str, str]


class PlayerDropped(EventBase):
    type: Literal["player_dropped"] = "player_dropped"
    version: Literal[1] = 1
    player: str
    reason: str | None = None


class PlayerRejoined(EventBase):
    type: Literal["player_rejoined"] = "player_rejoined"
    version: Literal[1] = 1
    player: str


class RoundPaired(EventBase):
    """A round's pairings, with everything needed to recompute and compare them."""

    type: Literal["round_paired"] = "round_paired"
    version: Literal[1] = 1
    round: int
    stage: Stage = "swiss"
    method: Literal["auto", "manual"]
    seed: int | None = None
    engine: str | None = None
    ruleset: str | None = None
    avoid: tuple[tuple[str, str], ...] = ()
    pairings: tuple[Table, ...]


class RoundStarted(EventBase):
    type: Literal["round_started"] = "round_started"
    version: Literal[1] = 1
    round: int


class DisputedReport(Frozen):
    """A player's self-report that an official's decision went against: kept in the
    decision so that the dispute and how it was settled read from one event."""

    seq: int
    player: str
    result: MatchResult


class ResultReported(EventBase):
    """A result as one reporter gave it. A player's report is confirmed by the
    opponent's matching report; an official's decides the match. ``disputed`` lists the
    players' earlier reports the official's result differs from, so the log shows both
    sides of a dispute and how it was settled."""

    type: Literal["result_reported"] = "result_reported"
    version: Literal[1] = 1
    round: int
    players: tuple[str, str]
    result: MatchResult
    reason: str | None = None
    disputed: tuple[DisputedReport, ...] | None = None


class ResultCorrected(EventBase):
    """A confirmed result replaced by an official (swu-1.4 §5.8); the original stays in the log."""

    type: Literal["result_corrected"] = "result_corrected"
    version: Literal[1] = 1
    round: int
    players: tuple[str, str]
    result: MatchResult
    previous: MatchResult
    reason: str | None = None
    timing: Literal["next_round_unpaired", "next_round_paired", "next_round_started",
                    "after_cut", "after_finish"]  # fmt: skip


class PairingsRevised(EventBase):
    """Tables of a paired but unstarted round re-paired after a correction (swu-1.4 §5.8 case 2)."""

    type: Literal["pairings_revised"] = "pairings_revised"
    version: Literal[1] = 1
    round: int
    seed: int
    engine: str
    reason: str
    replaced: tuple[Table, ...]
    tables: tuple[Table, ...]


class PlayerDisqualified(EventBase):
    type: Literal["player_disqualified"] = "player_disqualified"
    version: Literal[1] = 1
    player: str
    reason: str


Penalty = Literal["warning", "game_loss", "match_loss", "disqualification", "point_deduction"]


class PenaltyIssued(EventBase):
    type: Literal["penalty_issued"] = "penalty_issued"
    version: Literal[1] = 1
    player: str
    round: int
    penalty: Penalty
    infraction: str
    points: float | None = None


class DeckCheckRecorded(EventBase):
    """A deck check and the judge's outcome. When the judge records what was presented,
    ``presented_hash`` commits to it (the list: ``tledger_lists`` at this event's seq),
    ``compared_hash`` names the list in force it was compared with, and
    ``differences`` summarises per zone and kind how many entries differ, naming no
    card (lists are secret until publication); ``note`` says why nothing was compared.
    All four are absent from checks recorded without a presented list."""

    type: Literal["deck_check_recorded"] = "deck_check_recorded"
    version: Literal[1] = 1
    player: str
    round: int
    timing: Literal["before_game_1", "between_games", "after_match"]
    outcome: Literal["legal", "illegal", "unfixable"]
    minutes: NonNegative
    presented_hash: str | None = None
    compared_hash: str | None = None
    differences: tuple[DifferenceCount, ...] | None = None
    difference_count: NonNegative | None = None
    note: str | None = None


class TimeExtensionGranted(EventBase):
    type: Literal["time_extension_granted"] = "time_extension_granted"
    version: Literal[1] = 1
    round: int
    players: tuple[str, str] | tuple[str]
    minutes: int
    reason: str | None = None


class CutMade(EventBase):
    """The Swiss stage ends; the bracket's entrants in seed order (best first).

    ``playoff`` holds the extra round among players tied at the cut line (swu-1.0
    §4.1.2): each pair's winner takes the seed of its better-ranked player.
    ``order`` "seeded" pairs 1 v N; "random" is an event that starts with
    elimination (X-Wing/Armada "K.-o.-Runden"): seeds were drawn from the seed.
    """

    type: Literal["cut_made"] = "cut_made"
    version: Literal[1] = 1
    size: int
    seeds: tuple[str, ...]
    playoff: tuple[tuple[str, str], ...] = ()
    format: Literal["single", "double"] = "single"
    order: Literal["seeded", "random"] = "seeded"


class TournamentFinished(EventBase):
    """The end. ``without_cut``: why an event whose rules or options called for a top cut
    finished without it (format 7 on; absent from every earlier finish)."""

    type: Literal["tournament_finished"] = "tournament_finished"
    version: Literal[1] = 1
    without_cut: str | None = None


class PlayerReinstated(EventBase):
    """A drop made in error, undone: the player is paired again from the next round;
    rounds paired meanwhile count as the ruleset counts a missed round."""

    type: Literal["player_reinstated"] = "player_reinstated"
    version: Literal[1] = 1
    player: str
    reason: str


class AutomaticResultWithdrawn(EventBase):
    """The loss recorded automatically when ``player`` dropped (the open match recorded
    as lost, ``result_reported`` with the reason "dropped"), withdrawn because the drop
    was made in error and undone before the round started: the table of ``round`` has
    no result again and the player plays there. Emitted with ``player_reinstated``."""

    type: Literal["automatic_result_withdrawn"] = "automatic_result_withdrawn"
    version: Literal[1] = 1
    round: int
    players: tuple[str, str]
    player: str
    reason: str


class TournamentReopened(EventBase):
    """A finish made in error, undone: the tournament runs again from where it stood."""

    type: Literal["tournament_reopened"] = "tournament_reopened"
    version: Literal[1] = 1
    reason: str


class RegistrationWithdrawn(EventBase):
    """A registration made in error (before round 1 is paired): the player leaves no
    trace in standings or pairings; the registration stays in the log."""

    type: Literal["registration_withdrawn"] = "registration_withdrawn"
    version: Literal[1] = 1
    player: str
    reason: str


class OptionsChanged(EventBase):
    """Options changed before round 1 is paired. ``options`` holds the keys changed
    (``None``: back to the ruleset's default); ``effective`` the options in force after."""

    type: Literal["options_changed"] = "options_changed"
    version: Literal[1] = 1
    options: dict[str, Any]
    effective: dict[str, Any]
    reason: str | None = None


Event = Annotated[
    TournamentCreated
    | PlayerRegistered
    | TeamRegistered
    | PlayerDropped
    | PlayerRejoined
    | RoundPaired
    | RoundStarted
    | ResultReported
    | ResultCorrected
    | PairingsRevised
    | PlayerDisqualified
    | PenaltyIssued
    | DeckCheckRecorded
    | TimeExtensionGranted
    | CutMade
    | TournamentFinished
    | PlayerReinstated
    | AutomaticResultWithdrawn
    | TournamentReopened
    | RegistrationWithdrawn
    | OptionsChanged
    | ListSubmitted
    | ListsLocked
    | ListCorrected
    | PodsAssigned
    | DeckBuildingStarted,
    Field(discriminator="type"),
]

EVENT_ADAPTER: TypeAdapter[Event] = TypeAdapter(Event)


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
#: The upcasters: (type, stored version) -> the step lifting that stored JSON one version
#: up, to the JSON of version + 1; a model's ``version`` names the newest. A release that
#: changes an event's model adds its step here, with a test of it against the golden
#: logs that hold the old version (none is needed yet: every event is at version 1).
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcast(data: dict[str, Any]) -> dict[str, Any]:
    """Lift an old stored event to the current model, one version at a time.

    Runs on read, after the stored bytes were checked: the chain covers what was
    written, never what an upcaster makes of it.
    """
    while (step := UPCASTERS.get((data.get("type", ""), data.get("version", 0)))) is not None:
        version = data.get("version", 0)
        data = step(dict(data))
        data["version"] = version + 1
    return data


def to_json(event: EventBase) -> dict[str, Any]:
    """The event as plain JSON data (what is hashed, stored and printed)."""
    return event.model_dump(mode="json", exclude_none=True)


def parse(data: dict[str, Any]) -> Event:
    """The current model of a stored event's JSON, upcasting old versions first."""
    return EVENT_ADAPTER.validate_python(upcast(data))


def loads(data: bytes) -> Event:
    """Parse stored bytes (unchecked: readers check them with ledger.chain first)."""
    return parse(orjson.loads(data))


def event_schema() -> dict[str, Any]:
    """JSON Schema of every event (for integrations)."""
    return EVENT_ADAPTER.json_schema()
