"""How a CLI command runs one command of the contract: the actor it acts as, player
names turned into ids, the error line naming the command typed, the outcome printed
(with what a correction or a decided dispute means) and one log line on stderr."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from commands.cli.output import fail, print_json, reported_errors

if TYPE_CHECKING:
    from commands.handler import Handler, Outcome
    from ledger.events import Actor


def execute(
    store: str | None, data: dict[str, Any], as_json: bool, actor: str | None = None
) -> None:
    """Run one command given as contract data, print the outcome, log one line.
    ``actor`` (``--actor ROLE:ID``) acts unless the data names its own actor; a player
    may be named by id or by a unique name (``people.with_player_ids``); errors name
    the CLI command that was typed (``report``), not the contract's type."""
    # typer bundles its own click; typer.main is where it exposes the current context
    from typer.main import get_current_context  # type: ignore[attr-defined]

    from commands.actors import check_sender, with_actor
    from commands.bootstrap import handler_for
    from commands.cli.people import with_player_ids
    from commands.models import parse_command

    acting = actor_of(actor)
    data = with_actor(data, acting)
    context = get_current_context(silent=True)
    typed = context.info_name if context is not None else None
    kind = f"{data.get('type')}: "
    with reported_errors(f"{typed}: " if typed else kind, same=kind):
        handler = handler_for(store)
        data, warnings = with_player_ids(handler, data)
        command = parse_command(data)
        check_sender(acting, command.type)
        outcome = run_logged(handler, command)
    for warning in warnings:
        typer.echo(f"warning: {warning}", err=True)
    if as_json:
        print_json(outcome_view(outcome))
    else:
        describe_outcome(outcome)
        describe_seeding(handler, outcome)
        describe_lists(handler, outcome)
        describe_deck_checks(handler, outcome)


def describe_lists(handler: Handler, outcome: Outcome) -> None:
    """The rules a list just recorded breaks, with their messages, to whoever recorded it
    (the messages may name cards, so the events only count them: ledger.list_events)."""
    seqs = {r.seq for r in outcome.recorded if getattr(r.event, "list_hash", None)}
    if not seqs:
        return
    for entry in handler.store.lists(outcome.tournament):
        if entry.seq in seqs:
            for v in entry.violations:
                typer.echo(f"  violates {v.get('section')}: {v.get('message')}")


def describe_deck_checks(handler: Handler, outcome: Outcome) -> None:
    """What a deck check just recorded found, entry by entry with card names, to the
    official who recorded it (only officials record deck checks; the event only counts
    the differences: ledger.events.DeckCheckRecorded)."""
    seqs = {r.seq for r in outcome.recorded if getattr(r.event, "presented_hash", None)}
    if not seqs:
        return
    from commands.cli.grids import show_comparison
    from commands.reads.listviews import deck_check_comparisons

    state = handler.folds.state(outcome.tournament)
    stored = handler.store.lists(outcome.tournament)
    for comparison in deck_check_comparisons(state, stored, seqs=seqs):
        show_comparison(comparison, indent="  ")


def actor_of(text: str | None) -> Actor | None:
    """The ``--actor`` value parsed, or a one-line refusal (exit 2) before anything runs."""
    if text is None:
        return None
    from commands.actors import BadActor, parse_actor

    try:
        return parse_actor(text)
    except BadActor as exc:
        fail(f"--actor {text!r}: {exc}", 2)


def describe_outcome(outcome: Outcome) -> None:
    """One line per appended event; corrections say what they did and did not change;
    a report that contradicts a player's report names it, so nobody misses a dispute."""
    for r in outcome.recorded:
        typer.echo(f"{r.event.type} (seq {r.seq})")
        disputed = getattr(r.event, "disputed", None)
        for d in disputed or ():
            verb = "decides the dispute with" if r.event.actor.role != "player" else "disputes"
            typer.echo(f"  {verb} {d.player}'s report (seq {d.seq}): {result_text(d.result)}")
        missing = getattr(r.event, "missing", None)  # lists locked, players without one
        if missing:
            typer.echo(f"  without a list: {', '.join(missing)}")
        timing = getattr(r.event, "timing", None)
        if r.event.type == "result_corrected" and timing in ("after_cut", "after_finish"):
            typer.echo("  standings change; the cut and played elimination matches stand")
        elif r.event.type == "result_corrected" and timing == "next_round_started":
            typer.echo("  the next round has started: its pairings stand (swu-1.4 §5.8)")
        elif r.event.type == "pairings_revised":
            tables = ", ".join(str(t.table) for t in r.event.replaced)
            typer.echo(f"  re-paired table(s) {tables} of round {r.event.round}")


def result_text(result: Any) -> str:
    return ", ".join(f"{k} {v}" for k, v in result.model_dump(exclude_none=True).items())


def describe_seeding(handler: Handler, outcome: Outcome) -> None:
    """After a correction once the cut stands: who the corrected standings would have
    seeded differently (the cut as made stays; projections.cutline)."""
    late = any(getattr(r.event, "timing", None) in ("after_cut", "after_finish")
               for r in outcome.recorded)  # fmt: skip
    if not late:
        return
    from projections.cutline import seeding_changes

    changes = handler.folds.read(outcome.tournament, seeding_changes)
    for c in changes:
        typer.echo(f"  seed {c.seed}: {c.as_made} as made; {c.now or 'nobody'} by the "
                   "corrected standings")  # fmt: skip


def run_logged(handler: Handler, command: Any) -> Outcome:
    """Handle one command and log one line: tournament, type, seq, outcome."""
    from commands.cli.logs import command_logger
    from commands.errors import CommandError

    log = command_logger()
    try:
        outcome = handler.handle(command)
    except CommandError as exc:
        log.info("command", tournament=command.tournament, command=command.type,
                 outcome="rejected", reason=str(exc))  # fmt: skip
        raise
    log.info("command", tournament=command.tournament, command=command.type,
             seq=outcome.seq, outcome="appended")  # fmt: skip
    return outcome


def outcome_view(outcome: Outcome) -> dict[str, Any]:
    from commands.reads.views import event_view

    return {
        "seq": outcome.seq,
        "position": outcome.position,
        "events": [event_view(r) for r in outcome.recorded],
    }


def parse_option(text: str) -> tuple[str, Any]:
    import orjson

    key, sep, raw = text.partition("=")
    if not sep or not key:
        fail(f"option {text!r} must look like KEY=VALUE", 2)
    try:
        return key, orjson.loads(raw)
    except orjson.JSONDecodeError:
        return key, raw
