"""A hosted mirror's relayed reports, for the venue that decides them (commands.relay).

``GET /tournaments/{t}/relayed?status=pending``: the players' reports the mirror holds
for the tournament's venue, in the order they came. ``POST /tournaments/{t}/relayed/{id}``:
the venue's answer to one, ``applied`` with its seq or ``refused`` with the reason. Both
take the venue token that claimed the tournament (its pushes' token): another venue's
token, or any other token, is refused (403), and the reports are not shown to it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, HTTPException, Query, Request, Response

from commands.api.deps import Caller, errors, settings_of, store_of
from commands.api.limits import read_body
from commands.api.mirror import body_as
from commands.errors import UnknownTournament
from commands.mirror import NotYours
from commands.relay import Answer, Relayed, as_json, settle
from commands.roles import Forbidden, Principal
from ledger.fields import MAX_ID
from ledger.store import Store

router = APIRouter()
Status = Literal["pending", "applied", "refused"]


def check_venue(store: Store, caller: Principal, tournament: str) -> None:
    """The caller is the venue token that claimed the tournament here."""
    if caller.token.role != "venue":
        raise Forbidden("only the venue's token may take its relayed reports")
    holder = store.claimed_by(tournament[:MAX_ID])
    if holder is None:
        raise UnknownTournament(tournament[:MAX_ID])
    if holder != caller.token.token_id:
        raise NotYours(f"tournament {tournament!r} is claimed by another venue")


@router.get("/tournaments/{tournament}/relayed", response_model=list[Relayed],
            responses=errors(401, 403, 404, 503))  # fmt: skip
async def get_relayed(
    request: Request, tournament: str, caller: Caller,
    status: Annotated[Status | None, Query(description="Only reports of this status")] = None,
) -> Response:  # fmt: skip
    """The players' reports held for the venue, in the order they came."""
    store = store_of(request)
    await asyncio.to_thread(check_venue, store, caller, tournament)
    found = await asyncio.to_thread(store.relayed, tournament, status)
    return Response(orjson.dumps([as_json(e) for e in found]), media_type="application/json")


@router.post("/tournaments/{tournament}/relayed/{ident}", response_model=Relayed,
             responses=errors(400, 401, 403, 404, 413, 422, 503),
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": Answer.model_json_schema()}}}})  # fmt: skip
async def post_answer(request: Request, tournament: str, ident: str, caller: Caller) -> Response:
    """The venue's answer to one held report: it stands as the first answer said."""
    store = store_of(request)
    await asyncio.to_thread(check_venue, store, caller, tournament)
    raw = await read_body(request, settings_of(request).max_body)
    answer = body_as(raw, Answer, "answer")
    done = await asyncio.to_thread(settle, store, tournament, ident, answer, datetime.now(UTC))
    if done is None:
        raise HTTPException(404, f"no relayed report {ident[:MAX_ID]!r} in {tournament!r}")
    return Response(orjson.dumps(as_json(done)), media_type="application/json")
