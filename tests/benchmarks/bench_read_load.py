"""Standings of the 2,048-player, 11-round benchmark event from 20 concurrent clients on one
``tledger serve`` process, against ``/healthz`` in the same run.

Appends the event of ``bench_standings.py`` (with a registry name per player, so the name
join is paid) to a fresh SQLite store, starts ``tledger serve`` on it, and gives each of
CLIENTS keep-alive connections its own reader token. After one cold request and a
warm-up, the clients send GET /tournaments/big/standings back to back for SECONDS, then
GET /healthz the same way. When the standings answer carries an ``ETag``, a third phase
sends it back as ``If-None-Match`` (a phone refreshing an unchanged page: 304).

Prints requests/s, p50/p99 latency, the server's and this client's CPU per phase, and the
ratio standings/healthz. Targets: at least 500 standings requests/s, and at least half
the /healthz rate. Not a timed test; every loop is bounded in count and time.
``--small``: the smaller event of ``bench_standings.py --small``, 4 clients, phases of
a fraction of a second.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

import orjson
from bench_standings import PLAYERS, ROUNDS, build
from loadgen import Phase, get, hammer
from served import Server, bearer, serve, tokens
from sizes import SMALL

from ledger.chain import GENESIS, seal
from ledger.store import PlayerEntry
from ledger.url import open_store

TOURNAMENT = "big"  # the id bench_standings.build gives its event
CLIENTS = 4 if SMALL else 20
WARMUP_SECONDS = 0.1 if SMALL else 2.0
SECONDS = 0.3 if SMALL else 10.0
CONDITIONAL_SECONDS = 0.2 if SMALL else 5.0
MAX_PER_CLIENT = 100_000
TARGET_RATE = 500.0
TARGET_SHARE = 0.5


def prepare(store: str) -> int:
    """The benchmark event and its players' names, appended in one transaction."""
    sealed = seal(build(PLAYERS, ROUNDS), GENESIS)
    names = [PlayerEntry(TOURNAMENT, f"p{i}", f"Player {i:04d}", None) for i in range(PLAYERS)]
    opened = open_store(store)
    try:
        opened.append(TOURNAMENT, sealed, expected_version=0, players=names)
    finally:
        opened.close()
    return len(sealed)


async def cold(server: Server, path: str, headers: dict[str, str]) -> tuple[str | None, int]:
    """The first standings request (the server folds the log); its ETag and row count."""
    started = time.perf_counter()
    response = await get(server, path, headers)
    rows = len(orjson.loads(response.body)["standings"])
    print(f"cold request: {(time.perf_counter() - started) * 1000:.0f} ms, {rows} rows, "
          f"{len(response.body) / 1024:.0f} KiB", flush=True)  # fmt: skip
    return response.headers.get("etag"), rows


async def measure(server: Server, secrets: list[str]) -> None:
    path = f"/tournaments/{TOURNAMENT}/standings"
    headers = [bearer(s) for s in secrets]
    etag, rows = await cold(server, path, headers[0])
    if rows != PLAYERS:
        raise RuntimeError(f"standings list {rows} players, not {PLAYERS}")
    await hammer(server, Phase("warm-up"), path, headers, WARMUP_SECONDS, MAX_PER_CLIENT)
    standings = await hammer(server, Phase(f"standings, {CLIENTS} clients"), path, headers,
                             SECONDS, MAX_PER_CLIENT)  # fmt: skip
    print(standings.summary(), flush=True)
    await hammer(server, Phase("warm-up"), "/healthz", headers, WARMUP_SECONDS, MAX_PER_CLIENT)
    healthz = await hammer(server, Phase(f"healthz, {CLIENTS} clients"), "/healthz", headers,
                           SECONDS, MAX_PER_CLIENT)  # fmt: skip
    print(healthz.summary(), flush=True)
    if etag is None:
        print("conditional standings: skipped (the answer carries no ETag)")
    else:
        revalidate = [{**h, "If-None-Match": etag} for h in headers]
        conditional = Phase("standings with If-None-Match", ok=frozenset({304}))
        await hammer(server, conditional, path, revalidate, CONDITIONAL_SECONDS, MAX_PER_CLIENT)
        print(conditional.summary(), flush=True)
    for phase in (standings, healthz):
        for error in phase.errors:
            print(f"  {phase.name}: {error}")
    verdict(standings.rate, healthz.rate)


def met(holds: bool) -> str:
    return "met" if holds else "NOT met"


def verdict(standings: float, healthz: float) -> None:
    share = standings / healthz if healthz else 0.0
    print(f"standings/healthz: {share:.3f} (target >= {TARGET_SHARE}: "
          f"{met(share >= TARGET_SHARE)}); standings {standings:.1f} requests/s "
          f"(target >= {TARGET_RATE:.0f}: {met(standings >= TARGET_RATE)})")  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tledger-read-") as name:
        folder = Path(name)
        store = f"sqlite:///{folder / 'read.sqlite3'}"
        started = time.perf_counter()
        count = prepare(store)
        secrets = tokens(store, "reader", TOURNAMENT, CLIENTS)
        took = time.perf_counter() - started
        print(f"store: {count} events of a {PLAYERS}-player, {ROUNDS}-round event, "
              f"{CLIENTS} reader tokens, in {took:.1f} s", flush=True)  # fmt: skip
        with serve(store, folder / "server.log") as server:
            asyncio.run(measure(server, secrets))


if __name__ == "__main__":
    main()
