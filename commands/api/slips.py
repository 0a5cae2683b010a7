"""``/s/{code}``: the report page of a match slip, so that a slip reports its own result.

Each player of a match holds a code of their own, printed on their half of the slip
(commands/slipcodes.py). A player scans it and reports what happened; the opponent
confirms with the code on their own half. No token and no account: the code is the
credential, and it names one match of one round and the player who holds it, so the
page reports nothing else: the command's tournament, round, players and actor come from
the code's entry, never from the form. The report is the contract's ``report_result``
with the holder as the player actor, run through the same path as ``POST /commands``
(commands.api.writes.run), so the same rules apply as for any player report: a report
stays unconfirmed until the opponent's matching report (through the opponent's code) or
an official's confirms it, differing ones leave the match disputed for a judge, and a
confirmed match refuses. A code issued before players held their own has no holder: it
reports as either player of its match, as it always did.

Guessing codes is bounded before a code is looked up (commands.api.guesses, by the
client's address as commands.api.clients reads it); a code that is found is bounded by
its own use: its pages and reports share the command rate of a player token. The pages
are HTML, left out of the OpenAPI document (they are no API), and never cached: they
show the match as it stands. The code is left out of the access log
(commands.api.access).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl, quote

import orjson
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from commands.api.clients import client_address
from commands.api.deps import limiter_of, settings_of, store_of
from commands.api.guesses import guesses_of
from commands.api.limits import read_body, retry_after
from commands.api.reads import read_side
from commands.api.writes import run
from commands.errors import CommandError
from commands.models import ReportResult
from commands.pages.policy import PAGE_HEADERS
from commands.pages.slip_report import Notice, language, notice_page, report_page
from commands.reads.cache import Query
from commands.reads.papermodels import MatchSlip
from commands.reads.relayed import RelayState, relay_state
from commands.reads.slipmatch import SlipMatchGone
from commands.relay import hold, relay_id
from commands.roles import Forbidden, Principal
from commands.slipcodes import hash_of
from commands.text.slipform import command_of
from ledger.store import SlipCodeEntry, TokenEntry

router = APIRouter()
#: never kept (the page shows the match as it stands), the code in the address never
#: sent on as a referrer; the pages' one policy (its stylesheet and script are files)
HEADERS = {**PAGE_HEADERS, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
MAX_FIELDS = 32


def html(body: str, status: int = 200, headers: Mapping[str, str] | None = None) -> HTMLResponse:
    return HTMLResponse(body, status_code=status, headers={**HEADERS, **(headers or {})})


def notice(lang: str, what: Notice, status: int, headers: Mapping[str, str] | None = None
           ) -> HTMLResponse:  # fmt: skip
    return html(notice_page(lang, what), status, headers)


def lang_of(request: Request) -> str:
    return language(request.query_params.get("lang"), request.headers.get("accept-language"))


async def code_entry(request: Request, code: str, lang: str) -> SlipCodeEntry | HTMLResponse:
    """The code's entry, or the page that says why there is none: too many wrong codes
    (429, the code is not looked up), no such code (404: unknown, replaced or mistyped
    alike, so a guess learns nothing), or a code used too often (429)."""
    guesses, address = guesses_of(request), client_address(request)
    wait = guesses.wait(address)
    if wait is not None:
        return notice(lang, "too_many", 429, {"Retry-After": retry_after(wait)})
    digest = hash_of(code)
    entry = await asyncio.to_thread(store_of(request).slip_code, digest) if digest else None
    if entry is None:
        guesses.miss(address)
        return notice(lang, "unknown", 404)
    wait = limiter_of(request).take(f"slip:{entry.code_hash}")
    if wait is not None:
        return notice(lang, "busy", 429, {"Retry-After": retry_after(wait)})
    return entry


async def slip_of(request: Request, entry: SlipCodeEntry) -> MatchSlip:
    """The code's match as the read side has it now (raises SlipMatchGone when the
    match was paired again)."""
    side = await read_side(request)
    query = Query("slip", round=entry.round, players=entry.players)
    found = await asyncio.to_thread(side.get, entry.tournament, query)
    assert isinstance(found.model, MatchSlip)
    return found.model


@router.get("/s", include_in_schema=False)
async def find(request: Request, code: str = "", lang: str = "") -> Response:
    """The "type your code" field of a notice page: on to the code's own page."""
    if not code.strip():
        return notice(lang_of(request), "unknown", 404)
    target = f"/s/{quote(code.strip(), safe='')}" + (f"?lang={quote(lang)}" if lang else "")
    return RedirectResponse(target, status_code=303, headers=HEADERS)


