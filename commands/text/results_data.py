"""What a results export says, read back: the facts the standings
follow from, whichever file they came from (``tledger export --format json`` or
``--format csv``), before they become the contract's commands
(``commands.text.results_import``).

Plain data: the reader of a public file must not depend on the writer's models, so
that a file written by this version is read by the next one, and the other way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from projections.rulesets import team_variant
from replay.errors import ReplayError

ChangeKind = Literal["dropped", "rejoined", "reinstated", "disqualified", "returned"]


class InvalidResults(ReplayError):
    """A results export that cannot be read: names the file's line or the document's
    field (CLI exit 2)."""


@dataclass(frozen=True, slots=True)
class PlayedTable:
    """One table of a round: two players, or one (a bye). ``result`` is the confirmed
    result in the contract's result JSON (numbers in the order of ``players``), None
    while the match has none."""

    players: tuple[str, ...]
    table: int | None = None
    result: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class PlayedRound:
    number: int
    stage: Literal["swiss", "elimination"]
    started: bool
    tables: list[PlayedTable]


@dataclass(frozen=True, slots=True)
class Change:
    """A drop, return or disqualification: after ``after_round`` rounds were paired, and
    before or after the cut. "returned" (read from a CSV, which does not say how) is
    a rejoin where the ruleset has it and a reinstatement otherwise."""

    player: str
    change: ChangeKind
    after_round: int
    after_cut: bool = False


@dataclass(frozen=True, slots=True)
class Deduction:
    """Points deducted as a penalty (lcg-2.1d), for a round."""

    player: str
    round: int
    points: float
    infraction: str


@dataclass(frozen=True, slots=True)
class Registered:
    """A player with the first round they could be paired in."""

    player: str
    name: str
    first_round: int = 1


@dataclass(frozen=True, slots=True)
class Member:
    player: str
    name: str


@dataclass(frozen=True, slots=True)
class Team:
    """A team of an lcg-2.1d team event ("Team-Turniere", "Anmeldung": teams of two):
    the competitor ``team`` with its own name and its two members, what
    ``register_team`` takes."""

    team: str
    name: str
    members: tuple[Member, Member]


@dataclass(slots=True)
class Results:
    """Everything the standings of an export follow from, and the standings it shows
    (each row as ``standings --json`` prints it); a team event's ``players`` are its
    teams, each also in ``teams`` with its members."""

    tournament: str
    name: str
    ruleset: str
    options: dict[str, Any]
    seed: int
    finished: bool
    players: list[Registered]
    rounds: list[PlayedRound]
    changes: list[Change] = field(default_factory=list)
    deductions: list[Deduction] = field(default_factory=list)
    cut_size: int | None = None
    cut_seeds: list[str] | None = None
    standings: list[dict[str, Any]] = field(default_factory=list)
    teams: list[Team] = field(default_factory=list)
    seq: int = 0
    head: str = ""

    @property
    def team_event(self) -> bool:
        """A team event (lcg-2.1d "Team-Turniere"), whose competitors register as teams:
        its options select the registered team format (``projections.rulesets.team_variant``)."""
        _, option, _ = team_variant()
        return self.options.get(option) is True

    def check_teams(self) -> None:
        """A team event's competitors each with their members (``register_team`` takes
        nothing less), and teams in no other event."""
        teams = {t.team for t in self.teams}
        if not self.team_event and teams:
            raise InvalidResults("teams in an event that is not a team event (option team)")
        missing = [p.player for p in self.players if self.team_event and p.player not in teams]
        if missing:
            raise InvalidResults(f"the team event names no members of {', '.join(missing)}")

    @property
    def swiss_rounds(self) -> int:
        return sum(r.stage == "swiss" for r in self.rounds)
