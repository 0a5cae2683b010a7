"""Signing in to the console: a token of the API, kept in a cookie.

Why a cookie holding the token: the console is pages and forms, not a client that
sets an ``Authorization`` header, and a venue laptop has no account system to sign
in against; the token an organizer made with ``tledger token create`` is already
the credential with a role and a scope (commands/tokens.py, commands/roles.py). The
cookie is ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (another site's form
cannot send it) and scoped to ``/console``; a page on another port of the same host is
the same site and does send it, so every form, the sign-in included, must also come
from the console's own origin (``respond.same_origin``). A token that is revoked or
expired stops working on the next request, as it does for the API (the same
``TokenCache``).

Signing in is bounded (``SignIns``): each client address may fail a few times and
then once every few seconds, and all addresses together at a capped rate, so a
guesser gets nowhere and unknown tokens cost the store a bounded number of reads
(an unknown token tried again is not read again: ``commands.api.deps.TokenCache``).

Roles: an organizer's, judge's, scorekeeper's or reader's token signs in (a reader
sees the auditors' pages and can act on nothing); a player's token is refused here:
players report from their slips (``/s/{code}``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import quote

from fastapi import Depends, HTTPException, Request

from commands.api.deps import principal, readable
from commands.api.guesses import GuessLimiter
from commands.roles import Principal

COOKIE = "tledger_console"
PATH = "/console"
CONSOLE_ROLES = ("organizer", "judge", "scorekeeper", "reader")
#: failed sign-ins of one client address: a burst for typos, then one every six seconds
ADDRESS_MISSES = (1 / 6, 10)
#: failed sign-ins of every address together: the store reads that guessing can cost
ALL_MISSES = (2.0, 60)
_CREATING = threading.Lock()


@dataclass(frozen=True)
class SignIns:
    """Failed sign-ins, per client address and over all of them: a bucket each, looked
    at before a token is looked up (``wait``) and spent only on a failure (``missed``):
    signing in with a good token spends nothing."""

    by_address: GuessLimiter
    overall: GuessLimiter

    def wait(self, address: str) -> float | None:
        """Seconds until ``address`` may try again; None when it may now."""
        waits = (self.by_address.wait(address), self.overall.wait(""))
        return max((w for w in waits if w is not None), default=None)

    def missed(self, address: str) -> None:
        self.by_address.take(address)
        self.overall.take("")


def sign_ins_of(request: Request) -> SignIns:
    """The application's failed sign-ins, made on first use."""
    state = request.app.state
    with _CREATING:
        found: SignIns | None = getattr(state, "sign_ins", None)
        if found is None:
            found = SignIns(GuessLimiter(*ADDRESS_MISSES), GuessLimiter(*ALL_MISSES))
            state.sign_ins = found
    return found


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
