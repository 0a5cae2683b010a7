"""``/console/t/{t}/results``: results entered from the keyboard, "table number, result,
Enter", so a stack of slips is typed without the mouse; the tables still missing or
disputed at the top; and corrections of played rounds with the regulation's timing
shown before confirming and the impact shown after. The tables still playing after
their time (the clock's ends, extensions included) are marked "over time": the status
read at the shell's time now (``ReadSide.status_at``, as ``GET /tournaments/{t}/status``).

A typed line is read by ``commands.text.result_text`` (the CLI's words and the ruleset's
slip form) into the contract's ``report_result``; an official's report is confirmed.
A correction's preview is ``commands.reads.correction_preview`` (the decider run on the
current state without appending); its impact is ``replay.diff`` between the seq
before and after the correction.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from commands.api.deps import handler_of
from commands.console.reading import REFUSALS, frame, models, over_state, title_of
from commands.console.respond import (
    NotWhole,
    act,
    answered,
    back,
    form_sending,
    one_line,
    page,
)
from commands.console.session import PATH, ConsoleCaller
from commands.handler import Outcome
from commands.models import CorrectResult, parse_command
from commands.pages.isolation import isolated, said
from commands.reads.cache import Query as ReadQuery
from commands.reads.correction_preview import correction_impact, correction_preview
from commands.reads.models import Pairings, Status
from commands.reads.next_step import NextSteps, next_step
from commands.reads.results_doc import results_round
from commands.reads.roundtables import seated_tables
from commands.text.result_text import TypedEntry, hint, parse_result, table_entry
from projections.standings import ruleset_of
from projections.state import TournamentState

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}/results", include_in_schema=False)
Text = Annotated[str, Query(max_length=200)]


@router.get("")
async def results_page(request: Request, tournament: str, caller: ConsoleCaller,
                       table: Text = "", result: Text = "") -> Response:  # fmt: skip
    """The entry form; after a refused line (``error``) it holds the typed table and
    result, states the error beside them, and its script selects the table number so
    the next number typed replaces it. A table whose result is confirmed links to its
    correction."""
    now = handler_of(request).clock()
    status, pairings, steps = await models(request, caller, tournament, ReadQuery("status"),
                                           ReadQuery("pairings"), ReadQuery("lifecycle"),
                                           at=now)  # fmt: skip
    assert isinstance(status, Status) and isinstance(pairings, Pairings)
    assert isinstance(steps, NextSteps)
    played, typing = await over_state(
        request, tournament, lambda s, names: (played_rounds(s, names, status), hint(s))
    )
    upcoming, correct = next_step(status, steps.steps, isolated), confirmed_table(status, table)
    return page(request, caller, "org_results.html.j2",
                **frame(tournament, await title_of(request, tournament), "results",
                        heading="Results", status=status, pairings=pairings, next=upcoming,
                        error_beside=bool(upcoming.waiting or correct),
                        island=island(status, pairings), played=played, hint=typing,
                        table=table, typed=result, correct=correct))  # fmt: skip


def confirmed_table(status: Status, table: str) -> dict[str, Any] | None:
    """The current round's table numbered ``table`` when its result is confirmed: the
    query of its correction page (a confirmed result is changed by a correction)."""
    found = next((t for t in status.tables if t.table is not None and str(t.table) == table
                  and t.state == "confirmed" and len(t.players) == 2), None)  # fmt: skip
    if found is None:
        return None
    return {
        "table": found.table,
        "query": urlencode({"round": status.round, "a": found.players[0], "b": found.players[1]}),
    }


def island(status: Status, pairings: Pairings) -> list[dict[str, Any]]:
    """The current round's tables for the page's preview as you type (JSON in the form's
    ``data-tables``)."""
    return [{"table": t.table, "state": t.state,
             "players": [{"id": p, "name": isolated(n)}
                         for p, n in zip(t.players, t.names, strict=True)]}
            for t in seated_tables(status, pairings) if t.table is not None]  # fmt: skip


def played_rounds(state: TournamentState, names: dict[str, str],
                  status: Status) -> list[dict[str, Any]]:  # fmt: skip
    """Every round's tables with their results as people say them, newest first; the
    current round's tables without a result in the state ``status`` shows them in
    (not started, playing, or missing once over time)."""
    current = {tuple(t.players): t.shown or t.state for t in status.tables}
    shown = []
    for rnd in reversed(state.rounds):
        done = results_round(rnd)
        now = current if rnd.number == status.round else {}
        rows = [{"table": m.table, "players": m.players,
                 "state": now.get(tuple(m.players), m.state) if m.state == "missing" else m.state,
                 "names": [names.get(p, p) for p in m.players],
                 "result": said(m.result, names) if m.result else ""}
                for m in done.matches if len(m.players) == 2]  # fmt: skip
        shown.append({"round": done.round, "stage": done.stage, "matches": rows})
    return shown


@router.post("")
async def enter(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    """One typed result reported; back to the empty form for the next table."""
    here = f"{PATH}/t/{tournament}/results"
    form = await form_sending(request, caller, "report_result", here)
    typed = f"{here}?{urlencode({'table': form.get('table'), 'result': form.get('result')})}"
    try:
        (entry, confirmed), names = await over_state(request, tournament, lambda s, names: (
            entered(s, form.get("table"), form.get("result")), names))  # fmt: skip
    except REFUSALS as exc:
        return back(typed, error=one_line(exc))
    if confirmed:
        return back(typed, error=f"table {entry.table} has a confirmed result: "
                                 "change it with a correction")  # fmt: skip
    body = {"type": "report_result", "tournament": tournament, "round": entry.round,
            "players": list(entry.players), "result": entry.result}  # fmt: skip
    outcome = await act(request, caller, body)
    if isinstance(outcome, str):
        return back(typed, error=outcome)
    # the players named in the order the numbers were typed: a reversed slip shows at once
    a, b = (isolated(names.get(p, p)) for p in entry.players)
    return answered(here, outcome, f"table {entry.table}: {form.get('result')} ({a} v {b})")


def entered(state: TournamentState, table: str, text: str) -> tuple[TypedEntry, bool]:
    """The typed line's report, and whether its table's result is already confirmed (a
    confirmed result is changed by a correction, swu-1.4 §5.8, not by another report)."""
    entry = table_entry(state, table, text)
    rnd = state.round(entry.round)
    match = rnd.match_of(*entry.players) if rnd is not None else None
    return entry, match is not None and match.status == "confirmed"


def correction_of(tournament: str, round_number: int, a: str, b: str, text: str,
                  reason: str, state: TournamentState) -> CorrectResult:  # fmt: skip
    """The ``correct_result`` a typed correction asks for (the round's stage's form)."""
    rnd = state.round(round_number)
    stage = rnd.stage if rnd is not None else "swiss"
    result = parse_result(text, ruleset_of(state).result_form(stage), (a, b))
    command = parse_command({"type": "correct_result", "tournament": tournament,
                             "round": round_number, "players": [a, b], "result": result,
                             "reason": reason or None})  # fmt: skip
    assert isinstance(command, CorrectResult)
    return command


@router.get("/correct")
async def correct_page(request: Request, tournament: str, caller: ConsoleCaller,
                       round: Annotated[int, Query(ge=1)], a: Text, b: Text,
                       result: Text = "", reason: Text = "") -> Response:  # fmt: skip
    """The match, its result now, and once a new result is typed: what confirming does."""
    (status,) = await models(request, caller, tournament, ReadQuery("status"))
    handler = handler_of(request)

    def preview(state: TournamentState, names: dict[str, str]) -> Any:
        command = correction_of(tournament, round, a, b, result, reason, state)
        acted = command.model_copy(update={"actor": caller.actor})
        return correction_preview(state, acted, names, handler.clock(), 0)

    shown, error = None, ""
    if result:
        try:
            shown = await over_state(request, tournament, preview)
        except REFUSALS as exc:
            error = one_line(exc)
    now = await over_state(request, tournament, lambda s, names: match_now(s, names, round, a, b))
    return page(request, caller, "org_correct.html.j2",
                **frame(tournament, await title_of(request, tournament), "results",
                        heading="Correct a result", round=round, a=a, b=b, result=result,
                        reason=reason, preview=shown, problem=error, now=now,
                        status=status))  # fmt: skip


def match_now(state: TournamentState, names: dict[str, str], number: int, a: str, b: str
              ) -> dict[str, Any]:  # fmt: skip
    """The match as recorded now, its result turned to ``a``'s side."""
    rnd = state.round(number)
    match = rnd.match_of(a, b) if rnd is not None else None
    result = match.oriented((a, b), match.result) if match and match.result else None
    return {"names": [names.get(a, a), names.get(b, b)], "found": match is not None,
            "result": said(result.model_dump(exclude_none=True), names)
            if result else ""}  # fmt: skip


