"""``POST /commands``: one command of the contract, acted by the token's holder."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import APIRouter, HTTPException, Request

from commands.api.deps import Caller, errors, handler_of
from commands.models import COMMAND_ADAPTER, parse_command

MAX_BODY = 64 * 1024


def command_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """The command body's JSON Schema and the models it refers to, for the OpenAPI components.

    A ``#/$defs/...`` reference inside a path item resolves against the document root,
    where there is no ``$defs``: no client (schemathesis included) could read the body.
    """
    body = COMMAND_ADAPTER.json_schema(ref_template="#/components/schemas/{model}")
    return body, body.pop("$defs", {})


COMMAND_BODY, COMMAND_DEFS = command_schema()
router = APIRouter()


@router.post(
    "/commands",
    responses=errors(400, 401, 403, 404, 409, 413, 422, 503),
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": COMMAND_BODY}}}},
)  # fmt: skip
async def post_command(request: Request, caller: Caller) -> dict[str, Any]:
    body = await request.body()
    if len(body) > MAX_BODY:
        raise HTTPException(413, f"the body is larger than {MAX_BODY} bytes")
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise HTTPException(400, f"malformed JSON: {exc}") from None
    command = parse_command(data)
    caller.check(command)
    acted = command.model_copy(update={"actor": caller.actor})
    outcome = await asyncio.to_thread(handler_of(request).handle, acted)
    return {"seq": outcome.seq, "position": outcome.position,
            "events": [r.as_json() for r in outcome.recorded]}  # fmt: skip
