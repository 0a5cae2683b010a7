"""The console's front door: sign in and out, the list of tournaments, its own files.

``install(app)`` mounts every console router and turns ``SignInNeeded`` into the
redirect to the sign-in page; the pages of each concern live in their own router
(``dashboard.py`` and the modules beside it).
"""

from __future__ import annotations

import asyncio
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import RedirectResponse, Response

from commands.api.clients import client_address
from commands.api.limits import retry_after
from commands.api.reads import read_side
from commands.api.static import served
from commands.console import (
    audit,
    dashboard,
    finals,
    history,
    judge,
    limited,
    lists,
    options,
    people,
    players,
    results,
    rounds,
    setup,
    teams,
)
from commands.console.respond import (
    HEADERS,
    STATIC,
    FormRefused,
    back,
    console_path,
    form_of,
    page,
)
from commands.console.session import (
    COOKIE,
    PATH,
    ConsoleCaller,
    SignInNeeded,
    caller_of,
    sign_ins_of,
)
from commands.pages.assets import find
from commands.reads.models import TournamentSummary

router = APIRouter(prefix=PATH, include_in_schema=False)
ROUTERS: tuple[APIRouter, ...] = (router, dashboard.router)
# the organizer's pages
ROUTERS += (setup.router, players.router, lists.router, rounds.router, results.router,
            finals.router)  # fmt: skip
# team events (lcg-2.1d), SWU limited events (swu-1.4 §2.3.2) and the change of options
ROUTERS += (teams.router, limited.router, options.router)
# the judges' and auditors' pages; people before players: /players/{p}
ROUTERS += (judge.router, people.router, history.router, audit.router)
#: a session lasts a venue's day; the token's own expiry and revocation still apply
SESSION_SECONDS = 16 * 3600


def install(app: FastAPI) -> None:
    """Mount the console on ``app`` (``tledger serve``'s application)."""
    for module_router in ROUTERS:
        app.include_router(module_router)

    @app.exception_handler(SignInNeeded)
    async def sign_in(request: Request, exc: SignInNeeded) -> Response:
        return RedirectResponse(exc.target, status_code=303, headers=HEADERS)

    @app.exception_handler(FormRefused)
    async def refused(request: Request, exc: FormRefused) -> Response:
        return back(exc.target, error=str(exc))


@router.get("/login")
async def login_page(request: Request, next: Annotated[str, Query(max_length=2000)] = PATH
                     ) -> Response:  # fmt: skip
    return page(request, None, "login.html.j2", next=safe_next(next))


@router.post("/login")
async def login(request: Request) -> Response:
    """Check the pasted token as the API would and keep it in the session cookie; an
    address with too many failed sign-ins, or too many from everywhere, waits first
    (``session.SignIns``: the token is not even looked up)."""
    guard, address = sign_ins_of(request), client_address(request)
    wait = guard.wait(address)
    if wait is not None:
        message = f"too many failed sign-ins: try again in {retry_after(wait)} s"
        return back(f"{PATH}/login", error=message)
    form = await form_of(request)
    secret, target = form.get("token"), safe_next(form.get("next", PATH))
    again = f"{PATH}/login?next={quote(target, safe='')}"
    try:
        await caller_of(request, secret, target)
    except SignInNeeded as exc:
        guard.missed(address)
        return back(again, error=exc.message or "that token is not known here")
    answer = RedirectResponse(target, status_code=303, headers=HEADERS)
    answer.set_cookie(COOKIE, secret, max_age=SESSION_SECONDS, path=PATH, httponly=True,
                      samesite="strict", secure=request.url.scheme == "https")  # fmt: skip
    return answer


@router.post("/logout")
async def logout(request: Request) -> Response:
    await form_of(request)
    answer = back(f"{PATH}/login", ok="signed out")
    answer.delete_cookie(COOKIE, path=PATH, httponly=True, samesite="strict")
    return answer


@router.get("")
async def home(request: Request, caller: ConsoleCaller) -> Response:
    """The tournaments this token may see, newest first, and the way to a new one; each
    whose log is damaged marked with the damaged seq (every log brought up to date and
    checked as a read of it would be, in a worker thread)."""
    side = await read_side(request)

    def listed() -> tuple[list[TournamentSummary], dict[str, int]]:
        found = side.tournaments(caller.token.tournament).tournaments
        damage = {t.tournament: side.damage(t.tournament) for t in found}
        newest = sorted(found, key=lambda t: t.created_at, reverse=True)
        return newest, {t: d.seq for t, d in damage.items() if d is not None}

    newest, damaged = await asyncio.to_thread(listed)
    return page(request, caller, "home.html.j2", tournaments=newest, damaged=damaged)


@router.api_route("/static/{name}", methods=["GET", "HEAD"])
async def static(request: Request, name: str) -> Response:
    """The console's own stylesheet and scripts (no build step, nothing from elsewhere),
    served as the pages' files are (``commands.api.static``)."""
    return served(request, name, find(name, STATIC))


def safe_next(target: str) -> str:
    """Where to go after signing in: a console path only (no open redirect)."""
    return console_path(target, PATH)
