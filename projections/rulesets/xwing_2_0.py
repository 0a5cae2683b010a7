"""X-Wing Miniaturen-Spiel Turnier-Regularien 2.0 (``xwing-2.0``, German), Swiss and cut.

Sections are the document's German headings.

- A result is the victory points each player destroyed: ``{"points": [vp1, vp2]}``
  ("Berechnung der Siegpunkte"). More points wins ("Ende der Runde": Zeit).
  Equal points (time, or mutual destruction) are decided by the final salvo
  ("Finale Salve"): the result then names the ``winner`` and may say
  ``"decided_by": "final_salvo"``. A conceding player is named by
  ``concession`` and loses ("Ende der Runde": Aufgabe).
- Tournament points: win 1, loss 0 ("Turnierpunkte").
- Margin of victory ("Höhe des Sieges"): the player with more victory points
  scores base + difference, the other base - difference; equal points score
  base each. A bye is a win with 1.5 x base ("Paarungen", "Schweizer System").
- Tiebreakers ("Tiebreaker"): tournament points, summed MoV, strength of
  schedule ("Tabellenstärke": the mean over the opponents of each opponent's
  tournament points divided by the rounds that opponent played), then random
  from the tournament's recorded seed (standings projection).
- Round time ("Zeitdauer einer Turnierrunde"): Swiss rounds 75 minutes each,
  elimination rounds 75, the final ("K. o.-Runde im Finale") 120: the bracket's
  last match (the grand final and its deciding match in double elimination).
  The document starts the clock "nachdem die meisten Spieler ihren Platz
  eingenommen" have: that is the ``round_started`` event.
- Rounds and cut by registered players ("Turnierstrukturen": Basis-,
  Fortgeschrittene, Eigenständige Turnierstruktur).

Option ``squad_points`` (default 100, the document's "Zusammenstellung von
Jägerstaffeln"): the MoV base, the bye MoV (1.5 x base), the won-bye MoV
(2 x base) and the value of a whole destroyed list all scale with it. Real
second-edition events use 200 (MoV = 200 + difference, bye 300).

Option ``compat: "listfortress"`` reproduces the published second-edition
standings of ListFortress: there a rejoining player's missed rounds are not
counted as rounds when their strength-of-schedule value is computed (rounds
actually played), where the document counts each missed round as an unpaired
loss. Points and MoV are the same either way.

Where the document is silent or ambiguous (choices made here, tested):
- "Gewonnenes Freilos" (a won bye) is worth 2 x base MoV. The document does not
  say when one is given; it is used only when the organizer awards it, so the
  ordinary bye (``bye``) is 1.5 x base and ``won_bye`` is offered separately.
- An unpaired loss (a rejoining player's missed round, "Paarungen") is a loss
  with MoV 0; it is not an opponent, but it counts as a round played in the
  denominator of that player's value for strength of schedule, as a bye does.
- A bye is not an opponent: strength of schedule is the mean over the real
  opponents only (each match once, so an opponent met twice counts twice). A
  player with no opponent has strength of schedule 0. The value is computed
  exactly and converted to a float once, unrounded: equal strengths then tie
  exactly and go to the random tiebreaker (a float sum can split them by
  rounding noise, e.g. 7/18 as 0.38888888888888884 against 0.3888888888888889).
  Published second-edition standings round it to 2 decimals (not truncate).
- A concession counts the conceding player's remaining ships as destroyed
  ("Berechnung der Siegpunkte"), so the winner's victory points become the
  whole list's value (``squad_points``) whatever was reported for them.
- ``winner`` is taken only when the points are equal (the final salvo decides
  nothing else); equal points without a winner or a concession are refused.
- Victory points in Swiss are 0..squad_points (a whole list is worth exactly
  squad_points). Elimination results are not bounded above: they never change
  Swiss standings and real elimination reports carry other values.
- Deck checks and time (the document is silent: it has no deck check section):
  a judge's check during a game gives the match back the time it took plus 3
  minutes to set the game up again, the rule of the card games (swu-1.4 §6),
  since the players lost that time through no fault of theirs; an illegal list
  found costs a game loss, as there.
- Fewer players than the first row of a table (the document starts at 4,
  advanced at 9): the advanced structure below 9 uses the basic row (3 rounds,
  no cut); below 4 players, ceil(log2(players)) rounds and no cut.
- "Eigenständig" (independent): the organizer announces rounds and cut
  ("Paarungen": before the event) as the ``rounds`` and ``cut`` options. When
  they are not given, rounds fall back to the basic table (the entry-level
  structure, so an event can still run) and there is no cut (none announced).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ledger.events import MatchResult, Stage
from ledger.list_events import Violation
from projections.errors import InvalidOptions, InvalidResult
from projections.rulesets.base import Outcome, ResultForm, Ruleset, Scores, Tiebreaker
from projections.rulesets.deck_rules import DeckCheck, ListSchedule
from projections.rulesets.decklists import DeckList, XWingList, as_shape
from projections.rulesets.initiative import XWING
from projections.rulesets.list_rules import xwing
from projections.rulesets.round_time import RoundTime
from projections.rulesets.structures import StructureTables
from projections.rulesets.tiebreakers import MOV_HOW, SOS_HOW, mov_and_sos_scores

DEFAULT_SQUAD_POINTS = 100
BYE_FACTOR = 1.5
WON_BYE_FACTOR = 2.0
STRUCTURES = ("basic", "advanced", "independent")

#: "Basis-Turnierstruktur": (registered players up to, Swiss rounds, cut)
BASIC = ((8, 3, 0), (16, 4, 0), (24, 4, 4), (40, 5, 4), (44, 5, 8), (76, 6, 8), (148, 6, 16))
BASIC_BEYOND = (7, 16)
#: "Fortgeschrittene Turnierstruktur"
ADVANCED = ((12, 4, 4), (24, 4, 8), (40, 5, 8), (76, 6, 8), (148, 6, 16), (288, 6, 32),
            (512, 7, 32))  # fmt: skip
ADVANCED_BEYOND = (8, 32)


class XWing20(StructureTables, Ruleset):
    #: "Turnierstrukturen"
    tables = (BASIC, BASIC_BEYOND, ADVANCED, ADVANCED_BEYOND)
    id = "xwing-2.0"
    tiebreakers = (
        Tiebreaker("mov", "MoV", "xwing-2.0 Höhe des Sieges", "number", MOV_HOW),
        Tiebreaker("sos", "SoS", "xwing-2.0 Tabellenstärke", "number", SOS_HOW),
    )
    list_shape = XWingList
    #: the document is silent: lists are shown after the event, none exchanged before
    list_schedule = ListSchedule()
    #: the document has no deck check section: the card games' rule (module docstring)
    deck_check = DeckCheck("swu-1.4 §6")
    #: "Finale Salve": equal victory points
    tie_procedure = "final_salvo"
    #: "Paarungen": a dropped player may ask to rejoin the same stage.
    rejoin_allowed = True
    #: "K.-o.-Runden": a qualified player who drops before the first cut game is replaced.
    cut_replacement = True
    #: "Spielvorbereitung" step 4: fewer squad points chooses initiative; a tie: by lot.
    initiative = XWING
    option_choices: ClassVar[dict[str, tuple[Any, ...] | None]] = {
        "structure": STRUCTURES,
        "squad_points": None,
        "compat": (None, "listfortress"),
    }
    defaults: ClassVar[dict[str, Any]] = {
        "structure": "basic",
        "squad_points": DEFAULT_SQUAD_POINTS,
        "compat": None,
    }
    result_shapes = (
        frozenset({"points"}),
        frozenset({"points", "winner"}),
        frozenset({"points", "winner", "decided_by"}),
        frozenset({"points", "concession"}),
    )

    def round_time(self) -> RoundTime:
        """ "Zeitdauer einer Turnierrunde": 75, 75, final 120 minutes."""
        return RoundTime(75, 75, 120, "xwing-2.0 Zeitdauer einer Turnierrunde")

    @classmethod
    def normalize_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        merged = super().normalize_options(options)
        if merged["squad_points"] <= 0:
            raise InvalidOptions("option 'squad_points' must be a whole number > 0")
        return merged

    @property
    def squad_points(self) -> int:
        """The list size: a whole destroyed list is worth this many victory points."""
        return int(self.options["squad_points"])

    @property
    def base(self) -> int:
        """The MoV base ("Höhe des Sieges": 100 in the standard format)."""
        return self.squad_points

    # results -----------------------------------------------------------------
    def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        assert result.points is not None
        self._check_points(result.points, stage)
        equal = result.points[0] == result.points[1]
        if result.winner is not None:
            self._check_final_salvo(result, equal)
        elif equal and result.concession is None:
            raise InvalidResult(
                "equal victory points need the winner of the final salvo "
                '("winner", "decided_by": "final_salvo"), xwing-2.0 "Finale Salve"'
            )

    def result_form(self, stage: Stage) -> ResultForm:
        """Victory points per player; equal points name the final salvo's winner
        ("Finale Salve")."""
        return ResultForm("points", tie_winner=True)

    def points_cap(self, stage: Stage) -> int | None:
        """A whole list in Swiss; elimination results are not bounded (module docstring)."""
        return self.squad_points if stage == "swiss" else None

    def _check_points(self, points: tuple[int, int], stage: Stage) -> None:
        if min(points) < 0:
            raise InvalidResult(
                'victory points cannot be negative, xwing-2.0 "Berechnung der Siegpunkte"'
            )
        cap = self.points_cap(stage)
        if cap is not None and max(points) > cap:
            raise InvalidResult(
                f"victory points {list(points)} exceed the whole list's value "
                f'{self.squad_points}, xwing-2.0 "Berechnung der Siegpunkte"'
            )

    def _check_final_salvo(self, result: MatchResult, equal: bool) -> None:
        if not equal:
            raise InvalidResult(
                "a winner is named only for equal victory points (final salvo); "
                'otherwise more points wins, xwing-2.0 "Ende der Runde"'
            )
        if result.decided_by not in (None, "final_salvo"):
            raise InvalidResult('decided_by must be final_salvo, xwing-2.0 "Finale Salve"')

    def outcomes(self, players: tuple[str, str], result: MatchResult) -> tuple[Outcome, Outcome]:
        a, b = players
        points = self._victory_points(players, result)
        a_wins = self._winner(players, result, points) == a
        difference = points[0] - points[1]
        return (
            self._outcome(b, a_wins, self.base + difference),
            self._outcome(a, not a_wins, self.base - difference),
        )

    def _victory_points(self, players: tuple[str, str], result: MatchResult) -> tuple[int, int]:
        """Reported points; on a concession the winner has destroyed the whole list."""
        assert result.points is not None
        first, second = result.points
        if result.concession == players[1]:
            first = max(first, self.squad_points)
        elif result.concession == players[0]:
            second = max(second, self.squad_points)
        return first, second

    @staticmethod
    def _winner(players: tuple[str, str], result: MatchResult, points: tuple[int, int]) -> str:
        """Concession, then the final salvo's winner, then more victory points."""
        if result.concession is not None:
            return players[1] if result.concession == players[0] else players[0]
        if result.winner is not None:
            return result.winner
        return players[0] if points[0] > points[1] else players[1]

    @staticmethod
    def _outcome(opponent: str, won: bool, mov: float) -> Outcome:
        if won:
            return Outcome(opponent, "win", 1, games_won=1, mov=mov)
        return Outcome(opponent, "loss", 0, games_lost=1, mov=mov)

    def bye(self) -> Outcome:
        """A bye: a win with MoV 1.5 x base ("Paarungen": 150 at 100 squad points)."""
        return Outcome(None, "win", 1, games_won=1, mov=BYE_FACTOR * self.base)

    def won_bye(self) -> Outcome:
        """A won bye ("gewonnenes Freilos", "Höhe des Sieges"): a win with MoV 2 x base."""
        return Outcome(None, "win", 1, games_won=1, mov=WON_BYE_FACTOR * self.base)

    def unpaired_loss(self) -> Outcome:
        """A missed round of a rejoining player ("Paarungen"): a loss, MoV 0, no opponent."""
        return Outcome(None, "loss", 0, unpaired=True)

    def list_violations(self, deck: DeckList) -> tuple[Violation, ...]:
        """ "Zusammenstellung von Jägerstaffeln" at the event's ``squad_points``."""
        return xwing(self.id, self.squad_points, as_shape(XWingList, deck))

    # standings ---------------------------------------------------------------
    def scores(self, records: Mapping[str, Sequence[Outcome]]) -> dict[str, Scores]:
        return mov_and_sos_scores(records, self.options["compat"] != "listfortress")
