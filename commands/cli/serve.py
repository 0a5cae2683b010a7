"""The HTTP face: ``serve`` runs the web application (``commands.web``: the API, the
public and slip pages, the console) over the store within its limits
(docs/REFERENCE.md, "Serving"); ``token create|list|revoke`` (``commands.cli.tokens``)
manage the bearer tokens it accepts."""

from __future__ import annotations

import socket
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from commands.cli import tokens
from commands.cli.options import StoreOpt
from commands.cli.output import fail, reported_errors

if TYPE_CHECKING:
    from commands.pages.venue import Venue
    from ledger.store import Store

app = typer.Typer()

#: the defaults of ``commands.api.limits.Settings``, repeated here so that the CLI does
#: not import FastAPI to draw its help (tests/e2e/test_limits.py keeps them equal)
MAX_BODY, RATE, RATE_BURST, STREAMS_PER_TOKEN = 64 * 1024, 2.0, 20, 8
SCOREKEEPER_RATE, SCOREKEEPER_BURST = 10.0, 300
TOKEN_RECHECK = 5.0
PUBLIC_STREAMS = 5000
FULL_CHECK_EVERY = 30.0  # commands.folds.FULL_CHECK_EVERY
#: commands.web.connections.Deadlines; the caps' defaults come from the descriptor limit
HEADER_TIMEOUT, BODY_TIMEOUT = 10.0, 30.0
MAX_CONNECTIONS = MAX_STREAMS = None
#: how long a worker thread (a pasted field being registered, a fold) may hold the
#: interpreter while the event loop waits for it: 1 ms instead of Python's 5, since the
#: loop gives it up at every socket call and would otherwise queue behind the worker
#: each time, so that one large paste slowed every other request by tenths of a second
SWITCH_INTERVAL = 0.001


