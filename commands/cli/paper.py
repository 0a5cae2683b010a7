"""``tledger print T KIND``: the venue's paper as one self-contained HTML file that
prints from any browser: pairings for the wall, standings, match slips, the bracket,
a draft's pods.

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
from typing import Annotated

import typer

from commands.cli.options import StoreOpt, Tournament
from commands.cli.output import fail, reported_errors, write_output

app = typer.Typer()

KINDS = ("pairings", "standings", "slips", "bracket", "pods")
LANGS = ("en", "de")
PAPERS = ("a4", "letter")
ROUNDED = ("pairings", "slips")


@app.command("print")
def print_page(
    tournament: Tournament,
    kind: Annotated[
        str,
        typer.Argument(metavar="KIND", help="What to print: pairings, standings, slips, bracket or "
                     "pods (a draft's seating).",
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
                     help="Slips only: the address of `tledger serve` on the venue network "
                     "(e.g. http://192.168.1.10:8000); each slip then carries its report "
                     "code and a QR code of its report page."),
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
    with reported_errors("print: "):
        html = render_kind(tournament, kind, round_number, lang, paper, base_url, store, table)
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
        if kind != "slips":
            fail(f"print: --base-url applies to slips, not to {kind}", 2)
        if not base_url.startswith(("http://", "https://")):
            fail(f"print: --base-url {base_url!r} is not an http:// or https:// address", 2)


def render_kind(tournament: str, kind: str, round_number: int | None, lang: str, paper: str,
                base_url: str | None, store_url: str | None,
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
    if kind == "slips" and base_url is not None:
        typer.echo(slip_reprint(store, state, round_number, table, names).text, err=True)
    return self_contained(printout(store, state, names, kind, round_number, lang, paper,
                                   base_url, datetime.now(UTC), show_points=True,
                                   table=table))  # fmt: skip
