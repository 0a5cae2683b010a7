"""The shapes of deck, squad and fleet lists, one typed model per game.

A list is recorded as structured JSON in its game's shape; anything else (an unknown
field, a count that is not a whole number >= 1, a name that is blank or breaks a
line) is not a list of that game and is refused as invalid input. What the shape
admits but the regulation does not (a second leader in Premier, 52 X-Wing points too
many) is *reported* by :mod:`projections.rulesets.list_rules`, never refused: the organizer
decides what follows. No card database is consulted: names are what the player wrote.

The shapes (docs/INTEGRATION.md, the command contract):

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

Each ruleset names its game's shape (``Ruleset.list_shape``); each shape names the zones
a deck check compares (``DeckList.zones``) and the points it declares
(``declared_points``: X-Wing's and Armada's, which decide initiative).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable
from typing import Annotated, Any, TypeVar

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
#: one zone a deck check compares: its name and its entries as (name as written, count)
Zone = tuple[str, list[tuple[str, int]]]


class Shape(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class DeckList(Shape):
    """One game's list; each ruleset names its game's (``Ruleset.list_shape``)."""

    @abstractmethod
    def zones(self, pooled: bool = False) -> list[Zone]:
        """The list's zones in a fixed order, as a deck check compares them
        (:mod:`projections.rulesets.deckcompare`); ``pooled``: the cards a player may
        swap between games are one zone (an SWU limited event)."""

    def declared_points(self) -> int | None:
        """The points the list declares (X-Wing, Armada), None where it declares none."""
        return None


L = TypeVar("L", bound=DeckList)


def ones(names: Iterable[str | None]) -> list[tuple[str, int]]:
    return [(n, 1) for n in names if n is not None]


class CardCount(Shape):
    card: Name
    count: Count


Cards = Annotated[list[CardCount], Field(max_length=MAX_ENTRIES)]


class SwuList(DeckList):
    leader: Name | None = None
    leaders: Names | None = None
    base: Name | None = None
    deck: Cards = Field(default_factory=list)
    sideboard: Cards = Field(default_factory=list)

    @property
    def all_leaders(self) -> list[str]:
        return ([self.leader] if self.leader is not None else []) + list(self.leaders or [])

    def zones(self, pooled: bool = False) -> list[Zone]:
        """``leader``, ``base``, ``deck`` and ``sideboard``; pooled, deck and sideboard
        are one zone ``pool`` (module deckcompare)."""
        cards = [
            ("deck", [(e.card, e.count) for e in self.deck]),
            ("sideboard", [(e.card, e.count) for e in self.sideboard]),
        ]
        if pooled:
            cards = [("pool", [entry for _, entries in cards for entry in entries])]
        return [("leader", ones(self.all_leaders)), ("base", ones([self.base])), *cards]


class Pilot(Shape):
    pilot: Name
    ship: Name | None = None
    points: Points
    upgrades: Names = Field(default_factory=list)
    faction: Name | None = None


class XWingList(DeckList):
    faction: Name
    points: Points
    damage_deck: Name | None = None
    pilots: Annotated[list[Pilot], Field(max_length=MAX_ENTRIES)] = Field(default_factory=list)
    obstacles: Names = Field(default_factory=list)

    def zones(self, pooled: bool = False) -> list[Zone]:
        """``faction``, ``pilots`` (pilot and ship), ``upgrades`` (an upgrade on its
        pilot), ``obstacles``, ``damage_deck``."""
        return [
            ("faction", ones([self.faction])),
            ("pilots", ones(f"{p.pilot} ({p.ship})" if p.ship else p.pilot
                            for p in self.pilots)),
            ("upgrades", ones(f"{u} on {p.pilot}" for p in self.pilots for u in p.upgrades)),
            ("obstacles", ones(self.obstacles)),
            ("damage_deck", ones([self.damage_deck])),
        ]  # fmt: skip

    def declared_points(self) -> int:
        return self.points


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


class ArmadaList(DeckList):
    faction: Name
    points: Points
    squadron_points: Points = 0
    commander: Name | None = None
    objectives: Objectives = Field(default_factory=Objectives)
    ships: Annotated[list[Ship], Field(max_length=MAX_ENTRIES)] = Field(default_factory=list)
    squadrons: Annotated[list[Squadron], Field(max_length=MAX_ENTRIES)] = Field(
        default_factory=list
    )

    def zones(self, pooled: bool = False) -> list[Zone]:
        """``faction``, ``commander``, ``objectives`` (category and objective), ``ships``,
        ``upgrades`` (an upgrade on its ship), ``squadrons`` (with their count)."""
        objectives = self.objectives.model_dump(exclude_none=True)
        return [
            ("faction", ones([self.faction])),
            ("commander", ones([self.commander])),
            ("objectives", ones(f"{c}: {o}" for c, o in objectives.items())),
            ("ships", ones(s.ship for s in self.ships)),
            ("upgrades", ones(f"{u} on {s.ship}" for s in self.ships for u in s.upgrades)),
            ("squadrons", [(s.squadron, s.count) for s in self.squadrons]),
        ]

    def declared_points(self) -> int:
        return self.points


class ObjectiveSet(Shape):
    set: Name
    number: Annotated[int, Field(ge=1, le=999)]


class LcgDeck(Shape):
    affiliation: Name | None = None
    objective_sets: Annotated[list[ObjectiveSet], Field(max_length=MAX_ENTRIES)] = Field(
        default_factory=list
    )


class LcgList(DeckList):
    light: LcgDeck
    dark: LcgDeck

    def zones(self, pooled: bool = False) -> list[Zone]:
        """Per side the affiliation (``light_affiliation``, ``dark_affiliation``) and the
        objective sets (``light``, ``dark``) by name and number."""
        sides = (("light", self.light), ("dark", self.dark))
        return [
            zone
            for side, half in sides
            for zone in (
                (f"{side}_affiliation", ones([half.affiliation])),
                (side, ones(f"{s.set} #{s.number}" for s in half.objective_sets)),
            )
        ]


class LcgTeamList(DeckList):
    """Both members' decks, by member id (lcg-2.1d "Team-Turniere", "Anmeldung")."""

    members: Annotated[dict[Annotated[str, Field(min_length=1, max_length=200)], LcgList],
                       Field(min_length=2, max_length=2)]  # fmt: skip

    def zones(self, pooled: bool = False) -> list[Zone]:
        """Each member's zones, named by the member (both lists name the team's members)."""
        return [(f"{member} {zone}", entries)
                for member, half in sorted(self.members.items())
                for zone, entries in half.zones()]  # fmt: skip


def shaped(shape: type[L], ruleset: str, data: dict[str, Any], kind: str = "submit_list") -> L:
    """The list in ``shape``, the shape of ``ruleset``'s lists, or InvalidList naming the
    first problem."""
    try:
        return shape.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in ("list", *err["loc"]))
        msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
        raise InvalidList(f"{kind}: not a {ruleset} list: {where}: {msg}") from None


def as_shape(shape: type[L], deck: DeckList) -> L:
    """``deck`` as ``shape``: a ruleset reads and checks lists of its game's one shape, so
    any other is a programming error, never input."""
    if not isinstance(deck, shape):
        raise TypeError(f"a {type(deck).__name__} is not a {shape.__name__}")
    return deck


def stored(deck: DeckList) -> dict[str, Any]:
    """The list as ``tledger_lists`` records it: the shape's JSON without the fields not given
    (names stripped as every name is; counts and empty sections kept), so that the
    hash covers exactly what is shown."""
    data: dict[str, Any] = deck.model_dump(mode="json", exclude_none=True)
    return data
