"""What every ruleset declares: result shapes, scoring, tiebreakers, tables.

A ruleset turns one match result into an ``Outcome`` for each player; the
standings projection collects outcomes per player and asks the ruleset for
points and tiebreakers. Everything is a pure function of its arguments.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from ledger.events import MatchResult, Stage
from projections.errors import InvalidResult
from projections.rulesets.initiative import InitiativeRule
from projections.rulesets.options import COMMON_OPTIONS, OptionRules
from projections.rulesets.round_time import RoundTime
from projections.rulesets.ruleset_decks import RulesetDecks

MatchOutcome = Literal["win", "loss", "draw"]
TieProcedure = Literal["table", "final_salvo", "second_player"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """One player's side of one Swiss match (or of a bye, ``opponent`` None)."""

    opponent: str | None
    result: MatchOutcome
    points: float
    games_won: int = 0
    games_lost: int = 0
    games_drawn: int = 0
    mov: float = 0.0
    unpaired: bool = False
    adjustment: bool = False

    @property
    def is_bye(self) -> bool:
        return self.opponent is None and not self.unpaired and not self.adjustment


@dataclass(frozen=True, slots=True)
class Record:
    wins: int = 0
    losses: int = 0
    draws: int = 0


@dataclass(frozen=True, slots=True)
class Scores:
    """A player's standing values; ``key`` sorts best first (before the random tiebreaker)."""

    points: float
    record: Record
    tiebreakers: dict[str, float]
    key: tuple[float, ...]
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Tiebreaker:
    """How one tiebreaker is named, cited and shown, declared by its ruleset so that
    the printouts, the command line's grids and the audit pages render it and never keep
    a list of their own.

    ``shown_as`` "percentage": a fraction printed as a percentage (swu-1.4 "OMW%");
    "number": a sum, a margin or a mean printed as it is (MoV, SoS). ``how``: one
    sentence on how the value is computed and what is left out (``replay.explain``).
    """

    key: str
    label: str
    section: str
    shown_as: Literal["percentage", "number"]
    how: str

    def show(self, value: float) -> str:
        """The value as a person reads it; the JSON keeps the unrounded number."""
        if self.shown_as == "percentage":
            return f"{value * 100:.2f}%"
        return f"{value:g}" if float(value).is_integer() else f"{value:.4f}"


@dataclass(frozen=True, slots=True)
class ResultForm:
    """What a match slip asks the players to fill in, declared by the ruleset next to the
    result shapes it takes (:meth:`Ruleset.validate_result`), so that a printed slip draws boxes
    that fit and keeps no list of rulesets of its own.

    ``kind`` "games": game wins per player of a best-of-``games`` match (SWU), with a box
    for drawn games when ``draws``; "points": victory points per player (X-Wing, Armada);
    "game_winners": who won each of ``games`` games (LCG). ``tie_winner``: a box for the
    player who takes a match level on that count (X-Wing's final salvo, Armada's second
    player, an SWU elimination match decided at the table). ``intentional_draw``: a box
    for a drawn match with no game played (swu-1.4 §4.4, Swiss only).
    """

    kind: Literal["games", "points", "game_winners"]
    games: int = 1
    draws: bool = False
    tie_winner: bool = False
    intentional_draw: bool = False


@dataclass(frozen=True, slots=True)
class TeamFormat:
    """Competitors that are teams of two (lcg-2.1d "Team-Turniere"): ``section`` cites
    the format, ``no_finals`` says why no cut is made (the commands' refusals quote both)."""

    section: str
    no_finals: str


def record_of(outcomes: Sequence[Outcome]) -> Record:
    """Matches won, lost and drawn (a bye is a win; point adjustments are no match)."""
    matches = [o for o in outcomes if not o.adjustment]
    return Record(
        wins=sum(o.result == "win" for o in matches),
        losses=sum(o.result == "loss" for o in matches),
        draws=sum(o.result == "draw" for o in matches),
    )


def deduction(points: float) -> Outcome:
    """A point deduction as an outcome that only moves points (lcg-2.1d "Strafen")."""
    return Outcome(None, "loss", -points, adjustment=True)


