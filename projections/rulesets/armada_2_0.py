"""Star Wars: Armada Turnier-Regularien 2.0 (``armada-2.0``, German), Swiss and cut.

Sections are the document's German headings.

- A result is the victory points each player scored: ``{"points": [vp1, vp2]}``
  ("Berechnung der Siegpunkte": destroyed ships and squadrons plus objective
  points, so a total may exceed the fleet's 400). More points wins ("Ende der
  Runde": Ende der sechsten Runde, Zeit).
- Margin of victory ("Höhe des Sieges"): winner's points minus loser's, clamped
  to 0..400; the loser's MoV is 0.
- Tournament points by the winner's MoV ("Turnierpunkte"): 0-59: 6/5,
  60-139: 7/4, 140-219: 8/3, 220-299: 9/2, 300-400: 10/1 (win/loss).
- Equal points, or both fleets destroyed in the same game round: the second
  player wins with MoV 0 ("Berechnung der Siegpunkte", "Ende der Runde":
  Gegenseitige Zerstörung), so 6 and 5 tournament points by the table.
- Concession ("Ende der Runde": Aufgabe): the conceding player gets 0 tournament
  points and MoV 0; the winner gets the table's value when the MoV reaches 140,
  otherwise 8 tournament points and MoV 140.
- Bye: a win with 8 tournament points and MoV 140 ("Paarungen", "Schweizer System").
- Tiebreakers ("Tiebreaker"): tournament points, summed MoV, strength of
  schedule ("Tabellenstärke", computed exactly as for X-Wing), then random from
  the tournament's recorded seed (standings projection).
- Round time ("Zeitdauer einer Turnierrunde"): Swiss rounds 135 minutes each,
  elimination rounds 135, the final ("K. o.-Runde im Finale") 180: the bracket's
  last match (the grand final and its deciding match in double elimination).
  The document starts the clock "nachdem die meisten Spieler ihren Platz
  eingenommen" have: that is the ``round_started`` event.
- Rounds and cut by registered players ("Turnierstrukturen").

How a result names the second player (the document is silent; our choice):
the second player is the one without initiative ("Spielvorbereitung" step 3:
the player with initiative is the first player), and the ledger does not know
who had initiative, so the report names them as ``winner``. ``winner`` is
required when the points are equal; with unequal points it records the
mutual-destruction case ("Falls beide Spieler die Flotte des Gegners zerstört
haben, erhalten beide Spieler eine Höhe des Sieges von 0"): the named second
player wins with MoV 0 whatever the points. ``concession`` names the conceding
player and takes precedence (a conceded game has no second-player rule).

Other choices where the document is silent (tested):
- An unpaired loss (a rejoining player's missed round, "Paarungen") is a loss
  with 0 tournament points and MoV 0 (like a conceded game: no game was
  played); it counts as a round played for strength of schedule.
- A bye is not an opponent for strength of schedule.
- Victory points are never negative and have no upper bound.
- Deck checks and time (the document is silent: it has no deck check section):
  a judge's check during a game gives the match back the time it took plus 3
  minutes to set the game up again, the rule of the card games (swu-1.4 §6),
  since the players lost that time through no fault of theirs; an illegal list
  found costs a game loss, as there.
- Fewer players than the first row of a table (basic starts at 4, advanced at
  9): the advanced structure below 9 uses the basic row (3 rounds, no cut);
  below 4 players, ceil(log2(players)) rounds.
- "Eigenständig" (independent): the organizer announces rounds and cut as the
  ``rounds`` and ``cut`` options; without them, rounds fall back to the basic
  table and there is no cut (none was announced).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ledger.events import MatchResult, Stage
from ledger.list_events import Violation
from projections.errors import InvalidResult
from projections.rulesets.base import Outcome, ResultForm, Ruleset, Scores, Tiebreaker
from projections.rulesets.deck_rules import DeckCheck, ListSchedule
from projections.rulesets.decklists import ArmadaList, DeckList, as_shape
from projections.rulesets.initiative import ARMADA
from projections.rulesets.list_rules import armada
from projections.rulesets.round_time import RoundTime
from projections.rulesets.structures import StructureTables
from projections.rulesets.tiebreakers import MOV_HOW, SOS_HOW, mov_and_sos_scores

MAX_MOV = 400
#: "Turnierpunkte": (winner's MoV up to, winner's points, loser's points)
TOURNAMENT_POINTS = ((59, 6, 5), (139, 7, 4), (219, 8, 3), (299, 9, 2), (400, 10, 1))
#: "Ende der Runde" (Aufgabe) and "Paarungen" (Freilos): 8 points and MoV 140.
AWARDED_POINTS = 8
AWARDED_MOV = 140
STRUCTURES = ("basic", "advanced", "independent")

#: "Basis-Struktur": (registered players up to, Swiss rounds, cut); 49 and more: 5.
BASIC = ((32, 3, 0), (48, 4, 0))
BASIC_BEYOND = (5, 0)
#: "Fortgeschrittene Struktur"; 91 and more: 5 rounds, top 4.
ADVANCED = ((28, 3, 0), (44, 4, 2), (90, 5, 2))
ADVANCED_BEYOND = (5, 4)


def margin_of_victory(winner_points: int, loser_points: int) -> int:
    """Winner's points minus loser's, clamped to 0..400 ("Höhe des Sieges")."""
    return max(0, min(MAX_MOV, winner_points - loser_points))


def winner_margin(players: tuple[str, str], points: tuple[int, int], winner: str) -> int:
    """The MoV of ``winner``, one of ``players``, from points given in the players' order."""
    first, second = points
    return (
        margin_of_victory(first, second)
        if winner == players[0]
        else margin_of_victory(second, first)
    )


