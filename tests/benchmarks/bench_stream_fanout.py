"""1,000 open Server-Sent Events subscribers on one ``tledger serve`` process (an overlay,
a projector and every player's phone following one event): how fast an appended event
reaches all of them, what they cost the writers, and what idle subscribers cost the server.

A fresh SQLite store holds one tournament in registration. The organizer (whose commands
no rate limit slows) registers players through POST /commands at a steady RATE for
SECONDS, first with no subscriber (the baseline), then with SUBSCRIBERS open streams of
that tournament, each with its own reader token (so a per-token cap on open streams does
not refuse them) and resuming with ``Last-Event-ID`` from the head, so that only the new
events travel. Then half of the subscribers leave and the server's CPU is read from /proc
over IDLE_SECONDS, next to the same reading with no subscriber at the start.

Prints command latency p50/p99 with and without subscribers, the delay from each
command's send to its event's arrival at each subscriber (p50/p99 over subscribers and
events, and per event until the last subscriber had it), events that never arrived,
duplicates, streams the server ended, and idle CPU. Targets: delivery p99 <= 1 s, command
p99 with subscribers within 2x of without, 500 idle subscribers under 5% of one core.
Not a timed test; every loop is bounded in count and time. ``--small``: 20 subscribers
(10 idle), half a second of commands at each step, idle readings of 0.2 s.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

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
from served import Meter, Server, bearer, serve, tokens
from sizes import SMALL

from commands.handler import Handler
from commands.models import parse_command
from ledger.url import open_store

TOURNAMENT = "fanout"
SUBSCRIBERS = 20 if SMALL else 1000
IDLE_SUBSCRIBERS = SUBSCRIBERS // 2
RATE = 20.0 if SMALL else 5.0
SECONDS = 0.5 if SMALL else 20.0
CONNECT_BATCH = 10 if SMALL else 100
CONNECT_SECONDS = 180.0
SETTLE_SECONDS = 0.2 if SMALL else 3.0
GRACE_SECONDS = 15.0
IDLE_SECONDS = 0.2 if SMALL else 10.0
BASELINE_IDLE_SECONDS = 0.2 if SMALL else 5.0
DELIVERY_TARGET = 1.0
LATENCY_TARGET = 2.0
IDLE_TARGET = 0.05


def prepare(store: str) -> None:
    opened = open_store(store)
    try:
        create = {"type": "create_tournament", "name": "Fan-out", "ruleset": "swu-1.4"}
        Handler(opened).handle(parse_command({"tournament": TOURNAMENT, **create}))
    finally:
        opened.close()


def registrations(first: int, count: int) -> list[dict[str, Any]]:
    return [{"type": "register_player", "tournament": TOURNAMENT, "player": f"p{n:04d}",
             "name": f"Player {n:04d}"} for n in range(first, first + count)]  # fmt: skip


async def idle_cpu(server: Server, seconds: float) -> float:
    """The server's CPU over ``seconds`` of nothing but open connections, in cores."""
    meter = Meter(server.pid).start()
    await asyncio.sleep(seconds)
    meter.stop()
    return meter.server_cpu / meter.wall


async def commands(server: Server, organizer: str, name: str, first: int) -> Paced:
    bodies = registrations(first, int(RATE * SECONDS))
    return await command_phase(server, name, bearer(organizer), bodies, RATE)


def report_streams(subscribers: list[Subscriber], opened: float) -> None:
    connected = [s for s in subscribers if s.connected]
    refused = [s.ended for s in subscribers if not s.connected]
    print(f"subscribers: {len(connected)} of {len(subscribers)} connected in "
          f"{time.perf_counter() - opened:.1f} s; refused or failed: {len(refused)}"
          + (f" (first: {refused[0]})" if refused else ""), flush=True)  # fmt: skip


