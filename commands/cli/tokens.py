"""``tledger token create|list|revoke``: the bearer tokens ``tledger serve`` accepts.

A token is printed once and only its hash is kept. A label says who holds it (shown
by ``token list`` and next to the token's actor in ``log``, never stored in an
event); an expiry ends it at a set time; a revocation ends it now (every server
refuses it within its ``--token-recheck`` seconds). This shell reads the clock and
hands ``now`` to :mod:`commands.tokens`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import typer

from commands.cli.options import JsonOpt, StoreOpt
from commands.cli.output import fail, reported_errors

app = typer.Typer(help="API tokens for `tledger serve`.", no_args_is_help=True)


def utc_now() -> datetime:
    """The one clock of these commands."""
    return datetime.now(UTC)


@app.command("create")
def token_create(
    role: Annotated[
        str,
        typer.Option(
            help="organizer, judge, scorekeeper, player, reader, or venue (a "
            "venue's ledger pushing its tournaments to this mirror)."
        ),
    ],
    tournament: Annotated[
        str | None, typer.Option(help="Limit the token to one tournament.")
    ] = None,
    player: Annotated[str | None, typer.Option(help="The player of a player token.")] = None,
    label: Annotated[
        str | None,
        typer.Option(
            help='Who holds it, e.g. "Anna (head judge)": one printable line, kept '
            "with the token and shown by `token list` and `log`, never in an event."
        ),
    ] = None,
    expires: Annotated[
        str | None,
        typer.Option(
            metavar="DURATION|TIME",
            help="When it stops working: 30m, 8h, 2d from now, or an ISO 8601 time "
            "(UTC unless it has an offset), e.g. 2026-11-28T18:00Z.",
        ),
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Create an API token; it is printed once, alone on the last line (only a hash is kept)."""
    from commands.tokens import create_token, parse_expiry, stamp
    from ledger.url import open_store

    now = utc_now()
    with reported_errors():
        try:
            expires_at = parse_expiry(expires, now) if expires is not None else None
            secret = create_token(open_store(store), role, tournament, player, label=label,
                                  expires_at=expires_at, now=now)  # fmt: skip
        except ValueError as exc:
            fail(f"token create: {exc}", 2)
    scope = f"tournament {tournament}" if tournament else "every tournament"
    about = f"{role} token for {scope}" + (f", player {player}" if player else "")
    about += f", {label!r}" if label else ""
    about += f", expires {stamp(expires_at)}" if expires_at else ""
    typer.echo(about, err=True)
    typer.echo(secret)


@app.command("list")
def token_list(
    tournament: Annotated[
        str | None,
        typer.Option(
            help="Only the tokens that may act on this tournament (its own and those "
            "for every tournament)."
        ),
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List the API tokens: id, role, scope, player, label, created, expires, revoked
    (never a secret or its hash)."""
    from commands.cli.read import print_model
    from commands.reads.token_list import token_list as listed
    from ledger.url import open_store

    with reported_errors():
        model = listed(open_store(store, create=False).tokens(tournament), utc_now())
    if as_json:
        print_model(model)
        return
    from commands.cli.grids import show_tokens

    show_tokens(model)


@app.command("revoke")
def token_revoke(
    token_id: Annotated[str, typer.Argument(metavar="TOKEN_ID", help="The id `token list` shows.")],
    store: StoreOpt = None,
) -> None:
    """Revoke an API token: refused by every server from now on (within its
    --token-recheck seconds). Revoking it again says so and changes nothing."""
    from commands.tokens import UnknownToken, revoke, stamp
    from ledger.url import open_store

    with reported_errors():
        try:
            entry, revoked = revoke(open_store(store, create=False), token_id, utc_now())
        except UnknownToken as exc:
            fail(f"token revoke: {exc}", 2)
    who = f" ({entry.label})" if entry.label else ""
    when = stamp(entry.revoked_at) if entry.revoked_at else "?"
    if revoked:
        typer.echo(f"revoked token {entry.token_id}{who} at {when}")
    else:
        typer.echo(f"token {entry.token_id}{who} was revoked already at {when}")
