"""A console form is taken only from the console's own pages: the browser's ``Origin``
must be exactly this server's scheme, host and port, and ``Sec-Fetch-Site`` (where the
browser sends it) ``same-origin``. A page elsewhere, on another port of the same host
(whose requests still carry the ``SameSite`` cookie) or without referrers (``Origin:
null``), can neither sign a browser in to a token of its choosing nor act in a session."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from commands.web import create_app
from tests.console.conftest import NOW

CREATE = {"type": "create_tournament", "tournament": "t1", "name": "Store Showdown",
          "ruleset": "swu-1.4"}  # fmt: skip
#: the test client's own origin
HERE = "http://testserver"
ELSEWHERE = [
    {"Origin": "null"},
    {"Origin": "http://testserver:8102"},
    {"Origin": "https://testserver"},
    {"Origin": "http://evil.example"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "none"},
    {"Sec-Fetch-Site": "same-site", "Origin": HERE},
]


@pytest.mark.parametrize("headers", ELSEWHERE)
def test_a_sign_in_from_elsewhere_is_refused_and_sets_no_cookie(
    console: TestClient, handler: Handler, headers: dict[str, str]
) -> None:
    secret = create_token(handler.store, "organizer", None, None, now=NOW)
    answer = console.post("/console/login", data={"token": secret}, headers=headers)
    assert answer.status_code == 403
    assert "set-cookie" not in answer.headers


@pytest.mark.parametrize("headers", ELSEWHERE)
def test_a_form_from_elsewhere_acts_on_nothing(
    sign_in: Callable[..., TestClient], handler: Handler, headers: dict[str, str]
) -> None:
    handler.handle(parse_command(CREATE))
    console = sign_in()
    answer = console.post("/console/t/t1/players/register", headers=headers,
                          data={"player": "p1", "name": "Mallory"})  # fmt: skip
    assert answer.status_code == 403
    assert handler.folds.state("t1").seq == 1


@pytest.mark.parametrize(
    "headers",
    [{"Origin": HERE, "Sec-Fetch-Site": "same-origin"}, {"Origin": "HTTP://TestServer"},
     {"Sec-Fetch-Site": "same-origin"}, {}],
)  # fmt: skip
def test_a_form_from_the_consoles_own_pages_is_taken(
    sign_in: Callable[..., TestClient], handler: Handler, headers: dict[str, str]
) -> None:
    handler.handle(parse_command(CREATE))
    answer = sign_in().post("/console/t/t1/players/register", headers=headers,
                            data={"player": "p1", "name": "Ada"})  # fmt: skip
    assert answer.status_code == 303 and "registered" in answer.headers["location"]
    assert handler.folds.state("t1").seq == 2


def test_the_default_port_may_be_left_out_of_the_origin(handler: Handler) -> None:
    secret = create_token(handler.store, "organizer", None, None, now=NOW)
    with TestClient(create_app(handler), base_url="https://console.example:443",
                    follow_redirects=False) as browser:  # fmt: skip
        answer = browser.post("/console/login", data={"token": secret},
                              headers={"Origin": "https://console.example"})  # fmt: skip
    assert answer.status_code == 303 and "set-cookie" in answer.headers
