"""Signing in to the console is bounded: an address that failed too often waits before
its next token is even looked up, all addresses together fail at a capped rate, a good
token spends nothing, and an unknown token tried again costs no store read."""

from __future__ import annotations

from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from commands.api.deps import TokenCache
from commands.api.guesses import GuessLimiter
from commands.console.session import SignIns
from commands.handler import Handler
from commands.tokens import create_token
from ledger.store import TokenEntry
from tests.console.conftest import NOW


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def sign_in(console: TestClient, secret: str) -> str:
    """Where the sign-in form sends the browser (with its outcome, unquoted)."""
    answer = console.post("/console/login", data={"token": secret, "next": "/console"})
    assert answer.status_code == 303
    return unquote(answer.headers["location"])


def test_after_ten_failed_sign_ins_an_address_waits_even_with_a_good_token(
    console: TestClient, handler: Handler
) -> None:
    for n in range(10):
        assert "a valid bearer token is required" in sign_in(console, f"tl_guess{n}")
    good = create_token(handler.store, "organizer", None, None, now=NOW)
    assert sign_in(console, good).endswith("error=too many failed sign-ins: try again in 6 s")


def test_a_good_token_spends_nothing(console: TestClient, handler: Handler) -> None:
    good = create_token(handler.store, "judge", None, None, now=NOW)
    assert all(sign_in(console, good) == "/console" for _ in range(30))


def test_every_address_together_is_capped_and_the_cap_refills() -> None:
    clock = Clock()
    guard = SignIns(GuessLimiter(1 / 6, 10, clock), GuessLimiter(2.0, 60, clock))
    for n in range(60):
        assert guard.wait(f"10.0.0.{n}") is None
        guard.missed(f"10.0.0.{n}")
    assert guard.wait("10.9.9.9") == pytest.approx(0.5)
    clock.now = 0.5
    assert guard.wait("10.9.9.9") is None


def test_an_unknown_token_tried_again_costs_no_store_read(
    console: TestClient, handler: Handler, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []
    read = handler.store.token

    def counted(digest: str) -> TokenEntry | None:
        reads.append(digest)
        return read(digest)

    monkeypatch.setattr(handler.store, "token", counted)
    for _ in range(3):
        sign_in(console, "tl_nope")
    assert len(reads) == 1


def test_an_unknown_token_is_read_again_after_the_recheck_period() -> None:
    clock = Clock()
    cache = TokenCache(5.0, clock)
    cache.keep_unknown("d1", 0.0)
    assert cache.unknown("d1")
    clock.now = 5.0
    assert not cache.unknown("d1")


def test_the_unknown_tokens_kept_are_bounded_and_the_oldest_goes_first() -> None:
    cache = TokenCache(5.0, Clock(), unknown_limit=3)
    for digest in ("d1", "d2", "d3", "d4"):
        cache.keep_unknown(digest, 0.0)
    assert [cache.unknown(d) for d in ("d1", "d2", "d3", "d4")] == [False, True, True, True]


def test_a_token_found_after_all_is_no_longer_taken_for_unknown() -> None:
    cache = TokenCache(5.0, Clock())
    cache.keep_unknown("d1", 0.0)
    entry = TokenEntry(token_hash="d1", token_id="1", role="organizer", tournament=None,
                       player=None)  # fmt: skip
    cache.keep("d1", entry, 0.0)
    assert not cache.unknown("d1") and cache.get("d1") == entry