@router.post("/correct")
async def correct(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    """The correction sent; then its impact (the seq before and after)."""
    form = await form_sending(request, caller, "correct_result", f"{PATH}/t/{tournament}/results")
    a, b, text, reason = form.get("a"), form.get("b"), form.get("result"), form.get("reason")
    typed = urlencode({"round": form.get("round"), "a": a, "b": b, "result": text,
                       "reason": reason})  # fmt: skip
    here = f"{PATH}/t/{tournament}/results/correct?{typed}"
    try:
        number = form.whole("round")
        command = await over_state(request, tournament, lambda s, _: correction_of(
            tournament, number, a, b, text, reason, s))  # fmt: skip
    except (*REFUSALS, NotWhole) as exc:
        return back(here, error=one_line(exc))
    outcome = await act(request, caller, command.model_dump(mode="json", exclude_none=True))
    if not isinstance(outcome, Outcome):
        return back(here, error=outcome)
    before = outcome.recorded[0].seq - 1
    return back(
        f"{PATH}/t/{tournament}/results/impact?a={before}&b={outcome.seq}",
        ok=f"corrected (seq {outcome.seq})",
    )


@router.get("/impact")
async def impact_page(request: Request, tournament: str, caller: ConsoleCaller,
                      a: Annotated[int, Query(ge=0)], b: Annotated[int, Query(ge=1)]
                      ) -> Response:  # fmt: skip
    """Who moved in the standings, who crossed the cut line, which tables were re-paired."""
    (status,) = await models(request, caller, tournament, ReadQuery("status"))
    if not a < b <= status.seq:
        return back(f"{PATH}/t/{tournament}/results", error=f"no change from seq {a} to {b}")
    handler = handler_of(request)

    def impact(state: TournamentState, names: dict[str, str]) -> Any:
        return correction_impact(handler.store.load(tournament, until=b), a, b, names)

    view = await over_state(request, tournament, impact)
    return page(request, caller, "org_impact.html.j2",
                **frame(tournament, await title_of(request, tournament), "results",
                        heading="Impact", view=view, a=a, b=b))  # fmt: skip
