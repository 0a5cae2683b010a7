"""The ``tledger`` command line: the organizer's tool and the JSON contract.

The root app merges one Typer app per command group, so every command stays
top-level: running a tournament (``cli_run``), its results (``cli_results``),
reading it (``cli_read``), auditing and moving its log (``cli_audit``) and the
HTTP face (``cli_serve``).
Heavy modules (pydantic models, the store, rich) are imported inside the
commands, so ``tledger --help`` answers fast. Exit codes: see ``cli_output``.
"""

from __future__ import annotations

import typer

from commands import cli_audit, cli_read, cli_results, cli_run, cli_serve

app = typer.Typer(
    name="tledger",
    help="Event-sourced tournament ledger for Star Wars organized play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
# Typer merges an app added without a name: its commands stay top-level.
app.add_typer(cli_run.app)
app.add_typer(cli_results.app)
app.add_typer(cli_read.app)
app.add_typer(cli_audit.app)
app.add_typer(cli_serve.app)


def main() -> None:
    app()
