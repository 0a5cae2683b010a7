"""Who chooses initiative, where a regulation decides it by list points.

X-Wing ("Spielvorbereitung" step 4): the player whose squad cost the fewest squad
points decides which player has initiative; on a tie it is drawn by lot who decides.
Armada ("Spielvorbereitung" step 3): the player with fewer fleet points decides which
player has initiative (the first player); on equal fleet points a player is chosen at
random, e.g. by a coin flip, and the winner decides. Both apply before every game, so
to every round, Swiss and elimination.

The ledger only says who chooses: the choice itself (who then has initiative) is made
at the table and not recorded. A tie is not broken here either: the documents leave
the draw to the table, so a tie is shown as such ("decide at random who chooses") and
no random draw of the ledger's stands in for it. The points counted are those the
players *declared* on their lists (what an opponent may check by hand at the table,
X-Wing "Spielvorbereitung" step 2), never a recount.

A ruleset declares its rule as data (``Ruleset.initiative``), as it declares its
tiebreakers; rulesets without one (SWU, LCG) say None.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, slots=True)
class Initiative:
    """One table's answer: ``chooses`` is the player with fewer points, None on a tie
    (then the table decides at random who chooses); ``points`` are the two players'
    declared points in the table's order."""

    chooses: str | None
    points: tuple[int, int]

    @property
    def tie(self) -> bool:
        return self.chooses is None


@dataclass(frozen=True, slots=True)
class InitiativeRule:
    """The regulation's rule: fewer list points chooses initiative. ``section`` cites
    it, ``counted`` names the points compared (a key the faces label in their language:
    X-Wing's "Kommandopunkte" of a squad, Armada's "Flottenpunkte") and ``tie`` says
    what the document does with equal points."""

    section: str
    counted: Literal["squad_points", "fleet_points"]
    tie: str

    def decide(self, players: Sequence[str], points: Mapping[str, int]) -> Initiative | None:
        """Who chooses at a table of ``players``, from each player's declared points
        (``points``: player -> points of the list in force). None where the rule says
        nothing: a bye, or a player without a list (nothing to compare)."""
        if len(players) != 2 or any(p not in points for p in players):
            return None
        first, second = players
        a, b = points[first], points[second]
        chooses = None if a == b else (first if a < b else second)
        return Initiative(chooses, (a, b))


XWING = InitiativeRule(
    section='xwing-2.0 "Spielvorbereitung" step 4',
    counted="squad_points",
    tie="drawn by lot who decides",
)
ARMADA = InitiativeRule(
    section='armada-2.0 "Spielvorbereitung" step 3',
    counted="fleet_points",
    tie="a player chosen at random (e.g. a coin flip) decides",
)
