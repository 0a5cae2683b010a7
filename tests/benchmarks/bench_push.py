"""A venue pushing to a hosted mirror: a whole tournament at once, and a live one followed.

First figure (PostgreSQL; skipped, with the reason printed, without
``TLEDGER_TEST_POSTGRES``): the 2,048-player, 11-round event of ``bench_standings.py``
(13,203 events) in a venue's SQLite store, with every player's name, pushed to an empty
mirror (a real ``tledger serve`` on a fresh PostgreSQL database) in batches of 1,000:
the venue reads its stored bytes and checks its chain, the mirror checks every hash and
link, parses every event and appends each batch with its names in one transaction. The
baseline, in the same run and database: a raw batch insert of the same bytes (psycopg
``executemany`` in one transaction into a table shaped like the events table). Target:
the push within 3x of the raw insert, the best of three trials of each (each trial a
fresh database).

Second figure: ``tledger push --follow`` running against the mirror (PostgreSQL when
set, else SQLite), a subscriber on the mirror's event stream, and the venue appending
EVENTS registrations one by one: the delay from each append at the venue to its frame
at the subscriber, p50 and p99 (target: p99 within 1 s). Not a timed test.
``--small``: the 256-player, 7-round event and 20 followed events.
"""

from __future__ import annotations

import gc
import os
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import orjson
from bench_standings import PLAYERS, ROUNDS, build
from served import bearer, serve, tokens
from sizes import SMALL

from commands.cli.mirror_client import Mirror, Venue
from commands.cli.push import push_once
from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import GENESIS, seal
from ledger.store import PlayerEntry, Store
from ledger.url import open_store

EVENTS = 20 if SMALL else 200
#: the whole push and the raw insert each run this often, the best of each compared (on
#: a machine shared with other work, the best is the least disturbed)
TRIALS = 1 if SMALL else 3
PACE = 0.05 if SMALL else 0.1
RATIO_TARGET, DELIVERY_TARGET = 3.0, 1.0
WAIT = httpx.Timeout(5, read=2)
RAW_TABLE = ("CREATE TABLE raw_events (originator_id uuid, originator_version int, topic text, "
             "state bytea, PRIMARY KEY (originator_id, originator_version))")  # fmt: skip


def fresh_database(url: str) -> str:
    """A PostgreSQL database of the benchmark's own beside ``url`` (an empty mirror)."""
    import psycopg

    name = f"bench_push_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def drop_database(url: str, own: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {urlsplit(own).path[1:]} WITH (FORCE)")


def raw_insert(url: str, rows: list[bytes]) -> float:
    """The baseline: the same bytes inserted into PostgreSQL in one transaction."""
    import psycopg

    with psycopg.connect(url) as con:
        con.execute(RAW_TABLE)
        con.commit()
        stream = uuid.uuid4()
        started = time.perf_counter()
        with con.cursor() as cur:
            batch = [(stream, n, "event", data) for n, data in enumerate(rows, 1)]
            cur.executemany("INSERT INTO raw_events VALUES (%s, %s, %s, %s)", batch)
        con.commit()
        return time.perf_counter() - started


def whole_push(folder: Path, postgres: str) -> None:
    venue_url = f"sqlite:///{folder / 'venue.sqlite3'}"
    venue = open_store(venue_url)
    sealed = seal(build(PLAYERS, ROUNDS), GENESIS)
    names = [PlayerEntry("big", e.player, f"Player {e.player}", None)
             for e in (s.event for s in sealed) if e.type == "player_registered"]  # fmt: skip
    venue.append("big", sealed, expected_version=0, players=names)
    stored = [s.data for s in sealed]
    del sealed, names  # a venue's push process holds no models of its log: neither does this
    gc.collect()
    pushes, raws = [], []
    for trial in range(1, TRIALS + 1):
        pushed, raw = one_trial(folder, postgres, venue, stored)
        pushes.append(pushed)
        raws.append(raw)
        print(f"trial {trial}: push {pushed:.2f} s, raw insert {raw:.2f} s, "
              f"ratio {pushed / raw:.2f}x")  # fmt: skip
    pushed, raw = min(pushes), min(raws)
    ratio = pushed / raw
    print(f"push {len(stored)} events to an empty PostgreSQL mirror: {pushed:.2f} s "
          f"({len(stored) / pushed:.0f} events/s, best of {TRIALS})")  # fmt: skip
    print(f"raw batch insert of the same bytes into PostgreSQL: {raw:.2f} s (best of {TRIALS})")
    verdict = "within" if ratio <= RATIO_TARGET else "OVER"
    print(f"push / raw insert: ratio {ratio:.2f}x ({verdict} the {RATIO_TARGET:g}x target)")


