"""A simple valid Swiss pairing (the full engine is its own piece of work).

Round 1 is random; later rounds sort players by points, shuffle within each
score group, and pair top-down, backtracking to avoid rematches (swu-1.4
§4.1.1). The bye goes to the lowest-ranked player without one (random in round
1). Randomness comes only from the recorded seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ledger.events import Table
from projections.errors import NoValidPairing
from projections.standings import standings
from projections.state import TournamentState

ENGINE = "simple-1"


def eligible_players(state: TournamentState) -> list[str]:
    """Active players who may play the next round (late entrants from their first round)."""
    next_round = len(state.rounds) + 1
    return [p.id for p in state.players.values() if p.active and p.first_round <= next_round]


def previous_opponents(state: TournamentState) -> dict[str, set[str]]:
    met: dict[str, set[str]] = {p: set() for p in state.players}
    for rnd in state.rounds:
        for match in rnd.matches:
            if len(match.players) == 2:
                a, b = match.players
                met[a].add(b)
                met[b].add(a)
    return met


def had_bye(state: TournamentState) -> set[str]:
    return {m.players[0] for r in state.rounds for m in r.matches if m.is_bye}


def pair_swiss(state: TournamentState, seed: int) -> tuple[Table, ...]:
    """Pair the next Swiss round of ``state`` with randomness from ``seed``."""
    rng = random.Random(seed)
    players = eligible_players(state)
    if len(players) < 2:
        raise NoValidPairing(f"{len(players)} eligible player(s): a round needs at least two")
    points = {s.player: s.scores.points for s in standings(state)}
    rng.shuffle(players)
    ranked = sorted(players, key=lambda p: -points.get(p, 0.0))
    bye: str | None = None
    if len(ranked) % 2:
        bye = choose_bye(state, ranked, rng)
        ranked.remove(bye)
    pairs = pair_in_order(ranked, previous_opponents(state))
    if pairs is None:
        raise NoValidPairing(
            f"no pairing of {len(ranked)} players avoids a rematch (swu-1.4 §4.1.1); "
            "pair this round manually"
        )
    tables = [Table(table=i, players=pair) for i, pair in enumerate(pairs, start=1)]
    if bye is not None:
        tables.append(Table(table=None, players=(bye,)))
    return tuple(tables)


def choose_bye(state: TournamentState, ranked: Sequence[str], rng: random.Random) -> str:
    """Round 1: a random player; later the lowest-ranked player without a bye."""
    if not state.rounds:
        return rng.choice(list(ranked))
    byes = had_bye(state)
    for player in reversed(ranked):
        if player not in byes:
            return player
    return ranked[-1]


def pair_in_order(players: list[str], met: dict[str, set[str]]) -> list[tuple[str, str]] | None:
    """Pair the first player with the nearest one not met before, backtracking on failure."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        if other in met.get(first, set()):
            continue
        tail = pair_in_order(rest[:i] + rest[i + 1 :], met)
        if tail is not None:
            return [(first, other), *tail]
    return None
