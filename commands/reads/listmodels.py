"""The read model of published lists: typed like every read model
(:mod:`commands.reads.models`), built by :mod:`commands.reads.listviews`, so that a face only
renders it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from commands.reads.models import ReadModel, unset
from projections.rulesets.deckcompare import ListDifference


class PublishedList(ReadModel):
    """One player's list in force, with the hash its event recorded and the salt it was
    hashed with: anyone recomputes SHA-256 over the salt's bytes (``salt`` is hex)
    followed by ``list``'s canonical JSON (sorted keys, no whitespace, UTF-8) and
    compares it with ``list_hash`` and with the event at ``seq`` (``corrected``: a
    judge's ``list_corrected``, else the last ``list_submitted``). A list recorded before
    salts has no ``salt`` (in the JSON only when there is one): its hash is of the
    canonical JSON alone."""

    player: str
    name: str
    seq: int
    list_hash: str
    salt: str | None = Field(None, exclude_if=unset)
    corrected: bool
    list: dict[str, Any]


class PublishedLists(ReadModel):
    """The lists that may be shown now: every list after the event (``scope`` "event",
    swu-1.4 §7.1), or the top cut's while it runs (``scope`` "top_cut", swu-1.4
    §4.6.1); ``section`` cites the rule (none where the regulation says nothing)."""

    tournament: str
    ruleset: str
    scope: Literal["event", "top_cut"]
    section: str | None
    seq: int
    head: str
    lists: list[PublishedList]


class ListViolation(ReadModel):
    """A rule the list breaks, with its section and the message naming the cards (the
    event only counts it: ledger.list_events)."""

    rule: str
    section: str
    message: str


class DeckCheckComparison(ReadModel):
    """A deck check that recorded what was presented, for officials: the event's seq,
    round, timing and outcome, the presented list and its hash, the list in force it
    was compared with (``compared_seq``, ``compared_hash``; none: ``note`` says so) and
    every difference with card names (the event only counts them)."""

    seq: int
    player: str
    round: int
    timing: str
    outcome: str
    presented_hash: str
    presented_salt: str | None = Field(None, exclude_if=unset)
    presented: dict[str, Any]
    compared_seq: int | None
    compared_hash: str | None
    note: str | None
    differences: list[ListDifference]


#: (the name ``list`` is a field of OfficialList)
Comparisons = list[DeckCheckComparison]


class OfficialList(ReadModel):
    """One player's list in force as an official sees it at any time (a deck check
    compares the deck with it): the list, its hash and seq as in :class:`PublishedList`,
    whether lists are locked, and the full violations."""

    tournament: str
    player: str
    name: str
    seq: int
    list_hash: str
    salt: str | None = Field(None, exclude_if=unset)
    corrected: bool
    locked: bool
    violations: list[ListViolation]
    list: dict[str, Any]
    #: the player's deck checks with what was presented, oldest first
    deck_checks: Comparisons = Field(default_factory=lambda: [])
