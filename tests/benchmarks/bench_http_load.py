"""Result reports over HTTP from concurrent clients, against SQLite and PostgreSQL.

Starts ``tledger serve`` as a subprocess on a free 127.0.0.1 port over a fresh SQLite
file, and over PostgreSQL when ``TLEDGER_TEST_POSTGRES`` is set (a tournament id of its
own). It makes tokens in-process on the server's store, sets up a 512-player tournament
over HTTP with round 1 paired and started, then:

- burst: 20 clients (threads, one httpx client each) report all 256 matches of round 1
  with a scorekeeper token, as at the end of a round;
- sustained: round 2 is paired and started, and the same 20 clients send players'
  self-reports for 10 s (each player of a match claims the win, so the match stays
  disputed and every report is appended);
- organizers: 20 organizer clients send warnings (``issue_penalty``, one small event
  each, valid any number of times) for 10 s, first each on a tournament of its own, then
  all on one tournament. These run on the asyncio keep-alive client of ``loadgen.py``,
  whose own CPU is small next to the server's (both are printed): on 2 cores a thread and
  an httpx client per connection would take the CPU the server needs.

The server's command rate limit per player token (by default 2 commands a second after
a burst of 20; a scorekeeper's 10 after 300) keeps one runaway phone from crowding out
the others; it would cap this benchmark at a few commands a second per token and refuse
the reports
(and then the pairing of round 2), so the server runs with a limit no phase reaches:
what is measured is the write path.

It prints commands/s and p50/p99 latency of each phase, and in the same run the raw
single-row insert-and-commit rate of the same database (one INSERT and one COMMIT per
row for about 2 s: the ``sqlite3`` module on a file beside the store's, psycopg into a
temporary table), and the ratios: the organizers' commands/s should be at least a
quarter of the raw commit rate (``TARGET``; commands sent together are committed
together, ``commands/group_commit.py``). Each organizers' line also gives the server's
CPU per command, which other load on a shared machine changes less than the rate. The
server is stopped at the end in every case. Every loop is bounded in count and time.
Not a timed test. ``--small``: 32 players, 4 clients, phases of a fraction of a second.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import queue
import sqlite3
import statistics
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from loadgen import Connection
from loadgen import Phase as Loaded
from served import Meter, Server, bearer, serve, tokens
from sizes import SMALL

from commands.tokens import create_token
from ledger.url import open_store

PLAYERS = 32 if SMALL else 512
CLIENTS = 4 if SMALL else 20
SUSTAIN_SECONDS = 0.3 if SMALL else 10.0
SUSTAIN_MATCHES = 2 * CLIENTS  # round-2 matches the players' self-reports go to
MAX_SUSTAINED_PER_CLIENT = 5_000
RAW_SECONDS = 0.1 if SMALL else 2.0
MAX_RAW_ROWS = 200_000
JOIN_TIMEOUT = 60.0
#: commands per second and burst per token that no phase reaches (see above)
UNLIMITED = ("--rate", "1000000", "--rate-burst", "1000000",
             "--scorekeeper-rate", "1000000", "--scorekeeper-burst", "1000000")  # fmt: skip
#: an event-sized row for the raw insert rate (a stored event is a few hundred bytes)
RAW_ROW = b"x" * 400
RESULTS = [[2, 0], [2, 1], [1, 2], [0, 2]]
#: commands over HTTP per raw single-row commit of the same database, at least
TARGET = 0.25


def command(client: httpx.Client, tournament: str, **body: Any) -> dict[str, Any]:
    """One setup command; it must be accepted."""
    response = client.post("/commands", json={"tournament": tournament, **body})
    if response.status_code != 200:
        raise RuntimeError(f"{body['type']}: {response.status_code} {response.text}")
    result: dict[str, Any] = response.json()
    return result


def tables(client: httpx.Client, tournament: str, round_number: int) -> list[list[str]]:
    response = client.get(f"/tournaments/{tournament}/pairings", params={"round": round_number})
    response.raise_for_status()
    return [t["players"] for t in response.json()["pairings"] if len(t["players"]) == 2]


def set_up(client: httpx.Client, tournament: str) -> float:
    """A PLAYERS-player tournament with round 1 paired and started; the seconds taken."""
    started = time.perf_counter()
    command(client, tournament, type="create_tournament", name="HTTP load", ruleset="swu-1.4")
    for n in range(1, PLAYERS + 1):
        command(client, tournament, type="register_player", player=f"p{n:03d}")
    command(client, tournament, type="pair_round")
    command(client, tournament, type="start_round")
    return time.perf_counter() - started


@dataclass
class Phase:
    """The outcome of one load phase: every request's latency and status."""

    name: str
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    wall: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, latency: float, response: httpx.Response) -> None:
        with self.lock:
            self.latencies.append(latency)
            self.statuses[response.status_code] += 1
            if response.status_code != 200 and len(self.errors) < 5:
                self.errors.append(f"{response.status_code} {response.text[:200]}")

    @property
    def accepted(self) -> int:
        return self.statuses[200]

    def summary(self) -> str:
        ms = sorted(x * 1000 for x in self.latencies) or [0.0]
        p50, p99 = statistics.median(ms), ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(self.statuses.items()))
        return (
            f"{self.name}: {self.accepted} commands appended in {self.wall:.2f} s = "
            f"{self.rate:.0f} commands/s; latency p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
            f"max {ms[-1]:.1f} ms (statuses {statuses})"
        )

    @property
    def rate(self) -> float:
        return self.accepted / self.wall if self.wall else 0.0