class Ruleset(RulesetDecks, ABC):
    """A regulation as data plus small named functions; see each module's docstring.
    What it declares about decks and lists is in its base, ``RulesetDecks``."""

    id: ClassVar[str]
    #: The tiebreakers in the order they break ties: key, label, section, how shown.
    tiebreakers: ClassVar[tuple[Tiebreaker, ...]]
    #: Their keys (the keys of ``tiebreakers`` in standings), derived from the above.
    tiebreaker_keys: ClassVar[tuple[str, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "tiebreakers" in cls.__dict__:
            cls.tiebreaker_keys = tuple(t.key for t in cls.tiebreakers)

    #: option name -> allowed values (None: any value of the default's type)
    option_choices: ClassVar[dict[str, tuple[Any, ...] | None]] = {}
    #: option name -> (lowest, highest, section): a whole number the organizer sets
    #: within the document's bounds (lcg-2.1d "Zeitlimit": 60 to 80 minutes)
    option_ranges: ClassVar[dict[str, tuple[int, int, str]]] = {}
    defaults: ClassVar[dict[str, Any]] = {}
    #: The sets of fields a result may have (besides ``no_show``, which every ruleset takes).
    result_shapes: ClassVar[tuple[frozenset[str], ...]]
    #: How a match level on the result's count is decided where a slip asks for its
    #: winner (``ResultForm.tie_winner``): "table" (SWU elimination, base HP then
    #: initiative), "final_salvo" (X-Wing), "second_player" (Armada).
    tie_procedure: ClassVar[TieProcedure | None] = None
    #: "swiss": random within score groups, odd player paired down (swu, xwing, armada);
    #: "fold": sort by points then player number and fold each group (lcg "Setzung").
    pairing_method: ClassVar[str] = "swiss"
    #: Whether a dropped player may come back in the same stage (X-Wing, Armada).
    rejoin_allowed: ClassVar[bool] = False
    #: Whether a qualified player who drops before the first elimination game is
    #: replaced by the next in the standings (X-Wing, Armada "K.-o.-Runden").
    cut_replacement: ClassVar[bool] = False
    #: Whether players tied on record at the cut line play an extra round (swu-1.0 §4.1.2).
    uneven_cut: ClassVar[bool] = False
    #: Whether final games assign sides (lcg-2.1d "Finalrunden": light and dark side).
    final_sides: ClassVar[bool] = False
    #: Whether the organizer may deduct tournament points as a penalty (LCG).
    point_deductions: ClassVar[bool] = False
    #: The regulation's own words for parts of an elimination bracket, shown beside the
    #: round names (``projections.round_names``): keys "upper", "lower", "grand_final",
    #: "playoff"; a regulation without such words leaves it empty.
    bracket_terms: ClassVar[dict[str, str]] = {}
    #: Who chooses initiative by list points (``projections.rulesets.initiative``:
    #: X-Wing, Armada); None where the regulation decides it otherwise or not at all.
    initiative: ClassVar[InitiativeRule | None] = None
    #: Where the competitors are teams (lcg-2.1d "Team-Turniere"): the commands read it
    #: for registration by team and the final match; None: the competitors are players.
    team: ClassVar[TeamFormat | None] = None

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = self.normalize_options(dict(options or {}))

    # options ---------------------------------------------------------------
    COMMON_OPTIONS: ClassVar[tuple[str, ...]] = COMMON_OPTIONS

    @classmethod
    def normalize_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and reject unknown options or values (recorded in tournament_created)."""
        rules = OptionRules(cls.id, cls.option_choices, cls.option_ranges, cls.defaults)
        return rules.normalized(options)

    @classmethod
    def refusal(cls, options: Mapping[str, Any]) -> str | None:
        """Why this ledger does not run an event of the ruleset with ``options``, though
        the document has it (an SWU Twin Suns event); None: it does. Asked of the options
        as given, before they are checked."""
        return None

    # results -----------------------------------------------------------------
    def validate_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        """Reject a result the ruleset does not take (shape first, then plausibility).

        Every ruleset takes ``{"no_show": player}``: the named player did not appear."""
        shape = result.fields_set()
        if result.no_show is not None:
            if shape != {"no_show"}:
                raise InvalidResult("a no_show result names the absent player and nothing else")
            if result.no_show not in players:
                raise InvalidResult(f"no_show {result.no_show!r} is not a player of this match")
            return
        if shape not in self.result_shapes:
            raise InvalidResult(
                f"{self.id} does not take a result with fields {sorted(shape)}; "
                f"expected one of: {self.describe_shapes()}"
            )
        for name in ("winner", "concession"):
            value = getattr(result, name)
            if value is not None and value not in players:
                raise InvalidResult(f"result {name} {value!r} is not a player of this match")
        self.check_result(players, result, stage)

    def points_cap(self, stage: Stage) -> int | None:
        """The most victory points a player scores in a match of ``stage`` (X-Wing in
        Swiss: the whole list); None: no bound, or no victory points."""
        return None

    def describe_shapes(self) -> str:
        return " | ".join("{" + ", ".join(sorted(s)) + "}" for s in self.result_shapes)

    @abstractmethod
    def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        """Ruleset-specific plausibility of a result of the right shape."""

    @abstractmethod
    def outcomes(self, players: tuple[str, str], result: MatchResult) -> tuple[Outcome, Outcome]:
        """Both players' outcomes of a Swiss match."""

    @abstractmethod
    def bye(self) -> Outcome:
        """The outcome of a bye."""

    @abstractmethod
    def result_form(self, stage: Stage) -> ResultForm:
        """What a slip of a match of ``stage`` asks the players to fill in."""

    def forfeit(self, players: tuple[str, str], loser: str, stage: Stage) -> MatchResult:
        """The result of a match lost by ``loser`` without play (drop, disqualification,
        match loss). Default: a concession with no victory points (X-Wing, Armada)."""
        return MatchResult(points=(0, 0), concession=loser)

    def effective(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> MatchResult:
        """The result as scored. A no-show is kept in the log as said ("p9 did not come")
        and scored as the ruleset's match lost without play: the present player wins a
        match of the ruleset's usual size, whichever ruleset it is."""
        if result.no_show is not None:
            return self.forfeit(players, result.no_show, stage)
        return result

    def after_game_loss(
        self, players: tuple[str, str], result: MatchResult, penalized: str, stage: Stage
    ) -> MatchResult:
        """A finished match's result after a game loss for ``penalized``: the opponent
        gets one game win in the just-finished match (swu-1.4 §6 for a deck check at the
        end of a match; elsewhere the common model of the Magic Infraction Procedure
        Guide). Default: a match of one game, so the game loss loses the match."""
        return self.forfeit(players, penalized, stage)

    def unpaired_loss(self) -> Outcome | None:
        """What a round missed before rejoining counts as (None: nothing)."""
        return None

    def winner(self, players: tuple[str, str], result: MatchResult) -> str | None:
        """Who won the match (None for a draw or a double loss)."""
        first, second = self.outcomes(players, result)
        if first.result == "win":
            return players[0]
        return players[1] if second.result == "win" else None

    # standings ---------------------------------------------------------------
    @abstractmethod
    def scores(self, records: Mapping[str, Sequence[Outcome]]) -> dict[str, Scores]:
        """Points, record and tiebreakers of every player from everyone's outcomes."""

    def order(
        self,
        ranked: list[str],
        scores: Mapping[str, Scores],
        records: Mapping[str, Sequence[Outcome]],
    ) -> list[str]:
        """Final adjustments to an order sorted by ``Scores.key`` then the random key.

        The default keeps it; a ruleset with a rule that is not a per-player
        number (the LCG head-to-head rule) reorders here.
        """
        return ranked

    def pairing_score(self, scores: Scores) -> float:
        """The score players are grouped by for pairing (default: points)."""
        return scores.points

    def explain_opponent(self, outcomes: Sequence[Outcome]) -> dict[str, float | bool]:
        """What the tiebreakers take from one opponent's record, for ``replay.explain``
        (swu-1.4: the match-win % before and after the floor); empty where they take
        only the opponent's points."""
        return {}

    # clock -------------------------------------------------------------------
    @abstractmethod
    def round_time(self) -> RoundTime:
        """How long a match may last by stage, and the final's (swu-1.4 §4.2.1, §4.3.1;
        each ruleset cites its own)."""

    # tables ------------------------------------------------------------------
    @abstractmethod
    def table_rounds(self, players: int) -> int:
        """Swiss rounds by the regulation's table for ``players`` present at round 1."""

    def table_cut(self, players: int) -> int:
        """Top cut size by the regulation's table (0: no cut)."""
        return 0

    def rounds_planned(self, players: int) -> int:
        """Explicit ``rounds`` always wins; otherwise the table (swu §4.5)."""
        rounds = self.options.get("rounds")
        return int(rounds) if rounds is not None else self.table_rounds(players)

    def cut_size(self, players: int) -> int:
        cut = self.options.get("cut")
        return int(cut) if cut is not None else self.table_cut(players)


def ceil_log2(players: int) -> int:
    return max(1, math.ceil(math.log2(players))) if players > 1 else 1


def by_table(table: Sequence[tuple[int, int]], players: int, beyond: int = 0) -> int:
    """Look ``players`` up in a table of (upper bound, value) rows; ``beyond`` past the last."""
    for upper, value in table:
        if players <= upper:
            return value
    return beyond
