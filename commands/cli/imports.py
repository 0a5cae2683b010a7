"""``tledger import --format json|csv``: a tournament rebuilt from a results document,
another tool's or an older tledger's, as the commands an organizer would have run.

The commands (``commands.text.results_import``) are decided as one batch twice: first
as a dry run, which names the first command the ledger refuses and appends nothing,
then for real, in one append with every player's name. What the rebuilt tournament
pairs by itself and differs from the document (the cut's seeds, an elimination table)
is said on stderr: the document's standings are the record, the bracket is re-made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import typer

from commands.cli.output import fail, print_json, reported_errors

if TYPE_CHECKING:
    from commands.models import Command
    from commands.text.results_data import Results


def import_results(data: bytes, fmt: str, tournament: str | None, store: str | None,
                   dry_run: bool, as_json: bool) -> None:  # fmt: skip
    """Rebuild the document's tournament (under ``tournament`` when given) in ``store``."""
    from commands.bootstrap import handler_for
    from commands.cli.execute import outcome_view
    from commands.cli.spreadsheet import run_logged_batch
    from commands.handler import BatchRefused
    from commands.text.results_import import differences

    results = read_results(data, fmt)
    commands = commands_for(results, tournament)
    with reported_errors("import: "):
        handler = handler_for(store)
        try:
            rehearsed = handler.rehearse(commands)
            outcome = None if dry_run else run_logged_batch(handler, commands)
        except BatchRefused as exc:
            refused = commands[exc.index]
            fail(f"import: command {exc.index + 1} ({refused.type}): {exc.error}",
                 exc.error.exit_code)  # fmt: skip
    for note in differences(results, rehearsed):
        typer.echo(f"note: {note}", err=True)
    if outcome is None:
        typer.echo(f"dry run: {rehearsed.id} would be rebuilt from {len(commands)} commands "
                   f"as {rehearsed.seq} events; nothing was appended")  # fmt: skip
    elif as_json:
        print_json(outcome_view(outcome))
    else:
        typer.echo(f"imported {outcome.tournament}: {outcome.seq} events from a {fmt} "
                   "results document")  # fmt: skip


def read_results(data: bytes, fmt: str) -> Results:
    """The document read, or one line naming what is wrong with it (exit 2)."""
    from commands.text.results_data import InvalidResults
    from commands.text.results_parse import read_csv, read_json

    try:
        return read_json(data) if fmt == "json" else read_csv(data)
    except InvalidResults as exc:
        fail(f"import: {exc}", 2)


def commands_for(results: Results, tournament: str | None) -> list[Command]:
    """The contract's commands that rebuild ``results``, each checked as ``apply`` checks
    a line (one line naming the command that does not fit, exit 2)."""
    from commands.errors import InvalidCommand
    from commands.models import parse_command
    from commands.text.results_import import commands_of

    commands: list[Command] = []
    for number, data in enumerate(commands_of(results, tournament), start=1):
        try:
            commands.append(parse_command(data))
        except InvalidCommand as exc:
            fail(f"import: command {number} ({data.get('type')}): {exc}", 2)
    return commands