@app.command()
def serve(
    host: Annotated[
        str | None,
        typer.Option(
            help="Address to listen on (default 127.0.0.1; with --venue 0.0.0.0).",
            show_default=False,
        ),
    ] = None,
    port: Annotated[int, typer.Option(help="Port (0: any free port, printed).")] = 8000,
    store: StoreOpt = None,
    venue: Annotated[
        bool,
        typer.Option(
            "--venue",
            help="Serve the venue's network: listen on every address, print "
            "the addresses phones reach and a QR code of the public page, and "
            "put the first private address in the slips' QR codes.",
        ),
    ] = False,
    venue_address: Annotated[
        str | None,
        typer.Option(
            metavar="HOST",
            help="With --venue (implied): the address of this machine that "
            "slips and the welcome sheet carry, instead of the first private one.",
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="The public base URL that slips and the welcome sheet carry "
            "(e.g. https://tables.example.org behind a reverse proxy).",
        ),
    ] = None,
    tz: Annotated[
        str | None,
        typer.Option(
            "--tz",
            metavar="ZONE",
            help="The venue's time zone, an IANA name (Europe/Berlin): the "
            "console, public page, projector clock and printouts show times in "
            "it, named. Default: this machine's zone.",
        ),
    ] = None,
    max_body: Annotated[
        int, typer.Option(min=1, help="Largest command body, in bytes.")
    ] = MAX_BODY,
    max_push_body: Annotated[
        int, typer.Option(min=1, help="Largest batch a venue pushes to this mirror, in bytes.")
    ] = 16 * 1024 * 1024,
    rate: Annotated[
        float,
        typer.Option(min=0.001, help="Commands per second per player token (and slip code)."),
    ] = RATE,
    rate_burst: Annotated[
        int, typer.Option(min=1, help="Commands a player token may send at once.")
    ] = RATE_BURST,
    scorekeeper_rate: Annotated[
        float, typer.Option(min=0.001, help="Commands per second per scorekeeper token.")
    ] = SCOREKEEPER_RATE,
    scorekeeper_burst: Annotated[
        int, typer.Option(min=1, help="Commands a scorekeeper token may send at once.")
    ] = SCOREKEEPER_BURST,
    streams_per_token: Annotated[
        int, typer.Option(min=1, help="Open event streams per token.")
    ] = STREAMS_PER_TOKEN,
    token_recheck: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Seconds a token is trusted from this process's cache: a "
            "`token revoke` run elsewhere takes effect within this time (an expiry "
            "at once).",
        ),
    ] = TOKEN_RECHECK,
    public_streams: Annotated[
        int,
        typer.Option(
            min=1,
            help="Open live streams of one tournament's public page (/t/T, a phone each); "
            "past it a page polls every 30 s.",
        ),
    ] = PUBLIC_STREAMS,
    full_check_every: Annotated[
        float,
        typer.Option(
            min=0.0,
            help="Seconds between checks of each tournament's whole stored log: damage "
            "behind what this process has read (a restored or edited file) answers as an "
            "integrity error within this time.",
        ),
    ] = FULL_CHECK_EVERY,
    header_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds for a request's headers to arrive, from the connection opening "
            "or the previous answer; then the connection is closed.",
        ),
    ] = HEADER_TIMEOUT,
    body_timeout: Annotated[
        float,
        typer.Option(
            min=0.1,
            help="Seconds for a request's whole body to arrive after its headers; then "
            "the connection is closed.",
        ),
    ] = BODY_TIMEOUT,
    max_connections: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Open connections at most; past it a new one takes an idle one's place "
            "or is answered 503. Default and ceiling: the limit on open files (raised "
            "to the hard limit at start) less room for the store.",
        ),
    ] = MAX_CONNECTIONS,
    max_streams: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Open event streams at most (/events/stream and public pages' live "
            "streams); past it 503 with Retry-After. Default and ceiling: nine tenths "
            "of the connections.",
        ),
    ] = MAX_STREAMS,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            metavar="ADDR",
            help="A reverse proxy (an address or a network, repeatable) whose "
            "X-Forwarded-For names the client that limits count, and whose "
            "X-Forwarded-Proto the scheme (TLS ends at the proxy); from any other peer "
            "the headers are ignored.",
        ),
    ] = None,
) -> None:
    """Serve the HTTP API (FastAPI on uvicorn) over the store, and each tournament's
    public page at /t/T (no token; `tledger public T --off` hides it); one access-log
    line per request on stderr. SIGTERM ends open streams and exits within two seconds."""
    import uvicorn

    from commands.api.clients import trusted_networks
    from commands.api.limits import Settings
    from commands.bootstrap import handler_for
    from commands.cli.logs import access_emitter
    from commands.pages.venue import Venue, local_zone, zone_named
    from commands.web import create_app
    from commands.web.connections import LISTEN_BACKLOG, Deadlines, Server, bounded
    from commands.web.descriptors import ShortageLog, TooFewDescriptors, caps_for, raise_limit

    venue = venue or venue_address is not None
    try:
        zone, zone_name = zone_named(tz) if tz is not None else local_zone()
        if base_url is not None and not base_url.startswith(("http://", "https://")):
            raise ValueError(f"--base-url {base_url!r} is not an http:// or https:// address")
        caps = caps_for(raise_limit(), max_connections, max_streams)
        proxies = trusted_networks(trusted_proxy or ())
    except TooFewDescriptors as exc:
        fail(str(exc), 2)
    except ValueError as exc:
        fail(f"serve: {exc}", 2)
    host = host or ("0.0.0.0" if venue else "127.0.0.1")
    with reported_errors():
        handler = handler_for(store, full_check_every)
    limits = Settings(max_body=max_body, max_push_body=max_push_body, rate_per_second=rate,
                      rate_burst=rate_burst,
                      scorekeeper_rate_per_second=scorekeeper_rate,
                      scorekeeper_rate_burst=scorekeeper_burst,
                      streams_per_token=streams_per_token,
                      token_recheck_seconds=token_recheck,
                      public_streams=public_streams,
                      max_streams=caps.streams, trusted_proxies=proxies)  # fmt: skip
    place = Venue(zone, zone_name, base_url.rstrip("/") if base_url else None)
    api = create_app(handler, limits, access_log=access_emitter(), venue=place)
    # proxy_headers=False: the peer is the client unless a trusted proxy names another
    # (commands.api.clients), never whatever X-Forwarded-For a local client sends
    config = uvicorn.Config(api, host=host, port=port, log_level="warning", access_log=False,
                            timeout_graceful_shutdown=1, proxy_headers=False)  # fmt: skip
    # deadlines and the connection cap (commands/web/connections.py)
    config.http = bounded(caps.connections, caps.accept_batch,
                          Deadlines(header_timeout, body_timeout))  # fmt: skip
    config.backlog = caps.accept_batch
    sock = config.bind_socket()
    # asyncio sets TCP_NODELAY only on sockets it made as IPPROTO_TCP; accepted connections
    # inherit it from here. Without it a small answer waits ~40 ms for a delayed ACK.
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.listen(LISTEN_BACKLOG)  # connections wait in the backlog from the printed line on
    bound_port = sock.getsockname()[1]
    phones = announce(host, bound_port, venue, venue_address, base_url, store)
    if phones is not None:
        api.state.venue = place = Venue(zone, zone_name, phones)
    typer.echo(f"times shown in {zone_name}")
    typer.echo(f"at most {caps.connections} connections and {caps.streams} event streams "
               f"(limit on open files {caps.descriptors})")  # fmt: skip
    if venue and place.base_url:
        public_qr(handler.store, place)
    sys.stdout.flush()
    sys.setswitchinterval(SWITCH_INTERVAL)
    ShortageLog.install()
    Server(config).run(sockets=[sock])


