"""Schemathesis against the HTTP API in process: the API keeps its published contract.

Every operation of ``/openapi.json`` is fuzzed with an organizer token over a temporary
SQLite store that holds the swiss8 event: no answer is a 500, every status and body is
the documented one, and the ledger's invariants hold after each call (a refused command
appends nothing, a read appends nothing, the hash chain verifies and a fresh replay
equals the handler's incremental state). ``GET /events/stream`` is left out: a
Server-Sent Events stream never ends, so no call to it returns (test_http.py covers it).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import hypothesis
import orjson
import schemathesis
from hypothesis import strategies as st

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from commands.web import create_app
from ledger.chain import verify_stored
from ledger.store import Store
from ledger.url import open_store
from projections.state import fold

SWISS8 = Path(__file__).resolve().parents[2] / "examples" / "swiss8.jsonl"
TOURNAMENT = "swiss8"
PLAYERS = [f"p{n}" for n in range(1, 9)]
PAIRS = [["p1", "p2"], ["p3", "p4"], ["p1", "p3"], ["p8", "p2"], ["p1", "p6"], ["p4", "p7"]]
MAX_EXAMPLES = 40  # fuzzed cases per operation but POST /commands
MAX_COMMANDS = 150  # fuzzed cases of POST /commands (every command type)


#: a real SQLite file rather than memory:// (its 64-bit integers found the ``after`` 500);
#: removed when the interpreter exits
FOLDER = tempfile.TemporaryDirectory(prefix="tledger-schema-")


def swiss8_handler() -> Handler:
    """A handler over a fresh SQLite store that holds the swiss8 event (three rounds)."""
    handler = Handler(open_store(f"sqlite:///{FOLDER.name}/schema.sqlite3"))
    for line in SWISS8.read_text(encoding="utf-8").splitlines():
        if line.strip():
            handler.handle(parse_command(orjson.loads(line)))
    return handler


HANDLER = swiss8_handler()
TOKEN = create_token(HANDLER.store, "organizer", None, None)
#: The token goes on every call; a command the ruleset refuses as input (an unknown
#: ruleset, an option or result shape the ruleset does not take) is a 422 that the
#: command schema cannot express, so schema-valid bodies may get it (commands/decide.py).
CONFIG = schemathesis.Config.from_dict(
    {
        "headers": {"Authorization": f"Bearer {TOKEN}"},
        "generation": {"max-examples": MAX_EXAMPLES},
        "operations": [
            {
                "include-path": "/commands",
                "generation": {"max-examples": MAX_COMMANDS},
                "checks": {
                    "positive_data_acceptance": {
                        "expected-statuses": ["2xx", "401", "403", "404", "409", "422"]
                    }
                },
            }
        ],
    }
)
schema = schemathesis.openapi.from_asgi("/openapi.json", create_app(HANDLER), config=CONFIG)
schema = schema.exclude(path="/events/stream")


#: values the swiss8 event knows, by body field: a real tournament, players, a real match
#: of its three rounds, its rounds, and no ``actor`` (one naming another actor than the
#: token's is a 403)
AIMS: dict[str, list[Any]] = {
    "tournament": [TOURNAMENT],
    "player": PLAYERS,
    "players": PAIRS,
    "round": [1, 2, 3],
    "actor": [None],
}


def aimed(value: Any, choices: list[Any]) -> st.SearchStrategy[Any]:
    """One the swiss8 event knows (so calls reach past 404) or the generated value."""
    return st.sampled_from([*choices, value])


def positive(case: schemathesis.Case, location: str) -> bool:
    """Whether the case's component at ``location`` was generated to fit the schema."""
    component = case.meta.components.get(location) if case.meta else None
    return component is not None and component.mode.is_positive


def aims(case: schemathesis.Case, location: str, values: Any) -> st.SearchStrategy[Any]:
    if not isinstance(values, dict) or not positive(case, location):
        return st.just({})
    return st.fixed_dictionaries({k: aimed(v, AIMS[k]) for k, v in values.items() if k in AIMS})


@schema.hook
def flatmap_case(context: schemathesis.HookContext, case: schemathesis.Case) -> Any:
    """Aim the positive parts of a case at swiss8 and its players; negative parts stay."""
    return st.tuples(
        aims(case, "path", case.path_parameters),
        aims(case, "query", case.query),
        aims(case, "body", case.body),
    ).map(lambda chosen: retarget(case, *chosen))


def retarget(
    case: schemathesis.Case, path: dict[str, Any], query: dict[str, Any], body: dict[str, Any]
) -> schemathesis.Case:
    if path:
        case.path_parameters = {**case.path_parameters, **path}
    if query:
        case.query = {**case.query, **query}
    if body:
        case.body = {**case.body, **body}
    return case


def last_position(store: Store) -> int:
    """The position of the newest event of the whole store."""
    position, batch = 0, store.scan(0, 1000)[0]
    while batch:
        position = batch[-1][1].position
        batch = store.scan(position, 1000)[0]
    return position


def assert_ledger_sound(tournament: str) -> None:
    """The chain verifies and a fresh replay equals the handler's incremental state."""
    store = HANDLER.store
    events = store.load(tournament)
    if not events:
        return
    incremental = HANDLER.folds.state(tournament)
    assert verify_stored(tournament, store.load_raw(tournament)) == incremental.head
    assert fold(events) == incremental


@schema.parametrize()
@hypothesis.settings(deadline=None, suppress_health_check=list(hypothesis.HealthCheck))
def test_api_answers_as_documented_and_keeps_the_ledger_sound(case: schemathesis.Case) -> None:
    before = last_position(HANDLER.store)
    response = case.call_and_validate()
    if response.request.headers.get("Authorization") == f"Bearer {TOKEN}":
        assert response.status_code != 401, "a call with the organizer token is authenticated"
    after = last_position(HANDLER.store)
    if case.operation.path != "/commands" or response.status_code != 200:
        assert after == before, f"{case.method} {case.path} -> {response.status_code} appended"
        return
    outcome = response.json()
    if outcome["position"] <= before:  # a command id seen before: its first outcome again
        assert after == before, f"a repeated command id appended: {case.body}"
    else:
        assert outcome["position"] == after and outcome["events"]
    assert_ledger_sound(case.body["tournament"])


def test_the_command_schema_resolves_so_bodies_are_generated() -> None:
    """POST /commands has one JSON body alternative built from the command models."""
    operation = schema["/commands"]["POST"]
    assert [body.media_type for body in operation.body] == ["application/json"]
    assert {"ReportResult", "CreateTournament", "ErrorBody"} <= set(
        schema.raw_schema["components"]["schemas"]
    )


def test_the_swiss8_ledger_is_sound_after_the_run() -> None:
    assert_ledger_sound(TOURNAMENT)
    assert HANDLER.store.tournaments()