def run_clients(base: str, phase: Phase, work: Callable[[httpx.Client, Phase], None]) -> None:
    """CLIENTS threads, each with its own httpx client, run ``work``; times the phase."""

    def client_loop() -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            work(client, phase)

    threads = [threading.Thread(target=client_loop, daemon=True) for _ in range(CLIENTS)]
    started = time.perf_counter()
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=JOIN_TIMEOUT)
    phase.wall = time.perf_counter() - started
    if any(th.is_alive() for th in threads):
        raise RuntimeError(f"{phase.name}: a client did not finish in {JOIN_TIMEOUT:.0f} s")


def timed_post(client: httpx.Client, phase: Phase, body: dict[str, Any], secret: str) -> None:
    started = time.perf_counter()
    response = client.post("/commands", json=body, headers=bearer(secret))
    phase.record(time.perf_counter() - started, response)


def burst(base: str, tournament: str, secret: str, matches: list[list[str]]) -> Phase:
    """Every match of round 1 reported once, by CLIENTS clients taking from one queue."""
    jobs: queue.SimpleQueue[tuple[int, list[str]]] = queue.SimpleQueue()
    for i, players in enumerate(matches):
        jobs.put((i, players))

    def work(client: httpx.Client, phase: Phase) -> None:
        while True:
            try:
                i, players = jobs.get_nowait()
            except queue.Empty:
                return
            result = {"games": RESULTS[i % len(RESULTS)], "draws": 0}
            body = {"tournament": tournament, "type": "report_result", "round": 1,
                    "players": players, "result": result}  # fmt: skip
            timed_post(client, phase, body, secret)

    phase = Phase("burst, round 1 reports")
    run_clients(base, phase, work)
    return phase


def sustained(base: str, tournament: str, reporters: list[tuple[list[str], str, str]]) -> Phase:
    """Players' self-reports for SUSTAIN_SECONDS: both players of a match claim the win."""
    turns = itertools.cycle(reporters)
    lock = threading.Lock()
    deadline = time.perf_counter() + SUSTAIN_SECONDS

    def work(client: httpx.Client, phase: Phase) -> None:
        for _ in range(MAX_SUSTAINED_PER_CLIENT):
            if time.perf_counter() >= deadline:
                return
            with lock:
                players, player, secret = next(turns)
            claimed = [player, *(p for p in players if p != player)]
            body = {"tournament": tournament, "type": "report_result", "round": 2,
                    "players": claimed, "result": {"games": [2, 0], "draws": 0}}  # fmt: skip
            timed_post(client, phase, body, secret)

    phase = Phase(f"sustained, {SUSTAIN_SECONDS:g} s of self-reports")
    run_clients(base, phase, work)
    return phase


