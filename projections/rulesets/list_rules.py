"""What a list must hold under its ruleset and format, checked without a card database.

Each broken rule is a ``Violation`` naming the regulation's section; the list is
recorded all the same and the organizer decides what follows (a list that is not its
game's shape at all is refused earlier, by :mod:`projections.rulesets.decklists`).

- SWU (swu-1.4 and swu-1.0 number these alike): Premier §2.3.1.1 exactly one leader
  and one base, a draw deck of at least 50, a sideboard of at most 10, at most three
  copies of a card (title and subtitle) across draw deck and sideboard; Twin Suns
  §2.3.1.2 exactly two leaders, one base, at least 50 (80 once the fourth set is out:
  the document's note, which a ledger without set data cannot date), no sideboard, one
  copy of a card (new Twin Suns events are refused, commands.limited; a stored one's
  lists are still checked); Limited (draft, sealed) §2.3.2 one leader, one base, at
  least 30, as many copies of a card as the player opened, a sideboard of any size
  ("alle weiteren erhaltenen Karten": every card received and not in the deck).
  Leaders and bases may not be in a limited sideboard, but without a card database a
  sideboard entry cannot be told to be one: that rule is left to the judge. The
  format is the option ``deck_format`` (default premier).
- X-Wing "Zusammenstellung von Jägerstaffeln": at most ``squad_points`` (100 in the
  standard format), three different obstacles; "Schiffe verschiedener Fraktionen":
  every pilot of the squad's one faction; "Jägerstaffellisten": the declared total is
  the pilots' total.
- Armada "Flottenzusammenstellung": at most 400 points, at most 134 in squadrons, a
  commander and one objective of each category; "Flottenlisten": the declared totals
  are the entries' totals.
- LCG "Deckvoraussetzungen": each deck (light and dark side) one affiliation card and
  at least ten objective sets.
"""

from __future__ import annotations

from collections import Counter

from ledger.list_events import Violation
from projections.rulesets.deck_rules import DeckFormat
from projections.rulesets.decklists import ArmadaList, LcgList, LcgTeamList, SwuList, XWingList

PREMIER_COPIES, PREMIER_SIDEBOARD = 3, 10
XWING_OBSTACLES = 3
ARMADA_POINTS, ARMADA_SQUADRONS = 400, 134
ARMADA_OBJECTIVES = ("assault", "defense", "navigation")
LCG_OBJECTIVE_SETS = 10


def card_key(name: str) -> str:
    """A card as §2.3.1.1 counts copies: title and subtitle, whatever the art or foil;
    spacing around the ``|`` and letter case do not make another card."""
    return " | ".join(" ".join(part.split()).casefold() for part in name.split("|"))


class Found(list[Violation]):
    """The violations found so far, each added with its rule, section and message."""

    def add(self, rule: str, section: str, message: str) -> None:
        self.append(Violation(rule=rule, section=section, message=message))


def swu(ruleset: str, deck_format: DeckFormat, deck: SwuList) -> tuple[Violation, ...]:
    """The rules of the event's deck-building format (``deck_format``, swu-1.4 §2.3)."""
    name, fmt = deck_format.label, deck_format.name
    section = f"{ruleset} {deck_format.section}"
    found = Found()
    leaders, wanted = deck.all_leaders, 2 if fmt == "twin_suns" else 1
    if len(leaders) != wanted:
        plural = "s" if wanted > 1 else ""
        found.add(
            "leaders",
            section,
            f"{name} needs exactly {wanted} leader{plural}; the list names {len(leaders)}",
        )
    if deck.base is None:
        found.add("base", section, f"{name} needs exactly 1 base; the list names none")
    size = sum(e.count for e in deck.deck)
    minimum = 30 if deck_format.limited else 50
    if size < minimum:
        found.add(
            "deck_size", section, f"the draw deck has {size} cards; {name} needs at least {minimum}"
        )
    sideboard = sum(e.count for e in deck.sideboard)
    if fmt == "premier" and sideboard > PREMIER_SIDEBOARD:
        found.add(
            "sideboard_size",
            section,
            f"the sideboard has {sideboard} cards; at most {PREMIER_SIDEBOARD}",
        )
    if fmt == "twin_suns" and sideboard:
        found.add(
            "no_sideboard",
            section,
            f"Twin Suns allows no sideboard; the list has {sideboard} cards in it",
        )
    if fmt in ("premier", "twin_suns"):
        most = PREMIER_COPIES if fmt == "premier" else 1
        entries = [*deck.deck, *deck.sideboard] if fmt == "premier" else deck.deck
        where = "draw deck and sideboard" if fmt == "premier" else "the draw deck"
        copies: Counter[str] = Counter()
        shown: dict[str, str] = {}
        for e in entries:
            copies[card_key(e.card)] += e.count
            shown.setdefault(card_key(e.card), e.card)
        for key, n in copies.items():
            if n > most:
                found.add("copies", section, f"{shown[key]}: {n} copies in {where}; at most {most}")
    return tuple(found)


