"""How a console page answers: rendered HTML under a strict policy, and actions that
run one command of the contract and come back to the page they were sent from.

Every action posts a form and is answered with a redirect (post, redirect, get), so
a reload never sends a command twice and the page shown is always the read side's
current state. The outcome travels in the redirect's query (``ok`` or ``error``, one
line each, escaped when rendered like every other text).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, unquote

from fastapi import HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from commands.api.deps import handler_of, venue_of
from commands.api.limits import read_body
from commands.api.writes import run
from commands.errors import CommandError
from commands.handler import Outcome
from commands.models import parse_command
from commands.pages.isolation import isolated
from commands.pages.policy import PAGE_HEADERS
from commands.pages.render import render
from commands.reads.people import named_sentence
from commands.reads.views import registered_names
from commands.roles import SENDERS, Forbidden, Principal
from ledger.errors import LedgerError
from projections.errors import ProjectionError
from projections.state import TournamentState
from replay.errors import ReplayError

#: the console's templates, beside its code and its static files
TEMPLATES = ("console", Path(__file__).with_name("templates"))
STATIC = Path(__file__).with_name("static")

#: the pages' one policy (nothing but this server's own files: no inline script or style,
#: no resource from elsewhere), never kept, the console's addresses kept to itself
HEADERS = {**PAGE_HEADERS, "Cache-Control": "no-store", "Referrer-Policy": "same-origin"}
MAX_FORM = 256 * 1024  # a deck list, a results line, a page of witnesses
#: a pasted list of players or teams: 10,000 lines of names in any script, percent-encoded
MAX_PASTE = 1024 * 1024
#: characters of an outcome's line carried in the redirect's address
MAX_LINE = 300
#: the ports a browser leaves out of an ``Origin`` (RFC 6454 §6.1)
DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def page(request: Request, caller: Principal | None, template: str, status_code: int = 200,
         **context: Any) -> HTMLResponse:  # fmt: skip
    """``console/{template}`` with what every page shows: who is signed in, the outcome
    of the last action, and the venue whose zone names every time shown."""
    query = request.query_params
    body = render(f"console/{template}", TEMPLATES, caller=caller, ok=query.get("ok", ""),
                  error=query.get("error", ""), path=request.url.path,
                  venue=venue_of(request), **context)  # fmt: skip
    return HTMLResponse(body, status_code=status_code, headers=HEADERS)


class Form:
    """An ``application/x-www-form-urlencoded`` body: each field's values in order."""

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def get(self, name: str, default: str = "") -> str:
        """The field's last value, stripped; ``default`` when absent."""
        values = self.all(name)
        return values[-1].strip() if values else default

    def all(self, name: str) -> list[str]:
        return [v for k, v in self.pairs if k == name]

    def number(self, name: str) -> int | str | None:
        """A number field as the contract takes it: blank None, a whole number an int,
        anything else the text as typed (the contract's one line names what is wrong
        with it, as it does for the API's JSON)."""
        text = self.get(name)
        return None if not text else whole_number(text) if WHOLE.fullmatch(text) else text

    def whole(self, name: str) -> int:
        """A number the page itself needs (to find a match): NotWhole when it is not one."""
        found = self.number(name)
        if not isinstance(found, int):
            raise NotWhole(f"{name}: must be a whole number, not {self.get(name)!r}")
        return found


#: a whole number as typed: ASCII digits only ("²".isdigit() is true, int() refuses it)
WHOLE = re.compile(r"-?[0-9]{1,9}")


def whole_number(text: str) -> int | None:
    """``text`` as a whole number, or None when it is not one."""
    return int(text) if WHOLE.fullmatch(text) else None


class NotWhole(ValueError):
    """A form's number field that is not a whole number (its one line)."""


class FormRefused(Exception):
    """A form answered before its body is read: back to ``target`` with one line."""

    def __init__(self, target: str, message: str) -> None:
        super().__init__(message)
        self.target = target


async def form_of(request: Request, limit: int = MAX_FORM) -> Form:
    """The posted form, after checking that it comes from this site's own pages
    (``same_origin``); at most ``limit`` bytes (413), parsed in a worker thread so that
    a long paste never holds the event loop."""
    same_origin(request)
    body = await read_body(request, limit)
    return Form(await asyncio.to_thread(pairs_of, body))


def pairs_of(body: bytes) -> list[tuple[str, str]]:
    return parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)


