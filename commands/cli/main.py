"""The ``tledger`` command line: the organizer's tool and the JSON contract.

The root app merges one Typer app per command group, so every command stays
top-level: running a tournament (``cli_run``), its results (``cli_results``),
undoing honest mistakes (``cli_undo``), reading it (``cli_read``) and its round
clock (``cli_clock``), finding its
players (``cli_people``), auditing and moving its log (``cli_audit``), the
HTTP face (``cli_serve``), its paper (``cli_print``) and its public page's switch
(``cli_public``).
Heavy modules (pydantic models, the store, rich) are imported inside the
commands, so ``tledger --help`` answers fast. Exit codes: see ``cli_output``.
"""

from __future__ import annotations

from typing import Annotated

import typer

from commands.cli import (
    audit,
    clock,
    limited,
    lists,
    paper,
    people,
    public,
    read,
    results,
    run,
    serve,
    undo,
)

app = typer.Typer(
    name="tledger",
    help="Event-sourced tournament ledger for Star Wars organized play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def show_version(asked: bool) -> None:
    """``tledger --version``: the installed package's version, then exit."""
    if asked:
        from importlib.metadata import version

        typer.echo(f"tledger {version('tledger')}")
        raise typer.Exit()


@app.callback()
def root(
    _version: Annotated[
        bool,
        typer.Option(
            "--version", callback=show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", envvar="TLEDGER_VERBOSE",
            help="On a terminal, also print each command's log line (key=value); off a "
            "terminal the line is always JSON on stderr.",
        ),
    ] = False,
) -> None:  # fmt: skip
    """Event-sourced tournament ledger for Star Wars organized play."""
    from commands.cli.logs import set_verbose

    set_verbose(verbose)


# Typer merges an app added without a name: its commands stay top-level.
app.add_typer(run.app)
app.add_typer(results.app)
app.add_typer(undo.app)
app.add_typer(read.app)
app.add_typer(clock.app)
app.add_typer(people.app)
app.add_typer(audit.app)
app.add_typer(serve.app)
app.add_typer(paper.app)
app.add_typer(public.app)
app.add_typer(lists.app)
app.add_typer(limited.app)


def main() -> None:
    app()
