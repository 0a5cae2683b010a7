"""The server's access log off a terminal: the JSON line structlog renders, written
once per turn of the event loop."""

from __future__ import annotations

import asyncio
import io
import json

from commands.cli.logs import AccessLines, access_emitter, access_logger

FIELDS = {"method": "GET", "path": "/healthz", "query": [], "status": 200, "ms": 0.4}


class Counted(io.BytesIO):
    """Bytes written, and how many writes."""

    writes = 0

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.writes += 1
        return super().write(data)


def test_a_line_outside_a_loop_is_written_at_once_with_the_keys_structlog_gives() -> None:
    out = Counted()
    AccessLines(out)(dict(FIELDS))
    (line,) = out.getvalue().decode().splitlines()
    parsed = json.loads(line)
    assert list(parsed) == [*FIELDS, "event", "level", "timestamp"]
    assert {k: parsed[k] for k in FIELDS} == FIELDS
    assert (parsed["event"], parsed["level"]) == ("request", "info")
    assert parsed["timestamp"].endswith("Z") and "T" in parsed["timestamp"]


def test_the_lines_of_one_turn_of_the_loop_reach_the_file_in_one_write() -> None:
    out = Counted()
    lines = AccessLines(out)

    async def turn() -> int:
        for status in (200, 404, 409):
            lines({**FIELDS, "status": status})
        before = out.writes
        await asyncio.sleep(0)  # the turn ends
        return before

    assert asyncio.run(turn()) == 0
    assert out.writes == 1
    assert [json.loads(x)["status"] for x in out.getvalue().splitlines()] == [200, 404, 409]


def test_a_terminal_gets_the_key_value_line() -> None:
    emit = access_emitter(tty=True)
    assert not isinstance(emit, AccessLines)
    assert access_logger(tty=True) is not None
