"""``POST /commands``: one command of the contract, acted by the token's holder.

A command is refused as cheaply as possible, before it costs the writers anything:
the token first (401), then its rate (429, player and scorekeeper tokens), then the
body while it is read (413), and only then parsing and the handler.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import APIRouter, HTTPException, Request, Response
from pydantic import BaseModel, ConfigDict
from starlette.routing import Route

from commands.api.deps import (
    errors,
    group_commit_of,
    handler_of,
    limiters_of,
    principal,
    settings_of,
)
from commands.api.limits import limit_rate, read_body
from commands.errors import CommandError, Mirrored
from commands.handler import Handler, Outcome
from commands.models import COMMAND_ADAPTER, Command, parse_command
from commands.roles import Principal
from ledger.events import Actor


def command_schema() -> tuple[dict[str, Any], dict[str, Any]]:
    """The command body's JSON Schema and the models it refers to, for the OpenAPI components.

    A ``#/$defs/...`` reference inside a path item resolves against the document root,
    where there is no ``$defs``: no client (schemathesis included) could read the body.
    """
    body = COMMAND_ADAPTER.json_schema(ref_template="#/components/schemas/{model}")
    return body, body.pop("$defs", {})


class RecordedEvent(BaseModel):
    """One appended event: its JSON model (``/schema/events.json``) plus ``seq`` and
    ``position``; the fields after ``actor`` depend on ``type``."""

    model_config = ConfigDict(extra="allow")

    seq: int
    position: int
    type: str
    version: int
    at: str
    actor: Actor


class CommandOutcome(BaseModel):
    """The answer to an accepted command: the tournament's ``seq`` and the store's
    ``position`` after it, and the events it appended (none for a repeated
    ``command_id``: its first outcome is answered again)."""

    seq: int
    position: int
    events: list[RecordedEvent]


RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait (an integer, at least 1)",
                               "schema": {"type": "integer", "minimum": 1}}}  # fmt: skip
COMMAND_BODY, COMMAND_DEFS = command_schema()
router = APIRouter()


@router.post(
    "/commands",
    response_class=Response,
    responses={
        200: {"model": CommandOutcome, "description": "The command was applied"},
        **errors(400, 401, 403, 404, 409, 413, 422, 503),
        429: {**errors(429)[429], "headers": RETRY_AFTER},
    },
    openapi_extra={"requestBody": {"required": True, "content": {
        "application/json": {"schema": COMMAND_BODY}}}, "security": [{"bearerAuth": []}]},
)  # fmt: skip
# The endpoint takes the request alone and reads the caller from it itself (first, as
# ``Caller`` does on every other route): it is served by a plain route (``ROUTE``, ahead
# of this documented one), so the busiest write path skips the dependency solving.
async def post_command(request: Request) -> Response:
    """Apply one command, acted by the bearer token's holder; its events are answered."""
    caller = await principal(request, request.headers.get("authorization"))
    limit_rate(limiters_of(request), caller.token.token_hash, caller.token.role)
    body = await read_body(request, settings_of(request).max_body)
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise HTTPException(400, f"malformed JSON: {exc}") from None
    outcome = await run(request, caller, parse_command(data))
    answer = {"seq": outcome.seq, "position": outcome.position,
              "events": [r.as_json() for r in outcome.recorded]}  # fmt: skip
    return Response(orjson.dumps(answer), media_type="application/json")


async def run(request: Request, caller: Principal, command: Command) -> Outcome:
    """A command of the contract acted by ``caller``: checked against what the caller may
    send (403), then decided and appended by the application's handler. The one way a
    write goes over HTTP: ``POST /commands`` and a match slip's report page."""
    caller.check(command)
    acted = command.model_copy(update={"actor": caller.actor})
    state = request.app.state
    own: set[str] | None = getattr(state, "own_tournaments", None)
    if own is None:
        own = state.own_tournaments = set()
    mine = acted.tournament in own
    if not mine:
        await asyncio.to_thread(refuse_mirrored, handler_of(request), acted)
    try:
        outcome = await asyncio.wrap_future(group_commit_of(request).submit(acted))
    except CommandError:
        if not mine:  # a venue's push claimed the id meanwhile: that is why
            await asyncio.to_thread(refuse_mirrored, handler_of(request), acted)
        raise
    if outcome.recorded:
        own.add(acted.tournament)
    return outcome


def refuse_mirrored(handler: Handler, command: Command) -> None:
    """Refused when its tournament is mirrored from a venue (commands.mirror): its
    commands go there, and this copy only follows it. Asked before the command is
    decided, to answer at once, and again when it was refused, so that a command that
    lost the race to a venue's first push hears why; the store itself refuses, in the
    transaction that would append, any command to a claimed tournament. The application
    keeps the tournaments this process appended to (the store appended them while no
    venue claimed them, and a tournament with events of its own is never claimed
    later), so the store is not asked again for them."""
    if handler.store.claimed_by(command.tournament):
        raise Mirrored(command.tournament)


#: ``POST /commands`` as served: the same endpoint on a plain route, put ahead of the
#: documented one by ``commands.web.app``
ROUTE = Route("/commands", post_command, methods=["POST"])
