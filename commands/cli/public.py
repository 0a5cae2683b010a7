"""``tledger public T [--on|--off]``: whether ``tledger serve`` shows the tournament's
public page (``/t/T``: pairings, standings, bracket, the head; no token needed).
Default on; the switch is a face setting beside the log, never an event
(commands.public_switch). This shell reads the clock."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

from commands.cli.options import ActorOpt, JsonOpt, StoreOpt, Tournament
from commands.cli.output import print_json, reported_errors

app = typer.Typer()


@app.command("public")
def public(
    tournament: Tournament,
    on: Annotated[
        bool | None,
        typer.Option(
            "--on/--off",
            help="Serve the public page (--on, the default of every tournament) or answer "
            "404 there (--off). Without either, print the page's state.",
            show_default=False,
        ),
    ] = None,
    store: StoreOpt = None,
    actor: ActorOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Turn the tournament's public page on or off, or show whether it is on, and print
    its path on `tledger serve` (an organizer's setting, kept beside the log)."""
    from commands.cli.execute import actor_of
    from commands.public_switch import page_path, public_state, switch
    from ledger.events import ORGANIZER
    from ledger.url import open_store

    acting = actor_of(actor) or ORGANIZER
    with reported_errors("public: "):
        opened = open_store(store, create=False)
        if on is None:
            settings = public_state(opened, tournament)
        else:
            settings = switch(opened, tournament, on, acting, datetime.now(UTC))
    path = page_path(tournament)
    if as_json:
        print_json({"tournament": tournament, "public_page": settings.public_page, "path": path})
        return
    state = "on" if settings.public_page else "off (404)"
    typer.echo(f"public page of {tournament}: {state} at {path}")
    if settings.changed_by and settings.changed_at:
        typer.echo(f"set by {settings.changed_by} at {settings.changed_at:%Y-%m-%d %H:%M} UTC")
