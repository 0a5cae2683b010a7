"""``/console/t/{t}/finals``: make the cut (its size from the ruleset, or another one
given), the bracket as paired with its winners, finish and reopen the tournament,
the final standings, and the results as CSV and JSON downloads.

The bracket and standings are the read side's models; the cut, the next elimination
round and the finish are offered when the tournament's lifecycle allows them
(``projections.lifecycle``, the read model ``lifecycle``), a size asked for when the
ruleset's cut cannot be made; the downloads are ``tledger export --format csv|json``
(``commands.text.results_csv.results_bytes``) of the whole log.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from commands.api.deps import handler_of
from commands.console.reading import frame, models, title_of
from commands.console.respond import act, answered, form_of, page
from commands.console.session import PATH, ConsoleCaller
from commands.reads.cache import Query as ReadQuery
from commands.reads.models import Bracket, Standings, Status
from commands.reads.next_step import NextSteps
from commands.text.results_csv import results_bytes
from projections.state import TournamentState

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}/finals", include_in_schema=False)
EXPORTS = {"csv": "text/csv; charset=utf-8", "json": "application/json"}


@router.get("")
async def finals_page(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    status, bracket, standings, steps = await models(
        request, caller, tournament, ReadQuery("status"), ReadQuery("bracket"),
        ReadQuery("standings"), ReadQuery("lifecycle"))  # fmt: skip
    assert isinstance(status, Status) and isinstance(bracket, Bracket)
    assert isinstance(standings, Standings) and isinstance(steps, NextSteps)
    return page(request, caller, "org_finals.html.j2",
                **frame(tournament, await title_of(request, tournament), "finals",
                        heading="Cut & finish", status=status, bracket=bracket,
                        standings=standings, steps=steps.steps))  # fmt: skip


@router.post("/cut")
async def cut(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    body: dict[str, object] = {"type": "make_cut", "tournament": tournament}
    if (size := form.number("size")) is not None:
        body["size"] = size
    outcome = await act(request, caller, body)
    return answered(f"{PATH}/t/{tournament}/finals", outcome, "cut made")


@router.post("/finish")
async def finish(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    """``finish_tournament``; with the form's ``without_cut`` reason when the event's cut
    was not made (the page offers that form only when the lifecycle's
    ``finish_without_cut`` allows it)."""
    form = await form_of(request)
    body: dict[str, object] = {"type": "finish_tournament", "tournament": tournament}
    if form.all("without_cut"):
        body["without_cut"] = form.get("without_cut")
    outcome = await act(request, caller, body)
    return answered(f"{PATH}/t/{tournament}/finals", outcome, "tournament finished")


@router.post("/reopen")
async def reopen(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    outcome = await act(request, caller, {"type": "reopen_tournament", "tournament": tournament,
                                          "reason": form.get("reason")})  # fmt: skip
    return answered(f"{PATH}/t/{tournament}/finals", outcome, "tournament reopened")


@router.get("/export.{fmt}")
async def export(request: Request, tournament: str, fmt: str, caller: ConsoleCaller) -> Response:
    """The results document as ``tledger export --format csv|json`` writes it."""
    if fmt not in EXPORTS:
        raise HTTPException(404, f"no export {fmt!r} (csv, json)")
    handler = handler_of(request)

    def document(state: TournamentState) -> bytes:
        events = handler.store.load(tournament, until=state.seq)
        return results_bytes(state, events, handler.store.players(tournament), fmt)

    data = await asyncio.to_thread(handler.folds.read, tournament, document)
    disposition = f'attachment; filename="{tournament}-results.{fmt}"'
    return Response(data, media_type=EXPORTS[fmt], headers={
        "Content-Disposition": disposition, "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff"})  # fmt: skip
