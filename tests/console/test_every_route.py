"""Every console URL at once (every action goes through the same command contract and
authorization as the API, so the console opens no way around them): a token scoped to one
tournament reads and acts on nothing of another, a reader acts on nothing, and a form full
of garbage is answered with one line, never a 5xx, with nothing appended.

The routes are walked from the application itself, so a page added later is checked
without this file naming it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from urllib.parse import unquote_plus

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from commands.console.respond import back, console_path
from commands.console.routes import ROUTERS, safe_next
from commands.handler import Handler
from commands.tokens import create_token
from commands.web import create_app
from tests.console.conftest import NOW
from tests.console.judge_event import NAMES, round_one

OTHER = "t2"
#: a value for each path parameter of a console URL
PATH_VALUES = {"player": "nobody", "action": "drop", "kind": "pairings", "fmt": "csv"}
#: the query a page needs to answer at all (its required parameters)
QUERIES = {"/results/correct": "?round=1&a=p1&b=p2", "/results/impact": "?a=0&b=1"}
#: malformed numbers where a form takes a number, malformed ids elsewhere
GARBAGE = {
    **dict.fromkeys(("round", "table", "minutes", "size", "seed", "points", "a", "b"), "abc"),
    **dict.fromkeys(
        ("player", "player_0", "player_1", "team", "member1", "member2", "a1", "b1", "match"),
        "\x07",
    ),
    "result": "x",
    "list": "\x07",
    "presented": "{",
    "reason": "",
    "name": "",
    "manual": "1",
    "timing": "x",
    "outcome": "x",
    "penalty": "x",
    "infraction": "x",
    "option.rounds": "abc",
    "back": "https://evil.example/",
    "witnesses": "garbage",
}


def console_routes(method: str) -> Iterator[str]:
    """The paths of the console's routes of one tournament that answer ``method``."""
    for router in ROUTERS:
        for route in router.routes:
            own = isinstance(route, APIRoute) and method in route.methods
            if own and route.path.startswith("/console/t/{tournament}"):  # type: ignore[attr-defined]
                yield route.path  # type: ignore[attr-defined]


def filled(path: str, tournament: str) -> str:
    url = path.replace("{tournament}", tournament)
    for name, value in PATH_VALUES.items():
        url = url.replace(f"{{{name}}}", value)
    tail = path.removeprefix("/console/t/{tournament}")
    return url + QUERIES.get(tail, "")


@pytest.fixture
def two_events(handler: Handler) -> Handler:
    """t1 and t2, each in round 1 under way."""
    round_one(handler, "t1")
    round_one(handler, OTHER)
    return handler


@pytest.mark.parametrize("role", ["organizer", "judge", "reader"])
def test_a_token_of_one_tournament_reads_no_page_of_another(
    sign_in: Callable[..., TestClient], two_events: Handler, role: str
) -> None:
    console = sign_in(role, "t1")
    paths = list(console_routes("GET"))
    assert len(paths) >= 12, paths
    for path in paths:
        answer = console.get(filled(path, OTHER))
        assert answer.status_code in (303, 403, 404), (path, answer.status_code)
        assert NAMES["p1"] not in answer.text, path
        assert answer.status_code != 303 or "/console/login" not in answer.headers["location"]
    assert console.get(filled("/console/t/{tournament}/players", "t1")).status_code == 200


def test_a_token_of_one_tournament_acts_on_nothing_of_another(
    sign_in: Callable[..., TestClient], two_events: Handler
) -> None:
    console = sign_in("organizer", "t1")
    before = two_events.folds.state(OTHER).seq
    sent = {"round": "1", "table": "1", "result": "2-0", "list": "Ada"}
    for path in console_routes("POST"):
        answer = console.post(filled(path, OTHER), data=sent)
        assert answer.status_code == 403, (path, answer.status_code)
        assert NAMES["p1"] not in answer.text, path
    assert two_events.folds.state(OTHER).seq == before