async def form_sending(request: Request, caller: Principal, kind: str, here: str,
                       limit: int = MAX_FORM) -> Form:  # fmt: skip
    """The form of an action that sends a ``kind`` command, checked in the order of
    their cost: where it comes from, then whether the caller's role may send ``kind``
    at all (refused before a byte of the body is read, so a reader's paste costs
    nothing), then its size (a body over ``limit`` is refused with one line, back on
    ``here``). The command itself is checked again in full when it is sent."""
    same_origin(request)
    if caller.token.role not in SENDERS[kind]:
        raise FormRefused(here, f"a {caller.token.role} may not send {kind}")
    try:
        return await form_of(request, limit)
    except HTTPException as exc:
        if exc.status_code != 413:
            raise
        raise FormRefused(here, f"the form holds more than {limit // 1024:,} KiB: "
                                "send it in parts") from None  # fmt: skip


def same_origin(request: Request) -> None:
    """403 unless the form was sent by the console's own pages. The session cookie is
    ``SameSite=Strict``, but a site is a host without its port and scheme, so a page on
    another port of the same host still sends it; the browser says where a form comes
    from, and that must be this console: ``Sec-Fetch-Site`` (sent by current browsers)
    must be ``same-origin`` (``none``, an address typed by the user, is no form), and
    ``Origin`` exactly this server's scheme, host and port (``null``, sent by a
    sandboxed frame or a page without referrers, is refused). A request with neither
    header comes from no browser (a script holding the token itself) and passes."""
    site = request.headers.get("sec-fetch-site")
    origin = request.headers.get("origin")
    if (site is not None and site != "same-origin") or (
        origin is not None and origin.lower() != own_origin(request)
    ):
        raise HTTPException(403, "a console form must be sent from the console's own pages")


def own_origin(request: Request) -> str:
    """This server's origin as a browser writes it: scheme, host and port, lower case,
    without the scheme's default port."""
    scheme, netloc = request.url.scheme.lower(), request.url.netloc.lower()
    default = DEFAULT_PORTS.get(scheme)
    if default is not None and netloc.endswith(default):
        netloc = netloc.removesuffix(default)
    return f"{scheme}://{netloc}"


async def act(request: Request, caller: Principal, body: Mapping[str, Any]
              ) -> Outcome | str:  # fmt: skip
    """Run one command of the contract as ``caller`` (the same checks as ``POST
    /commands``); the outcome, or the one-line reason it was refused."""
    try:
        return await run(request, caller, parse_command(dict(body)))
    except (CommandError, Forbidden, ProjectionError, ReplayError) as exc:
        return await named_refusal(request, body.get("tournament"), one_line(exc))


async def named_refusal(request: Request, tournament: object, sentence: str) -> str:
    """A refusal as the organizer reads it: the players and teams it names by id named
    by the registry, each name isolated (``commands.reads.people.named_sentence``);
    as it was when the tournament's names cannot be read (none, or a damaged log)."""
    if not isinstance(tournament, str):
        return sentence
    handler = handler_of(request)

    def names(state: TournamentState) -> dict[str, str]:
        return registered_names(handler.store.players(tournament), state.teams)

    try:
        known = await asyncio.to_thread(handler.folds.read, tournament, names)
    except (LedgerError, CommandError):
        return sentence
    return named_sentence(sentence, known, isolated)


def one_line(exc: BaseException) -> str:
    """A refusal's first line (the page shows one line, never a traceback)."""
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def back(target: str, *, ok: str = "", error: str = "") -> RedirectResponse:
    """303 to ``target`` (a path of the console) carrying the outcome's one line; any
    other target goes to the console's home (no open redirect)."""
    target = console_path(target)
    word, text = ("error", error) if error else ("ok", ok)
    text = text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"
    sep = "&" if "?" in target else "?"
    tail = f"{sep}{word}={quote(text, safe='')}" if text else ""
    return RedirectResponse(target + tail, status_code=303, headers=HEADERS)


def console_path(target: str, fallback: str = "/console") -> str:
    """``target`` when it is a path of the console, else ``fallback``: no other host
    (``//host``, ``/\\host``: browsers read a backslash as a slash), no scheme, and no
    dot segment (plain or percent-encoded) climbing out of ``/console``."""
    path = target.partition("?")[0]
    segments = unquote(path).replace("\\", "/").split("/")
    inside = path == "/console" or path.startswith("/console/")
    if inside and "" not in segments[1:-1] and not {".", ".."} & set(segments):
        return target
    return fallback


def answered(target: str, outcome: Outcome | str, done: str) -> RedirectResponse:
    """Back to ``target`` with ``done`` when the command was applied, else its refusal."""
    if isinstance(outcome, str):
        return back(target, error=outcome)
    return back(target, ok=f"{done} (seq {outcome.seq})")
