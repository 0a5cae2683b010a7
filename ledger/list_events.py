"""The events of deck, squad and fleet lists: commitments, never the cards.

Every token that may read a tournament reads its events (``log``, ``/events``, the
streams), but lists are not shown to players before publication (swu-1.4 §7.1; the
top cut's while it runs, §4.6.1). So an event keeps only the player, the list's
``list_hash`` and, per broken rule, what names no card: the rule, its section and how
often it is broken. The list itself, the full violation messages and the list's salt
live in the side records ``tledger_lists``, written in the append's transaction
(:mod:`ledger.list_rows`), as the player registry keeps names out of the hashed log.
The hash lets anyone check that a published list is the one recorded.

The hash is salted: SHA-256 over the salt's bytes followed by the list's canonical
JSON (:func:`list_hash`). The salt is drawn at random for each list, kept beside it and
shown only with the list, so a reader of the log who guesses a list (a popular deck)
cannot confirm the guess against the event before the list is published. Lists
recorded before salts have none, and their hash is SHA-256 of the canonical JSON alone:
the same rule with an empty salt.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import Field

from ledger.event_base import EventBase, Frozen


class Violation(Frozen):
    """A rule a list breaks, with its section and a message that may name cards: kept
    beside the event (``tledger_lists``), shown to officials and on publication."""

    rule: str
    section: str
    message: str


class ViolationCount(Frozen):
    """What an event says of a broken rule: which, where, how often; no card names."""

    rule: str
    section: str
    count: int = Field(ge=1)


class DifferenceCount(Frozen):
    """What a deck-check event says of the differences between the list in force and
    the deck presented (:mod:`projections.rulesets.deckcompare`): in which zone, which kind
    (``missing``: listed, not presented; ``extra``: presented, not listed; ``count``:
    both, in other numbers) and how many entries; no card names."""

    zone: str
    kind: Literal["missing", "extra", "count"]
    count: int = Field(ge=1)


class ListSubmitted(EventBase):
    """A player's list, committed to by ``list_hash`` (the list: ``tledger_lists``)."""

    type: Literal["list_submitted"] = "list_submitted"
    version: Literal[1] = 1
    player: str
    list_hash: str
    violations: tuple[ViolationCount, ...] = ()


class ListsLocked(EventBase):
    """No more submissions, only corrections; ``missing``: players without a list then."""

    type: Literal["lists_locked"] = "lists_locked"
    version: Literal[1] = 1
    missing: tuple[str, ...] = ()
    reason: str | None = None


class ListCorrected(EventBase):
    """A locked list replaced by an official with a reason (``previous_hash``: none if the
    player had no list at locking); the new list is in ``tledger_lists``."""

    type: Literal["list_corrected"] = "list_corrected"
    version: Literal[1] = 1
    player: str
    list_hash: str
    previous_hash: str | None = None
    reason: str
    violations: tuple[ViolationCount, ...] = ()


def counted(found: Iterable[Violation]) -> tuple[ViolationCount, ...]:
    """The event's summary of full violations: one entry per (rule, section), in the
    order first found, with how many times it is broken."""
    counts: dict[tuple[str, str], int] = {}
    for v in found:
        counts[(v.rule, v.section)] = counts.get((v.rule, v.section), 0) + 1
    return tuple(ViolationCount(rule=r, section=s, count=n) for (r, s), n in counts.items())


def canonical(data: Any) -> bytes:
    """A list's canonical JSON: keys sorted, no whitespace, UTF-8, non-ASCII unescaped."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def list_hash(data: Any, salt: str = "") -> str:
    """SHA-256 over the bytes of ``salt`` (hex; empty for a list recorded before salts)
    followed by the canonical JSON: what the event records and anyone recomputes once
    the list and its salt are published. A salt that is not hex is a ValueError."""
    return hashlib.sha256(bytes.fromhex(salt) + canonical(data)).hexdigest()
