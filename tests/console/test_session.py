"""Signing in to the console: a token of the API in an HttpOnly, SameSite
cookie; without one every page sends the browser to the sign-in page."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from tests.console.conftest import NOW

CREATE = {"type": "create_tournament", "tournament": "t1", "name": "Store Showdown",
          "ruleset": "swu-1.4"}  # fmt: skip


def test_a_page_without_a_session_sends_the_browser_to_sign_in(console: TestClient) -> None:
    answer = console.get("/console/t/t1?x=1")
    assert answer.status_code == 303
    assert answer.headers["location"] == "/console/login?next=%2Fconsole%2Ft%2Ft1%3Fx%3D1"


def test_signing_in_keeps_the_token_in_an_httponly_samesite_cookie(
    console: TestClient, handler: Handler
) -> None:
    secret = create_token(handler.store, "judge", None, None, label="floor", now=NOW)
    answer = console.post("/console/login", data={"token": secret, "next": "/console/t/t1"})
    assert answer.status_code == 303 and answer.headers["location"] == "/console/t/t1"
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/console" in cookie
    home = console.get("/console")
    assert home.status_code == 200 and "judge · <bdi>floor</bdi>" in home.text


def test_an_unknown_token_is_refused_with_one_line_and_no_cookie(console: TestClient) -> None:
    answer = console.post("/console/login", data={"token": "tl_nope", "next": "/console"})
    assert answer.status_code == 303 and "error=" in answer.headers["location"]
    assert "set-cookie" not in answer.headers
    page = console.get(answer.headers["location"])
    assert "a valid bearer token is required" in page.text


def test_a_players_token_cannot_sign_in(console: TestClient, handler: Handler) -> None:
    handler.handle(parse_command(CREATE))
    secret = create_token(handler.store, "player", "t1", "p1", now=NOW)
    answer = console.post("/console/login", data={"token": secret})
    assert "error=" in answer.headers["location"]
    assert "cannot sign in to the console" in console.get(answer.headers["location"]).text


def test_a_revoked_token_ends_the_session(console: TestClient, handler: Handler) -> None:
    secret = create_token(handler.store, "organizer", None, None, now=NOW)
    console.post("/console/login", data={"token": secret})
    entry = handler.store.tokens()[0]
    handler.store.revoke_token(entry.token_id, NOW)
    console.app.state.tokens.recheck = 0  # type: ignore[attr-defined]
    answer = console.get("/console")
    assert answer.status_code == 303 and "token+revoked" in answer.headers["location"].replace(
        "%20", "+"
    )


def test_the_next_page_after_signing_in_is_always_a_console_page(
    console: TestClient, handler: Handler
) -> None:
    secret = create_token(handler.store, "organizer", None, None, now=NOW)
    answer = console.post("/console/login", data={"token": secret, "next": "https://evil.example/"})
    assert answer.headers["location"] == "/console"


def test_a_form_from_another_site_is_refused(sign_in: Callable[..., TestClient]) -> None:
    console = sign_in()
    answer = console.post("/console/logout", headers={"Origin": "https://evil.example"})
    assert answer.status_code == 403


def test_pages_allow_only_the_consoles_own_files(sign_in: Callable[..., TestClient]) -> None:
    console = sign_in()
    policy = console.get("/console").headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    assert console.get("/console/static/console.js").status_code == 200
    assert console.get("/console/static/../auth.py").status_code == 404


def test_the_tournament_page_shows_the_status_of_the_read_side(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    handler.handle(parse_command(CREATE))
    page = sign_in().get("/console/t/t1")
    assert page.status_code == 200 and "registration" in page.text and "seq 1 " in page.text


def test_a_token_of_another_tournament_may_not_open_it(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    handler.handle(parse_command(CREATE))
    assert sign_in("judge", "t2").get("/console/t/t1").status_code == 403
