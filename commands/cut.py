"""The cut and the elimination rounds (swu-1.4 §4.1.2, swu-1.0 §4.1.2-4, X-Wing/Armada
"K.-o.-Runden", lcg-2.1d "Finalrunden").

The cut takes the top of the final Swiss standings (active players only) in seed
order. Where the ruleset has the uneven-cut rule (swu-1.0 §4.1.2) and players
tied on record straddle the cut line, an extra round among them (and, when they
are too few, the players just above them) leaves exactly the cut size; each
winner takes the better seed of the pair. An event without Swiss rounds starts
with elimination: every player enters in an order drawn from the seed, and the
byes go to the first places of the draw.
"""

from __future__ import annotations

import random

from commands import models as m
from commands.context import Base
from commands.errors import RuleViolation, WrongPhase
from commands.teams import refuse_cut
from ledger.events import CutMade, EventBase, RoundPaired
from projections.elimination import ENGINE, elimination_tables
from projections.pairing import eligible_players
from projections.schedule import cut_size, players_present, rounds_planned
from projections.standings import Standing, ruleset_of, swiss_standings
from projections.state import TournamentState


def make_cut(state: TournamentState, c: m.MakeCut, base: Base, seed: int) -> list[EventBase]:
    refuse_cut(state)
    if state.cut is not None:
        raise WrongPhase("the cut is made already")
    current = state.current
    if current is not None and current.state != "complete":
        raise WrongPhase(f"round {current.number} is not complete")
    rules = ruleset_of(state)
    fmt = rules.options.get("elimination") or "single"
    if not state.rounds:
        entrants = eligible_players(state)
        random.Random(seed).shuffle(entrants)
        if len(entrants) < 2:
            raise RuleViolation("an elimination needs at least two players")
        return [CutMade(**base, size=len(entrants), seeds=tuple(entrants), format=fmt,
                        order="random")]  # fmt: skip
    present = players_present(state)
    played = sum(r.stage == "swiss" for r in state.rounds)
    planned = rounds_planned(state)
    if played < planned:
        raise WrongPhase(f"{played} of {planned} Swiss rounds are played; cut after the last")
    size = c.size or cut_size(state)
    if not size:
        raise RuleViolation(
            f"this event has no top cut ({state.ruleset}, {present} players at round 1); "
            "give a size to cut anyway"
        )
    ranked = [s for s in swiss_standings(state) if not s.dropped]
    if size > len(ranked):
        raise RuleViolation(f"a top {size} cut needs {size} active players; {len(ranked)} remain")
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
    """The next elimination round: every bracket match whose players are known."""
    bracket, tables = elimination_tables(state)
    if not tables:
        if bracket.champion:
            raise WrongPhase(f"the bracket is complete ({bracket.champion} won): finish it")
        raise WrongPhase("no elimination match is ready to be paired")
    return [RoundPaired(**base, round=len(state.rounds) + 1, stage="elimination", method="auto",
                        engine=ENGINE, ruleset=state.ruleset, pairings=tables)]  # fmt: skip
