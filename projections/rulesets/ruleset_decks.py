"""What every ruleset declares about decks and lists (``RulesetDecks``, a base of
``Ruleset``): the shape of its lists and the rules they keep, its deck-building formats,
when lists are due and shown, and what a deck check may find and cost
(:mod:`projections.rulesets.deck_rules`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from ledger.events import MatchResult
from ledger.list_events import Violation
from projections.rulesets.deck_rules import DeckCheck, DeckFormat, ListSchedule
from projections.rulesets.deckcompare import ListDifference, compare
from projections.rulesets.decklists import DeckList, shaped


class RulesetDecks(ABC):
    """What every ruleset declares about decks and lists (a base of ``Ruleset``)."""

    id: ClassVar[str]
    options: dict[str, Any]
    #: The shape of the game's lists (``projections.rulesets.decklists``).
    list_shape: ClassVar[type[DeckList]]
    #: When lists are due and who may see them.
    list_schedule: ClassVar[ListSchedule]
    #: When a deck check happens and what an illegal deck costs.
    deck_check: ClassVar[DeckCheck]
    #: The deck-building formats the option ``deck_format`` chooses from, the default
    #: first (swu-1.4 §2.3); empty where a game builds its decks one way.
    deck_formats: ClassVar[tuple[DeckFormat, ...]] = ()
    #: Whether the game's deck builders write lists as text (SWU: ``Leader``, ``Base``,
    #: ``Deck``, ``Sideboard``; ``commands.text.decklist_text``), shown so.
    lists_as_text: ClassVar[bool] = False

    @property
    def deck_format(self) -> DeckFormat | None:
        """The event's deck-building format (option ``deck_format``, else the first
        declared); None where the game has no formats to choose from."""
        if not self.deck_formats:
            return None
        chosen = self.options.get("deck_format") or self.deck_formats[0].name
        return next(f for f in self.deck_formats if f.name == chosen)

    def read_list(
        self, data: dict[str, Any], kind: str = "submit_list", members: Sequence[str] = ()
    ) -> DeckList:
        """The list in the game's shape, or InvalidList naming the first problem;
        ``members``: a team's, whose decks a team event's list holds."""
        return shaped(self.list_shape, self.id, data, kind)

    @abstractmethod
    def list_violations(self, deck: DeckList) -> tuple[Violation, ...]:
        """Every rule of the regulation ``deck`` breaks (:mod:`projections.rulesets.list_rules`)."""

    def list_differences(self, listed: DeckList, presented: DeckList) -> list[ListDifference]:
        """What a deck check finds: the deck presented against the list in force, deck
        and sideboard as one pool in a limited format (swu-1.4 §2.3.2 note)."""
        fmt = self.deck_format
        return compare(listed, presented, pooled=fmt is not None and fmt.limited)

    def lists_due(self) -> str | None:
        """The section under which round 1's start locks the lists submitted
        (``ListSchedule.due_before_event``); None: only the organizer locks them."""
        return self.list_schedule.due_before_event

    def annulled(self, result: MatchResult, player: str) -> MatchResult:
        """The result once the games won with an illegal deck are annulled, where a deck
        check annuls them (``DeckCheck.annuls``); default: unchanged."""
        return result
