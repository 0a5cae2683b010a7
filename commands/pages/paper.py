"""A tournament's printout of one kind as a page: what the console serves (its stylesheets
linked) and ``tledger print`` writes to a file (with them inline:
``commands.pages.assets.self_contained``). It reads the lists that decide who chooses
initiative and, for slips with an address, issues the round's report codes; the
rendering itself is the pure ``commands.pages.printouts``."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from commands.pages import printouts
from commands.pages.printouts import SlipCode
from commands.pages.venue import UTC_VENUE, Venue
from commands.reads import paper as reads
from commands.reads import views
from commands.reads.initiative import initiative_lists
from commands.reads.podviews import pods
from commands.slipcodes import issue_codes
from ledger.store import Store
from projections.state import TournamentState


def printout(store: Store, state: TournamentState, names: Mapping[str, str], kind: str,
             round_number: int | None, lang: str, paper: str, base_url: str | None,
             now: datetime, *, show_points: bool, venue: Venue = UTC_VENUE,
             wifi: str | None = None, table: int | None = None) -> str:  # fmt: skip
    """The printout of ``kind`` of ``state`` (``tledger print`` and the console's print
    pages), its times in the ``venue``'s zone; slips with ``base_url`` issue their report
    codes (with ``table``, that table's slip only, and new codes for it alone); the
    welcome sheet shows the public page under ``base_url`` and the ``wifi`` hint;
    pairings show the declared list points with ``show_points`` (an organizer's or a
    judge's printout)."""
    head = reads.letterhead(state)
    if kind == "pairings":
        lists = initiative_lists(store, state)
        wall = reads.wall_pairings(state, round_number, names, lists, show_points=show_points)
        return printouts.pairings_page(head, wall, reads.seats(wall), lang=lang, printed_at=now,
                                       paper=paper, venue=venue)  # fmt: skip
    if kind == "standings":
        return printouts.standings_page(head, views.standings(state, names), lang=lang,
                                        printed_at=now, paper=paper, venue=venue)  # fmt: skip
    if kind == "slips":
        slips = reads.slips(state, round_number, names, table)
        codes = slip_codes(store, state, slips.round, base_url, now, table) if base_url else None
        return printouts.slips_page(head, slips, codes, lang=lang, printed_at=now, paper=paper,
                                    venue=venue)  # fmt: skip
    if kind == "pods":
        return printouts.pods_page(head, pods(state, names), lang=lang, printed_at=now,
                                   paper=paper, venue=venue)  # fmt: skip
    if kind == "welcome":
        if base_url is None:
            raise ValueError("the welcome sheet needs the address phones reach (a base URL)")
        url = venue.public_url(state.id, base_url)
        return printouts.welcome_page(head, url, wifi, lang=lang, printed_at=now, paper=paper,
                                      venue=venue)  # fmt: skip
    return printouts.bracket_page(head, reads.printable_bracket(state, names), lang=lang,
                                  printed_at=now, paper=paper, venue=venue)  # fmt: skip


def slip_codes(store: Store, state: TournamentState, round_number: int, base_url: str,
               now: datetime, table: int | None = None) -> dict[str, SlipCode]:  # fmt: skip
    """Each player's report code (issued by ``commands.slipcodes``; of ``table`` only when
    given) and its report page's address on the venue network, ``{base_url}/s/{code}``."""
    issued = issue_codes(store, state, round_number, now=now, table=table)
    root = base_url.rstrip("/")
    return {player: SlipCode(code, f"{root}/s/{code}") for player, code in issued.items()}
