"""Signing in to the console: a token of the API, kept in a cookie.

Why a cookie holding the token: the console is pages and forms, not a client that
sets an ``Authorization`` header, and a venue laptop has no account system to sign
in against; the token an organizer made with ``tledger token create`` is already
the credential with a role and a scope (commands/tokens.py, commands/roles.py). The
cookie is ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (another site's form
cannot send it, which is what makes a form post here the user's own) and scoped to
``/console``. A token that is revoked or expired stops working on the next request,
as it does for the API (the same ``TokenCache``).

Roles: an organizer's, judge's, scorekeeper's or reader's token signs in (a reader
sees the auditors' pages and can act on nothing); a player's token is refused here:
players report from their slips (``/s/{code}``).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, HTTPException, Request

from commands.api.deps import principal, readable
from commands.roles import Principal

COOKIE = "tledger_console"
PATH = "/console"
CONSOLE_ROLES = ("organizer", "judge", "scorekeeper", "reader")


class SignInNeeded(Exception):
    """No valid console session: the answer is the sign-in page (a redirect)."""

    def __init__(self, target: str, message: str = "") -> None:
        super().__init__(message or "sign in")
        self.target, self.message = target, message


def login_url(next_path: str, message: str = "") -> str:
    query = f"?next={quote(next_path, safe='')}"
    return f"{PATH}/login{query}" + (f"&error={quote(message, safe='')}" if message else "")


async def console_caller(request: Request) -> Principal:
    """The signed-in caller, from the session cookie; a missing, unknown, expired or
    revoked token, or a player's token, sends the browser to the sign-in page. A
    tournament's page or action refuses (403) a token scoped to another tournament
    before the route reads anything: one check for every console URL, so no route can
    forget it (a pasted list or a typed result reads the fold before its command is
    checked)."""
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    caller = await caller_of(request, request.cookies.get(COOKIE, ""), here)
    if "tournament" in request.path_params:  # every /console/t/{tournament}/... URL
        readable(caller, request.path_params["tournament"])
    return caller


async def caller_of(request: Request, secret: str, here: str) -> Principal:
    """The caller whose token is ``secret``, or SignInNeeded (back to ``here`` after)."""
    if not secret:
        raise SignInNeeded(login_url(here))
    try:
        caller = await principal(request, f"Bearer {secret}")
    except HTTPException as exc:  # 401: no such token, or it no longer works
        message = str(exc.detail)
        raise SignInNeeded(login_url(here, message), message) from None
    if caller.token.role not in CONSOLE_ROLES:
        message = "a player's token cannot sign in to the console"
        raise SignInNeeded(login_url(here, message), message)
    return caller


ConsoleCaller = Annotated[Principal, Depends(console_caller)]
