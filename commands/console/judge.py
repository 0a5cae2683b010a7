"""The judges' page: the queue of disputed, missing and unconfirmed results of
the current round, each with the form that settles it, and the forms for a time
extension, a penalty and a deck check.

A judge's ``report_result`` decides a dispute (an official's report wins, and the event
records the player reports it went against: ``commands.decide.conflicts``); its fields
are the match slip's (``commands.text.slipform``), read against the slip read model of the
match, so the console and the slip page build the same command. Every action is one
command of the contract (``respond.act``); ``commands.roles`` refuses what a role may
not send, and a reader sees the queue without its forms.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, get_args

from fastapi import APIRouter, Request
from fastapi import Query as Q
from fastapi.responses import Response

from commands.console.reading import may, model
from commands.console.respond import (
    Form,
    NotWhole,
    act,
    answered,
    back,
    console_path,
    form_of,
    form_sending,
    one_line,
    page,
)
from commands.console.session import PATH, ConsoleCaller
from commands.errors import CommandError
from commands.handler import Outcome
from commands.pages.isolation import isolated_names
from commands.reads.auditmodels import JudgeQueue
from commands.reads.cache import Query
from commands.reads.judgequeue import report_sentence
from commands.reads.models import Pairings, Players, Status
from commands.reads.papermodels import MatchSlip
from commands.text.decklist_text import BadDeckText, list_of
from commands.text.slipform import result_of
from ledger.events import DeckCheckRecorded, Penalty

router = APIRouter(prefix=PATH, include_in_schema=False)
PENALTIES: tuple[str, ...] = get_args(Penalty)
TIMINGS = ("before_game_1", "between_games", "after_match")
OUTCOMES = ("legal", "illegal", "unfixable")


@router.get("/t/{tournament}/judge")
async def judge_page(request: Request, tournament: str, caller: ConsoleCaller,
                     every: Annotated[int, Q(alias="all", ge=0, le=1)] = 0
                     ) -> Response:  # fmt: skip
    """The queue: disputed tables and reports waiting for the opponent's confirmation;
    the tables without any report (the whole round at its start) only with ``all=1``.
    Each report reads as a sentence in the table's order (``report_sentence``)."""
    queue = await model(request, tournament, Query("queue"), JudgeQueue)
    status = await model(request, tournament, Query("status"), Status)
    players = await model(request, tournament, Query("players"), Players)
    tables = None
    if status.round:
        tables = await model(request, tournament, Query("pairings"), Pairings)
    named = isolated_names(queue.names)
    shown = [t for t in queue.tables if every or t.state != "missing"]
    return page(request, caller, "judge_queue.html.j2", tournament=tournament, queue=queue,
                status=status, players=players.players, tables=tables, may=may(caller),
                penalties=PENALTIES, timings=TIMINGS, outcomes=OUTCOMES, shown=shown,
                unreported=len(queue.tables) - len(shown), every=bool(every),
                sentence=lambda t, r: report_sentence(r, t.players, named))  # fmt: skip


def target(form: Form, tournament: str) -> str:
    """The page the form was sent from (the queue, or a player's page)."""
    here = f"{PATH}/t/{tournament}/"
    sent_from = console_path(form.get("back"), f"{here}judge")
    return sent_from if sent_from.startswith(here) else f"{here}judge"


@router.post("/t/{tournament}/judge/result")
async def settle(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    """A judge's report of one match: the slip's fields, the match named by the form."""
    form = await form_sending(request, caller, "report_result", f"{PATH}/t/{tournament}/judge")
    here = target(form, tournament)
    players = (form.get("player_0"), form.get("player_1"))
    try:
        round_number = form.whole("round")
        query = Query("slip", round=round_number, players=players)
        slip = await model(request, tournament, query, MatchSlip)
        result = result_of({k: v for k, v in form.pairs if v}, slip)
    except (CommandError, NotWhole) as exc:
        return back(here, error=one_line(exc))
    body = {"type": "report_result", "tournament": tournament, "round": round_number,
            "players": list(players), "result": result}  # fmt: skip
    table = f"table {slip.table}" if slip.table is not None else "the match"
    return answered(here, await act(request, caller, body), f"{table}: judge's result recorded")


def command(form: Form, kind: str, tournament: str, needed: tuple[str, ...],
            optional: tuple[str, ...] = ()) -> dict[str, Any]:  # fmt: skip
    """The contract's body of ``kind`` from the form's fields: every ``needed`` one as
    sent (the contract says what is wrong with it), each ``optional`` one when filled."""
    body: dict[str, Any] = {"type": kind, "tournament": tournament}
    body |= {name: form.get(name) for name in needed}
    body |= {name: form.get(name) for name in optional if form.get(name)}
    return body


@router.post("/t/{tournament}/judge/extension")
async def extension(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    """Time for one table (``match``: its two players) of the round."""
    form = await form_of(request)
    body = command(form, "grant_time_extension", tournament, ("round", "minutes"), ("reason",))
    body["players"] = form.get("match").split(" ", 1)
    outcome = await act(request, caller, body)
    return answered(target(form, tournament), outcome, "time extension granted")


@router.post("/t/{tournament}/judge/penalty")
async def penalty(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    body = command(form, "issue_penalty", tournament,
                   ("player", "round", "penalty", "infraction"), ("points",))  # fmt: skip
    outcome = await act(request, caller, body)
    return answered(target(form, tournament), outcome, "penalty issued")


@router.post("/t/{tournament}/judge/deck-check")
async def deck_check(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    """A deck check; with the presented list pasted (JSON, or SWU text as for ``list
    submit``, read in a worker thread), the event records how it differs from the locked
    list. A caller who may not record one is refused before the paste is read."""
    form = await form_sending(request, caller, "record_deck_check", f"{PATH}/t/{tournament}/judge")
    here = target(form, tournament)
    body = command(form, "record_deck_check", tournament,
                   ("player", "round", "timing", "outcome"), ("minutes",))  # fmt: skip
    body.setdefault("minutes", 0)
    if form.get("presented"):
        try:
            body["presented"] = await asyncio.to_thread(list_of, form.get("presented"))
        except BadDeckText as exc:
            return back(here, error=f"presented list: {exc}")
    outcome = await act(request, caller, body)
    return answered(here, outcome, deck_check_done(outcome))


def deck_check_done(outcome: Outcome | str) -> str:
    """The outcome line: the differences the event records (per zone and kind, no card
    names), or the note why nothing was compared."""
    if isinstance(outcome, str):
        return ""
    event = next((r.event for r in outcome.recorded if isinstance(r.event, DeckCheckRecorded)),
                 None)  # fmt: skip
    if event is None or event.presented_hash is None:
        return "deck check recorded"
    if event.note:
        return f"deck check recorded: {event.note}"
    found = ", ".join(f"{d.zone} {d.kind} {d.count}" for d in event.differences or ())
    return (
        "deck check recorded: presented list differs from the locked list: " + found
        if found
        else "deck check recorded: presented list matches the locked list"
    )
