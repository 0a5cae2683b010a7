"""The printouts: pairings for the wall, standings, match slips, the bracket, a
draft's pods and the welcome sheet at the door, as HTML with print CSS for A4 or Letter.

Pure functions: read models of the typed read side (``commands.reads.views``,
``commands.reads.paper``), a language, the paper and the time printed (an input: the
shell reads the clock) in; an HTML string out. Nothing here reads the store, the
clock or joins a name. Every page carries the letterhead (event, what, round, time
printed) and the witness line ``seq N HASH`` that ``verify --witness`` checks later: a
head printed and posted at the venue catches a log that was re-hashed or truncated
after it.

One rule for their CSS, as for every page: the page as rendered here links its
stylesheets (``static/print.css``, the kind's ``print-{kind}.css`` and the paper's
``paper-{paper}.css``) and holds no inline style or script, so the console serves it
under the one Content-Security-Policy (``commands.pages.policy``). ``tledger print``
writes it through ``commands.pages.assets.self_contained``, which puts each linked
stylesheet's text in its place: the file prints from any browser, offline and without
a server, and is never served.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from markupsafe import Markup

from commands.pages.print_labels import print_labels, round_title
from commands.pages.qr import qr_svg
from commands.pages.render import render
from commands.pages.venue import UTC_VENUE, Venue
from commands.reads.models import Bracket, Pairings, Standings
from commands.reads.papermodels import Letterhead, Seat, Slips
from commands.reads.podviews import Pods
from projections.rulesets import ruleset

KINDS = ("pairings", "standings", "slips", "bracket", "pods", "welcome")
#: ``--paper``: each has its CSS ``@page`` size in ``static/paper-{paper}.css``
PAPERS = ("a4", "letter")


@dataclass(frozen=True, slots=True)
class SlipCode:
    """A player's report code and the address of its report page (``{base_url}/s/{code}``),
    shown on the player's half of the slip in large type and as a QR code."""

    code: str
    url: str


def pairings_page(head: Letterhead, pairings: Pairings, seats: Sequence[Seat], *, lang: str,
                  printed_at: datetime, paper: str = "a4", venue: Venue = UTC_VENUE
                  ) -> str:  # fmt: skip
    """The round's pairings by table (table order, as the engine numbered them) and, on
    a new sheet, by name (``seats``, sorted by the read side). Where the ruleset gives
    initiative by list points (X-Wing, Armada), who chooses at each table, each
    player's declared points, and the rule with its section."""
    shown = any(t.chooses_initiative or t.initiative_tie for t in pairings.pairings)
    rule = ruleset(head.ruleset).initiative if shown else None
    return page("print_pairings.html.j2", head, lang, printed_at, paper, "pairings", venue,
                round=pairings.round, stage=pairings.stage, pairings=pairings,
                seats=seats, initiative=rule)  # fmt: skip


def standings_page(head: Letterhead, standings: Standings, *, lang: str, printed_at: datetime,
                   paper: str = "a4", venue: Venue = UTC_VENUE) -> str:  # fmt: skip
    """Standings with the ruleset's tiebreakers in their order, labelled and shown as the
    ruleset declares them (``Tiebreaker.show``: swu "OMW%" as a percentage, MoV as a
    number), with a legend citing each one's section."""
    rules = ruleset(standings.ruleset)
    return page("print_standings.html.j2", head, lang, printed_at, paper, "standings", venue,
                round=head.round, stage=head.stage, standings=standings,
                tiebreakers=rules.tiebreakers)  # fmt: skip


def slips_page(
    head: Letterhead, slips: Slips, codes: Mapping[str, SlipCode] | None = None,
    *, lang: str, printed_at: datetime, paper: str = "a4", venue: Venue = UTC_VENUE,
) -> str:  # fmt: skip
    """One slip per match: both players' names and ids, table and round, the result boxes
    of the ruleset's form, a no-show box and a signature line per player; with
    ``codes`` (keyed by player) each player's report code and a QR code of its address
    on that player's half of a strip to cut off, so that each keeps their own."""
    return page("print_slips.html.j2", head, lang, printed_at, paper, "slips", venue,
                round=slips.round, stage=slips.stage, slips=slips, codes=dict(codes or {}),
                qr=qr_markup)  # fmt: skip


def bracket_page(head: Letterhead, bracket: Bracket, *, lang: str, printed_at: datetime,
                 paper: str = "a4", venue: Venue = UTC_VENUE) -> str:  # fmt: skip
    """The bracket's seeds, its rounds by name with each match's seeds, winner and score,
    and the champion once there is one."""
    seed_of = {s.player: s.seed for s in bracket.seeds}  # an index of the model, to look up
    return page("print_bracket.html.j2", head, lang, printed_at, paper, "bracket", venue,
                round=head.round, stage="", bracket=bracket, seed_of=seed_of, score=score,
                round_title=lambda name: round_title(name, lang))  # fmt: skip


def pods_page(head: Letterhead, pods: Pods, *, lang: str, printed_at: datetime,
              paper: str = "a4", venue: Venue = UTC_VENUE) -> str:  # fmt: skip
    """A draft's pods (swu-1.4 §2.3.2.1), each on its own sheet: seat numbers large, the
    players in seat order round the table, the assignment's seq and seed."""
    return page("print_pods.html.j2", head, lang, printed_at, paper, "pods", venue, round=0,
                stage=head.stage, pods=pods)  # fmt: skip


def welcome_page(head: Letterhead, public_url: str, wifi: str | None, *, lang: str,
                 printed_at: datetime, paper: str = "a4", venue: Venue = UTC_VENUE
                 ) -> str:  # fmt: skip
    """The sheet at the venue's door, to read across a room: the event's name, how to
    join the network (``wifi``: the organizer's words, optional), the public page's
    address in large type and as a QR code that a phone scans to find its table."""
    return page("print_welcome.html.j2", head, lang, printed_at, paper, "welcome", venue,
                round=0, stage="", public_url=public_url, wifi=(wifi or "").strip(),
                qr=qr_markup)  # fmt: skip


def page(template: str, head: Letterhead, lang: str, printed_at: datetime, paper: str,
         heading: str, venue: Venue, **context: Any) -> str:  # fmt: skip
    """A printout with the context every page shares: labels, letterhead, paper, the
    time printed in the venue's zone."""
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r} (supported: {', '.join(PAPERS)})")
    t = print_labels(lang)
    stage = context.pop("stage")
    return render(template, lang=lang, t=t, head=head, heading=t[heading], kind=heading,
                  printed=printed(printed_at, venue), paper=paper, stage=t[stage] if stage else "",
                  **context)  # fmt: skip


def printed(at: datetime, venue: Venue = UTC_VENUE) -> str:
    """The time printed to the minute in the venue's zone, named (``2026-11-26 14:05
    CET``; UTC unless the venue says otherwise)."""
    if at.tzinfo is None:
        raise ValueError("the time printed must carry its time zone")
    return venue.moment(at)


def qr_markup(url: str) -> Markup:
    """The QR code's SVG as markup: made by segno from the url, it holds no text of
    the url (only path data), so it is safe to insert unescaped."""
    return Markup(qr_svg(url))


def score(result: Mapping[str, Any] | None) -> tuple[str, str] | None:
    """A played match's game wins or victory points as its players' two numbers (in the
    match's order, as the bracket model turned them); None for other shapes."""
    for key in ("games", "points"):
        pair = (result or {}).get(key)
        if pair is not None:
            return str(pair[0]), str(pair[1])
    return None
