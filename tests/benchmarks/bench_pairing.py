"""Pair simulated SWU events of 512, 2,048 and 8,192 players for all Swiss rounds.

Random results include drawn matches and a few drops each round. Prints the
time of every round's pairing (the engine call on the folded state, standings
included), and in the same run the baseline: the standings alone of the same state,
which every pairing needs first. Targets on this 2-core machine: every 2,048-player
round under 0.5 s, every 8,192-player round under 3 s. For comparison, a dense
blossom matching in JavaScript needs 1.4-2.9 s per round at 512 players and
100-200 s at 2,048. Not a timed test. Sizes are arguments (``bench_pairing.py 512``);
``--small``: 64 players.
"""

from __future__ import annotations

import random
import sys
import time
from datetime import UTC, datetime

from sizes import SMALL

from ledger.chain import GENESIS
from ledger.events import (
    ORGANIZER,
    EventBase,
    MatchResult,
    PlayerDropped,
    PlayerRegistered,
    ResultReported,
    RoundPaired,
    RoundStarted,
    TournamentCreated,
)
from ledger.store import Recorded
from projections.pairing import ENGINE, pair_swiss
from projections.rulesets import ruleset
from projections.standings import standings
from projections.state import TournamentState, evolve

AT = datetime(2026, 3, 1, 9, tzinfo=UTC)
BASE = {"tournament": "sim", "at": AT, "actor": ORGANIZER, "prev_hash": GENESIS}
RESULTS = [((2, 0), 0), ((2, 1), 0), ((1, 2), 0), ((0, 2), 0), ((1, 1), 1), ((0, 0), 3)]


class Log:
    """Applies literal events to one state, as the handler's cached fold does."""

    def __init__(self) -> None:
        self.state = TournamentState()
        self.seq = 0

    def add(self, event: EventBase) -> None:
        self.seq += 1
        evolve(self.state, Recorded(self.seq, self.seq, event))  # type: ignore[arg-type]


def simulate(players: int, seed: int) -> tuple[list[float], list[float]]:
    """Seconds of each round's pairing, and of the standings alone of the same state."""
    rng = random.Random(seed)
    log = Log()
    log.add(TournamentCreated(**BASE, name="Sim", ruleset="swu-1.4",
                              options={"format": "bo3", "tier": "competitive", "compat": None},
                              seed=seed))  # fmt: skip
    for i in range(players):
        log.add(PlayerRegistered(**BASE, player=f"p{i:05d}"))
    rounds = ruleset("swu-1.4").rounds_planned(players)
    times, baseline = [], []
    for number in range(1, rounds + 1):
        started = time.perf_counter()
        standings(log.state)
        baseline.append(time.perf_counter() - started)
        started = time.perf_counter()
        tables = pair_swiss(log.state, seed + number)
        times.append(time.perf_counter() - started)
        log.add(RoundPaired(**BASE, round=number, method="auto", seed=seed + number,
                            engine=ENGINE, pairings=tables))  # fmt: skip
        log.add(RoundStarted(**BASE, round=number))
        for t in tables:
            if len(t.players) == 2:
                games, draws = rng.choice(RESULTS)
                result = MatchResult(games=games, draws=draws)
                log.add(ResultReported(**BASE, round=number, players=t.players, result=result))  # type: ignore[arg-type]
        active = log.state.active_players
        for dropped in rng.sample(active, max(1, players // 200)):
            log.add(PlayerDropped(**BASE, player=dropped))
    return times, baseline


def main() -> None:
    given = [int(a) for a in sys.argv[1:] if a != "--small"]
    for players in given or ([64] if SMALL else [512, 2048, 8192]):
        times, baseline = simulate(players, seed=players)
        shown = " ".join(f"{t:.3f}" for t in times)
        print(f"{players:>5} players, {len(times)} rounds: max {max(times):.3f} s, "
              f"mean {sum(times) / len(times):.3f} s; per round: {shown}", flush=True)  # fmt: skip
        print(f"{players:>5} players, baseline: standings alone max {max(baseline):.3f} s, "
              f"mean {sum(baseline) / len(baseline):.3f} s; pairing / standings "
              f"{sum(times) / sum(baseline):.1f}x", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