def test_a_form_of_garbage_gets_one_line_on_every_action_and_appends_nothing(
    sign_in: Callable[..., TestClient], two_events: Handler
) -> None:
    console = sign_in("organizer")
    before = two_events.folds.state("t1").seq
    for path in console_routes("POST"):
        answer = console.post(filled(path, "t1"), data=GARBAGE)
        assert answer.status_code < 500, (path, answer.status_code, answer.text[-300:])
        assert "Traceback" not in answer.text, path
        if answer.status_code == 303:
            target = answer.headers["location"]
            assert target.startswith("/console/"), (path, target)
            error = unquote_plus(target.partition("error=")[2])
            assert error and "\n" not in error, (path, target)
        assert two_events.folds.state("t1").seq == before, (path, answer.headers.get("location"))


@pytest.mark.parametrize("role", ["reader"])
def test_a_reader_acts_on_nothing_through_any_console_form(
    sign_in: Callable[..., TestClient], two_events: Handler, role: str
) -> None:
    console = sign_in(role, "t1")
    before = two_events.folds.state("t1").seq
    sensible = {"round": "1", "table": "1", "result": "2-0", "list": "Ada", "player": "p1",
                "match": "p1 p2", "minutes": "5", "reason": "r", "player_0": "p1",
                "player_1": "p2", "games_0": "2", "games_1": "0", "size": "4"}  # fmt: skip
    for path in console_routes("POST"):
        answer = console.post(filled(path, "t1"), data=sensible)
        assert answer.status_code < 500, path
        assert two_events.folds.state("t1").seq == before, (path, answer.headers.get("location"))


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/console", "/\\evil.example", "/console.evil",
     "/console/../x", "/console/%2e%2e/x", "/console//evil.example", "/consolex",
     "/console/t/t1/..\\..\\x", "javascript:alert(1)"],
)  # fmt: skip
def test_no_console_redirect_leaves_the_console(target: str) -> None:
    assert console_path(target) == "/console"
    assert back(target, ok="done").headers["location"] == "/console?ok=done"
    assert safe_next(target) == "/console"


def test_console_paths_with_a_query_are_kept() -> None:
    for target in ("/console", "/console/t/t1/players?q=Ada", "/console/t/t1/"):
        assert console_path(target) == target


@pytest.mark.parametrize("sent_from", ["https://evil.example/", "/console/t/t2/judge",
                                       "/console/t/t1/../../login", "/console/new"])  # fmt: skip
def test_a_judges_form_goes_back_only_to_a_page_of_its_own_tournament(
    sign_in: Callable[..., TestClient], two_events: Handler, sent_from: str
) -> None:
    console = sign_in("judge")
    answer = console.post("/console/t/t1/judge/penalty", data={"back": sent_from})
    assert answer.headers["location"].startswith("/console/t/t1/judge?error=")


def test_a_players_back_field_names_only_the_players_own_page(
    sign_in: Callable[..., TestClient], two_events: Handler
) -> None:
    console = sign_in("organizer")
    for sent_from in ("https://evil.example/", "/console/t/t1/players/p2"):
        answer = console.post("/console/t/t1/players/p1/nonsense", data={"back": sent_from})
        assert answer.headers["location"].startswith("/console/t/t1/players?error=")
    own = console.post(
        "/console/t/t1/players/p1/nonsense", data={"back": "/console/t/t1/players/p1"}
    )
    assert own.headers["location"].startswith("/console/t/t1/players/p1?error=")


def test_over_https_the_session_cookie_is_secure_httponly_and_strict(
    handler: Handler,
) -> None:
    secret = create_token(handler.store, "organizer", None, None, label="desk", now=NOW)
    with TestClient(create_app(handler), base_url="https://venue.local",
                    follow_redirects=False) as https:  # fmt: skip
        answer = https.post("/console/login", data={"token": secret, "next": "/console"},
                            headers={"origin": "https://venue.local"})  # fmt: skip
    cookie = answer.headers["set-cookie"].lower()
    assert {"secure", "httponly", "samesite=strict", "path=/console"} <= {
        part.strip().split(";")[0] for part in cookie.split(";")
    }
