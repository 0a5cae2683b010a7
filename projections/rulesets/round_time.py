"""How long a match may last: each ruleset declares its round times, and the round
clock (``projections.clock``) reads them.

A round's time runs from its ``round_started`` event. ``swiss`` and ``elimination``
are the minutes of a round of that stage; ``final`` those of the final match (the
bracket's last match: X-Wing/Armada "K. o.-Runde im Finale", the LCG
"Final-Begegnung", which has no limit at all). ``None`` means no limit: the match
has no end time.

A deck check during a match (before game 1 or between games) gives the match back
the time it took plus ``deck_check_extra`` minutes (swu-1.4 §6: "Zusätzlich sollten
noch 3 Minuten extra gewährt werden, damit die Spieler ihre Decks wieder mischen
können"); ``None`` where deck checks never interrupt a match (lcg-2.1d checks only
after it). ``record_deck_check`` turns that into a ``time_extension_granted`` event,
so the clock counts it once, with every other extension of the match.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.events import Stage

#: swu-1.4 §6: the extra minutes for shuffling after a deck check during a match
SHUFFLE_MINUTES = 3


@dataclass(frozen=True, slots=True)
class RoundTime:
    """A ruleset's round times in minutes (None: no limit) and where its document sets
    them (``section``, cited by the faces)."""

    swiss: int | None
    elimination: int | None
    final: int | None
    section: str
    deck_check_extra: int | None = SHUFFLE_MINUTES

    def minutes(self, stage: Stage, bracket: str | None = None) -> int | None:
        """The time limit of one match: a final match (``bracket`` "final") has the
        final's, any other match that of its stage."""
        if stage == "swiss":
            return self.swiss
        return self.final if bracket == "final" else self.elimination
