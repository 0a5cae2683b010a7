"""``/t/{tournament}``: the tournament's public page, what a player's phone shows at the
venue: read-only and without a token, unless the organizer turned it off
(``tledger public T --off``).

- ``GET /t/{t}``: the page (``?lang=en|de``, else ``Accept-Language``; ``?q=``: only
  the tables where a name or player number holds it, for a browser without script).
- ``GET /t/{t}/content``: the part of the page that changes, which the page's script
  swaps in when the tournament moves on.
- ``GET /t/{t}/clock``: the round clock full screen, for the venue's projector (its
  changing part: ``GET /t/{t}/clock/content``), live the same way.
- ``GET /t/{t}/live``: Server-Sent Events, one ``data: {"seq": N, "head": "..."}`` when
  the stream opens and one whenever the tournament's seq moves: no event, no name, no
  log. It hangs on the process's one tail of the store (``hub.py``), so a thousand
  phones cost one reader of the store; past ``Settings.public_streams`` open streams
  of a tournament the answer is 429, past the process's ``Settings.max_streams`` 503,
  and the page polls.

Each page is rendered once per (tournament, read models, language, search): the key
holds the read side's ETags, so a new event (or an erased name) makes a new page and
2,000 phones refreshing cost one render per event; the answer carries an ETag (the
head hash, the language and a hash of the rest) and honours ``If-None-Match``, and is
sent gzipped to a client that takes it. A tournament whose page is off and one that
does not exist get the same 404 page. The switch is read from the store at most once
per ``SWITCH_RECHECK`` seconds per tournament (another process sets it).
"""

from __future__ import annotations

import asyncio
import gzip
import hashlib
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, HTTPException, Query, Request, Response

from commands.api.deps import handler_of, settings_of, venue_of
from commands.api.events import hub_of
from commands.api.hub import ShuttingDown
from commands.api.reads import Side, matches, takes_gzip
from commands.api.stream import KEEP_ALIVE, EventStream, Session
from commands.errors import CommandError
from commands.pages import public as pages
from commands.pages.policy import PAGE_HEADERS
from commands.pages.public_labels import language
from commands.pages.venue import Venue
from commands.reads.cache import Entry, ReadSide
from commands.reads.cache import Query as ReadQuery
from commands.reads.lru import Lru
from commands.reads.models import Bracket, Clock, Pairings, Standings, Status
from ledger.errors import LedgerError

router = APIRouter(include_in_schema=False)  # HTML for people; the API's JSON is elsewhere
SWITCH_RECHECK = 2.0
PAGES_KEPT = 256
Part = Literal["page", "content", "clock", "clock_content"]
Lang = Annotated[Literal["en", "de"] | None, Query(description="Language: en or de")]
Search = Annotated[str | None, Query(max_length=200, description="A name or player number")]
_MAKING = threading.Lock()


@dataclass(frozen=True, slots=True)
class Rendered:
    """A page as sent: its bytes, gzipped once too, and the ETag of each."""

    body: bytes
    gzipped: bytes
    etag: str

    @property
    def etag_gzipped(self) -> str:
        return self.etag[:-1] + '-gz"'


