"""The auditors' page: the tournament as known at an earlier seq or time, the difference
between two points, a player's tiebreakers explained, and ``verify`` with the witnesses
(printed heads) an auditor pastes.

Each part renders a read model that the CLI renders too: the read side's models at
``as_of`` (``tledger replay``), ``commands.reads.audit.diff_between`` (``tledger diff``),
the ``explain`` model (``tledger explain``) and ``commands.reads.verification.verified``
(``tledger verify``). Verification reads and re-derives the whole log, so it runs in a
worker thread; nothing here is an action, so a reader may use all of it. On a damaged log the page
still answers: it names the damage, each part reads what lies before it (a point
before the damaged seq, as ``tledger replay --until``) or says that it cannot, and
Verify names what is wrong.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from commands.api.deps import handler_of
from commands.console.reading import model, players_read
from commands.console.respond import form_of, one_line, page
from commands.console.session import PATH, ConsoleCaller
from commands.errors import CommandError
from commands.pages.isolation import said
from commands.reads.audit import diff_between
from commands.reads.auditmodels import Explained
from commands.reads.cache import INTEGRITY
from commands.reads.cache import Query as ReadQuery
from commands.reads.models import Bracket, Pairings, Standings, Status
from commands.reads.verification import verified
from projections.errors import ProjectionError
from replay.errors import ReplayError
from replay.witness import parse_witnesses

router = APIRouter(prefix=PATH, include_in_schema=False)
Point = Annotated[str, Query(max_length=64)]
#: what a part of the page may answer instead of its model: one line, shown in its place
REFUSALS = (CommandError, ProjectionError, ReplayError, *INTEGRITY)


@router.get("/t/{tournament}/audit")
async def audit_page(request: Request, tournament: str, caller: ConsoleCaller,
                     as_of: Point = "", a: Point = "", b: Point = "",
                     explain: Annotated[str, Query(max_length=200)] = "") -> Response:  # fmt: skip
    context = await audit_context(request, tournament, as_of, a, b, explain)
    return page(request, caller, "audit.html.j2", **context)


@router.post("/t/{tournament}/audit/verify")
async def verify_page(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    """``tledger verify T --witness``: the chain, the pairings re-derived, and each pasted
    witness's verdict (a malformed line is named, nothing is checked); the witnesses
    are read in the worker thread that verifies."""
    form = await form_of(request)
    text = form.get("witnesses")
    context = await audit_context(request, tournament, "", "", "", "")
    context |= {"witness_text": text}
    store = handler_of(request).store

    def verify() -> Any:
        witnesses = parse_witnesses(text.encode(), "pasted") if text else []
        return verified(store, tournament, witnesses)

    try:
        context["verified"] = await asyncio.to_thread(verify)
    except REFUSALS as exc:
        context["verify_error"] = one_line(exc)
    return page(request, caller, "audit.html.j2", **context)


async def audit_context(request: Request, tournament: str, as_of: str, a: str, b: str,
                        explain: str) -> dict[str, Any]:  # fmt: skip
    """Every part the query asks for, each with its model or the one line it answered."""
    players, damage = await players_read(request, tournament)
    context: dict[str, Any] = {
        "tournament": tournament, "players": players.players, "damage": damage,
        "as_of": as_of, "a": a, "b": b,
        "explain": explain, "said": said, "past": None, "diff": None,
        "explained": None, "verified": None, "witness_text": "", "verify_error": "",
        "errors": {},
    }  # fmt: skip
    point = as_of or None
    if as_of:
        context["past"] = await part(context, "as_of", past(request, tournament, as_of))
    if a and b:
        store = handler_of(request).store
        compared = asyncio.to_thread(diff_between, store, tournament, a, b)
        context["diff"] = await part(context, "diff", compared)
    if explain:
        query = ReadQuery("explain", player=explain)
        why = model(request, tournament, query, Explained, point)
        context["explained"] = await part(context, "explain", why)
    return context


async def part(context: dict[str, Any], name: str, work: Any) -> Any:
    """The part's model, or None with its one-line refusal kept under ``errors``."""
    try:
        return await work
    except REFUSALS as exc:
        context["errors"][name] = one_line(exc)
        return None


async def past(request: Request, tournament: str, point: str) -> dict[str, Any]:
    """Status, standings, pairings and bracket as known at ``point`` (``tledger replay``)."""
    status = await model(request, tournament, ReadQuery("status"), Status, point)
    found: dict[str, Any] = {"status": status, "pairings": None, "bracket": None}
    found["standings"] = await model(request, tournament, ReadQuery("standings"), Standings,
                                     point)  # fmt: skip
    if status.round:
        found["pairings"] = await model(request, tournament, ReadQuery("pairings"), Pairings,
                                        point)  # fmt: skip
    if status.stage in ("elimination", "finished"):
        bracket = await model(request, tournament, ReadQuery("bracket"), Bracket, point)
        found["bracket"] = bracket if bracket.rounds else None
    return found
