"""The shapes of deck, squad and fleet lists, one typed model per game.

A list is recorded as structured JSON in its game's shape; anything else (an unknown
field, a count that is not a whole number >= 1, a name that is blank or breaks a
line) is not a list of that game and is refused as invalid input. What the shape
admits but the regulation does not (a second leader in Premier, 52 X-Wing points too
many) is *reported* by :mod:`projections.rulesets.list_rules`, never refused: the organizer
decides what follows. No card database is consulted: names are what the player wrote.

The shapes (README, command contract):

- SWU (swu-1.4, swu-1.0 §3.1.3: leader, base, draw deck and sideboard)::

    {"leader": "Name | Subtitle", "base": "Name",
     "deck": [{"card": "Name | Subtitle", "count": 3}], "sideboard": [...]}

  Twin Suns names two leaders as ``"leaders": [..., ...]``.
- X-Wing ("Jägerstaffellisten": upgrades, total points, damage deck, obstacles)::

    {"faction": "...", "points": 98, "damage_deck": "...",
     "pilots": [{"pilot": "...", "ship": "...", "points": 52, "upgrades": ["..."]}],
     "obstacles": ["...", "...", "..."]}

  A pilot's ``points`` include its upgrades; a pilot may name its own ``faction``.
- Armada ("Flottenzusammenstellung", "Flottenlisten")::

    {"faction": "...", "points": 392, "squadron_points": 96, "commander": "...",
     "objectives": {"assault": "...", "defense": "...", "navigation": "..."},
     "ships": [{"ship": "...", "points": 120, "upgrades": ["..."]}],
     "squadrons": [{"squadron": "...", "count": 2, "points": 12}]}

  A ship's ``points`` include its upgrades; a squadron's ``points`` are one squadron's.
- LCG ("Deckvoraussetzungen": a light-side and a dark-side deck, each with one
  affiliation card and objective sets)::

    {"light": {"affiliation": "...", "objective_sets": [{"set": "...", "number": 3}]},
     "dark": {...}}

  A team of an LCG team event ("Team-Turniere", "Anmeldung": the lists of all four
  decks together, marked who plays which) submits one list for the team, each
  member's two decks under the member's id::

    {"members": {"p1": {"light": {...}, "dark": {...}}, "p2": {...}}}
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ledger.fields import Name
from ledger.list_events import canonical as canonical
from ledger.list_events import list_hash as list_hash
from projections.errors import InvalidList

#: More entries than any list of these games has; a bound, not a rule.
MAX_ENTRIES = 200
Count = Annotated[int, Field(ge=1, le=99)]
Points = Annotated[int, Field(ge=0, le=10_000)]
Names = Annotated[list[Name], Field(max_length=MAX_ENTRIES)]


class Shape(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CardCount(Shape):
    card: Name
    count: Count


Cards = Annotated[list[CardCount], Field(max_length=MAX_ENTRIES)]


class SwuList(Shape):
    leader: Name | None = None
    leaders: Names | None = None
    base: Name | None = None
    deck: Cards = Field(default_factory=list)
    sideboard: Cards = Field(default_factory=list)

    @property
    def all_leaders(self) -> list[str]:
        return ([self.leader] if self.leader is not None else []) + list(self.leaders or [])


class Pilot(Shape):
    pilot: Name
    ship: Name | None = None
    points: Points
    upgrades: Names = Field(default_factory=list)
    faction: Name | None = None


class XWingList(Shape):
    faction: Name
    points: Points
    damage_deck: Name | None = None
    pilots: Annotated[list[Pilot], Field(max_length=MAX_ENTRIES)] = Field(default_factory=list)
    obstacles: Names = Field(default_factory=list)


class Ship(Shape):
    ship: Name
    points: Points
    upgrades: Names = Field(default_factory=list)


class Squadron(Shape):
    squadron: Name
    count: Count = 1
    points: Points


class Objectives(Shape):
    assault: Name | None = None
    defense: Name | None = None
    navigation: Name | None = None


class ArmadaList(Shape):
    faction: Name
    points: Points
    squadron_points: Points = 0
    commander: Name | None = None
    objectives: Objectives = Field(default_factory=Objectives)
    ships: Annotated[list[Ship], Field(max_length=MAX_ENTRIES)] = Field(default_factory=list)
    squadrons: Annotated[list[Squadron], Field(max_length=MAX_ENTRIES)] = Field(
        default_factory=list
    )


class ObjectiveSet(Shape):
    set: Name
    number: Annotated[int, Field(ge=1, le=999)]


class LcgDeck(Shape):
    affiliation: Name | None = None
    objective_sets: Annotated[list[ObjectiveSet], Field(max_length=MAX_ENTRIES)] = Field(
        default_factory=list
    )


class LcgList(Shape):
    light: LcgDeck
    dark: LcgDeck


class LcgTeamList(Shape):
    """Both members' decks, by member id (lcg-2.1d "Team-Turniere", "Anmeldung")."""

    members: Annotated[dict[Annotated[str, Field(min_length=1, max_length=200)], LcgList],
                       Field(min_length=2, max_length=2)]  # fmt: skip


DeckList = SwuList | XWingList | ArmadaList | LcgList | LcgTeamList
#: ruleset id -> its game's list shape
SHAPES: dict[str, type[DeckList]] = {
    "swu-1.4": SwuList,
    "swu-1.0": SwuList,
    "xwing-2.0": XWingList,
    "armada-2.0": ArmadaList,
    "lcg-2.1d": LcgList,
}


def shaped(
    ruleset: str, data: dict[str, Any], kind: str = "submit_list", team: bool = False
) -> DeckList:
    """The list in its game's shape (a team's, in a team event), or InvalidList naming
    the first problem."""
    shape: type[DeckList] | None = LcgTeamList if team else SHAPES.get(ruleset)
    if shape is None:
        raise InvalidList(f"{kind}: {ruleset} has no list shape")
    try:
        return shape.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in ("list", *err["loc"]))
        msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        raise InvalidList(f"{kind}: not a {ruleset} list: {where}: {msg}") from None


def stored(deck: DeckList) -> dict[str, Any]:
    """The list as ``tledger_lists`` records it: the shape's JSON without the fields not given
    (names stripped as every name is; counts and empty sections kept), so that the
    hash covers exactly what is shown."""
    data: dict[str, Any] = deck.model_dump(mode="json", exclude_none=True)
    return data
