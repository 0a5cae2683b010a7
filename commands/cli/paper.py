"""``tledger print T KIND``: the venue's paper as one self-contained HTML file that
prints from any browser: pairings for the wall, standings, match slips, the bracket,
a draft's pods, the welcome sheet for the door.

The shell's part only: read the store, the clock and the options, hand the read
models to the pure renderers of ``commands.pages.printouts``, put the page's linked
stylesheets inline (``commands.pages.assets.self_contained``: the file needs no
server; the console serves the same page with its stylesheets linked), and write the
file atomically (a printer never picks up half a page). Printing reads the log and
never appends to it.

No PDF: the one engine that installs from PyPI as wheels without system libraries
(xhtml2pdf on reportlab) drops the slips' boxes, their QR codes and the layout
(no inline SVG, no grid, no inline-block), and WeasyPrint needs Pango from the
system; a browser prints the HTML as designed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

import typer

from commands.cli.options import StoreOpt, Tournament
from commands.cli.output import fail, reported_errors, write_output

if TYPE_CHECKING:
    from commands.pages.venue import Venue

app = typer.Typer()

KINDS = ("pairings", "standings", "slips", "bracket", "pods", "welcome")
LANGS = ("en", "de")
PAPERS = ("a4", "letter")
ROUNDED = ("pairings", "slips")


@app.command("print")
def print_page(
    tournament: Tournament,
    kind: Annotated[
        str,
        typer.Argument(metavar="KIND", help="What to print: pairings, standings, slips, bracket, "
                     "pods (a draft's seating) or welcome (the sheet for the door: the "
                     "event, the Wi-Fi, the public page's QR code).",
                       show_default=False),
    ],
    round_number: Annotated[
        int | None,
        typer.Option("--round", min=1, help="Round of the pairings or slips (default: the "
                     "current round)."),
    ] = None,
    lang: Annotated[str, typer.Option("--lang", help="Labels in en or de.")] = "en",
    paper: Annotated[str, typer.Option("--paper", help="Paper size: a4 or letter.")] = "a4",
    output: Annotated[
        str,
        typer.Option("--output", "-o", metavar="FILE",
                     help="Write the HTML to FILE (written whole or not at all); - for "
                     "standard output."),
    ] = "-",
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", metavar="URL",
                     help="Slips and welcome: the address of `tledger serve` on the venue "
                     "network (e.g. http://192.168.1.10:8000, as `serve --venue` prints "
                     "it); each slip then carries its report code and a QR code of its "
                     "report page, the welcome sheet the public page's."),
    ] = None,
    wifi: Annotated[
        str | None,
        typer.Option("--wifi", metavar="TEXT",
                     help="Welcome only: how to join the venue's network (its name and "
                     "password), printed large."),
    ] = None,
    tz: Annotated[
        str | None,
        typer.Option("--tz", metavar="ZONE",
                     help="The time zone of the time printed, an IANA name (default: this "
                     "machine's), as `serve --tz`."),
    ] = None,
    table: Annotated[
        int | None,
        typer.Option("--table", min=1, help="Slips with --base-url only: that table's slip, "
                     "with new codes for it alone (the other tables keep theirs)."),
    ] = None,
    store: StoreOpt = None,
) -> None:  # fmt: skip
    """Printable HTML: pairings for the wall (by table and by name), standings, match slips
    or the bracket, each with the event, round, time printed and the log's seq and head
    hash (the witness `verify --witness` checks later). Print it from any browser."""
    check_options(kind, round_number, lang, paper, output, base_url)
    if table is not None and (kind != "slips" or base_url is None):
        fail("print: --table reprints one slip with new codes: slips with --base-url only", 2)
    venue = venue_of(kind, base_url, wifi, tz)
    with reported_errors("print: "):
        html = render_kind(tournament, kind, round_number, lang, paper, venue, wifi, store,
                           table)  # fmt: skip
    if write_output(output, html.encode("utf-8"), "print"):
        typer.echo(f"wrote {output}", err=True)


def check_options(kind: str, round_number: int | None, lang: str, paper: str, output: str,
                  base_url: str | None) -> None:  # fmt: skip
    """Each wrong option as one line naming it (exit 2), before the store is opened."""
    if kind not in KINDS:
        fail(f"print: unknown kind {kind!r} (use one of: {', '.join(KINDS)})", 2)
    if lang not in LANGS:
        fail(f"print: unknown language {lang!r} (use one of: {', '.join(LANGS)})", 2)
    if paper not in PAPERS:
        fail(f"print: unknown paper {paper!r} (use one of: {', '.join(PAPERS)})", 2)
    if output.lower().endswith(".pdf"):
        fail("print: no PDF engine installs here without system libraries; write .html and "
             "print it from any browser (A4 or Letter)", 2)  # fmt: skip
    if round_number is not None and kind not in ROUNDED:
        fail(f"print: --round applies to pairings and slips, not to {kind}", 2)
    if base_url is not None:
        if kind not in ("slips", "welcome"):
            fail(f"print: --base-url applies to slips and welcome, not to {kind}", 2)
        if not base_url.startswith(("http://", "https://")):
            fail(f"print: --base-url {base_url!r} is not an http:// or https:// address", 2)
    elif kind == "welcome":
        fail("print: welcome needs --base-url, the address phones reach (as `tledger serve "
             "--venue` prints it)", 2)  # fmt: skip


def venue_of(kind: str, base_url: str | None, wifi: str | None, tz: str | None) -> Venue:
    """The venue the page is printed for: its zone (``--tz``, else this machine's) and
    the address phones reach; a wrong option is one line naming it (exit 2)."""
    from commands.pages.venue import UnknownZone, Venue, local_zone, zone_named

    if wifi is not None and kind != "welcome":
        fail(f"print: --wifi applies to welcome, not to {kind}", 2)
    try:
        zone, name = zone_named(tz) if tz is not None else local_zone()
    except UnknownZone as exc:
        fail(f"print: {exc}", 2)
    return Venue(zone, name, base_url.rstrip("/") if base_url else None)


def render_kind(tournament: str, kind: str, round_number: int | None, lang: str, paper: str,
                venue: Venue, wifi: str | None, store_url: str | None,
                table: int | None = None) -> str:  # fmt: skip
    """The printout of ``kind`` from the tournament as it is now (the clock is read here),
    its CSS inline. Slips with codes say first, on standard error, what their new codes
    replace (``commands.reads.slip_reprint``): the codes on slips printed before stop
    working."""
    from commands.cli.read import load_state, names_of
    from commands.pages.assets import self_contained
    from commands.pages.paper import printout
    from commands.reads.slip_reprint import slip_reprint

    store, state, _ = load_state(tournament, store_url)
    names = names_of(store, state)
    if kind == "welcome" and not store.tournament_settings(state.id).public_page:
        typer.echo(f"warning: the public page of {state.id} is off: its QR code answers 404 "
                   f"until `tledger public {state.id} --on`", err=True)  # fmt: skip
    if kind == "slips" and venue.base_url is not None:
        typer.echo(slip_reprint(store, state, round_number, table, names).text, err=True)
    return self_contained(printout(store, state, names, kind, round_number, lang, paper,
                                   venue.base_url, datetime.now(UTC), show_points=True,
                                   venue=venue, wifi=wifi, table=table))  # fmt: skip