async def match_of_code(
    request: Request, code: str, lang: str
) -> tuple[SlipCodeEntry, MatchSlip] | Response:
    """The code's entry and its match as the slip shows it, or the page that says why
    there is none (an unknown or replaced code, too many wrong codes, a match paired
    again)."""
    entry = await code_entry(request, code, lang)
    if isinstance(entry, Response):
        return entry
    try:
        return entry, await slip_of(request, entry)
    except SlipMatchGone:
        return notice(lang, "gone", 404)


@router.get("/s/{code}", include_in_schema=False)
async def show(request: Request, code: str) -> Response:
    """The slip's match: where its result stands, where a report relayed to the venue
    stands (on a mirror), and the form to report it."""
    lang = lang_of(request)
    found = await match_of_code(request, code, lang)
    if isinstance(found, Response):
        return found
    entry, slip = found
    relayed = await asyncio.to_thread(relay_state, store_of(request), entry)
    return html(report_page(slip, lang, holder=entry.player, nonce=secrets.token_hex(8),
                            relayed=relayed, again=own_address(request)))  # fmt: skip


def own_address(request: Request) -> str:
    """The page's own path and language, which a page waiting for the venue reloads."""
    lang = request.query_params.get("lang")
    return request.url.path + (f"?lang={quote(lang)}" if lang else "")


async def relay(request: Request, entry: SlipCodeEntry, command: ReportResult,
                caller: Principal, nonce: str | None) -> RelayState | None:  # fmt: skip
    """On a mirror of the code's tournament: the report held for the venue, which decides
    it (commands.relay), as the player's own; None elsewhere (the report is run here)."""
    store = store_of(request)
    if not await asyncio.to_thread(store.claimed_by, entry.tournament):
        return None
    caller.check(command)
    acted = command.model_copy(update={"actor": caller.actor})
    ident = relay_id(entry.code_hash, nonce, secrets.token_hex(16))
    await asyncio.to_thread(hold, store, entry, acted, ident, datetime.now(UTC))
    return await asyncio.to_thread(relay_state, store, entry)


@router.post("/s/{code}", include_in_schema=False)
async def report(request: Request, code: str) -> Response:
    """A player's report through the slip: the page again, showing the new state, or why
    the report was not taken (nothing is appended then)."""
    lang = lang_of(request)
    found = await match_of_code(request, code, lang)
    if isinstance(found, Response):
        return found
    entry, slip = found
    fields: dict[str, str] = {}
    status, error, headers, relayed = 200, None, None, None
    try:
        fields = await form_fields(request)
        command = command_of(fields, slip, entry.player)
        player = command.actor.id if command.actor else ""
        caller = Principal(TokenEntry(entry.code_hash, "slip", "player", entry.tournament, player))
        relayed = await relay(request, entry, command, caller, fields.get("nonce"))
        if relayed is None:
            await run(request, caller, command)
    except HTTPException as exc:
        status, error, headers = exc.status_code, str(exc.detail), exc.headers
    except Forbidden as exc:
        status, error = 403, str(exc)
    except CommandError as exc:
        status, error = exc.http_status, str(exc)
    slip = await slip_of(request, entry)
    if relayed is None and error is None:
        relayed = await asyncio.to_thread(relay_state, store_of(request), entry)
    page = report_page(slip, lang, holder=entry.player, nonce=secrets.token_hex(8),
                       posted=error is None, error=error, values=fields if error else None,
                       relayed=relayed, again=own_address(request))  # fmt: skip
    return html(page, status, headers)


async def form_fields(request: Request) -> dict[str, str]:
    """The form as sent: urlencoded (a plain HTML form) or a JSON object (a script);
    each field once, its first value. 400 when it is neither."""
    body = await read_body(request, settings_of(request).max_body)
    if request.headers.get("content-type", "").startswith("application/json"):
        try:
            data: Any = orjson.loads(body)
        except orjson.JSONDecodeError:
            raise HTTPException(400, "malformed JSON") from None
        if not isinstance(data, dict) or len(data) > MAX_FIELDS:
            raise HTTPException(400, "the form is a JSON object of its fields")
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str | int)}
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True,
                          strict_parsing=False, max_num_fields=MAX_FIELDS)  # fmt: skip
    except (UnicodeDecodeError, ValueError):
        raise HTTPException(400, "malformed form") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        fields.setdefault(key, value)
    return fields
