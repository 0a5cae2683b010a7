"""``/console/t/{t}/round``: pair the next round (automatically, from the bracket once
the cut is made, or by hand with warnings shown before sending), print pairings and
slips, and start the round. Before round 1 of an SWU limited event, the same page
assigns a draft's pods and starts deck building (``console.limited``).

Pairing by hand: the editor is a list of tables, each two selects of the players who
may play the next round (the second left empty: a bye). "Check" reloads the page with
the read layer's warnings (``commands.reads.pairing_check``: rematches, a second bye, a bye
not to the lowest-ranked); "Pair" sends the contract's manual ``pair_round``. The
printouts are ``tledger print``'s (``commands.pages.paper.printout``) served as pages
for the browser's print dialog, linking their stylesheets under the console's policy
(the file ``tledger print`` writes has them inline instead); slips printed by an
organizer carry report codes for the venue's address (``serve --venue``, else this
server's own), as ``tledger print slips --base-url`` does, after a confirmation when
that address is loopback; the pairings show the declared list points (X-Wing, Armada)
to organizers and judges only. Printing slips with codes again replaces the codes on the
slips already printed, so it is confirmed first on a page naming what changes
(``commands.reads.slip_reprint``), for the whole round or for one table's slip, which
gets new codes alone. The welcome sheet for the door carries the public page's address
on the venue network.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from commands.api.deps import handler_of, slip_base, venue_of
from commands.console.reading import REFUSALS, frame, models, over_state, title_of
from commands.console.respond import HEADERS, act, answered, back, form_of, one_line, page
from commands.console.session import PATH, ConsoleCaller
from commands.pages.isolation import isolated
from commands.pages.paper import printout
from commands.pages.printouts import KINDS
from commands.pages.venue import loopback
from commands.reads.cache import Query as ReadQuery
from commands.reads.models import Clock, Pairings, Status
from commands.reads.next_step import NextSteps, lists_warning, next_step
from commands.reads.podviews import Pods
from commands.reads.roundtables import editor_rows, hand_editor, round_steps, seated_tables
from commands.reads.slip_reprint import slip_reprint
from commands.reads.views import registered_names
from commands.roles import OFFICIALS, Principal
from projections.rulesets import ruleset
from projections.state import TournamentState

router = APIRouter(prefix=f"{PATH}/t/{{tournament}}", include_in_schema=False)
MAX_TABLES = 1100
#: characters of the welcome sheet's Wi-Fi hint (a network's name and its password)
MAX_WIFI = 200


@router.get("/round")
async def round_page(request: Request, tournament: str, caller: ConsoleCaller,
                     manual: Annotated[int, Query(ge=0, le=1)] = 0) -> Response:  # fmt: skip
    status, pairings, clock, pods, steps = await models(
        request, caller, tournament, ReadQuery("status"), ReadQuery("pairings"),
        ReadQuery("clock"), ReadQuery("pods"), ReadQuery("lifecycle"),
        at=handler_of(request).clock())  # fmt: skip
    assert isinstance(status, Status) and isinstance(pairings, Pairings)
    assert isinstance(clock, Clock) and isinstance(pods, Pods)
    assert isinstance(steps, NextSteps)
    query = {k: v for k, v in request.query_params.items() if k[:1] in "ab"}
    editor = None
    if manual:
        editor = await over_state(request, tournament, lambda s, n: hand_editor(s, n, query))
    deck_format = ruleset(status.ruleset, status.options).deck_format
    base = slip_base(request)
    settings = await asyncio.to_thread(handler_of(request).store.tournament_settings, tournament)
    reprint = None
    if pairings.pairings and caller.token.role == "organizer":
        store = handler_of(request).store
        reprint = await over_state(
            request, tournament, lambda s, n: slip_reprint(store, s, None, None, n)
        )
    return page(request, caller, "org_round.html.j2", slip_base=base, slip_loopback=loopback(base),
                public_on=settings.public_page,
                **frame(tournament, await title_of(request, tournament), "round",
                        heading="Round", status=status, pairings=pairings, editor=editor,
                        steps=round_steps(steps.steps), tables=seated_tables(status, pairings),
                        clock=clock, pods=pods, next=next_step(status, steps.steps, isolated),
                        deck_format=deck_format, lists_warning=lists_warning(status),
                        reprint=reprint))  # fmt: skip


@router.post("/round/pair")
async def pair(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    form = await form_of(request)
    here = f"{PATH}/t/{tournament}/round"
    body: dict[str, object] = {"type": "pair_round", "tournament": tournament}
    if form.get("manual") == "1":
        body["pairings"] = editor_rows({k: form.get(k) for k, _ in form.pairs}, MAX_TABLES)
    outcome = await act(request, caller, body)
    return answered(here, outcome, "paired")


@router.post("/round/start")
async def start(request: Request, tournament: str, caller: ConsoleCaller) -> Response:
    await form_of(request)
    here = f"{PATH}/t/{tournament}/round"
    outcome = await act(request, caller, {"type": "start_round", "tournament": tournament})
    return answered(here, outcome, "round started")


@router.get("/print/{kind}")
async def print_page(request: Request, tournament: str, kind: str, caller: ConsoleCaller,
                     round: Annotated[int | None, Query(ge=1)] = None,
                     lang: Annotated[str, Query(pattern="^(en|de)$")] = "en",
                     wifi: Annotated[str, Query(max_length=MAX_WIFI)] = "",
                     ) -> Response:  # fmt: skip
    """A printout as a page to print from the browser; slips without report codes (a
    page that is only read issues nothing: a reload or a restored tab must not
    replace the codes on slips already printed); the welcome sheet with the public
    page's address on the venue network and the organizer's ``wifi`` hint."""
    base = slip_base(request) if kind == "welcome" else None
    return await printed(request, caller, tournament, kind, round, lang, base, wifi)


@router.get("/print/slips/confirm")
async def confirm_slips(request: Request, tournament: str, caller: ConsoleCaller,
                        round: Annotated[int | None, Query(ge=1)] = None,
                        table: Annotated[int | None, Query(ge=1)] = None) -> Response:  # fmt: skip
    """Print slips with new codes? The page names what changes (all the round's codes, or
    one table's) before the form that issues them."""
    store = handler_of(request).store
    try:
        shown = await over_state(
            request, tournament, lambda s, n: slip_reprint(store, s, round, table, n)
        )
    except REFUSALS as exc:
        return back(f"{PATH}/t/{tournament}/round", error=one_line(exc))
    what = f"table {table}'s slip" if table else "the slips"
    return page(request, caller, "org_reprint.html.j2",
                **frame(tournament, await title_of(request, tournament), "round",
                        heading=f"Print {what} of round {shown.round} with new codes?",
                        reprint=shown, slip_base=slip_base(request),
                        slip_loopback=loopback(slip_base(request))))  # fmt: skip


@router.post("/print/slips")
async def print_slips_with_codes(request: Request, tournament: str, caller: ConsoleCaller,
                                 round: Annotated[int | None, Query(ge=1)] = None,
                                 lang: Annotated[str, Query(pattern="^(en|de)$")] = "en",
                                 table: Annotated[int | None, Query(ge=1)] = None,
                                 ) -> Response:  # fmt: skip
    """Slips with fresh report codes for the venue's address (``serve --venue``; else
    this request's own), as ``tledger print slips --base-url`` issues them (an
    organizer's act: issuing again replaces each match's earlier code; with ``table``,
    that table's slip and codes only); other roles get the slips without codes. Codes
    for a loopback address reach no phone: refused (409, nothing issued) unless the form
    says ``loopback=1``, the organizer's confirmation."""
    form = await form_of(request)
    issues = caller.token.role == "organizer"
    base = slip_base(request) if issues else None
    if base is not None and loopback(base) and form.get("loopback") != "1":
        return page(request, caller, "loopback.html.j2", status_code=409, tournament=tournament,
                    slip_base=base, refusal=loopback_refusal(base),
                    query=request.url.query)  # fmt: skip
    return await printed(request, caller, tournament, "slips", round, lang, base, table=table)


def loopback_refusal(base: str) -> str:
    """The one sentence that refuses codes for a loopback address, saying what to do."""
    return (
        f"No codes printed: {base} reaches only this computer, so a phone that scans "
        "a slip opens nothing. Restart with tledger serve --venue (or --base-url), "
        "or confirm that you print them for this address anyway."
    )


async def printed(request: Request, caller: Principal, tournament: str, kind: str,
                  round_number: int | None, lang: str, base: str | None,
                  wifi: str = "", table: int | None = None) -> Response:  # fmt: skip
    """``tledger print``'s page of ``kind`` (``commands.pages.paper.printout``); the
    declared list points on the pairings only for an organizer or a judge, as the API
    and the public page keep them from everyone else."""
    if kind not in KINDS:
        raise HTTPException(404, f"no printout {kind!r} (use one of: {', '.join(KINDS)})")
    handler, venue = handler_of(request), venue_of(request)
    officials = caller.token.role in OFFICIALS

    def render(state: TournamentState) -> str:
        names = registered_names(handler.store.players(tournament), state.teams)
        return printout(handler.store, state, names, kind, round_number, lang, "a4", base,
                        datetime.now(UTC), show_points=officials, venue=venue,
                        wifi=wifi, table=table)  # fmt: skip

    try:
        html = await asyncio.to_thread(handler.folds.read, tournament, render)
    except REFUSALS as exc:
        return back(f"{PATH}/t/{tournament}/round", error=one_line(exc))
    return HTMLResponse(html, headers=HEADERS)