def announce(host: str, port: int, venue: bool, venue_address: str | None,
             base_url: str | None, store: str | None) -> str | None:  # fmt: skip
    """Print where the server listens (the first line, which scripts read: an address
    this machine reaches it at) and, beyond loopback, the decision that is and the
    addresses phones reach; the base URL that slips carry (None: each request's own)."""
    from commands.cli.venue import DECISION, base_url_of, venue_addresses
    from commands.pages.venue import loopback
    from ledger.url import default_url, redacted

    found = ([venue_address] if venue_address else venue_addresses()) if venue else []
    listened = base_url_of(host if host not in ("0.0.0.0", "::") else "127.0.0.1", port)
    first = base_url_of(found[0], port) if found else listened
    typer.echo(f"tledger serving {first} (store {redacted(store or default_url())})")
    if not loopback(base_url_of(host, port)):
        typer.echo(DECISION)
    chosen = base_url.rstrip("/") if base_url else first if found else None
    if venue and found:
        typer.echo("phones on this network reach it at " +
                   ", ".join(base_url_of(a, port) for a in found))  # fmt: skip
    elif venue:
        typer.echo(
            "no address on a network found (only loopback): phones cannot reach this "
            "computer; join the venue's network or name one with --venue-address"
        )
    if chosen:
        typer.echo(f"slips and the welcome sheet carry {chosen}")
    return chosen


def public_qr(store: Store, venue: Venue) -> None:
    """The newest tournament's public page, its address and a QR code of it, for a phone
    to scan off the laptop's screen (none yet: how to print one later)."""
    from commands.cli.venue import terminal_qr

    assert venue.base_url is not None
    tournaments = store.tournaments()
    if not tournaments:
        typer.echo("no tournament yet: `tledger print welcome T --base-url "
                   f"{venue.base_url}` prints its public page's QR code for the door")  # fmt: skip
        return
    url = venue.public_url(tournaments[-1], venue.base_url)
    typer.echo(f"public page of {tournaments[-1]}: {url}")
    terminal_qr(url)


# ``tledger token create|list|revoke`` (commands.cli.tokens) under the HTTP face
app.add_typer(tokens.app, name="token")
