"""Standings: points, records and tiebreakers from the confirmed Swiss results.

Only confirmed results count (design: round lifecycle); elimination results
never change Swiss points. The last tiebreaker is random but fixed for the
event: a hash of the tournament's recorded seed and the player id, so it is
fair, reproducible and independent of process state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

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
                first, second = rules.outcomes((a, b), match.result)
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


def standings(state: TournamentState) -> list[Standing]:
    """Ranked standings of every registered player (dropped ones included, flagged)."""
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