async def organizers(server: Server, name: str, secret: str, targets: list[str]) -> Loaded:
    """One closed-loop client per entry of ``targets`` (a tournament id each), sending
    warnings back to back for SUSTAIN_SECONDS on its own keep-alive connection."""
    phase = Loaded(name)
    deadline = time.perf_counter() + SUSTAIN_SECONDS
    headers = bearer(secret)

    async def client(tournament: str) -> None:
        connection = Connection(server.port)
        body = orjson.dumps(
            {
                "tournament": tournament,
                "type": "issue_penalty",
                "round": 1,
                "player": "p1",
                "penalty": "warning",
                "infraction": "slow play",
            }
        )
        try:
            for _ in range(MAX_SUSTAINED_PER_CLIENT):
                if time.perf_counter() >= deadline:
                    return
                started = time.perf_counter()
                try:
                    response = await connection.request("POST", "/commands", headers, body)
                except (OSError, asyncio.IncompleteReadError, ValueError) as exc:
                    phase.record(time.perf_counter() - started, None, f"{exc!r}")
                    continue
                phase.record(time.perf_counter() - started, response)
        finally:
            await connection.close()

    phase.meter = Meter(server.pid).start()
    await asyncio.gather(*(client(t) for t in targets))
    phase.meter.stop()
    return phase


def organizer_phases(server: Server, org: httpx.Client, secret: str) -> list[Loaded]:
    """CLIENTS organizers on a tournament each, then all on one (a 2-player tournament
    with round 1 paired, made for each)."""
    ids = [f"org-{uuid.uuid4().hex[:12]}" for _ in range(CLIENTS)]
    for tournament in ids:
        command(org, tournament, type="create_tournament", name="Desk", ruleset="swu-1.4")
        for player in ("p1", "p2"):
            command(org, tournament, type="register_player", player=player)
        command(org, tournament, type="pair_round")
    phases = [asyncio.run(organizers(server, f"organizers, {CLIENTS} tournaments", secret, ids)),
              asyncio.run(organizers(server, "organizers, one tournament", secret,
                                     [ids[0]] * CLIENTS))]  # fmt: skip
    for phase in phases:
        print(phase.summary().replace(" answered ", " commands appended "), flush=True)
        for error in phase.errors:
            print(f"  {phase.name}: {error}")
    return phases


def raw_rate(insert_and_commit: Callable[[], None]) -> float:
    """Rows per second of one INSERT and one COMMIT each, for about RAW_SECONDS."""
    rows, started = 0, time.perf_counter()
    while rows < MAX_RAW_ROWS and time.perf_counter() - started < RAW_SECONDS:
        insert_and_commit()
        rows += 1
    return rows / (time.perf_counter() - started)


