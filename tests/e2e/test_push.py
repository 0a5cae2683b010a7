"""A venue pushes its log to a hosted mirror (a real ``tledger serve``), on SQLite and
PostgreSQL: the mirror holds the same bytes and names and serves every read as the
venue does, takes no commands for what it mirrors, follows a live venue, refuses a
rewritten venue log (exit 3) and lets ``verify --against`` name the first difference."""

from __future__ import annotations

import subprocess
import time

import orjson

from commands.handler import Handler
from commands.tokens import create_token
from ledger.url import open_store
from tests.e2e.mirroring import (
    NAMES,
    TLEDGER,
    client,
    drop,
    mirror,
    new_id,
    push,
    run_event,
    stored,
    tledger,
    venue_token,
)
from tests.e2e.mirroring import mirror_url as mirror_url
from tests.e2e.mirroring import venue_url as venue_url


def test_a_push_copies_the_log_byte_for_byte_with_its_names(
    venue_url: str, mirror_url: str
) -> None:
    t = new_id()
    handler = run_event(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base:
        done = push(venue_url, t, base, secret, "--batch", "5")
        assert done.returncode == 0, done.stderr
        lines = done.stdout.splitlines()
        assert len(lines) == 3 and lines[0].startswith(f"pushed {t} seq 1-5 (5 appended)")
        assert stored(mirror_url, t) == stored(venue_url, t)
        assert {p: e.name for p, e in open_store(mirror_url).players(t).items()} == NAMES
        seq, head = open_store(venue_url).head(t)
        api = client(base, secret)
        assert api.get(f"/tournaments/{t}/head").json() == {"seq": seq, "hash": head}
        again = push(venue_url, t, base, secret)
        assert again.returncode == 0 and "the mirror is up to date at seq 13" in again.stdout
        drop(handler, t, "p8")
        more = push(venue_url, t, base, secret)
        seq = open_store(venue_url).head(t)[0]
        assert more.stdout.startswith(f"pushed {t} seq 14-{seq} ({seq - 13} appended)")
        for read in ("standings", "pairings", "status"):  # positions are each store's own
            local = orjson.loads(tledger(read, t, "--json", "--store", venue_url).stdout)
            there = api.get(f"/tournaments/{t}/{read}").json()
            assert there | {"position": 0} == local | {"position": 0}, read
        page = api.get(f"/t/{t}")
        assert page.status_code == 200 and "Player 3" in page.text
        assert tledger("verify", t, "--store", mirror_url).returncode == 0
        same = tledger("verify", t, "--against", base, "--token", secret, "--store", venue_url)
        assert same.returncode == 0 and f"holds the venue's log up to seq {seq}" in same.stdout


def test_a_mirrored_tournament_takes_no_commands_on_the_mirror(
    venue_url: str, mirror_url: str
) -> None:
    t = new_id()
    run_event(venue_url, t)
    secret = venue_token(mirror_url)
    organizer = create_token(open_store(mirror_url), "organizer", None, None)
    with mirror(mirror_url) as base:
        assert push(venue_url, t, base, secret).returncode == 0
        refused = client(base, organizer).post(
            "/commands", json={"type": "drop_player", "tournament": t, "player": "p1"}
        )
        assert refused.status_code == 409
        assert refused.json()["error"] == (f"tournament {t!r} is mirrored from its venue; "
                                           "commands go there")  # fmt: skip
        assert stored(mirror_url, t) == stored(venue_url, t)


def test_follow_pushes_each_new_event_and_erasures_travel(venue_url: str, mirror_url: str) -> None:
    t = new_id()
    handler = run_event(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base:
        follower = subprocess.Popen(
            [TLEDGER, "push", t, "--to", base, "--token", secret, "--store", venue_url,
             "--follow"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        try:
            api = client(base, secret)
            wait_for(lambda: api.get(f"/tournaments/{t}/head").json().get("seq") == 13)
            drop(handler, t, "p7")
            drop(handler, t, "p8")
            seq = open_store(venue_url).head(t)[0]
            wait_for(lambda: api.get(f"/tournaments/{t}/head").json().get("seq") == seq)
            assert stored(mirror_url, t) == stored(venue_url, t)
            assert tledger("forget", t, "p3", "--store", venue_url).returncode == 0
            wait_for(lambda: "p3" not in open_store(mirror_url).players(t))
            assert "Player 3" not in api.get(f"/t/{t}").text
            exported = tledger("export", t, "--store", mirror_url).stdout
            assert "Player 3" not in exported and "Player 4" in exported
        finally:
            follower.kill()
            out, _ = follower.communicate()
        assert out.count("pushed ") >= 3


def wait_for(condition: object, seconds: float = 20.0) -> None:
    """Wait until ``condition()`` holds (a bound, not a timing: the test fails only if it
    never does)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("the mirror never caught up")


def test_a_rewritten_venue_log_is_a_fork_and_the_mirror_keeps_its_own(
    tmp_path: object, venue_url: str, mirror_url: str
) -> None:
    t = new_id()
    run_event(venue_url, t)
    secret = venue_token(mirror_url)
    rewritten = venue_url.replace("venue.sqlite3", "rewritten.sqlite3")
    run_event(rewritten, t, results=1)  # the same 12 events, then another at seq 13
    drop(Handler(open_store(rewritten)), t, "p1")
    with mirror(mirror_url) as base:
        assert push(venue_url, t, base, secret).returncode == 0
        before = stored(mirror_url, t)
        forked = push(rewritten, t, base, secret)
        assert forked.returncode == 3, forked.stderr
        assert "fork at seq 13: the venue's event has hash" in forked.stderr
        assert stored(mirror_url, t) == before
        compared = tledger("verify", t, "--against", base, "--token", secret, "--store", rewritten)
        assert compared.returncode == 3 and "first difference at seq 13" in compared.stderr
        api = client(base, secret)
        mine = stored(rewritten, t)
        body = {"after": {"seq": 12, "hash": orjson.loads(mine[11])["hash"]},
                "events": [mine[12].decode()]}  # fmt: skip
        refused = api.post(f"/tournaments/{t}/push", json=body)
        assert refused.status_code == 409
        theirs, ours = orjson.loads(mine[12])["hash"], orjson.loads(before[12])["hash"]
        assert refused.json()["error"].startswith(
            f"fork at seq 13: the venue's event has hash {theirs}, the mirror's {ours}"
        )
        assert stored(mirror_url, t) == before