def one_trial(folder: Path, postgres: str, venue: Store, stored: list[bytes]
              ) -> tuple[float, float]:  # fmt: skip
    """One push to a fresh, empty mirror database, then the raw insert into the same
    database: the seconds of each."""
    mirror_url = fresh_database(postgres)
    try:
        [secret] = tokens(mirror_url, "venue", None, 1)
        with serve(mirror_url, folder / "mirror.log") as server:
            mirror = Mirror(f"http://127.0.0.1:{server.port}", secret)
            started = time.perf_counter()
            push_once(Venue(venue, "big"), mirror, quiet=True)
            pushed = time.perf_counter() - started
            assert mirror.head("big") == venue.head("big")
        raw = raw_insert(mirror_url, stored)
    finally:
        drop_database(postgres, mirror_url)
    return pushed, raw


def followed(folder: Path, mirror_url: str, kind: str) -> None:
    venue_url = f"sqlite:///{folder / 'live.sqlite3'}"
    t = f"live-{uuid.uuid4().hex[:8]}"
    handler = Handler(open_store(venue_url))
    handler.handle(parse_command({"tournament": t, "type": "create_tournament",
                                  "name": "Live", "ruleset": "swu-1.4"}))  # fmt: skip
    [secret] = tokens(mirror_url, "venue", None, 1)
    appended: dict[int, float] = {}
    arrived: dict[int, float] = {}
    with serve(mirror_url, folder / "follow.log") as server:
        base = f"http://127.0.0.1:{server.port}"
        import subprocess

        from served import TLEDGER

        pusher = subprocess.Popen([TLEDGER, "push", t, "--to", base, "--token", secret,
                                   "--store", venue_url, "--follow"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        stop = threading.Event()
        reader = threading.Thread(target=subscribe, args=(base, secret, t, arrived, stop))
        reader.start()
        try:
            deadline = time.monotonic() + 60
            while 1 not in arrived and time.monotonic() < deadline:
                time.sleep(0.05)
            for n in range(EVENTS):
                command = {"tournament": t, "type": "register_player", "player": f"p{n}"}
                done = handler.handle(parse_command(command))
                appended[done.seq] = time.monotonic()
                time.sleep(PACE)
            last = max(appended)
            deadline = time.monotonic() + 30
            while last not in arrived and time.monotonic() < deadline:
                time.sleep(0.05)
        finally:
            stop.set()
            pusher.terminate()
            pusher.wait()
            reader.join(timeout=10)
    delays = sorted(arrived[s] - at for s, at in appended.items() if s in arrived)
    missing = len(appended) - len(delays)
    p50 = delays[len(delays) // 2] if delays else float("nan")
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] if delays else float("nan")
    verdict = "within" if p99 <= DELIVERY_TARGET else "OVER"
    print(f"follow ({kind} mirror): venue append to mirror stream frame, {len(delays)} of "
          f"{len(appended)} arrived ({missing} missing): p50 {p50 * 1000:.0f} ms, "
          f"p99 {p99 * 1000:.0f} ms ({verdict} the {DELIVERY_TARGET:g} s target)")  # fmt: skip


def subscribe(base: str, secret: str, t: str, arrived: dict[int, float],
              stop: threading.Event) -> None:  # fmt: skip
    """Follow the mirror's stream of ``t``; each event's arrival time by seq."""
    while not stop.is_set():
        try:
            with httpx.stream("GET", f"{base}/events/stream", params={"tournament": t},
                              headers=bearer(secret), timeout=WAIT) as answer:  # fmt: skip
                for line in answer.iter_lines():
                    if line.startswith("data:"):
                        seq = orjson.loads(line[5:])["seq"]
                        arrived.setdefault(seq, time.monotonic())
                    if stop.is_set():
                        return
        except httpx.HTTPError:
            time.sleep(0.05)


def main() -> None:
    postgres = os.environ.get("TLEDGER_TEST_POSTGRES")
    with tempfile.TemporaryDirectory() as folder:
        if postgres:
            whole_push(Path(folder), postgres)
        else:
            print("push to a PostgreSQL mirror: skipped (TLEDGER_TEST_POSTGRES is not set)")
        mirror = postgres or f"sqlite:///{Path(folder) / 'mirror.sqlite3'}"
        followed(Path(folder), mirror, "PostgreSQL" if postgres else "SQLite")


if __name__ == "__main__":
    main()
