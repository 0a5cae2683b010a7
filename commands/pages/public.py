"""The public page of a tournament: what a player's phone shows at the venue.

Pairings with "where do I play?", the bracket, the standings and the head of the log
(``seq N HASH``, a witness a player can photograph), rendered from read models of one
seq (``commands.reads.cache``): nothing here joins names, checks a phase or computes a
value; tiebreakers are shown as their ruleset declares (``Tiebreaker.show``).

Offline at the venue: the page fetches nothing from elsewhere. Its stylesheet and its
scripts are this server's own files (``static/public.css``, ``static/live.js``,
``static/countdown.js``: ``commands.pages.assets``), and the Content-Security-Policy
(``commands.pages.policy``) lets the browser run and load nothing else, so a name that
holds markup is text, never code, even if it escaped the template. What the scripts
need of the page (its addresses, its content's ETag, the polling interval) are
``data-*`` attributes.

``live.js`` filters the tables as a visitor types (folded as
``commands.reads.people.folded`` folds: accents and case ignored), follows the
tournament's live stream and fetches the page's content again when the seq moves, or
every 30 s when the stream fails. Without script, ``?q=`` filters on the server.

The round clock (on ``/t/{t}`` and on the projector's full-screen ``/t/{t}/clock``)
shows its times in the venue's zone, named (``commands.pages.venue``: ``serve --tz``),
as the console and the printouts do, whatever zone a visitor's phone is set to; each
countdown carries its end as an absolute UTC time, and ``countdown.js`` counts down
to it every second, correcting the device's clock by the server's ``Date`` header. So
a page of one seq keeps its bytes (and ETag) while its countdown runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from commands.pages.public_labels import public_labels, round_name
from commands.pages.render import LANGS, render
from commands.pages.venue import UTC_VENUE, Venue
from commands.public_switch import page_path
from commands.reads.models import (
    Bracket,
    Clock,
    Pairings,
    Standings,
    Status,
    TableClock,
    TournamentSummary,
)
from commands.reads.people import folded
from projections.rulesets import ruleset
from projections.rulesets.base import Tiebreaker

#: the script's refetch when its live stream fails (polling with the content's ETag)
POLL_SECONDS = 30


@dataclass(frozen=True, slots=True)
class PublicModels:
    """What the page shows: read models of one seq of one tournament. ``search`` is
    what ``?q=`` asked for, and ``pairings`` then holds only the tables it finds."""

    summary: TournamentSummary
    status: Status
    pairings: Pairings
    standings: Standings
    bracket: Bracket
    clock: Clock
    search: str | None = None

    def table_clock(self, players: list[str]) -> TableClock | None:
        """The clock of the table of ``players`` (None: a bye, or no clock)."""
        return next((t for t in self.clock.tables if t.players == players), None)

    @property
    def extended(self) -> list[TableClock]:
        """The tables still playing whose time ends apart from the round's (extensions,
        deck checks), by their end: the projector's list."""
        own = [t for t in self.clock.tables if t.state == "playing" and t.ends_at is not None
               and t.ends_at != self.clock.ends_at]  # fmt: skip
        return sorted(own, key=lambda t: (t.ends_at or self.clock.ends_at, t.table or 0))


@dataclass(frozen=True, slots=True)
class Paths:
    """The page's own addresses on ``tledger serve`` (the script's only peers)."""

    page: str
    content: str
    live: str
    clock: str
    clock_content: str


def paths_of(tournament: str, lang: str) -> Paths:
    page = page_path(tournament)
    return Paths(page, f"{page}/content?lang={lang}", f"{page}/live", f"{page}/clock",
                 f"{page}/clock/content?lang={lang}")  # fmt: skip


def tiebreakers(ruleset_id: str) -> tuple[Tiebreaker, ...]:
    """The ruleset's tiebreakers in order, each with its label and how it is shown."""
    return ruleset(ruleset_id).tiebreakers


def context(models: PublicModels, lang: str, venue: Venue) -> dict[str, Any]:
    """What the templates read: the models, the labels, the tiebreakers, the paths, the
    venue whose zone names the clock's times."""
    return {
        "m": models, "lang": lang, "t": public_labels(lang), "venue": venue,
        "other": next(other for other in LANGS if other != lang),
        "tiebreakers": tiebreakers(models.summary.ruleset),
        "paths": paths_of(models.summary.tournament, lang),
        "fold": folded, "round_name": lambda name: round_name(name, lang),
        "poll_seconds": POLL_SECONDS,
    }  # fmt: skip


def render_content(models: PublicModels, lang: str, venue: Venue = UTC_VENUE) -> str:
    """The part of the page that changes with the log: what the script swaps in."""
    return render("public_content.html.j2", **context(models, lang, venue))


def render_page(models: PublicModels, lang: str, content_etag: str | None,
                venue: Venue = UTC_VENUE) -> str:  # fmt: skip
    """The whole page; ``content_etag`` is the ETag of its content without a search,
    which the script's first refetch sends (None: the page holds a search's tables)."""
    return render("public.html.j2", **context(models, lang, venue),
                  content_etag=content_etag or "")  # fmt: skip


def render_clock(models: PublicModels, lang: str, content_etag: str | None,
                 venue: Venue = UTC_VENUE) -> str:  # fmt: skip
    """The projector's full-screen clock page (``content_etag``: as ``render_page``)."""
    return render("public_clock.html.j2", **context(models, lang, venue),
                  content_etag=content_etag or "")  # fmt: skip


def render_clock_content(models: PublicModels, lang: str, venue: Venue = UTC_VENUE) -> str:
    """The clock page's part that changes with the log."""
    return render("public_clock_content.html.j2", **context(models, lang, venue))


def render_closed(lang: str) -> str:
    """The answer for a tournament without a public page, or none at all: the same
    words for both, so the page does not tell a hidden tournament from a missing one."""
    return render("public_closed.html.j2", lang=lang, t=public_labels(lang))
