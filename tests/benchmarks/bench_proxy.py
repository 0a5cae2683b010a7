"""Standings and the public page of the 2,048-player, 11-round benchmark event through
Debian's nginx with the shipped site (``deploy/nginx/tledger.conf``), in front of two
``tledger serve`` processes on one PostgreSQL database versus in front of one, each
against ``/healthz`` through the same proxy in the same run.

Appends the event of ``bench_standings.py`` (with a registry name per player) to a fresh
PostgreSQL database (``TLEDGER_TEST_POSTGRES``), starts two ``tledger serve`` processes
on it and two nginx: one whose upstream is both processes, one whose upstream is the
first only. Each process folds the event and renders the page once before the clock
starts (a request to each, directly). Then, for one process and for two, CLIENTS
keep-alive clients each with their own reader token send GET
/tournaments/big/standings back to back for SECONDS, then GET /t/big, both with
``Accept-Encoding: gzip`` as browsers, httpx and requests ask by default, then the
standings without it (a client that does not take gzip; printed, no target), then GET
/healthz. Each phase prints requests/s, p50/p99 latency and CPU
(the "server" CPU of these lines is nginx's own process; the ``serve`` processes'
shows in the lines after each phase).

Each setup is measured twice, in the order one, two, two, one, so that a drift in the
machine's load weighs on both alike. Prints, per read, two processes/one (the ratio of
the mean rates), and each read/healthz per upstream (target at least 0.5). On a machine
with two cores the load generator, nginx and the processes share them, so the ratio
says what a second process adds here, not what it adds on a machine of its own. Not a
timed test; every loop is bounded in count and time. ``--small``: the sizes of
``bench_read_load.py --small``, each setup once. Without nginx or
``TLEDGER_TEST_POSTGRES`` it says why and measures nothing.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # tests.nginx, tests.stores
from bench_read_load import CLIENTS, MAX_PER_CLIENT, SECONDS, TOURNAMENT, WARMUP_SECONDS, prepare
from bench_standings import PLAYERS, ROUNDS
from loadgen import Phase, hammer
from served import Server, bearer, cpu_seconds, tokens
from sizes import SMALL

from tests.nginx import Nginx, Serve, missing, nginx, processes
from tests.stores import fresh_postgres_database

TARGET_SHARE = 0.5
#: each setup measured this often, the order alternating
TURNS = 1 if SMALL else 2
STANDINGS = f"/tournaments/{TOURNAMENT}/standings"
PAGE = f"/t/{TOURNAMENT}"
READS = {"standings": STANDINGS, "public page": PAGE}
#: the standings asked for without gzip (a client that does not take it): shown, no target
PLAIN = "standings, plain"


def as_server(proxy: Nginx) -> Server:
    """The proxy as the load generator's target (its port; its process for the CPU)."""
    return Server(proxy.process, proxy.port, proxy.folder / "error.log")


async def warm(started: Sequence[Serve], secret: str) -> None:
    """Each process folds the event and renders the page once, directly."""
    for serve in started:
        assert serve.process is not None
        direct = Server(serve.process, serve.port, serve.log)
        for path in READS.values():
            cold = Phase("cold")
            began = time.perf_counter()
            await hammer(direct, cold, path, [bearer(secret)], 600.0, 1)
            if cold.good != 1:
                raise RuntimeError(f"{path} on port {serve.port}: {cold.errors}")
            print(f"cold {path} on process {serve.port}: "
                  f"{(time.perf_counter() - began) * 1000:.0f} ms", flush=True)  # fmt: skip


async def measure(proxy: Nginx, label: str, started: Sequence[Serve],
                  secrets: list[str]) -> dict[str, float]:  # fmt: skip
    """Requests/s of each read and of /healthz through ``proxy``."""
    server = as_server(proxy)
    headers = [bearer(s) for s in secrets]
    zipped = [{**h, "Accept-Encoding": "gzip"} for h in headers]
    rates = {}
    for name, path, asked in (("standings", STANDINGS, zipped), ("public page", PAGE, zipped),
                              (PLAIN, STANDINGS, headers),
                              ("healthz", "/healthz", headers)):  # fmt: skip
        await hammer(server, Phase("warm-up"), path, asked, WARMUP_SECONDS, MAX_PER_CLIENT)
        before = [cpu_seconds(s.pid) for s in processes_of(started)]
        phase = Phase(f"{name} through nginx, {label}, {CLIENTS} clients")
        await hammer(server, phase, path, asked, SECONDS, MAX_PER_CLIENT)
        print(phase.summary(), flush=True)
        wall = phase.meter.wall if phase.meter else 1.0
        spent = [cpu_seconds(s.pid) - b for s, b in zip(processes_of(started), before, strict=True)]
        print("  serve CPU: " + ", ".join(f"{c / wall:.0%}" for c in spent) + " of one core",
              flush=True)  # fmt: skip
        for error in phase.errors:
            print(f"  {error}")
        rates[name] = phase.rate
    return rates


def processes_of(started: Sequence[Serve]) -> list[Serve]:
    return [s for s in started if s.process is not None]


def verdict(one: dict[str, float], two: dict[str, float]) -> None:
    for read in (*READS, PLAIN):
        ratio = two[read] / one[read] if one[read] else 0.0
        print(f"{read} through nginx, two processes/one: {ratio:.2f}x "
              f"({two[read]:.1f} vs {one[read]:.1f} requests/s)")  # fmt: skip
        for label, rates in (("one process", one), ("two processes", two)):
            share = rates[read] / rates["healthz"] if rates["healthz"] else 0.0
            holds = "met" if share >= TARGET_SHARE else "NOT met"
            target = f"target >= {TARGET_SHARE}: {holds}" if read in READS else "no target"
            print(f"  {read}/healthz, {label}: {share:.3f} ({target})")


def main() -> None:
    reason = missing()
    if reason is not None:
        print(f"skipped: {reason}")
        return
    with (
        tempfile.TemporaryDirectory(prefix="tledger-proxy-") as name,
        fresh_postgres_database(os.environ["TLEDGER_TEST_POSTGRES"]) as store,
    ):
        folder = Path(name)
        began = time.perf_counter()
        count = prepare(store)
        secrets = tokens(store, "reader", TOURNAMENT, CLIENTS)
        print(f"store: {count} events of a {PLAYERS}-player, {ROUNDS}-round event on "
              f"PostgreSQL, {CLIENTS} reader tokens, in {time.perf_counter() - began:.1f} s",
              flush=True)  # fmt: skip
        with (
            processes(store, 2, folder / "serve") as started,
            nginx([started[0].port], folder / "one") as one_proxy,
            nginx([s.port for s in started], folder / "two") as two_proxy,
        ):
            asyncio.run(warm(started, secrets[0]))
            setups = {
                "one process": (one_proxy, started[:1]),
                "two processes": (two_proxy, started),
            }
            rates: dict[str, list[dict[str, float]]] = {label: [] for label in setups}
            for turn in range(TURNS):  # one, two, then two, one
                order = list(setups) if turn % 2 == 0 else list(reversed(setups))
                for label in order:
                    proxy, behind = setups[label]
                    rates[label].append(asyncio.run(measure(proxy, label, behind, secrets)))
        verdict(mean(rates["one process"]), mean(rates["two processes"]))


def mean(turns: list[dict[str, float]]) -> dict[str, float]:
    """Requests/s of each phase, averaged over the turns."""
    return {name: sum(t[name] for t in turns) / len(turns) for name in turns[0]}


if __name__ == "__main__":
    main()
