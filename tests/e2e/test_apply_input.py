"""Input that does not fit the contract, end to end: `tledger apply` and `POST /commands`
answer bad bytes, deep nesting and impossible matches with exit 2 (HTTP 400/422) and one
line naming the line and the problem, never a Traceback, and append nothing for them."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from commands.cli.main import app
from commands.handler import Handler
from commands.tokens import create_token
from commands.web import create_app
from ledger.url import open_store

CREATE = {"type": "create_tournament", "tournament": "t1", "name": "Showdown",
          "ruleset": "swu-1.4"}  # fmt: skip


def line(command: dict[str, Any]) -> bytes:
    return json.dumps(command, ensure_ascii=False).encode()


def register(player: str, **extra: Any) -> bytes:
    return line({"type": "register_player", "tournament": "t1", "player": player, **extra})


def deep(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.fixture
def store(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path}/t.sqlite3"


def apply(store: str, data: bytes, tmp_path: Path | None = None) -> Any:
    """Run `tledger apply` on ``data``: from a file when ``tmp_path`` is given, else stdin."""
    if tmp_path is None:
        return CliRunner().invoke(app, ["apply", "-", "--store", store], input=data)
    source = tmp_path / "commands.jsonl"
    source.write_bytes(data)
    return CliRunner().invoke(app, ["apply", str(source), "--store", store])


def seq(store: str) -> int:
    result = CliRunner().invoke(app, ["status", "t1", "--json", "--store", store])
    return int(json.loads(result.stdout)["seq"])


def one_error_line(result: Any) -> str:
    """The one error line on stderr (the other lines there are the JSON command log)."""
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.stderr
    [message] = [x for x in result.stderr.splitlines() if not x.startswith("{")]
    return str(message)


@pytest.mark.parametrize("from_file", [True, False])
def test_a_line_that_is_not_utf8_stops_apply_with_exit_2_naming_the_line(
    store: str, tmp_path: Path, from_file: bool
) -> None:
    latin1 = b'{"type":"register_player","tournament":"t1","player":"p2","name":"Zo\xeb"}'
    data = b"\n".join([line(CREATE), register("p1"), latin1])
    result = apply(store, data, tmp_path if from_file else None)
    assert result.exit_code == 2
    expected = "error: line 3: not UTF-8: invalid continuation byte at byte 69"  # the ë
    assert one_error_line(result) == expected
    assert seq(store) == 2


def test_json_nested_deeper_than_the_limit_is_refused_before_validation(
    store: str, tmp_path: Path
) -> None:
    options = '{"type":"create_tournament","tournament":"t1","name":"x","ruleset":"swu-1.4",'
    data = f'{options}"options":{{"format":{deep(100)}}}}}'.encode()
    result = apply(store, data, tmp_path)
    assert result.exit_code == 2
    assert one_error_line(result) == (
        "error: line 1: create_tournament: JSON nested deeper than 64 levels"
    )


def test_json_nested_past_the_parsers_own_limit_is_malformed_json(
    store: str, tmp_path: Path
) -> None:
    data = line(CREATE) + b"\n" + f'{{"type":"start_round","x":{deep(5000)}}}'.encode()
    result = apply(store, data, tmp_path)
    assert result.exit_code == 2
    assert one_error_line(result).startswith("error: line 2: malformed JSON: ")
    assert seq(store) == 1


def test_a_byte_order_mark_at_the_start_of_a_file_is_accepted(store: str, tmp_path: Path) -> None:
    result = apply(store, b"\xef\xbb\xbf" + line(CREATE) + b"\r\n" + register("p1"), tmp_path)
    assert result.exit_code == 0, result.stderr
    assert seq(store) == 2


def test_a_line_separator_inside_a_json_string_does_not_split_the_line(
    store: str, tmp_path: Path
) -> None:
    data = b"\n".join([line(CREATE), register("p1", name="Ada\u2028Lovelace"), register("p2")])
    result = apply(store, data, tmp_path)
    assert result.exit_code == 2
    assert one_error_line(result) == (
        "error: line 2: register_player: name: must be printable (contains U+2028 LINE SEPARATOR)"
    )


def test_a_result_for_a_bye_is_refused_with_exit_2_and_nothing_appended(
    store: str, tmp_path: Path
) -> None:
    commands = [
        CREATE,
        *({"type": "register_player", "tournament": "t1", "player": p} for p in ("p1", "p2", "p3")),
        {"type": "pair_round", "tournament": "t1", "pairings": [["p1", "p2"], ["p3"]]},
        {"type": "start_round", "tournament": "t1"},
        {"type": "report_result", "tournament": "t1", "round": 1, "players": ["p3", "p3"],
         "result": {"games": [2, 0], "draws": 0}},
    ]  # fmt: skip
    result = apply(store, b"\n".join(line(c) for c in commands), tmp_path)
    assert result.exit_code == 2
    assert one_error_line(result) == (
        "error: line 7: report_result: players: names 'p3' twice; a match is two different players"
    )
    assert seq(store) == 6


def test_an_id_with_a_bidirectional_override_is_refused_naming_the_character(
    store: str, tmp_path: Path
) -> None:
    result = apply(store, line(CREATE) + b"\n" + register("p\u202e1"), tmp_path)
    assert result.exit_code == 2
    assert one_error_line(result) == (
        "error: line 2: register_player: player: must be printable "
        "(contains U+202E RIGHT-TO-LEFT OVERRIDE)"
    )


# HTTP ---------------------------------------------------------------------------


class Client:
    """The API in-process (httpx over ASGI) with an organizer token on a fresh store."""

    def __init__(self) -> None:
        handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
        secret = create_token(handler.store, "organizer", None, None)
        self.app = create_app(handler)
        self.auth = {"Authorization": f"Bearer {secret}"}

    def request(self, method: str, path: str, body: bytes | None = None) -> httpx.Response:
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                headers = {**self.auth, "Content-Type": "application/json"}
                return await http.request(method, path, content=body, headers=headers)

        return asyncio.run(send())


@pytest.fixture
def client() -> Client:
    return Client()


def post(client: Client, body: bytes) -> httpx.Response:
    return client.request("POST", "/commands", body)


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        (b'{"type":"create_tournament","name":"\xff"}', 400, "malformed JSON"),
        (f'{{"type":"start_round","tournament":"t1","x":{deep(100)}}}'.encode(), 422,
         "start_round: JSON nested deeper than 64 levels"),
        (f'{{"type":"start_round","x":{deep(5000)}}}'.encode(), 400, "malformed JSON"),
        (line({"type": "report_result", "tournament": "t1", "round": 1,
               "players": ["p3", "p3"], "result": {"games": [2, 0], "draws": 0}}), 422,
         "players: names 'p3' twice"),
        (line({"type": "start_round", "tournament": "t\x001"}), 422,
         "tournament: must be printable (contains U+0000 NUL)"),
    ],
)  # fmt: skip
def test_post_commands_answers_bad_bodies_with_400_or_422_never_500(
    client: Client, body: bytes, status: int, message: str
) -> None:
    response = post(client, body)
    assert response.status_code == status
    assert message in response.json()["error"]
    assert "\n" not in response.json()["error"]


def test_post_commands_appends_nothing_for_a_refused_body(client: Client) -> None:
    assert post(client, line(CREATE)).status_code == 200
    assert post(client, register("p\u2066x")).status_code == 422
    status = client.request("GET", "/tournaments/t1/status").json()
    assert status["seq"] == 1 and status["players"] == 0
