"""Who may push to a mirror, and what a bad batch gets: one clear error and nothing
appended (a real ``tledger serve`` on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson

from commands.tokens import create_token, revoke
from ledger.store import TokenEntry
from ledger.url import open_store
from tests.e2e.mirroring import client, mirror, new_id, push, run_event, stored, venue_token
from tests.e2e.mirroring import mirror_url as mirror_url
from tests.e2e.mirroring import venue_url as venue_url


def body(lines: list[bytes], after: int = 0, **extra: Any) -> dict[str, Any]:
    """A push of ``lines`` (the venue's stored events ``after + 1`` on)."""
    head = None if after == 0 else {"seq": after, "hash": orjson.loads(lines[after - 1])["hash"]}
    return {"after": head, "events": [line.decode() for line in lines[after:]], **extra}


def entry_of(url: str, secret: str) -> TokenEntry:
    from commands.tokens import token_hash

    found = open_store(url).token(token_hash(secret))
    assert found is not None
    return found


def test_a_venue_token_pushes_only_what_it_claimed(venue_url: str, mirror_url: str) -> None:
    t = new_id()
    run_event(venue_url, t)
    lines = stored(venue_url, t)
    first, second = venue_token(mirror_url), venue_token(mirror_url)
    organizer = create_token(open_store(mirror_url), "organizer", None, None)
    with mirror(mirror_url) as base:
        by_organizer = client(base, organizer).post(f"/tournaments/{t}/push", json=body(lines))
        assert by_organizer.status_code == 403
        assert by_organizer.json()["error"] == "only a venue token may push"
        unknown = client(base, "tl_nobody").post(f"/tournaments/{t}/push", json=body(lines))
        assert unknown.status_code == 401
        assert push(venue_url, t, base, first, "--batch", "4").returncode == 0
        other = client(base, second).post(f"/tournaments/{t}/push", json=body(lines, 13))
        assert other.status_code == 403
        assert other.json()["error"] == f"tournament {t!r} is claimed by another venue"
        refused = push(venue_url, t, base, second)
        assert refused.returncode == 1
        assert f"tournament {t!r} is claimed by another venue" in refused.stderr
        revoke(open_store(mirror_url), entry_of(mirror_url, first).token_id, datetime.now(UTC))
        revoked = client(base, first).post(f"/tournaments/{t}/push", json=body(lines, 13))
        assert revoked.status_code == 401 and revoked.json()["error"] == "token revoked"
        assert stored(mirror_url, t) == lines


def test_a_tournament_of_the_mirrors_own_is_no_venues(venue_url: str, mirror_url: str) -> None:
    t = new_id()
    run_event(venue_url, t)
    run_event(mirror_url, t, name="The mirror's own")
    own = stored(mirror_url, t)
    with mirror(mirror_url) as base:
        secret = venue_token(mirror_url)
        refused = client(base, secret).post(f"/tournaments/{t}/push", json=body(own[:3], 2))
        assert refused.status_code == 409
        assert (
            refused.json()["error"]
            == f"tournament {t!r} is this mirror's own, not mirrored from a venue"
        )
        assert push(venue_url, t, base, secret).returncode == 3  # its seq 1 is not the venue's
        assert stored(mirror_url, t) == own


def test_bad_batches_append_nothing(venue_url: str, mirror_url: str) -> None:
    t = new_id()
    run_event(venue_url, t)
    lines = stored(venue_url, t)
    secret = venue_token(mirror_url)
    with mirror(mirror_url, "--max-push-body", "20000") as base:
        api = client(base, secret)
        assert api.post(f"/tournaments/{t}/push", json=body(lines[:5])).status_code == 200
        flipped = [*lines[:6], lines[6].replace(b'"actor":', b'"actoR":'), *lines[7:9]]
        cases = [
            (body(flipped, 5), 422, "broken chain at seq 7: hash does not match the stored bytes"),
            (body(lines[:9], 7), 409, "gap: the mirror's head is seq 5, the batch follows seq 7"),
            (body([*lines[:6], lines[7]], 5), 422,
             "broken chain at seq 7: prev_hash does not match the previous event"),
            (body(lines[:9], 5, names=[{"player": "p9", "name": "Forged"}]), 422,
             "name entry for 'p9': no event of this batch registers that player"),
            (body(lines, 5, names=[{"player": "p1", "name": "Forged"}]), 422,
             "name entry for 'p1': no event of this batch registers that player"),
            (body(lines[:9], 5, extra="x"), 422, "extra: Extra inputs are not permitted"),
            ({**body(lines, 5), "events": [lines[5].decode() + " " * 30000]}, 413,
             "the body is larger than 20000 bytes"),
        ]  # fmt: skip
        for sent, status, error in cases:
            answer = api.post(f"/tournaments/{t}/push", json=sent)
            assert answer.status_code == status, (error, answer.text)
            assert answer.json()["error"].startswith(error), answer.text
            assert stored(mirror_url, t) == lines[:5]
        malformed = api.post(f"/tournaments/{t}/push", content=b"{", headers={
            "Content-Type": "application/json"})  # fmt: skip
        assert malformed.status_code == 400 and stored(mirror_url, t) == lines[:5]
        resent = api.post(f"/tournaments/{t}/push", json=body(lines[:9], 2))
        assert resent.status_code == 200 and resent.json()["appended"] == 4  # no duplicate
        assert stored(mirror_url, t) == lines[:9]