def report_delivery(subscribers: list[Subscriber], sent: list[Sent]) -> float:
    """Prints what arrived where and when; returns the delivery p99 (seconds)."""
    each, to_all = delays(subscribers, sent)
    missing = sum(1 for d in each if d == float("inf"))
    ended = [s.ended for s in subscribers if s.ended]
    disorder = sum(1 for s in subscribers if list(s.arrived) != sorted(s.arrived))
    p99 = percentile(each, 99)
    print(f"delivery, send to arrival: {len(each) - missing} of {len(each)} arrived; "
          f"p50 {ms(percentile(each, 50))}, p99 {ms(p99)}, max {ms(max(each, default=0))}; "
          f"per event until the last subscriber: p50 {ms(percentile(to_all, 50))}, "
          f"p99 {ms(percentile(to_all, 99))}, max {ms(max(to_all, default=0))}")  # fmt: skip
    types = sum((s.types for s in subscribers), Counter[str]())
    print(f"streams: {len(ended)} ended by the server or failed"
          + (f" (first: {ended[0]})" if ended else "")
          + f"; duplicates {sum(s.duplicates for s in subscribers)}; "
          f"out of order {disorder}; frames by event type {dict(types)}")  # fmt: skip
    return p99


async def measure(server: Server, organizer: str, readers: list[str]) -> None:
    baseline_idle = await idle_cpu(server, BASELINE_IDLE_SECONDS)
    print(f"idle, no subscriber: server CPU {baseline_idle:.1%} of one core", flush=True)
    alone, _ = await commands(server, organizer, "commands, no subscriber", 1)
    head = await get_json(server, f"/tournaments/{TOURNAMENT}/status", bearer(organizer))
    resume = {"Last-Event-ID": str(head["position"])}
    opened = time.perf_counter()
    subscribers, tasks = await open_streams(
        server.port, f"/events/stream?tournament={TOURNAMENT}",
        [{**bearer(r), **resume} for r in readers], CONNECT_BATCH, CONNECT_SECONDS,
    )  # fmt: skip
    try:
        report_streams(subscribers, opened)
        await asyncio.sleep(SETTLE_SECONDS)
        first = 1 + int(RATE * SECONDS)
        name = f"commands, {SUBSCRIBERS} subscribers"
        crowded, sent = await commands(server, organizer, name, first)
        wanted = [c.position for c in sent if c.position is not None]
        listening = [s for s in subscribers if s.connected]
        everywhere = lambda: all(p in s.arrived for s in listening for p in wanted)  # noqa: E731
        await repeat_until(everywhere, GRACE_SECONDS, step=0.2)
        delivery = report_delivery(listening, sent)
        ratio = percentile(crowded.latencies, 99) / percentile(alone.latencies, 99)
        await close_streams(tasks[IDLE_SUBSCRIBERS:])
        staying = [s for s in listening[:IDLE_SUBSCRIBERS] if not s.ended]
        await asyncio.sleep(SETTLE_SECONDS)
        comments = sum(s.comments for s in staying)
        idle = await idle_cpu(server, IDLE_SECONDS)
        heard = sum(s.comments for s in staying) - comments
        print(f"idle, {len(staying)} subscribers: server CPU {idle:.1%} of one core over "
              f"{IDLE_SECONDS:g} s ({heard} comment frames received meanwhile)")  # fmt: skip
    finally:
        await close_streams(tasks)
    verdict(delivery, ratio, idle)


def verdict(delivery: float, ratio: float, idle: float) -> None:
    def met(holds: bool) -> str:
        return "met" if holds else "NOT met"

    print(f"targets: delivery p99 {ms(delivery)} <= {DELIVERY_TARGET:.0f} s: "
          f"{met(delivery <= DELIVERY_TARGET)}; command p99 with/without subscribers "
          f"{ratio:.2f}x <= {LATENCY_TARGET:.0f}x: {met(ratio <= LATENCY_TARGET)}; idle "
          f"{idle:.1%} < {IDLE_TARGET:.0%}: {met(idle < IDLE_TARGET)}")  # fmt: skip


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="tledger-fanout-") as name:
        folder = Path(name)
        store = f"sqlite:///{folder / 'fanout.sqlite3'}"
        started = time.perf_counter()
        prepare(store)
        organizer = tokens(store, "organizer", TOURNAMENT, 1)[0]
        readers = tokens(store, "reader", TOURNAMENT, SUBSCRIBERS)
        print(f"store: tournament {TOURNAMENT}, {SUBSCRIBERS} reader tokens, in "
              f"{time.perf_counter() - started:.1f} s", flush=True)  # fmt: skip
        with serve(store, folder / "server.log") as server:
            asyncio.run(measure(server, organizer, readers))


if __name__ == "__main__":
    main()