def raw_sqlite(path: Path) -> float:
    """The plain sqlite3 module on a file beside the store's, in WAL mode as the store is."""
    con = sqlite3.connect(path, isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("CREATE TABLE raw (id INTEGER PRIMARY KEY, body BLOB NOT NULL)")

        def one() -> None:
            con.execute("BEGIN")
            con.execute("INSERT INTO raw (body) VALUES (?)", (RAW_ROW,))
            con.execute("COMMIT")

        return raw_rate(one)
    finally:
        con.close()


def raw_postgres(url: str) -> float:
    """psycopg into a temporary table of the same database, one transaction per row."""
    import psycopg

    with psycopg.connect(url, connect_timeout=5) as con:
        con.execute("CREATE TEMP TABLE raw (id bigserial PRIMARY KEY, body bytea NOT NULL)")
        con.commit()

        def one() -> None:
            con.execute("INSERT INTO raw (body) VALUES (%s)", (RAW_ROW,))
            con.commit()

        return raw_rate(one)


def player_tokens(store: str, tournament: str, matches: list[list[str]]) -> list[str]:
    """One player token per player of ``matches``, made in-process (as many as 80)."""
    opened = open_store(store)
    try:
        return [create_token(opened, "player", tournament, p) for m in matches for p in m]
    finally:
        opened.close()


def bench(label: str, store: str, folder: Path, raw: Callable[[], float]) -> None:
    print(f"== {label}: tledger serve --store {store} {' '.join(UNLIMITED)}", flush=True)
    tournament = f"bench-{uuid.uuid4().hex[:12]}"
    total = time.perf_counter()
    with serve(store, folder / f"{label}-server.log", *UNLIMITED) as server:
        base = f"http://127.0.0.1:{server.port}"
        [organizer] = tokens(store, "organizer", None, 1)
        [scorekeeper] = tokens(store, "scorekeeper", tournament, 1)
        with httpx.Client(base_url=base, headers=bearer(organizer), timeout=30) as org:
            took = set_up(org, tournament)
            print(f"setup: {PLAYERS + 3} commands from one client in {took:.2f} s "
                  f"({(PLAYERS + 3) / took:.0f} commands/s)", flush=True)  # fmt: skip
            round1 = tables(org, tournament, 1)
            first = burst(base, tournament, scorekeeper, round1)
            print(first.summary(), flush=True)
            command(org, tournament, type="pair_round")
            command(org, tournament, type="start_round")
            round2 = tables(org, tournament, 2)[:SUSTAIN_MATCHES]
            secrets = iter(player_tokens(store, tournament, round2))
            reporters = [(m, p, next(secrets)) for m in round2 for p in m]
            second = sustained(base, tournament, reporters)
            print(second.summary(), flush=True)
            seq = org.get(f"/tournaments/{tournament}/status").json()["seq"]
            desks = organizer_phases(server, org, organizer)
    for phase in (first, second):
        for error in phase.errors:
            print(f"  {phase.name}: {error}")
    if first.accepted != len(round1):
        raise RuntimeError(f"burst: {first.accepted} of {len(round1)} reports accepted")
    rate = raw()
    print(f"raw single-row INSERT+COMMIT: {rate:.0f} rows/s; HTTP commands/s / raw rows/s: "
          f"burst {first.rate / rate:.3f}, sustained {second.rate / rate:.3f} "
          f"(raw is {rate / max(second.rate, 1e-9):.1f}x the sustained command rate)")  # fmt: skip
    for desk in desks:
        cpu = desk.meter.server_cpu / max(desk.good, 1) * 1000 if desk.meter else 0.0
        print(f"{label}: {desk.name}: {desk.rate:.0f} commands/s = {desk.rate / rate:.3f}x "
              f"the raw commit rate (target: at least {TARGET}x); server CPU {cpu:.2f} ms "
              "per command")  # fmt: skip
    print(f"tournament {tournament}: {seq} events; {label} run {time.perf_counter() - total:.1f} s")


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tledger-load-") as name:
        folder = Path(name)
        sqlite_path = folder / "bench.sqlite3"
        bench("sqlite", f"sqlite:///{sqlite_path}", folder,
              lambda: raw_sqlite(folder / "raw.sqlite3"))  # fmt: skip
        postgres = os.environ.get("TLEDGER_TEST_POSTGRES")
        if postgres:
            bench("postgresql", postgres, folder, lambda: raw_postgres(postgres))
        else:
            print("== postgresql: skipped (set TLEDGER_TEST_POSTGRES to the local PostgreSQL)")


if __name__ == "__main__":
    main()
