"""20 tournament-scoped event streams on a 100,000-event store: what they cost the writers
of that tournament.

A fresh SQLite store holds a small tournament in registration ("live", created first)
and COPIES copies of the 2,048-player, 11-round benchmark event of ``bench_standings.py``
under other ids, appended as sealed events (over 100,000 events in all). The organizer
registers players of "live" through POST /commands at a steady RATE for SECONDS, first
with no stream (the baseline), then right after STREAMS streams of "live" open, each with
its own reader token scoped to "live" (as an overlay starting up: no ``Last-Event-ID``,
so each replays the tournament from its start; one token per stream so that a per-token
cap on open streams does not refuse them). A stream that scans the global log instead of
reading the tournament's events by index shows here as writers stalled behind it.

Prints command latency p50/p99 with and without the streams and their ratio (target:
p99 within 2x), how long each stream took to replay what existed when it opened, and
whether every stream received every event of "live" exactly once, in order. Not a timed
test; every loop is bounded in count and time. ``--small``: 2 copies of the smaller event
of ``bench_standings.py --small``, 3 streams, half a second of commands
at each step.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_standings import PLAYERS, ROUNDS, build
from loadgen import (
    Paced,
    Sent,
    Subscriber,
    close_streams,
    command_phase,
    delays,
    get_json,
    ms,
    open_streams,
    percentile,
    repeat_until,
)
from served import Server, bearer, serve, tokens
from sizes import SMALL

from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import GENESIS, seal
from ledger.url import open_store

LIVE = "live"
LIVE_PLAYERS = 8 if SMALL else 32
COPIES = 2 if SMALL else 8  # 8 x 13,203 events of the benchmark event, plus "live"
STREAMS = 3 if SMALL else 20
RATE = 20.0 if SMALL else 10.0
SECONDS = 0.5 if SMALL else 15.0
CONNECT_SECONDS = 60.0
GRACE_SECONDS = 90.0
LATENCY_TARGET = 2.0


def prepare(store: str) -> int:
    """The "live" tournament first, then the copies; the number of events in the store."""
    opened = open_store(store)
    try:
        handler = Handler(opened)
        create = {"type": "create_tournament", "name": "Live", "ruleset": "swu-1.4"}
        handler.handle(parse_command({"tournament": LIVE, **create}))
        for body in registrations(1, LIVE_PLAYERS):
            handler.handle(parse_command(body))
        events = build(PLAYERS, ROUNDS)
        for copy in range(1, COPIES + 1):
            renamed = [e.model_copy(update={"tournament": f"big-{copy}"}) for e in events]
            opened.append(f"big-{copy}", seal(renamed, GENESIS), expected_version=0)
        return 1 + LIVE_PLAYERS + COPIES * len(events)
    finally:
        opened.close()


def registrations(first: int, count: int) -> list[dict[str, Any]]:
    return [{"type": "register_player", "tournament": LIVE, "player": f"p{n:04d}",
             "name": f"Player {n:04d}"} for n in range(first, first + count)]  # fmt: skip


async def commands(server: Server, organizer: str, name: str, first: int) -> Paced:
    bodies = registrations(first, int(RATE * SECONDS))
    return await command_phase(server, name, bearer(organizer), bodies, RATE)


def report_streams(streams: list[Subscriber], head: dict[str, int], events: int,
                   sent: list[Sent]) -> None:  # fmt: skip
    """Replay time up to ``head`` (the status of "live" before the streams opened), and
    whether each stream has all ``events`` of "live" exactly once and in order."""
    last = head["position"]
    caught = [s.arrived[last] - s.connected for s in streams if s.connected and last in s.arrived]
    complete = sum(1 for s in streams if len(s.arrived) == events)
    ended = [s.ended for s in streams if s.ended]
    disorder = sum(1 for s in streams if list(s.arrived) != sorted(s.arrived))
    each, _ = delays(streams, sent)
    print(f"streams: {sum(1 for s in streams if s.connected)} of {len(streams)} connected; "
          f"replay of the {head['seq']} earlier events: {len(caught)} done, "
          f"p50 {ms(percentile(caught, 50))}, max {ms(max(caught, default=0))}")  # fmt: skip
    print(f"streams with all {events} events of {LIVE}: {complete} of {len(streams)}; "
          f"duplicates {sum(s.duplicates for s in streams)}; out of order {disorder}; "
          f"ended {len(ended)}" + (f" (first: {ended[0]})" if ended else ""))  # fmt: skip
    print(f"new events, send to arrival: p50 {ms(percentile(each, 50))}, "
          f"p99 {ms(percentile(each, 99))}, max {ms(max(each, default=0))}")  # fmt: skip


async def measure(server: Server, organizer: str, readers: list[str]) -> None:
    await get_json(server, f"/tournaments/{LIVE}/status", bearer(organizer))  # fold "live"
    alone, _ = await commands(server, organizer, "commands, no stream", 1 + LIVE_PLAYERS)
    head = await get_json(server, f"/tournaments/{LIVE}/status", bearer(organizer))
    headers = [bearer(r) for r in readers]
    streams, tasks = await open_streams(server.port, "/events/stream", headers, STREAMS,
                                        CONNECT_SECONDS)  # fmt: skip
    try:
        first = 1 + LIVE_PLAYERS + len(alone.latencies)
        crowded, sent = await commands(server, organizer, f"commands, {STREAMS} streams", first)
        status = await get_json(server, f"/tournaments/{LIVE}/status", bearer(organizer))
        listening = [s for s in streams if s.connected]
        events = int(status["seq"])
        done = lambda: all(len(s.arrived) >= events or s.ended for s in listening)  # noqa: E731
        await repeat_until(done, GRACE_SECONDS, step=0.2)
        report_streams(listening, head, events, sent)
    finally:
        await close_streams(tasks)
    ratio = percentile(crowded.latencies, 99) / percentile(alone.latencies, 99)
    print(f"command p99 with/without streams: {ratio:.2f}x (target <= {LATENCY_TARGET:.0f}x: "
          f"{'met' if ratio <= LATENCY_TARGET else 'NOT met'})")  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tledger-scoped-") as name:
        folder = Path(name)
        store = f"sqlite:///{folder / 'scoped.sqlite3'}"
        started = time.perf_counter()
        count = prepare(store)
        organizer = tokens(store, "organizer", LIVE, 1)[0]
        readers = tokens(store, "reader", LIVE, STREAMS)
        took = time.perf_counter() - started
        print(f"store: {count} events ({LIVE} with {1 + LIVE_PLAYERS}, {COPIES} copies of the "
              f"{PLAYERS}-player event) in {took:.1f} s", flush=True)  # fmt: skip
        with serve(store, folder / "server.log") as server:
            asyncio.run(measure(server, organizer, readers))


if __name__ == "__main__":
    main()
