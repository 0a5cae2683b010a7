"""What the deployment test drives through nginx: the venue's laptop (a SQLite store
and ``tledger apply`` and the command handler), the mirror as a reader sees it through
the proxy, readers of its pages and a follower of its event stream."""

from __future__ import annotations

import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson

from commands.handler import Handler
from commands.models import parse_command
from ledger.events import RoundPaired
from ledger.url import open_store
from tests.nginx import TLEDGER

PLAYERS = [f"p{i:02d}" for i in range(1, 65)]
#: seconds any one wait of the deployment test may take before it fails
PATIENCE = 60.0


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def stored(url: str, t: str) -> list[bytes]:
    """A store's bytes of the tournament, in seq order."""
    opened = open_store(url)
    try:
        return [data for _, _, data in opened.load_raw(t)]
    finally:
        opened.close()


class Venue:
    """The venue's laptop: a SQLite store, the event set up with ``tledger apply`` and
    run with the command handler (the rounds' pairings are the handler's answers); the
    mirror learns of it only through ``tledger push --follow``."""

    def __init__(self, folder: Path, t: str) -> None:
        self.url, self.t = f"sqlite:///{folder / 'venue.sqlite3'}", t
        lines = [{"type": "create_tournament", "name": "Behind nginx", "ruleset": "swu-1.4"},
                 *({"type": "register_player", "player": p, "name": f"Player {p}"}
                   for p in PLAYERS)]  # fmt: skip
        setup = folder / "setup.jsonl"
        setup.write_bytes(b"\n".join(orjson.dumps({"tournament": t, **c}) for c in lines))
        applied = subprocess.run([TLEDGER, "apply", str(setup), "--store", self.url],
                                 capture_output=True, text=True, timeout=PATIENCE)  # fmt: skip
        assert applied.returncode == 0, applied.stderr
        self.handler = Handler(open_store(self.url))
        self.pairings: list[tuple[str, ...]] = []

    def send(self, **command: Any) -> None:
        outcome = self.handler.handle(parse_command({"tournament": self.t, **command}))
        for recorded in outcome.recorded:
            if isinstance(recorded.event, RoundPaired):
                self.pairings = [table.players for table in recorded.event.pairings]

    def report_round(self, number: int, tables: slice) -> None:
        for i, players in enumerate(self.pairings[tables]):
            games = [[2, 0], [2, 1], [1, 2], [0, 2]][i % 4]
            self.send(type="report_result", round=number, players=list(players),
                      result={"games": games, "draws": 0})  # fmt: skip

    def head(self) -> int:
        return self.handler.store.head(self.t)[0]


@dataclass
class Mirror:
    """The hosted mirror through the proxy, as a reader sees it."""

    base: str
    secret: str
    t: str

    def get(self, path: str) -> Any:
        answer = httpx.get(self.base + path, headers=bearer(self.secret), timeout=30)
        assert answer.status_code == 200, answer.text
        return answer.json()

    def seq(self) -> int:
        """The mirror's head of the tournament (0 while it holds none)."""
        try:
            answer = httpx.get(f"{self.base}/tournaments/{self.t}/head",
                               headers=bearer(self.secret), timeout=30)  # fmt: skip
        except httpx.TransportError:
            return -1
        return int(answer.json()["seq"]) if answer.status_code == 200 else 0

    def wait_for(self, seq: int) -> None:
        deadline = time.monotonic() + PATIENCE
        while self.seq() < seq:
            assert time.monotonic() < deadline, f"the mirror never reached seq {seq}"
            time.sleep(0.1)


@dataclass
class Reads:
    """Public page and standings through the proxy, one after the other until stopped:
    each answer's status, and when it came."""

    base: str
    secret: str
    t: str
    answers: list[tuple[float, str, int]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)

    def run(self) -> None:
        paths = [f"/t/{self.t}", f"/tournaments/{self.t}/standings"]
        with httpx.Client(base_url=self.base, headers=bearer(self.secret), timeout=30) as client:
            while not self.stop.is_set():
                for path in paths:
                    try:
                        status = client.get(path).status_code
                    except httpx.TransportError as exc:
                        status = -1
                        print(f"{path}: {exc!r}")
                    self.answers.append((time.monotonic(), path, status))
                time.sleep(0.02)

    def between(self, start: float, end: float) -> list[int]:
        return [status for at, _, status in self.answers if start <= at <= end]


@dataclass
class Follower:
    """A stream follower through the proxy: every frame's position and seq as received,
    and on any end of its stream (its process killed) a new request with
    ``Last-Event-ID``, as a browser's EventSource does; done at seq ``until``."""

    base: str
    secret: str
    t: str
    positions: list[int] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    connects: int = 0
    until: int | None = None
    opened: threading.Event = field(default_factory=threading.Event)

    def done(self) -> bool:
        return self.until is not None and bool(self.seqs) and self.seqs[-1] >= self.until

    def run(self) -> None:
        deadline = time.monotonic() + 10 * PATIENCE
        while not self.done() and time.monotonic() < deadline:
            headers = bearer(self.secret)
            if self.positions:
                headers["Last-Event-ID"] = str(self.positions[-1])
            try:
                self.follow(headers)
            except httpx.HTTPError:
                time.sleep(0.1)  # cut off: resume from the last position

    def follow(self, headers: dict[str, str]) -> None:
        url = f"{self.base}/events/stream?tournament={self.t}"
        with httpx.stream("GET", url, headers=headers, timeout=30) as answer:
            if answer.status_code != 200:
                time.sleep(0.2)
                return
            self.connects += 1
            self.opened.set()
            frame: dict[str, str] = {}
            for line in answer.iter_lines():
                if line == "":
                    if "id" in frame:
                        self.positions.append(int(frame["id"]))
                        self.seqs.append(orjson.loads(frame["data"])["seq"])
                    frame = {}
                    if self.done():
                        return
                elif not line.startswith(":"):
                    name, _, value = line.partition(":")
                    frame[name] = value.removeprefix(" ")
