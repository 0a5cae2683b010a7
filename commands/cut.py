"""The cut and the elimination rounds (swu-1.4 §4.1.2, swu-1.0 §4.1.2-4, X-Wing/Armada
"K.-o.-Runden", lcg-2.1d "Finalrunden").

The cut takes the top of the final Swiss standings (active players only) in seed
order. Where the ruleset has the uneven-cut rule (swu-1.0 §4.1.2) and players
tied on record straddle the cut line, an extra round among them (and, when they
are too few, the players just above them) leaves exactly the cut size; each
winner takes the better seed of the pair. An event without Swiss rounds starts
with elimination: every player enters in an order drawn from the seed, and the
byes go to the first places of the draw. When a cut may be made, and the next
elimination round paired, is the lifecycle's to say (``projections.lifecycle``).
"""

from __future__ import annotations

import random

from commands import models as m
from commands.context import Base, require
from ledger.events import CutMade, EventBase, RoundPaired
from projections.elimination import ENGINE, elimination_tables
from projections.lifecycle import cut_of, lifecycle
from projections.pairing import eligible_players
from projections.schedule import cut_size
from projections.standings import Standing, ruleset_of, swiss_standings
from projections.state import TournamentState


def make_cut(state: TournamentState, c: m.MakeCut, base: Base, seed: int) -> list[EventBase]:
    """The cut the lifecycle allows now, of the size given or the ruleset's."""
    steps = lifecycle(state)
    require(steps.cut_sized if c.size else steps.cut)
    rules = ruleset_of(state)
    fmt = rules.options.get("elimination") or "single"
    if not state.rounds:
        entrants = eligible_players(state)
        random.Random(seed).shuffle(entrants)
        return [CutMade(**base, size=len(entrants), seeds=tuple(entrants), format=fmt,
                        order="random")]  # fmt: skip
    size = c.size or cut_size(state)
    require(cut_of(state, size))
    ranked = [s for s in swiss_standings(state) if not s.dropped]
    playoff = uneven_playoff(ranked, size) if rules.uneven_cut else []
    seeds = [s.player for s in ranked[:size]]
    return [CutMade(**base, size=size, seeds=tuple(seeds), format=fmt,
                    playoff=tuple(playoff))]  # fmt: skip


def uneven_playoff(ranked: list[Standing], size: int) -> list[tuple[str, str]]:
    """swu-1.0 §4.1.2: the extra round when players tied on record straddle the cut line.

    With m tied players and s places left for them, k = m - s matches give exactly
    the cut size: the bottom 2k players from the last tied one up play, which pulls in
    better-ranked players when the tied ones alone are too few ("even pulling in a
    player with a better record"). Rank (last-2k+1) plays rank last, and so on.
    """
    line = ranked[size - 1].scores.record
    tied = [i for i, s in enumerate(ranked, start=1) if s.scores.record == line]
    first, last = tied[0], tied[-1]
    if last <= size:
        return []
    k = len(tied) - (size - first + 1)
    top = last - 2 * k + 1
    return [(ranked[top - 1 + t].player, ranked[last - 1 - t].player) for t in range(k)]


def pair_elimination(state: TournamentState, base: Base) -> list[EventBase]:
    """The next elimination round: every bracket match whose players are known (the
    lifecycle's ``pair`` says whether there is one)."""
    _, tables = elimination_tables(state)
    return [RoundPaired(**base, round=len(state.rounds) + 1, stage="elimination", method="auto",
                        engine=ENGINE, ruleset=state.ruleset, pairings=tables)]  # fmt: skip