def xwing(ruleset: str, limit: int, deck: XWingList) -> tuple[Violation, ...]:
    build = f'{ruleset} "Zusammenstellung von Jägerstaffeln"'
    found = Found()
    if deck.points > limit:
        found.add("squad_points", build, f"the squad costs {deck.points} points; at most {limit}")
    total = sum(p.points for p in deck.pilots)
    if total != deck.points:
        found.add(
            "declared_points",
            f'{ruleset} "Jägerstaffellisten"',
            f"the pilots add up to {total} points; the list declares {deck.points}",
        )
    if len(deck.obstacles) != XWING_OBSTACLES:
        found.add(
            "obstacles", build, f"3 obstacles are required; the list names {len(deck.obstacles)}"
        )
    keys = Counter(card_key(o) for o in deck.obstacles)
    twice = sorted({o for o in deck.obstacles if keys[card_key(o)] > 1})
    if twice:
        found.add(
            "different_obstacles",
            build,
            f"each obstacle must differ; named more than once: {', '.join(twice)}",
        )
    for p in deck.pilots:
        if p.faction is not None and card_key(p.faction) != card_key(deck.faction):
            found.add(
                "one_faction",
                f'{ruleset} "Schiffe verschiedener Fraktionen"',
                f"{p.pilot} is {p.faction}; every pilot must be {deck.faction}",
            )
    return tuple(found)


def armada(ruleset: str, deck: ArmadaList) -> tuple[Violation, ...]:
    build, listed = f'{ruleset} "Flottenzusammenstellung"', f'{ruleset} "Flottenlisten"'
    found = Found()
    if deck.points > ARMADA_POINTS:
        found.add(
            "fleet_points", build, f"the fleet costs {deck.points} points; at most {ARMADA_POINTS}"
        )
    if deck.squadron_points > ARMADA_SQUADRONS:
        found.add(
            "squadron_points",
            build,
            f"squadrons cost {deck.squadron_points} points; at most {ARMADA_SQUADRONS}",
        )
    squadrons = sum(s.count * s.points for s in deck.squadrons)
    if squadrons != deck.squadron_points:
        found.add(
            "declared_points",
            listed,
            f"the squadrons add up to {squadrons} points; the list declares {deck.squadron_points}",
        )
    total = squadrons + sum(s.points for s in deck.ships)
    if total != deck.points:
        found.add(
            "declared_points",
            listed,
            f"ships and squadrons add up to {total} points; the list declares {deck.points}",
        )
    if deck.commander is None:
        found.add("commander", build, "a fleet needs a commander; the list names none")
    absent = [c for c in ARMADA_OBJECTIVES if getattr(deck.objectives, c) is None]
    if absent:
        found.add(
            "objectives", build, f"one objective of each category; missing {', '.join(absent)}"
        )
    return tuple(found)


def lcg(ruleset: str, deck: LcgList) -> tuple[Violation, ...]:
    section = f'{ruleset} "Deckvoraussetzungen"'
    found = Found()
    for side, half in (("light", deck.light), ("dark", deck.dark)):
        if half.affiliation is None:
            found.add(
                "affiliation",
                section,
                f"the {side}-side deck needs one affiliation card; the list names none",
            )
        sets = len(half.objective_sets)
        if sets < LCG_OBJECTIVE_SETS:
            found.add(
                "objective_sets",
                section,
                f"the {side}-side deck has {sets} objective sets; at least {LCG_OBJECTIVE_SETS}",
            )
    return tuple(found)


def lcg_team(ruleset: str, deck: LcgTeamList) -> tuple[Violation, ...]:
    """Each member's two decks under the singles deck rules, the member named: the team
    section keeps "Deckvoraussetzungen" (its own team-deck limits are in the game's
    rulebook, which is not among the regulations here)."""
    return tuple(
        v.model_copy(update={"message": f"{member}: {v.message}"})
        for member, half in sorted(deck.members.items())
        for v in lcg(ruleset, half)
    )
