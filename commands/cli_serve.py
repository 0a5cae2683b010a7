"""The HTTP face: ``serve`` runs the API over the store, ``token create`` makes the
bearer tokens it accepts."""

from __future__ import annotations

from typing import Annotated

import typer

from commands.cli_options import StoreOpt
from commands.cli_output import fail, reported_errors

app = typer.Typer()


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    store: StoreOpt = None,
) -> None:
    """Serve the HTTP API (FastAPI on uvicorn) over the store."""
    import uvicorn

    from commands.api import create_app
    from commands.bootstrap import handler_for

    with reported_errors():
        handler = handler_for(store)
    uvicorn.run(create_app(handler), host=host, port=port, log_level="warning")


token_app = typer.Typer(help="API tokens for `tledger serve`.", no_args_is_help=True)
app.add_typer(token_app, name="token")


@token_app.command("create")
def token_create(
    role: Annotated[str, typer.Option(help="organizer, judge, scorekeeper, player or reader.")],
    tournament: Annotated[
        str | None, typer.Option(help="Limit the token to one tournament.")
    ] = None,
    player: Annotated[str | None, typer.Option(help="The player of a player token.")] = None,
    store: StoreOpt = None,
) -> None:
    """Create an API token; it is printed once, alone on the last line (only a hash is kept)."""
    from commands.auth import create_token
    from ledger.url import open_store

    with reported_errors():
        try:
            secret = create_token(open_store(store), role, tournament, player)
        except ValueError as exc:
            fail(f"token create: {exc}", 2)
    scope = f"tournament {tournament}" if tournament else "every tournament"
    typer.echo(f"{role} token for {scope}" + (f", player {player}" if player else ""), err=True)
    typer.echo(secret)
