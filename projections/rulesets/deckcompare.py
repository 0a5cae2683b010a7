"""What a deck check finds: the list in force against the deck presented.

A deck check compares what a player presents with the list that was locked (swu-1.4
§6 deck checks; lcg-2.1d "Decküberprüfung"); the penalty that follows stays the
judge's decision (``issue_penalty``, or the outcome of ``record_deck_check``), so this
module only *finds* differences, entry by entry and zone by zone:

- SWU: by title and subtitle (``Name | Subtitle``, as §2.3.1.1 counts copies: case and
  spacing make no other card) in the zones ``leader``, ``base``, ``deck`` and
  ``sideboard``; a card moved from the deck to the sideboard differs in both zones.
  In a limited event (draft, sealed) "dürfen die Spieler zwischen den Partien
  jederzeit ihr Deck verändern" (swu-1.4 §2.3.2 note; swu-1.0 §2.3.2 "at any time in
  between games"), so the draw deck and the sideboard are compared as one zone,
  ``pool``: a card moved between them is no difference, a card not in the pool is.
  Leader and base are still compared on their own (the note speaks of the deck; a
  judge decides whether another leader from the player's product was allowed).
- The other games by their shapes' zones (``DeckList.zones`` in
  :mod:`projections.rulesets.decklists`): X-Wing's pilots, upgrades and obstacles, Armada's
  ships, squadrons and objectives, each LCG side's affiliation and objective sets.

Declared points are not compared: they follow from the entries, which are. Pure: two
lists of one game's shape in, the differences out, in zone order then list order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ledger.list_events import DifferenceCount
from projections.rulesets.decklists import DeckList
from projections.rulesets.list_rules import card_key

DifferenceKind = Literal["missing", "extra", "count"]


class ListDifference(BaseModel):
    """One entry a deck check found different: its zone, whether it is ``missing`` from
    the deck, ``extra`` in it or there in another ``count``, its name as written, and its
    count in the list and in the deck."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    zone: str
    kind: DifferenceKind
    entry: str
    listed: int
    presented: int


def compare(listed: DeckList, presented: DeckList, *, pooled: bool = False) -> list[ListDifference]:
    """Every entry whose count differs between the list in force and the deck presented
    (0: absent); both lists are of one game's shape (one ruleset). ``pooled``: an SWU
    limited event, whose draw deck and sideboard are one pool (module docstring)."""
    found: list[ListDifference] = []
    pairs = zip(listed.zones(pooled), presented.zones(pooled), strict=True)
    for (zone, was), (_, now) in pairs:
        listed_counts, names = tally(was)
        presented_counts, presented_names = tally(now)
        for key, name in presented_names.items():
            names.setdefault(key, name)
        for key, name in names.items():
            a, b = listed_counts.get(key, 0), presented_counts.get(key, 0)
            if a != b:
                kind = "extra" if a == 0 else "missing" if b == 0 else "count"
                found.append(ListDifference(zone=zone, kind=kind, entry=name, listed=a,
                                            presented=b))  # fmt: skip
    return found


def summary(found: Sequence[ListDifference]) -> tuple[DifferenceCount, ...]:
    """What the event records: per (zone, kind), in the order first found, how many
    entries differ; no card names."""
    counts: dict[tuple[str, DifferenceKind], int] = {}
    for d in found:
        counts[(d.zone, d.kind)] = counts.get((d.zone, d.kind), 0) + 1
    return tuple(DifferenceCount(zone=z, kind=k, count=n) for (z, k), n in counts.items())


def tally(entries: Iterable[tuple[str, int]]) -> tuple[dict[str, int], dict[str, str]]:
    """Counts by card key, and each key's name as first written."""
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    for name, count in entries:
        key = card_key(name)
        counts[key] = counts.get(key, 0) + count
        names.setdefault(key, name)
    return counts, names
