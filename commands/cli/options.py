"""The options and arguments every command group shares, so that ``--store``,
``--json``, ``--as-of`` and the tournament argument read the same in every command."""

from __future__ import annotations

from typing import Annotated

import typer

StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        envvar="TLEDGER_STORE",
        help="Store URL: sqlite:///FILE (default sqlite:///tledger.sqlite3), "
        "postgresql://USER@HOST/DB or memory://.",
        show_default=False,
    ),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
AsOfOpt = Annotated[
    str | None,
    typer.Option("--as-of", help="Show the state as known at this seq or UTC time (ISO 8601)."),
]
Tournament = Annotated[str, typer.Argument(help="Tournament id.")]
ActorOpt = Annotated[
    str | None,
    typer.Option(
        "--actor",
        envvar="TLEDGER_ACTOR",
        metavar="ROLE:ID",
        help="Who acts, as ROLE:ID with ROLE one of organizer, judge, scorekeeper, player "
        "(e.g. judge:AK); default organizer:local. The id is kept in the hashed log: "
        "use initials or a judge number, not a full name.",
        show_default=False,
    ),
]
