"""The cut is a line: once made, it stands, whatever a later correction changes.

A correction of a Swiss result after ``cut_made`` changes the standings but not the
bracket: the seeds were published and elimination may be under way. So that nobody
has to take that on trust, the audit shows who would have been seeded differently
by the corrected standings: the seeds as made beside the top of the standings now.
"""

from __future__ import annotations

from dataclasses import dataclass

from projections.standings import swiss_standings
from projections.state import TournamentState


@dataclass(frozen=True, slots=True)
class SeedChange:
    """Seed ``seed`` went to ``as_made``; the corrected standings would give it to
    ``now`` (``None``: fewer players qualify now)."""

    seed: int
    as_made: str
    now: str | None


def seeding_changes(state: TournamentState) -> list[SeedChange]:
    """The seeds the corrected Swiss standings would have given differently.

    Only a seeded cut from Swiss standings is compared: a cut drawn at random (an event
    that starts with elimination) has no standings behind it, and a cut with an extra
    playoff round (swu-1.0 §4.1.2) gave its seeds by games the standings cannot replay.
    Players who had left before the cut stay out, as they did when it was made.
    """
    cut = state.cut
    if cut is None or cut.order != "seeded" or cut.playoff:
        return []
    swiss = sum(r.stage == "swiss" for r in state.rounds)
    seeded = set(cut.seeds)

    def entered(player: str) -> bool:
        p = state.players[player]
        gone_before = (p.dropped or p.disqualified) and (p.dropped_after or 0) <= swiss
        return player in seeded or not gone_before

    now = [s.player for s in swiss_standings(state) if entered(s.player)][: cut.size]
    return [
        SeedChange(i, made, now[i - 1] if i <= len(now) else None)
        for i, made in enumerate(cut.seeds, start=1)
        if i > len(now) or now[i - 1] != made
    ]
