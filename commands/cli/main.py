"""The ``tledger`` command line: the organizer's tool and the JSON contract.

The root app merges one Typer app per command group, each a module of this package,
so every command stays top-level: running a tournament (``run``; ``spreadsheet``
registers a CSV file of players), its results (``results``), undoing honest mistakes
(``undo``), reading it (``read``) and its round clock (``clock``), finding its players
(``people``), auditing and moving its log (``audit``), the HTTP face and its tokens
(``serve``, ``tokens``), its paper (``paper``), its public page's switch (``public``),
deck, squad and fleet lists (``lists``) and SWU limited events (``limited``). They
share ``options``, ``execute`` (one command of the contract, run), ``output`` (JSON
and error lines; the exit codes), ``logs`` and the Rich grids (``grids``,
``bracket_grids``, ``people_grids``). Heavy modules (pydantic models, the store, rich)
are imported inside the commands, so ``tledger --help`` answers fast.
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
    push,
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
app.add_typer(push.app)
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
