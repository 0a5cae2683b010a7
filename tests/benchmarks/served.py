"""The server side of the HTTP benchmarks: a real ``tledger serve`` subprocess on a free
127.0.0.1 port, tokens made in-process on its store, and its CPU read from /proc.

A benchmark measures the process an operator runs (uvicorn, one process, the installed
entry point), not an in-process app: the server's CPU is that process's user plus system
time, all threads included, so an idle stream that polls the database shows up here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from commands.tokens import create_token
from ledger.url import open_store

HOST = "127.0.0.1"
TLEDGER = str(Path(sys.executable).with_name("tledger"))
START_TIMEOUT = 60.0
STOP_TIMEOUT = 5.0
TICKS = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Server:
    """A running ``tledger serve``: its process (for /proc) and its port."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid


@contextmanager
def serve(store: str, log: Path, *options: str) -> Iterator[Server]:
    """``tledger serve --port 0`` until the block ends; stopped (SIGTERM, then SIGKILL
    after STOP_TIMEOUT) in every case. Its output goes to ``log``, never to a pipe that
    nobody reads (an access log would block the server once the pipe is full); the port
    it took is read from the line it prints there (no port is guessed, so servers
    started side by side never take the same one)."""
    with log.open("wb") as out:
        argv = [TLEDGER, "serve", "--host", HOST, "--port", "0", "--store", store]
        proc = subprocess.Popen([*argv, *options], stdout=out, stderr=subprocess.STDOUT)
    try:
        yield Server(proc, wait_until_up(proc, log), log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=STOP_TIMEOUT)


def wait_until_up(proc: subprocess.Popen[bytes], log: Path) -> int:
    """The port of the line ``tledger serve`` prints once its socket listens."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline and proc.poll() is None:
        found = re.search(rf"serving http://{HOST}:(\d+)", log.read_text(errors="replace"))
        if found:
            return int(found.group(1))
        time.sleep(0.05)
    raise RuntimeError(f"the server did not start: {log.read_text(errors='replace')[-2000:]}")


def tokens(store: str, role: str, tournament: str | None, count: int) -> list[str]:
    """``count`` tokens made in-process on the server's store (one each: per-token limits
    such as the cap on open streams must not refuse the benchmark's clients)."""
    opened = open_store(store)
    try:
        return [create_token(opened, role, tournament, None) for _ in range(count)]
    finally:
        opened.close()


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of a process and all its threads, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14, 15)


@dataclass
class Meter:
    """Wall time and the CPU of the server and of this client over one phase."""

    pid: int
    wall: float = 0.0
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    _marks: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def start(self) -> Meter:
        self._marks = (time.perf_counter(), cpu_seconds(self.pid), time.process_time())
        return self

    def stop(self) -> Meter:
        wall, server, client = self._marks
        self.wall = time.perf_counter() - wall
        self.server_cpu = cpu_seconds(self.pid) - server
        self.client_cpu = time.process_time() - client
        return self

    def shares(self) -> str:
        wall = self.wall or 1e-9
        return (f"server CPU {self.server_cpu / wall:.0%} of one core, "
                f"client CPU {self.client_cpu / wall:.0%}")  # fmt: skip
