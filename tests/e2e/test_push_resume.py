"""A push cut off by ``kill -9`` on either side resumes with no gap and no duplicate: the
pusher killed between batches, and the mirror's server killed under ``push --follow``,
which waits for it and goes on from the head it then reports (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
import select
import signal
import subprocess
from typing import IO

from commands.handler import Handler
from commands.models import parse_command
from ledger.url import open_store
from tests.e2e.mirroring import (
    TLEDGER,
    free_port,
    mirror,
    new_id,
    push,
    stored,
    venue_token,
)
from tests.e2e.mirroring import mirror_url as mirror_url
from tests.e2e.mirroring import venue_url as venue_url
from tests.e2e.test_http import start_server
from tests.e2e.test_push import wait_for

PLAYERS = 300


def big_event(url: str, t: str) -> int:
    """A tournament of ``PLAYERS`` players registered in one batch: that many events and
    one more; its seq."""
    handler = Handler(open_store(url))
    handler.handle(parse_command({"tournament": t, "type": "create_tournament",
                                  "name": "Big", "ruleset": "swu-1.4"}))  # fmt: skip
    handler.handle_batch([parse_command({"tournament": t, "type": "register_player",
                                         "player": f"p{i:03d}", "name": f"Player {i}"})
                          for i in range(PLAYERS)])  # fmt: skip
    return PLAYERS + 1


def pusher(venue: str, t: str, base: str, secret: str, *options: str) -> subprocess.Popen[str]:
    """``tledger push`` in a process of its own, its lines unbuffered."""
    return subprocess.Popen(
        [TLEDGER, "push", t, "--to", base, "--token", secret, "--store", venue, *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip


def first_line(stream: IO[str] | None) -> str:
    assert stream is not None
    ready, _, _ = select.select([stream], [], [], 60)
    assert ready, "no batch was pushed"
    return stream.readline()


def test_a_pusher_killed_mid_push_resumes_with_no_gap_and_no_duplicate(
    venue_url: str, mirror_url: str
) -> None:
    t = new_id()
    seq = big_event(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base:
        proc = pusher(venue_url, t, base, secret, "--batch", "10")
        assert first_line(proc.stdout).startswith(f"pushed {t} seq 1-10")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        cut = len(stored(mirror_url, t))
        assert 10 <= cut < seq
        done = push(venue_url, t, base, secret, "--batch", "50")
        assert done.returncode == 0, done.stderr
        # the batch in flight when the pusher died may still land after ``cut`` was read
        resumed = [f"pushed {t} seq {cut + 1}-", f"pushed {t} seq {cut + 11}-"]
        assert done.stdout.startswith(tuple(resumed)), done.stdout
        assert stored(mirror_url, t) == stored(venue_url, t)
        assert len(open_store(mirror_url).players(t)) == PLAYERS


def test_a_mirror_killed_under_follow_is_waited_for_and_resumed(
    venue_url: str, mirror_url: str
) -> None:
    t = new_id()
    seq = big_event(venue_url, t)
    secret = venue_token(mirror_url)
    port = str(free_port())
    server, base = start_server(mirror_url, "--port", port)
    proc = pusher(venue_url, t, base, secret, "--batch", "10", "--follow")
    try:
        assert first_line(proc.stdout).startswith(f"pushed {t} seq 1-10")
        server.send_signal(signal.SIGKILL)
        server.wait()
        assert len(stored(mirror_url, t)) < seq
        Handler(open_store(venue_url)).handle(parse_command(
            {"tournament": t, "type": "drop_player", "player": "p007"}))  # fmt: skip
        with mirror(mirror_url, "--port", port):
            wait_for(lambda: stored(mirror_url, t) == stored(venue_url, t), 60)
    finally:
        proc.kill()
        _, err = proc.communicate()
        if server.poll() is None:
            server.kill()
            server.wait()
    assert "mirror unreachable" in err
    assert len(open_store(mirror_url).players(t)) == PLAYERS
