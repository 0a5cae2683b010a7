"""``tledger register T --csv FILE``: the organizer's spreadsheet, registered as one
append (every row checked first; all players or none; see ``commands.text.spreadsheet``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from commands.cli.execute import outcome_view
from commands.cli.output import fail, print_json, read_source, reported_errors

if TYPE_CHECKING:
    from commands.handler import Handler, Outcome
    from ledger.events import Actor


def register_csv(
    tournament: str, source: str, store: str | None, as_json: bool, actor: Actor | None = None
) -> None:
    """Check every row first, then register them all as one append (nothing on an error);
    ``actor`` (``--actor``) registers them."""
    from commands.bootstrap import handler_for
    from commands.errors import UnknownTournament
    from commands.handler import BatchRefused
    from commands.text.spreadsheet import decode, read_rows

    data = read_source(source)
    with reported_errors("register: "):
        rows = read_rows(decode(data), tournament)
        handler = handler_for(store)
        try:
            commands = [r.command.model_copy(update={"actor": actor}) if actor else r.command
                        for r in rows]  # fmt: skip
            outcome = run_logged_batch(handler, commands)
        except BatchRefused as exc:
            if isinstance(exc.error, UnknownTournament):
                raise exc.error from None
            fail(f"register: row {rows[exc.index].row}: {exc.error}", exc.error.exit_code)
    for warning in shared_names(handler, tournament):
        typer.echo(f"warning: {warning}", err=True)
    if as_json:
        print_json(outcome_view(outcome))
    else:
        typer.echo(f"registered {len(outcome.recorded)} players")


def shared_names(handler: Handler, tournament: str) -> list[str]:
    """A name several players now share is accepted, and said once per name (two people
    may share a name; a row may also have been typed twice)."""
    from commands.reads.people import folded, id_order

    groups: dict[str, list[str]] = {}
    entries = handler.store.players(tournament)
    for player, entry in entries.items():
        if entry.name.strip():
            groups.setdefault(folded(entry.name.strip()), []).append(player)
    return [
        f"{entries[ids[0]].name.strip()!r} is the name of {', '.join(ids)}"
        for ids in (sorted(g, key=id_order) for g in groups.values())
        if len(ids) > 1
    ]


def run_logged_batch(handler: Handler, commands: list[Any]) -> Outcome:
    """Handle commands as one append and log one line for them, with their count."""
    from commands.cli.logs import command_logger
    from commands.handler import BatchRefused

    log = command_logger()
    kind, tournament = commands[0].type, commands[0].tournament
    try:
        outcome = handler.handle_batch(commands)
    except BatchRefused as exc:
        log.info("command", tournament=tournament, command=kind, count=len(commands),
                 outcome="rejected", reason=str(exc))  # fmt: skip
        raise
    log.info("command", tournament=tournament, command=kind, count=len(commands),
             seq=outcome.seq, outcome="appended")  # fmt: skip
    return outcome
