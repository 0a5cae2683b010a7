"""Who did it, recorded on every event: ``--actor ROLE:ID`` parsing, and API tokens over their life
(label, expiry, revocation), with time as an input (injected clocks, no sleeping)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from commands.actors import BadActor, parse_actor, with_actor
from commands.api.deps import TokenCache
from commands.handler import Handler
from commands.models import parse_command
from commands.reads.token_list import actor_labels, token_list
from commands.reads.views import json_of, log_page
from commands.tokens import (
    check_label,
    create_token,
    parse_expiry,
    refusal,
    state_of,
    token_hash,
)
from commands.web import create_app
from ledger.events import Actor, ResultReported
from ledger.store import TokenEntry
from ledger.url import open_store
from tests.builders import Given, create, register
from tests.unit.discipline_steps import AT, games, match, running, then

NOW = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


def token(**fields: Any) -> TokenEntry:
    return TokenEntry(**{"token_hash": "h", "token_id": "ab12cd34", "role": "judge",
                         "tournament": None, "player": None, **fields})  # fmt: skip


# --actor ROLE:ID


def test_an_actor_is_a_role_and_an_id() -> None:
    assert parse_actor("judge:Anna") == Actor(role="judge", id="Anna")
    assert parse_actor("player:p1:x") == Actor(role="player", id="p1:x"), "the first colon splits"


@pytest.mark.parametrize(
    ("text", "message"),
    [("judg:Anna", "role must be one of organizer, judge, scorekeeper, player"),
     ("reader:r1", "role must be one of organizer, judge, scorekeeper, player"),
     ("Anna", "must look like ROLE:ID, e.g. judge:Anna"),
     ("judge:", "the id after the role must not be empty"),
     ("judge:" + "a" * 201, "the id must have at most 200 characters"),
     ("judge:An\u202ena", "the id must be printable (contains U+202E RIGHT-TO-LEFT OVERRIDE)"),
     ("judge:An\nna", "the id must be printable (contains U+000A LINE FEED)")],
)  # fmt: skip
def test_a_bad_actor_is_refused_naming_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(BadActor) as refused:
        parse_actor(text)
    assert str(refused.value) == message


def test_the_actor_goes_into_a_command_that_names_none_and_its_own_wins() -> None:
    judge = Actor(role="judge", id="AK")
    command = {"type": "start_round", "tournament": "t"}
    assert with_actor(command, judge)["actor"] == {"role": "judge", "id": "AK"}
    own = {**command, "actor": {"role": "player", "id": "p1"}}
    assert with_actor(own, judge) == own
    assert with_actor(command, None) == command, "no --actor: the data stays as it was"


def test_a_players_report_by_cli_actor_is_unconfirmed_until_the_opponent_matches_it() -> None:
    given = running()
    report = {"type": "report_result", "tournament": "t1", "round": 1, "players": ["p1", "p2"],
              "result": {"games": [2, 1], "draws": 0}}  # fmt: skip
    p1, p2 = parse_actor("player:p1"), parse_actor("player:p2")
    then(
        given.apply(with_actor(report, p1)),
        ResultReported(**{**AT, "actor": p1}, round=1, players=("p1", "p2"), result=games(2, 1)),
    )
    assert match(given, 1, "p1", "p2").status == "unconfirmed"
    then(
        given.apply(with_actor(report, p2)),
        ResultReported(**{**AT, "actor": p2}, round=1, players=("p1", "p2"), result=games(2, 1)),
    )
    assert match(given, 1, "p1", "p2").status == "confirmed"


# tokens: expiry, labels, state


def test_an_expiry_is_a_duration_from_now_or_a_time_in_the_future() -> None:
    assert parse_expiry("30m", NOW) == NOW + timedelta(minutes=30)
    assert parse_expiry("8h", NOW) == NOW + timedelta(hours=8)
    assert parse_expiry("2d", NOW) == NOW + timedelta(days=2)
    assert parse_expiry("2026-11-28T18:00Z", NOW) == datetime(2026, 11, 28, 18, tzinfo=UTC)
    assert parse_expiry("2026-11-28T19:00+01:00", NOW) == datetime(2026, 11, 28, 18, tzinfo=UTC)
    assert parse_expiry("2026-11-28T18:00", NOW) == datetime(2026, 11, 28, 18, tzinfo=UTC)


@pytest.mark.parametrize(
    ("text", "message"),
    [("soon", "is neither a duration (30m, 8h, 2d) nor an ISO 8601 time"),
     ("0h", "is neither a duration"), ("-2h", "is neither a duration"),
     ("2026-11-28T09:00Z", "is not in the future (now 2026-11-28 09:00Z)")],
)  # fmt: skip
def test_an_expiry_that_is_no_time_or_not_in_the_future_is_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_expiry(text, NOW)


def test_a_label_is_one_printable_line() -> None:
    assert check_label("Anna (head judge)") == "Anna (head judge)"
    for bad, message in [(" ", "must not be blank"), ("a\nb", "LINE FEED"), ("x" * 201, "200")]:
        with pytest.raises(ValueError, match=message):
            check_label(bad)


def test_a_token_is_refused_once_expired_and_at_once_when_revoked() -> None:
    expiring = token(expires_at=NOW + timedelta(hours=1))
    assert refusal(expiring, NOW) is None
    assert refusal(expiring, NOW + timedelta(hours=1)) == "token expired"
    revoked = token(expires_at=NOW - timedelta(hours=1), revoked_at=NOW - timedelta(hours=2))
    assert refusal(revoked, NOW) == "token revoked", "a revocation wins over an expiry"
    assert state_of(token(), NOW + timedelta(days=999)) == "active", "no expiry: never expires"


def test_a_token_list_never_shows_the_hash() -> None:
    listed = json_of(token_list([token(label="Anna", created_at=NOW)], NOW))
    assert listed == {"tokens": [{
        "token_id": "ab12cd34", "role": "judge", "tournament": None, "player": None,
        "label": "Anna", "created_at": "2026-11-28T09:00:00Z", "expires_at": None,
        "revoked_at": None, "state": "active"}]}  # fmt: skip


def test_creating_a_token_refuses_a_past_expiry_and_a_broken_label() -> None:
    store = open_store(f"memory://{uuid.uuid4().hex}")
    with pytest.raises(ValueError, match="expiry must be in the future"):
        create_token(store, "judge", None, None, expires_at=NOW, now=NOW)
    with pytest.raises(ValueError, match="LINE FEED"):
        create_token(store, "judge", None, None, label="a\nb", now=NOW)
    assert store.tokens() == []


# the log joins labels at read time


def test_the_log_shows_a_token_actors_label_and_leaves_it_out_elsewhere() -> None:
    judge = token(token_id="ab12cd34", label="Anna (head judge)")
    player = token(token_id="ff00ff00", role="player", player="p1", tournament="t1", label="P1")
    labels = actor_labels([judge, player, token(token_id="00000000")])
    assert labels == {("judge", "judge-ab12cd34"): "Anna (head judge)"}
    given = Given(create(), *register("p1"))
    given.apply({"type": "drop_player", "tournament": "t1", "player": "p1",
                 "actor": {"role": "judge", "id": "judge-ab12cd34"}})  # fmt: skip
    events = json_of(log_page("t1", given.log, labels=labels))["events"]
    assert [e.get("actor_label") for e in events] == [None, None, "Anna (head judge)"]
    assert "actor_label" not in events[0]
    plain = json_of(log_page("t1", given.log))["events"]
    assert [{k: v for k, v in e.items() if k != "actor_label"} for e in events] == plain
    assert "Anna" not in given.log[-1].event.model_dump_json(), "never in the hashed event"


# the API's token cache: bounded staleness, expiry at once


class Clock:
    def __init__(self) -> None:
        self.seconds = 1000.0
        self.wall = NOW

    def tick(self, seconds: float) -> None:
        self.seconds += seconds
        self.wall += timedelta(seconds=seconds)


def test_a_kept_token_is_trusted_only_for_the_recheck_time() -> None:
    clock = Clock()
    cache = TokenCache(5.0, clock=lambda: clock.seconds, now=lambda: clock.wall)
    cache.keep("h", token(), clock.seconds)
    clock.tick(4.9)
    assert cache.get("h") == token()
    clock.tick(0.1)
    assert cache.get("h") is None, "read again from the store"
    assert cache.get("unknown") is None


def api_with_clock(recheck: float) -> tuple[TestClient, Handler, Clock]:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    handler.handle(parse_command(create()))
    app = create_app(handler)
    clock = Clock()
    app.state.tokens = TokenCache(recheck, clock=lambda: clock.seconds, now=lambda: clock.wall)
    return TestClient(app), handler, clock


def test_the_api_refuses_a_revoked_token_within_the_recheck_time_without_reading_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    http, handler, clock = api_with_clock(recheck=5.0)
    secret = create_token(handler.store, "judge", None, None, now=NOW)
    auth = {"Authorization": f"Bearer {secret}"}
    reads: list[str] = []
    real = handler.store.token
    monkeypatch.setattr(handler.store, "token", lambda h: reads.append(h) or real(h))
    assert http.get("/tournaments", headers=auth).status_code == 200
    entry = handler.store.token(token_hash(secret))
    assert entry is not None and handler.store.revoke_token(entry.token_id, NOW)
    reads.clear()
    clock.tick(4.0)
    assert http.get("/tournaments", headers=auth).status_code == 200, "kept: stale by < 5 s"
    assert reads == [], "a kept token costs no store read"
    clock.tick(1.0)
    refused = http.get("/tournaments", headers=auth)
    assert (refused.status_code, refused.json()) == (401, {"error": "token revoked"})
    assert len(reads) == 1


def test_the_api_refuses_an_expired_token_at_once() -> None:
    http, handler, clock = api_with_clock(recheck=600.0)
    secret = create_token(handler.store, "reader", None, None,
                          expires_at=NOW + timedelta(minutes=30), now=NOW)  # fmt: skip
    auth = {"Authorization": f"Bearer {secret}"}
    assert http.get("/tournaments", headers=auth).status_code == 200
    clock.tick(30 * 60)
    refused = http.get("/tournaments", headers=auth)
    assert (refused.status_code, refused.json()) == (401, {"error": "token expired"})
    assert refused.headers["WWW-Authenticate"] == 'Bearer error="invalid_token"'
