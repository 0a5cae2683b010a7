"""What both SWU regulations say about decks and lists, numbered alike in v1.0 and v1.4.

What the documents say:

- Deck-building formats (§2.3): Premier (§2.3.1.1), Twin Suns (§2.3.1.2) and the
  limited formats, draft and sealed (§2.3.2), whose decks are built at the event;
  a draft seats its players in pods (§2.3.2.1). The option ``deck_format`` chooses one.
- A list holds a leader, a base, a draw deck and a sideboard (§3.1.3); the rules of
  each format are :func:`projections.rulesets.list_rules.swu`.
- At competitive tier a constructed-format deck list is handed in "before the start
  of the event" (§3.1.3).
- Twin Suns "verwendet die Multiplayer-Regeln" of the Comprehensive Rules (§2.3.1.2)
  and "hat ... seine eigenen Regeln, was Rundenzeit, Ausgang eines Matches und
  Rundenanzahl anbelangt" (§4.2 note).

Our choices where they are silent or point elsewhere:

- Twin Suns' round and match rules are in a document the regulations here do not
  contain, so an event in that format is refused (``refusal``) rather than run by
  head-to-head rules it does not follow.
- The lists are due before the event at competitive tier only, the limited formats
  included: their lists are handed in after deck building, before round 1 starts.
- Deck builders write SWU lists as text (``commands.text.decklist_text``), so they
  are shown so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ledger.list_events import Violation
from projections.rulesets.base import Ruleset
from projections.rulesets.deck_rules import DeckFormat
from projections.rulesets.decklists import DeckList, SwuList, as_shape
from projections.rulesets.list_rules import swu

#: §2.3: the default (Premier) first
SWU_FORMATS = (
    DeckFormat("premier", "Premier", "§2.3.1.1"),
    DeckFormat("twin_suns", "Twin Suns", "§2.3.1.2", multiplayer=True),
    DeckFormat("draft", "Limited (draft)", "§2.3.2", limited=True, pods="§2.3.2.1"),
    DeckFormat("sealed", "Limited (sealed)", "§2.3.2", limited=True),
)


def spelled(value: Any, name: str) -> bool:
    """``twin-suns``, ``twin_suns``, ``Twin Suns``: the format ``name``, however spelt."""
    if not isinstance(value, str):
        return False
    return "".join(ch for ch in value.casefold() if ch.isalnum()) == name.replace("_", "")


class SwuDecks(Ruleset):
    """The SWU rulesets' lists and deck-building formats (module docstring)."""

    list_shape = SwuList
    deck_formats = SWU_FORMATS
    lists_as_text = True
    #: the options naming a format, either of which may name Twin Suns
    FORMAT_OPTIONS: ClassVar[tuple[str, ...]] = ("format", "deck_format")

    @classmethod
    def refusal(cls, options: Mapping[str, Any]) -> str | None:
        """A multiplayer format (Twin Suns) is refused, however its name is spelt."""
        for fmt in cls.deck_formats:
            if fmt.multiplayer and any(spelled(options.get(k), fmt.name)
                                       for k in cls.FORMAT_OPTIONS):  # fmt: skip
                run = [f.name for f in cls.deck_formats if not f.multiplayer]
                return (
                    f"{fmt.label} is a multiplayer format ({cls.id} {fmt.section}, §4.2 note): "
                    "its round and match rules are in the Comprehensive Rules (sections 11 "
                    "and 12), a document these regulations do not contain; this ledger runs "
                    f"{', '.join(run[:-1])} and {run[-1]}"
                )
        return None

    def list_violations(self, deck: DeckList) -> tuple[Violation, ...]:
        """The rules of the event's deck-building format (§2.3)."""
        assert self.deck_format is not None
        return swu(self.id, self.deck_format, as_shape(SwuList, deck))

    def lists_due(self) -> str | None:
        """At competitive tier only (§3.1.3)."""
        if self.options.get("tier") != "competitive":
            return None
        return self.list_schedule.due_before_event
