"""The HTTP face: ``serve`` runs the API over the store within its limits (README:
HTTP API), ``token create`` makes the bearer tokens it accepts."""

from __future__ import annotations

import socket
import sys
from typing import Annotated

import typer

from commands.cli_options import StoreOpt
from commands.cli_output import fail, reported_errors

app = typer.Typer()

#: the defaults of ``commands.api.limits.Settings``, repeated here so that the CLI does
#: not import FastAPI to draw its help (tests/e2e/test_limits.py keeps them equal)
MAX_BODY, RATE, RATE_BURST, STREAMS_PER_TOKEN = 64 * 1024, 2.0, 20, 8


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0: any free port, printed).")] = 8000,
    store: StoreOpt = None,
    max_body: Annotated[
        int, typer.Option(min=1, help="Largest command body, in bytes.")
    ] = MAX_BODY,
    rate: Annotated[
        float, typer.Option(min=0.001, help="Commands per second per player or scorekeeper token.")
    ] = RATE,
    rate_burst: Annotated[
        int, typer.Option(min=1, help="Commands such a token may send at once.")
    ] = RATE_BURST,
    streams_per_token: Annotated[
        int, typer.Option(min=1, help="Open event streams per token.")
    ] = STREAMS_PER_TOKEN,
) -> None:
    """Serve the HTTP API (FastAPI on uvicorn) over the store; one access-log line per
    request on stderr. SIGTERM ends open streams and exits within two seconds."""
    import uvicorn

    from commands.api import create_app
    from commands.api.limits import Settings
    from commands.bootstrap import handler_for
    from commands.logs import access_logger
    from ledger.url import default_url, redacted

    with reported_errors():
        handler = handler_for(store)
    limits = Settings(max_body=max_body, rate_per_second=rate, rate_burst=rate_burst,
                      streams_per_token=streams_per_token)  # fmt: skip
    log = access_logger()
    api = create_app(handler, limits, access_log=lambda line: log.info("request", **line))
    config = uvicorn.Config(api, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1)  # fmt: skip
    sock = config.bind_socket()
    # asyncio sets TCP_NODELAY only on sockets it made as IPPROTO_TCP; accepted connections
    # inherit it from here. Without it a small answer waits ~40 ms for a delayed ACK.
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.listen(config.backlog)  # connections wait in the backlog from the printed line on
    bound = f"[{host}]" if ":" in host else host
    typer.echo(f"tledger serving http://{bound}:{sock.getsockname()[1]} "
               f"(store {redacted(store or default_url())})")  # fmt: skip
    sys.stdout.flush()
    uvicorn.Server(config).run(sockets=[sock])


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
