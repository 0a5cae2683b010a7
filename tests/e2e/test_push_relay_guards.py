"""What guards players' reports through the mirror: a report is never applied twice at
the venue (pulled again after its answer was lost, or its form sent again), a wrong
code on the mirror holds nothing, a code reports only as its holder there too, and only
the venue that claimed the tournament may take its reports or answer them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import httpx

from commands.handler import Handler
from commands.relay import apply_at_venue
from commands.tokens import create_token
from ledger.url import open_store
from tests.e2e.mirroring import (
    client,
    issue,
    mirror,
    new_id,
    push,
    relay_line,
    results,
    run_event,
    venue_token,
)
from tests.e2e.mirroring import mirror_url as mirror_url
from tests.e2e.mirroring import venue_url as venue_url

WON = {"games_0": "2", "games_1": "1", "draws": "0"}


class Mirrored(NamedTuple):
    """A venue's event pushed to a running mirror: its id, each player's slip code of
    round 1, the venue's token on the mirror, the mirror's address and a browser."""

    t: str
    codes: dict[str, str]
    secret: str
    base: str
    http: httpx.Client


@contextmanager
def mirrored(venue_url: str, mirror_url: str) -> Iterator[Mirrored]:
    t = new_id()
    run_event(venue_url, t)
    codes = issue(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url) as base:
        assert push(venue_url, t, base, secret).returncode == 0
        yield Mirrored(t, codes, secret, base, httpx.Client(base_url=base, timeout=30))


def test_a_report_is_never_applied_twice(venue_url: str, mirror_url: str) -> None:
    with mirrored(venue_url, mirror_url) as (t, codes, secret, base, http):
        form = {**WON, "nonce": "feedc0ffee01"}
        http.post(f"/s/{codes['p5']}", data=form)
        http.post(f"/s/{codes['p5']}", data=form)  # the same form sent again: held once
        api = client(base, secret)
        pending = api.get(f"/tournaments/{t}/relayed?status=pending").json()
        assert len(pending) == 1
        # a push applied it and died before answering the mirror: it is still pending
        first = apply_at_venue(Handler(open_store(venue_url)), t, pending[0])
        assert first.status == "applied" and first.seq is not None
        assert api.get(f"/tournaments/{t}/relayed?status=pending").json() == pending
        done = push(venue_url, t, base, secret)
        assert done.returncode == 0, done.stderr
        assert f"applied at seq {first.seq}" in done.stdout
        assert [r["actor"]["id"] for r in results(venue_url, t)[2:]] == ["p5"]
        settled = api.get(f"/tournaments/{t}/relayed").json()
        assert [(r["status"], r["seq"]) for r in settled] == [("applied", first.seq)]
        again = push(venue_url, t, base, secret)  # nothing pending: nothing applied
        assert again.returncode == 0 and "relayed report" not in again.stdout
        late = api.post(f"/tournaments/{t}/relayed/{pending[0]['id']}",
                        json={"status": "refused", "reason": "late"})  # fmt: skip
        assert late.status_code == 200 and late.json()["status"] == "applied"
        assert relay_line(http.get(f"/s/{codes['p5']}").text) == "Received by the venue"


def test_a_bad_code_or_another_player_on_the_mirror_holds_nothing(
    venue_url: str, mirror_url: str
) -> None:
    with mirrored(venue_url, mirror_url) as (t, codes, secret, base, http):
        wrong = "2345-6789" if codes["p5"] != "2345-6789" else "3456-789A"
        assert http.post(f"/s/{wrong}", data=WON).status_code == 404
        assert http.post("/s/not-a-code", data=WON).status_code == 404
        as_opponent = http.post(f"/s/{codes['p5']}", data={**WON, "player": "p6"})
        assert as_opponent.status_code == 403 and relay_line(as_opponent.text) is None
        malformed = http.post(f"/s/{codes['p5']}", data={"games_0": "x"})
        assert malformed.status_code == 422
        assert client(base, secret).get(f"/tournaments/{t}/relayed").json() == []
        before = len(results(venue_url, t))
        done = push(venue_url, t, base, secret)
        assert done.returncode == 0 and "relayed report" not in done.stdout
        assert len(results(venue_url, t)) == before


def test_only_the_claiming_venue_takes_and_answers_its_reports(
    venue_url: str, mirror_url: str
) -> None:
    other = venue_token(mirror_url)
    organizer = create_token(open_store(mirror_url), "organizer", None, None)
    with mirrored(venue_url, mirror_url) as (t, codes, secret, base, http):
        http.post(f"/s/{codes['p5']}", data=WON)
        held = client(base, secret).get(f"/tournaments/{t}/relayed").json()
        assert len(held) == 1 and held[0]["status"] == "pending"
        assert "code" not in str(held[0]["command"]).lower().replace("command_id", "")
        for token in (other, organizer):
            api = client(base, token)
            assert api.get(f"/tournaments/{t}/relayed").status_code == 403
            answer = api.post(f"/tournaments/{t}/relayed/{held[0]['id']}",
                              json={"status": "refused", "reason": "not yours"})  # fmt: skip
            assert answer.status_code == 403
        assert client(base, "no-such-token").get(f"/tournaments/{t}/relayed").status_code == 401
        stolen = push(venue_url, t, base, other)
        assert stolen.returncode == 1 and "claimed by another venue" in stolen.stderr
        still = client(base, secret).get(f"/tournaments/{t}/relayed").json()
        assert [r["status"] for r in still] == ["pending"]
        missing = client(base, secret).post(f"/tournaments/{t}/relayed/relay-none",
                                            json={"status": "applied", "seq": 3})  # fmt: skip
        assert missing.status_code == 404
        bad = client(base, secret).post(f"/tournaments/{t}/relayed/{held[0]['id']}",
                                        json={"status": "applied"})  # fmt: skip
        assert bad.status_code == 422
