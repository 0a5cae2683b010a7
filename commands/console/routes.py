"""The console's front door: sign in and out, the list of tournaments, its own files.

``install(app)`` mounts every console router and turns ``SignInNeeded`` into the
redirect to the sign-in page; the pages of each concern live in their own router
(``dashboard.py`` and the modules beside it).
"""

from __future__ import annotations

import asyncio
from importlib import resources
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.responses import RedirectResponse, Response

from commands.api.reads import read_side
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
from commands.console.respond import HEADERS, back, console_path, form_of, page
from commands.console.session import (
    COOKIE,
    PATH,
    ConsoleCaller,
    SignInNeeded,
    caller_of,
)

router = APIRouter(prefix=PATH, include_in_schema=False)
STATIC = {"console.css": "text/css", "console.js": "text/javascript"}
# the organizer's results entry
STATIC["console-org.js"] = "text/javascript"
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


@router.get("/login")
async def login_page(request: Request, next: Annotated[str, Query(max_length=2000)] = PATH
                     ) -> Response:  # fmt: skip
    return page(request, None, "login.html.j2", next=safe_next(next))


@router.post("/login")
async def login(request: Request) -> Response:
    """Check the pasted token as the API would and keep it in the session cookie."""
    form = await form_of(request)
    secret, target = form.get("token"), safe_next(form.get("next", PATH))
    try:
        await caller_of(request, secret, target)
    except SignInNeeded as exc:
        message = exc.message or "that token is not known here"
        return back(f"{PATH}/login?next={quote(target, safe='')}", error=message)
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
    """The tournaments this token may see, newest first, and the way to a new one."""
    side = await read_side(request)
    listed = await asyncio.to_thread(side.tournaments, caller.token.tournament)
    newest = sorted(listed.tournaments, key=lambda t: t.created_at, reverse=True)
    return page(request, caller, "home.html.j2", tournaments=newest)


@router.get("/static/{name}")
async def static(name: str) -> Response:
    """The console's own stylesheet and script (no build step, nothing from elsewhere)."""
    if name not in STATIC:
        raise HTTPException(404, f"no console file {name!r}")
    body = resources.files("commands.console").joinpath("static", name).read_bytes()
    headers = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    return Response(body, media_type=STATIC[name], headers=headers)


def safe_next(target: str) -> str:
    """Where to go after signing in: a console path only (no open redirect)."""
    return console_path(target, PATH)
