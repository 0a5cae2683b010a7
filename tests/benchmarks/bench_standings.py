"""Fold and standings of a 2,048-player, 11-round SWU event (target: well under 1 s).

Builds the log as literal events (registrations, paired rounds, one confirmed
result per match, a few drops), then times a fresh fold and full standings. The
baseline, in the same run: parsing the stored bytes of the same events (what any
reader of the log pays before it folds anything); the ratio is printed. Prints the
figures; not a timed test. ``--small``: a 256-player, 7-round event, one run.
"""

from __future__ import annotations

import random
import time
from datetime import UTC, datetime

from sizes import SMALL

from ledger.chain import GENESIS, seal
from ledger.events import (
    ORGANIZER,
    EventBase,
    MatchResult,
    PlayerDropped,
    PlayerRegistered,
    ResultReported,
    RoundPaired,
    RoundStarted,
    Table,
    TournamentCreated,
    loads,
)
from ledger.store import Recorded
from projections.standings import standings
from projections.state import fold

PLAYERS, ROUNDS = (256, 7) if SMALL else (2048, 11)
RUNS = 1 if SMALL else 3
AT = datetime(2026, 3, 1, 9, tzinfo=UTC)
RESULTS = [((2, 0), 0), ((2, 1), 0), ((1, 2), 0), ((0, 2), 0), ((1, 1), 1)]


def build(players: int, rounds: int, seed: int = 1) -> list[EventBase]:
    rng = random.Random(seed)
    base = {"tournament": "big", "at": AT, "actor": ORGANIZER}
    events: list[EventBase] = [TournamentCreated(**base, name="Big", ruleset="swu-1.4",
                                                 options={"format": "bo3", "tier": "competitive",
                                                          "compat": None}, seed=seed)]  # fmt: skip
    ids = [f"p{i}" for i in range(players)]
    events += [PlayerRegistered(**base, player=p) for p in ids]
    active = list(ids)
    for rnd in range(1, rounds + 1):
        rng.shuffle(active)
        pairs = [tuple(active[i : i + 2]) for i in range(0, len(active), 2)]
        tables = tuple(Table(table=n if len(p) == 2 else None, players=p)  # type: ignore[arg-type]
                       for n, p in enumerate(pairs, 1))  # fmt: skip
        events.append(RoundPaired(**base, round=rnd, method="manual", pairings=tables))
        events.append(RoundStarted(**base, round=rnd))
        for pair in pairs:
            if len(pair) == 2:
                games, draws = rng.choice(RESULTS)
                result = MatchResult(games=games, draws=draws)
                events.append(ResultReported(**base, round=rnd, players=pair, result=result))
        for dropped in rng.sample(active, 8):
            events.append(PlayerDropped(**base, player=dropped))
            active.remove(dropped)
    return events


def main() -> None:
    started = time.perf_counter()
    sealed = seal(build(PLAYERS, ROUNDS), GENESIS)
    log = [Recorded(n, n, s.event) for n, s in enumerate(sealed, 1)]
    print(f"built {len(log)} events in {time.perf_counter() - started:.2f} s")

    stored = [s.data for s in sealed]
    started = time.perf_counter()
    parsed = [loads(b) for b in stored]
    parse = time.perf_counter() - started
    print(f"baseline: parse stored bytes ({len(parsed)} events): {parse:.3f} s")

    totals = []
    for attempt in range(RUNS):
        started = time.perf_counter()
        state = fold(log)
        folded = time.perf_counter() - started
        rows = standings(state)
        totals.append(time.perf_counter() - started)
        print(f"run {attempt + 1}: fold {folded:.3f} s, fold + standings {totals[-1]:.3f} s "
              f"({len(rows)} players, {ROUNDS} rounds)")  # fmt: skip
    print(f"best fold + standings / parse of the same events: {min(totals) / parse:.2f}x")


if __name__ == "__main__":
    main()