class Switches:
    """Whether each tournament's public page is on, as read from the store at most once
    per ``recheck`` seconds (the clock is an input: tests move time)."""

    def __init__(self, recheck: float = SWITCH_RECHECK,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.recheck, self.clock = recheck, clock
        self._kept: dict[str, tuple[bool, float]] = {}

    def get(self, tournament: str) -> bool | None:
        kept = self._kept.get(tournament)
        if kept is None or self.clock() - kept[1] >= self.recheck:
            return None
        return kept[0]

    def keep(self, tournament: str, on: bool, read_at: float) -> None:
        self._kept[tournament] = (on, read_at)


@dataclass(slots=True)
class PublicState:
    """What the public pages keep per process: the switches and the rendered pages."""

    switches: Switches
    pages: Lru[Rendered]


def size_of(page: Rendered) -> int:
    return len(page.body) + len(page.gzipped)


def public_state(request: Request) -> PublicState:
    state = request.app.state
    found: PublicState | None = getattr(state, "public", None)
    if found is None:
        with _MAKING:
            found = getattr(state, "public", None)
            if found is None:
                found = state.public = PublicState(Switches(), Lru(PAGES_KEPT, size_of))
    return found


async def known(side: ReadSide, tournament: str) -> bool:
    """Whether the tournament exists. Checked before anything is kept for it: a visitor
    who tries many names leaves nothing behind in this process (no lock, no switch)."""
    if side.summary(tournament, kept_only=True) is not None:
        return True
    return await asyncio.to_thread(side.summary, tournament) is not None


async def shown(request: Request, tournament: str) -> bool:
    """Whether the page of a known tournament is on."""
    switches = public_state(request).switches
    on = switches.get(tournament)
    if on is None:
        read_at = switches.clock()
        store = handler_of(request).store
        on = (await asyncio.to_thread(store.tournament_settings, tournament)).public_page
        switches.keep(tournament, on, read_at)
    return on


def page_queries(search: str | None) -> list[ReadQuery]:
    """The read models a page shows, in ``PublicModels``' order."""
    return [ReadQuery("status"), ReadQuery("pairings", search=search), ReadQuery("standings"),
            ReadQuery("bracket"), ReadQuery("clock")]  # fmt: skip


async def entries_of(side: ReadSide, tournament: str, search: str | None) -> list[Entry]:
    """The page's read models of one seq: from the cache on the event loop when they are
    all there (the usual case: one event, many phones), else from a worker thread."""
    queries = page_queries(search)
    kept = side.cached_many(tournament, queries)
    if kept is not None:
        return kept
    return await asyncio.to_thread(side.current, tournament, queries)


def etag_of(entries: Sequence[Entry], lang: str, part: Part, search: str | None,
            zone: str = "UTC") -> str:  # fmt: skip
    """The head hash, the language, and a short hash of the models' ETags and the rest
    (the venue's ``zone`` too: a server restarted with another ``--tz`` shows other
    times of the same seq)."""
    status = entries[0].model
    assert isinstance(status, Status)
    said = "|".join([*(e.etag for e in entries), part, search or "", zone])
    return f'"{status.head}-{lang}-{hashlib.sha1(said.encode()).hexdigest()[:12]}"'


def models_of(side: ReadSide, tournament: str, entries: Sequence[Entry],
              search: str | None) -> pages.PublicModels:  # fmt: skip
    """The pages' models from the entries of ``page_queries``, in their order."""
    summary = side.summary(tournament)
    status, pairings, standings, bracket, clock = (e.model for e in entries)
    assert summary is not None and isinstance(status, Status)
    assert isinstance(pairings, Pairings) and isinstance(standings, Standings)
    assert isinstance(bracket, Bracket) and isinstance(clock, Clock)
    return pages.PublicModels(summary, status, pairings, standings, bracket, clock, search)


def render(side: ReadSide, tournament: str, entries: Sequence[Entry], lang: str, part: Part,
           search: str | None, venue: Venue) -> Rendered:  # fmt: skip
    """Render a page or its content (in a worker thread: a large event takes a while),
    its times in the ``venue``'s zone."""
    models = models_of(side, tournament, entries, search)
    zone = venue.zone_name
    if part == "content":
        html = pages.render_content(models, lang, venue)
    elif part == "clock_content":
        html = pages.render_clock_content(models, lang, venue)
    elif part == "clock":
        inner = etag_of(entries, lang, "clock_content", None, zone)
        html = pages.render_clock(models, lang, inner, venue)
    else:
        whole = None if search else etag_of(entries, lang, "content", None, zone)
        html = pages.render_page(models, lang, whole, venue)
    body = html.encode()
    etag = etag_of(entries, lang, part, search, zone)
    return Rendered(body, gzip.compress(body, 6, mtime=0), etag)


def headers_of(etag: str | None = None) -> dict[str, str]:
    """Every public answer: no resource from elsewhere, nothing sent to another site."""
    headers = {**PAGE_HEADERS, "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache",
               "Vary": "Accept-Encoding, Accept-Language"}  # fmt: skip
    if etag is not None:
        headers["ETag"] = etag
    return headers


def send(request: Request, page: Rendered) -> Response:
    """The page, gzipped when the client takes it, or 304 when its copy is current (in
    either encoding: the page's script holds the plain one's tag from the page)."""
    zipped = takes_gzip(request)
    etag = page.etag_gzipped if zipped else page.etag
    headers = headers_of(etag)
    held = request.headers.get("if-none-match")
    if matches(held, page.etag) or matches(held, page.etag_gzipped):
        return Response(status_code=304, headers=headers)
    if zipped:
        headers["Content-Encoding"] = "gzip"
    return Response(page.gzipped if zipped else page.body,
                    media_type="text/html; charset=utf-8", headers=headers)  # fmt: skip


def closed(lang: str) -> Response:
    """404: the page is off, or there is no such tournament (the same words for both)."""
    return Response(pages.render_closed(lang), status_code=404,
                    media_type="text/html; charset=utf-8", headers=headers_of())  # fmt: skip


async def answer(request: Request, side: ReadSide, tournament: str, lang: str, part: Part,
                 search: str | None) -> Response:  # fmt: skip
    if not await known(side, tournament) or not await shown(request, tournament):
        return closed(lang)
    entries = await entries_of(side, tournament, search)
    cache = public_state(request).pages
    key = (tournament, part, lang, search, tuple(e.etag for e in entries))
    page = cache.get(key)
    if page is None:
        page = await asyncio.to_thread(render, side, tournament, entries, lang, part, search,
                                       venue_of(request))  # fmt: skip
        cache.put(key, page)
    return send(request, page)


@router.get("/t/{tournament}")
async def get_public_page(request: Request, tournament: str, side: Side, lang: Lang = None,
                          q: Search = None) -> Response:  # fmt: skip
    """The tournament's public page: pairings with "where do I play?", the bracket, the
    standings and the head of the log."""
    chosen = language(lang, request.headers.get("accept-language"))
    return await answer(request, side, tournament, chosen, "page", (q or "").strip() or None)


@router.get("/t/{tournament}/content")
async def get_public_content(request: Request, tournament: str, side: Side,
                             lang: Lang = None) -> Response:  # fmt: skip
    """The page's changing part, which its script swaps in (ETag: poll with it)."""
    chosen = language(lang, request.headers.get("accept-language"))
    return await answer(request, side, tournament, chosen, "content", None)


@router.get("/t/{tournament}/clock")
async def get_public_clock(request: Request, tournament: str, side: Side,
                           lang: Lang = None) -> Response:  # fmt: skip
    """The round clock full screen for the venue's projector: the countdown, the round,
    and the tables still playing on extra time, each with its own end."""
    chosen = language(lang, request.headers.get("accept-language"))
    return await answer(request, side, tournament, chosen, "clock", None)


@router.get("/t/{tournament}/clock/content")
async def get_public_clock_content(request: Request, tournament: str, side: Side,
                                   lang: Lang = None) -> Response:  # fmt: skip
    """The clock page's changing part, which its script swaps in (ETag: poll with it)."""
    chosen = language(lang, request.headers.get("accept-language"))
    return await answer(request, side, tournament, chosen, "clock_content", None)


def head_frame(seq: int, head: str) -> bytes:
    return b"data: " + orjson.dumps({"seq": seq, "head": head}) + b"\n\n"


async def heads(session: Session, side: ReadSide, tournament: str, idle: float,
                still_shown: Callable[[], Awaitable[bool]]) -> AsyncIterator[bytes]:  # fmt: skip
    """The live stream: the current seq and head, then each new one (several events
    handed out at once are one frame), a keep-alive after ``idle`` quiet seconds. It
    ends when the hub ends it (the server stops, the reader fell behind: the browser
    reconnects), when the page is turned off, or on a damaged store."""
    try:
        yield b"retry: 5000\n\n"
        subscriber = await session.subscribe(tournament)
        entry = await asyncio.to_thread(side.get, tournament, ReadQuery("status"))
        status = entry.model
        assert isinstance(status, Status)
        seq = status.seq
        yield head_frame(seq, status.head)
        while (frames := await subscriber.take(idle)) is not None:
            if not frames:
                yield KEEP_ALIVE
                continue
            if not await still_shown():
                return
            newest = max(frames, key=lambda f: f.seq)
            if newest.seq > seq:
                seq = newest.seq
                yield head_frame(seq, newest.hash)
    except (LedgerError, CommandError, ShuttingDown):
        return  # the browser tries again (or polls); the page itself says what is wrong
    finally:
        session.close()


@router.get("/t/{tournament}/live")
async def get_public_live(request: Request, tournament: str, side: Side,
                          lang: Lang = None) -> Response:  # fmt: skip
    """Server-Sent Events: ``data: {"seq": N, "head": "..."}`` now and on every change."""
    chosen = language(lang, request.headers.get("accept-language"))
    if not await known(side, tournament) or not await shown(request, tournament):
        return closed(chosen)
    hub = hub_of(request)
    if hub.closed:
        raise HTTPException(503, "the server is shutting down")
    settings = settings_of(request)
    session = Session(hub, f"public:{tournament}", settings.public_streams,
                      busy=f"this page has {settings.public_streams} live readers already: "
                      "it polls instead")  # fmt: skip

    async def still_shown() -> bool:
        return await shown(request, tournament)

    frames = heads(session, side, tournament, settings.heartbeat_seconds, still_shown)
    return EventStream(frames, session.close)
