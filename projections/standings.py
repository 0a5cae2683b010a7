"""Standings: points, records and tiebreakers from the confirmed Swiss results.

Only confirmed results count (an official's report, or two players' matching
self-reports: ``projections.steps.settle``); elimination results never change
Swiss points. The last tiebreaker is random but fixed for the
event: a hash of the tournament's recorded seed and the player id, so it is
fair, reproducible and independent of process state.

After a cut the ranking reads the bracket (``projections.bracket``), which needs
nothing from here: the Swiss ranking is handed to it, so the two modules import
one way only.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from projections.bracket import resolve
from projections.rulesets import Outcome, Ruleset, Scores, ruleset
from projections.rulesets.base import deduction
from projections.state import TournamentState


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    scores: Scores
    dropped: bool


def ruleset_of(state: TournamentState) -> Ruleset:
    return ruleset(state.ruleset, state.options)


def swiss_records(state: TournamentState, rules: Ruleset) -> dict[str, list[Outcome]]:
    """Every registered player's Swiss outcomes, in round order."""
    records: dict[str, list[Outcome]] = {p: [] for p in state.players}
    missed = rules.unpaired_loss()
    for rnd in state.rounds:
        if rnd.stage != "swiss":
            continue
        if missed is not None:
            for player in state.players.values():
                if rnd.number in player.missed:
                    records[player.id].append(missed)
        for match in rnd.matches:
            if match.is_bye:
                records[match.players[0]].append(rules.bye())
            elif match.status == "confirmed" and match.result is not None:
                a, b = match.players
                scored = rules.effective((a, b), match.result, "swiss")
                first, second = rules.outcomes((a, b), scored)
                records[a].append(first)
                records[b].append(second)
    for player in state.players.values():
        if player.deductions:
            records[player.id].append(deduction(player.deductions))
    return records


def random_key(seed: int, player: str) -> int:
    """The recorded-seed tiebreaker: uniform over players, fixed for the event."""
    digest = hashlib.sha256(f"{seed}:{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def swiss_standings(state: TournamentState) -> list[Standing]:
    """Ranked Swiss standings of every registered player (dropped ones included, flagged)."""
    rules = ruleset_of(state)
    records = swiss_records(state, rules)
    scores = rules.scores(records)
    order = sorted(
        scores,
        key=lambda p: (tuple(-v for v in scores[p].key), random_key(state.seed, p)),
    )
    order = rules.order(order, scores, records)
    return [
        Standing(rank, p, scores[p], not state.players[p].active)
        for rank, p in enumerate(order, start=1)
    ]


def standings(state: TournamentState) -> list[Standing]:
    """The standings: after a cut, by elimination finish first (the champion, then those
    still in, then the later a player went out the better), then by Swiss rank. Points,
    records and tiebreakers stay the Swiss ones: elimination results never change them."""
    swiss = swiss_standings(state)
    if state.cut is None:
        return swiss
    bracket = resolve(state, ruleset_of(state), [s.player for s in swiss])
    out_in = last_elimination_round(state)
    alive, champion = bracket.alive(), bracket.champion

    def finish(s: Standing) -> tuple[int, int, int]:
        if s.player == champion:
            return (0, 0, s.rank)
        if s.player in alive:
            return (1, 0, s.rank)
        if s.player in out_in:
            return (2, -out_in[s.player], s.rank)
        return (3, 0, s.rank)

    ordered = sorted(swiss, key=finish)
    return [Standing(rank, s.player, s.scores, s.dropped) for rank, s in enumerate(ordered, 1)]


def last_elimination_round(state: TournamentState) -> dict[str, int]:
    """Each player's last elimination round with a match (or a bye)."""
    last: dict[str, int] = {}
    for rnd in state.rounds:
        if rnd.stage == "elimination":
            for match in rnd.matches:
                for p in match.players:
                    last[p] = rnd.number
    return last
