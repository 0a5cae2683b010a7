"""The public page of the 2,048-player, 11-round benchmark event under 2,000 phones'
worth of refreshes: GET /t/big from 20 concurrent keep-alive clients on one
``tledger serve`` process, against ``/healthz`` in the same run (a read side that must
hold when 2,000 players refresh their phones between rounds).

Appends the event of ``bench_standings.py`` with a registry name per player to a fresh
SQLite store and starts ``tledger serve`` on it (no token: the page is public). After
one cold request and a warm-up, the clients send GET /t/big back to back for SECONDS:
the whole page (1,024 tables and 2,048 standings rows, rendered once per seq and
served from the cache), gzipped as browsers ask, then plain; then a search
(GET /t/big?q=Player+0042, "where do I play?"); then /healthz; a last phase sends the
page's ETag back as If-None-Match (a phone refreshing an unchanged page: 304). Prints
requests/s, p50/p99 latency and CPU per phase, and page/healthz. Not a timed test;
every loop is bounded in count and time. ``--small``: the sizes of
``bench_read_load.py --small``.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path

from bench_read_load import (
    CLIENTS,
    CONDITIONAL_SECONDS,
    MAX_PER_CLIENT,
    SECONDS,
    TOURNAMENT,
    WARMUP_SECONDS,
    prepare,
)
from bench_standings import PLAYERS, ROUNDS
from loadgen import Phase, get, hammer
from served import Server, serve

LAST_PLAYER = f"Player {PLAYERS - 1:04d}".encode()
PAGE = f"/t/{TOURNAMENT}"
SEARCH = f"/t/{TOURNAMENT}?q=Player+0042"


async def cold(server: Server) -> str | None:
    """The first page request (the server folds the log and renders); its ETag."""
    started = time.perf_counter()
    response = await get(server, PAGE, {})
    if response.status != 200 or LAST_PLAYER not in response.body:
        raise RuntimeError(f"the public page answered {response.status} without every player")
    print(f"cold page: {(time.perf_counter() - started) * 1000:.0f} ms, "
          f"{len(response.body) / 1024:.0f} KiB", flush=True)  # fmt: skip
    return response.headers.get("etag")


async def measure(server: Server) -> None:
    plain: list[dict[str, str]] = [{} for _ in range(CLIENTS)]
    phones = [{"Accept-Encoding": "gzip"} for _ in range(CLIENTS)]  # as every browser asks
    etag = await cold(server)
    await hammer(server, Phase("warm-up"), PAGE, phones, WARMUP_SECONDS, MAX_PER_CLIENT)
    page = await hammer(server, Phase(f"public page (gzip), {CLIENTS} clients"), PAGE, phones,
                        SECONDS, MAX_PER_CLIENT)  # fmt: skip
    print(page.summary(), flush=True)
    whole = await hammer(server, Phase(f"public page (plain), {CLIENTS} clients"), PAGE, plain,
                         SECONDS, MAX_PER_CLIENT)  # fmt: skip
    print(whole.summary(), flush=True)
    search = await hammer(server, Phase(f"public page searched, {CLIENTS} clients"), SEARCH,
                          phones, SECONDS, MAX_PER_CLIENT)  # fmt: skip
    print(search.summary(), flush=True)
    await hammer(server, Phase("warm-up"), "/healthz", plain, WARMUP_SECONDS, MAX_PER_CLIENT)
    healthz = await hammer(server, Phase(f"healthz, {CLIENTS} clients"), "/healthz", plain,
                           SECONDS, MAX_PER_CLIENT)  # fmt: skip
    print(healthz.summary(), flush=True)
    if etag is not None:
        conditional = Phase("public page with If-None-Match", ok=frozenset({304}))
        await hammer(server, conditional, PAGE, [{"If-None-Match": etag}] * CLIENTS,
                     CONDITIONAL_SECONDS, MAX_PER_CLIENT)  # fmt: skip
        print(conditional.summary(), flush=True)
    for phase in (page, whole, search, healthz):
        for error in phase.errors:
            print(f"  {phase.name}: {error}")
    share = page.rate / healthz.rate if healthz.rate else 0.0
    print(f"public page/healthz: {share:.3f}; page {page.rate:.1f} requests/s, "
          f"searched {search.rate:.1f} requests/s")  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tledger-public-") as name:
        folder = Path(name)
        store = f"sqlite:///{folder / 'public.sqlite3'}"
        count = prepare(store)
        print(f"store: {count} events of a {PLAYERS}-player, {ROUNDS}-round event", flush=True)
        with serve(store, folder / "server.log") as server:
            asyncio.run(measure(server))


if __name__ == "__main__":
    main()
