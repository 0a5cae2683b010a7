"""A hosted mirror's HTTP: ``GET /tournaments/{t}/head`` and ``POST /tournaments/{t}/push``.

A venue asks for the head (the seq and hash of the mirror's last event of the
tournament; ``?seq=N``: of its event N, which ``tledger verify --against`` compares
head by head), then pushes the events after it (:mod:`commands.mirror`). A push takes a
``venue`` token; its body is bounded by ``--max-push-body`` (413), and a bad batch is
one error with nothing appended.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated, TypeVar

import orjson
from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, ValidationError

from commands.api.deps import Caller, errors, readable, settings_of, store_of
from commands.api.limits import read_body
from commands.errors import UnknownTournament
from commands.mirror import Head, PushBody, Pushed, PushRefused, receive
from commands.roles import Forbidden
from ledger.fields import MAX_ID

router = APIRouter()


@router.get("/tournaments/{tournament}/head", response_model=Head,
            responses=errors(401, 403, 404, 503))  # fmt: skip
async def get_head(
    request: Request, tournament: str, caller: Caller,
    seq: Annotated[int | None, Query(ge=1, description="An earlier event's seq")] = None,
) -> Response:  # fmt: skip
    """The seq and hash of the tournament's last event here, or of its event ``seq``:
    404 when there is none."""
    readable(caller, tournament)
    if len(tournament) > MAX_ID:
        raise UnknownTournament(tournament[:MAX_ID])
    store = store_of(request)
    found = await asyncio.to_thread(store.head, tournament)
    if found[0] == 0:
        raise UnknownTournament(tournament)
    if seq is not None and seq != found[0]:
        if seq > found[0]:
            raise HTTPException(404, f"tournament {tournament!r} has no event {seq} here "
                                f"(its head is seq {found[0]})")  # fmt: skip
        event = (await asyncio.to_thread(store.load, tournament, seq - 1, None, seq))[0]
        found = (seq, event.event.hash)
    return Response(orjson.dumps({"seq": found[0], "hash": found[1]}),
                    media_type="application/json")  # fmt: skip


@router.post("/tournaments/{tournament}/push", response_class=Response,
             responses={200: {"description": "The mirror's new head, the events appended "
                                             "and the names erased"},
                        **errors(400, 401, 403, 409, 413, 422, 503)},
             openapi_extra={"requestBody": {"required": True, "content": {
                 "application/json": {"schema": PushBody.model_json_schema()}}}})  # fmt: skip
async def post_push(request: Request, tournament: str, caller: Caller) -> Response:
    """Append a venue's batch of stored events after the mirror's head, with its names."""
    if caller.token.role != "venue":
        raise Forbidden("only a venue token may push")
    if len(tournament) > MAX_ID:
        raise PushRefused(f"a tournament id has at most {MAX_ID} characters")
    raw = await read_body(request, settings_of(request).max_push_body)
    body = body_as(raw, PushBody, "push")
    done: Pushed = await asyncio.to_thread(
        receive, store_of(request), tournament, body, caller.token, datetime.now(UTC)
    )
    answer = {"seq": done.seq, "hash": done.hash, "appended": done.appended,
              "erased": done.erased}  # fmt: skip
    return Response(orjson.dumps(answer), media_type="application/json")


M = TypeVar("M", bound=BaseModel)


def body_as(raw: bytes, model: type[M], whole: str) -> M:
    """A venue's JSON body as ``model``: malformed JSON is 400, a body the model refuses
    is one line naming the first field wrong (``whole`` when it is the body itself)."""
    try:
        return model.model_validate(orjson.loads(raw))
    except orjson.JSONDecodeError as exc:
        raise HTTPException(400, f"malformed JSON: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or whole
        raise PushRefused(f"{where}: {first['msg']}") from None