def tournament_points(mov: int) -> tuple[int, int]:
    """(winner, loser) tournament points for the winner's MoV ("Turnierpunkte")."""
    for upper, win, loss in TOURNAMENT_POINTS:
        if mov <= upper:
            return win, loss
    raise ValueError(f"MoV {mov} is above {MAX_MOV}")


def conceded(mov: int) -> tuple[int, int]:
    """The winner's (tournament points, MoV) after a concession ("Ende der Runde": Aufgabe)."""
    if mov >= AWARDED_MOV:
        return tournament_points(mov)[0], mov
    return AWARDED_POINTS, AWARDED_MOV


class Armada20(StructureTables, Ruleset):
    #: "Turnierstrukturen"
    tables = (BASIC, BASIC_BEYOND, ADVANCED, ADVANCED_BEYOND)
    id = "armada-2.0"
    tiebreakers = (
        Tiebreaker("mov", "MoV", "armada-2.0 Höhe des Sieges", "number", MOV_HOW),
        Tiebreaker("sos", "SoS", "armada-2.0 Tabellenstärke", "number", SOS_HOW),
    )
    list_shape = ArmadaList
    #: the document is silent: lists are shown after the event, none exchanged before
    list_schedule = ListSchedule()
    #: the document has no deck check section: the card games' rule (module docstring)
    deck_check = DeckCheck("swu-1.4 §6")
    #: "Berechnung der Siegpunkte": equal victory points, the second player wins
    tie_procedure = "second_player"
    #: "Paarungen": a dropped player may ask to rejoin the same stage.
    rejoin_allowed = True
    #: "K.-o.-Runden": a qualified player who drops before the first cut game is replaced.
    cut_replacement = True
    #: "Spielvorbereitung" step 3: fewer fleet points chooses initiative; a tie: at random.
    initiative = ARMADA
    option_choices: ClassVar[dict[str, tuple[Any, ...] | None]] = {"structure": STRUCTURES}
    defaults: ClassVar[dict[str, Any]] = {"structure": "basic"}
    result_shapes = (
        frozenset({"points"}),
        frozenset({"points", "winner"}),
        frozenset({"points", "concession"}),
    )

    def round_time(self) -> RoundTime:
        """ "Zeitdauer einer Turnierrunde": 135, 135, final 180 minutes."""
        return RoundTime(135, 135, 180, "armada-2.0 Zeitdauer einer Turnierrunde")

    # results -----------------------------------------------------------------
    def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
        assert result.points is not None
        if min(result.points) < 0:
            raise InvalidResult(
                'victory points cannot be negative, armada-2.0 "Berechnung der Siegpunkte"'
            )
        equal = result.points[0] == result.points[1]
        if equal and result.winner is None and result.concession is None:
            raise InvalidResult(
                "equal victory points: name the second player (the player without "
                'initiative) as "winner"; they win with MoV 0, armada-2.0 '
                '"Berechnung der Siegpunkte"'
            )

    def result_form(self, stage: Stage) -> ResultForm:
        """Victory points per player; equal points name the second player, who wins
        ("Berechnung der Siegpunkte")."""
        return ResultForm("points", tie_winner=True)

    def outcomes(self, players: tuple[str, str], result: MatchResult) -> tuple[Outcome, Outcome]:
        winner, win_points, loss_points, mov = self._decide(players, result)
        loser = players[1] if winner == players[0] else players[0]
        won = Outcome(loser, "win", win_points, games_won=1, mov=mov)
        lost = Outcome(winner, "loss", loss_points, games_lost=1, mov=0)
        return (won, lost) if winner == players[0] else (lost, won)

    @staticmethod
    def _decide(players: tuple[str, str], result: MatchResult) -> tuple[str, int, int, int]:
        """The winner, the winner's and the loser's tournament points and the winner's MoV.

        Concession first, then the second-player rule (a named ``winner``),
        then more victory points.
        """
        assert result.points is not None
        (a, b), (pa, pb) = players, result.points
        if result.concession is not None:
            winner = b if result.concession == a else a
            points, mov = conceded(winner_margin(players, result.points, winner))
            return winner, points, 0, mov
        if result.winner is not None:
            return result.winner, *tournament_points(0), 0
        winner = a if pa > pb else b
        mov = winner_margin(players, result.points, winner)
        return winner, *tournament_points(mov), mov

    def bye(self) -> Outcome:
        """A bye: a win with 8 tournament points and MoV 140 ("Paarungen")."""
        return Outcome(None, "win", AWARDED_POINTS, games_won=1, mov=AWARDED_MOV)

    def unpaired_loss(self) -> Outcome:
        """A missed round of a rejoining player ("Paarungen"): 0 points, MoV 0, no opponent."""
        return Outcome(None, "loss", 0, unpaired=True)

    def list_violations(self, deck: DeckList) -> tuple[Violation, ...]:
        """ "Flottenzusammenstellung" and "Flottenlisten"."""
        return armada(self.id, as_shape(ArmadaList, deck))

    # standings ---------------------------------------------------------------
    def scores(self, records: Mapping[str, Sequence[Outcome]]) -> dict[str, Scores]:
        return mov_and_sos_scores(records)
