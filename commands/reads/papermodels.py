"""The read models of paper and of a slip's report page: what every printout
says of its event, the pairings by name, the match slips of a round with the boxes
their ruleset's result takes, and one match as its slip's report page shows it. Typed
like every read model (:mod:`commands.reads.models`), so the templates only render."""

from __future__ import annotations

from typing import Any, Literal

from commands.reads.models import PairingTable, ReadModel, StageName, TableStateName
from projections.rulesets.base import ResultForm


class Letterhead(ReadModel):
    """What every printout says of its event: its name and ruleset, the stage and
    current round, and the log's ``seq`` and head hash it was printed from (the witness
    ``verify --witness`` checks later: a posted head proves the log was not rewritten or
    truncated since)."""

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
    """The result a match slip's report page asks for, in its ruleset's shape:
    ``games`` (SWU: game wins of each, up to ``max_wins``, and drawn games, up to
    ``max_draws``), ``points`` (X-Wing, Armada: victory points of each, up to
    ``max_points`` when the ruleset caps them) or ``game_results`` (LCG: each of
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
    """One match as its slip's report page shows it: the event, the round, the
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
