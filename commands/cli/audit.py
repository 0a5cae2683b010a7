"""Commands that audit and move a log: verify its chain and pairings, replay or
diff it at past points, explain a player's points, export, import, and erase a
player's personal data."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from commands.cli.options import AsOfOpt, JsonOpt, StoreOpt, Tournament
from commands.cli.output import fail, print_json, read_source, reported_errors, write_output
from commands.cli.read import load_state, names_of

if TYPE_CHECKING:
    from commands.reads.auditmodels import Verified
    from replay.witness import Witness

app = typer.Typer()


@app.command()
def verify(
    tournament: Annotated[str | None, typer.Argument(help="Tournament id.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Verify every tournament.")] = False,
    head: Annotated[str | None, typer.Option(help="Prove a published head is in the log.")] = None,
    witness: Annotated[
        list[str] | None,
        typer.Option(
            "--witness",
            metavar="FILE",
            help="Heads copied from printouts, one 'seq SEQ HASH' per line ('-': stdin; "
            "repeat for several files): each must be the log's event at that seq, or the "
            "log was truncated or rewritten (exit 3).",
        ),
    ] = None,
    against: Annotated[
        str | None,
        typer.Option(
            metavar="URL",
            help="A mirror's base URL: compare the log with the "
            "mirror's, head by head, and name the first difference (exit 3).",
        ),
    ] = None,
    token: Annotated[
        str | None,
        typer.Option(envvar="TLEDGER_PUSH_TOKEN", help="A token the mirror accepts (--against)."),
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recompute the hash chain (naming the first bad seq, exit 3), then re-derive every
    automatic pairing from its log prefix and seed; manual pairings are listed as manual.
    With --witness, check heads printed earlier: a chain alone cannot catch a truncated
    or consistently re-hashed log, a posted head can. With --against, compare the log
    with a hosted mirror's copy."""
    if against is not None:
        from commands.cli.push import verify_against

        if tournament is None or every:
            fail("verify: --against compares one tournament; name it", 2)
        verify_against(tournament, against, token, store, as_json)
        return
    from commands.reads.verification import verified, verified_json
    from ledger.url import open_store

    if not every and tournament is None:
        fail("verify: name a tournament or give --all", 2)
    if witness and every:
        fail("verify: --witness checks one tournament's printed heads; name the tournament", 2)
    witnesses = read_witnesses(witness or [])
    failed = False
    with reported_errors():
        st = open_store(store, create=False)
        names = st.tournaments() if every else [tournament or ""]
        for name in names:
            model = verified(st, name, witnesses, head)
            view = verified_json(model)
            failed |= head is not None and model.head_seq is None
            failed |= not model.ok
            show_verification(view, as_json, head)
            failed |= show_witnesses(model, as_json)
    if failed:
        raise typer.Exit(3)


def read_witnesses(files: list[str]) -> list[Witness]:
    """Every witness of the files given, or a one-line error naming the line (exit 2)."""
    from replay.witness import MalformedWitness, parse_witnesses

    found: list[Witness] = []
    for source in files:
        try:
            found += parse_witnesses(read_source(source), "stdin" if source == "-" else source)
        except MalformedWitness as exc:
            fail(f"verify: {exc}", 2)
    return found


def show_witnesses(model: Verified, as_json: bool) -> bool:
    """Each witness on its line (human output), and the first contradicted one as the
    error (stderr); True when one failed."""
    if not as_json:
        for check in model.witnesses or []:
            typer.echo(f"  {check.name}: {check.verdict}")
    if model.contradicted is not None:
        typer.echo(f"error: integrity: {model.contradicted}", err=True)
    return model.contradicted is not None


def show_verification(view: dict[str, Any], as_json: bool, head: str | None) -> None:
    if as_json:
        print_json(view)
        return
    name = view["tournament"]
    if view["broken_at"] is not None:
        typer.echo(f"error: {view['broken']}", err=True)
        return
    typer.echo(f"{name}: chain of {view['events']} events verified, head {view['head']}")
    for p in view["pairings"]:
        mark = "ok" if p["ok"] else "MISMATCH"
        detail = f": {p['detail']}" if p["detail"] else ""
        typer.echo(f"  round {p['round']} ({p['kind']}, seq {p['seq']}): {mark}{detail}")
    if head is not None:
        where = view.get("head_seq")
        typer.echo(f"  head {head}: " + (f"event seq {where} of this log" if where
                                        else "NOT part of this log"))  # fmt: skip


@app.command()
def replay(
    tournament: Tournament,
    until: Annotated[str, typer.Option(help="Seq or UTC time (ISO 8601) to replay to.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The tournament as known at a point: status, pairings and standings of that prefix."""
    from commands.reads import views

    with reported_errors():
        st, state, _events = load_state(tournament, store, until)
        names = names_of(st, state)
        status, pairings = views.status(state, names), views.pairings(state, None, names)
        standings = views.standings(state, names)
    if as_json:
        print_json({"status": views.json_of(status), "pairings": views.json_of(pairings),
                    "standings": views.json_of(standings)})  # fmt: skip
        return
    from commands.cli import grids

    grids.show_status(status)
    if state.rounds:
        grids.show_pairings(pairings)
    grids.show_standings(standings)


@app.command()
def diff(
    tournament: Tournament,
    a: Annotated[str, typer.Argument(metavar="A", help="From: seq or UTC time.")],
    b: Annotated[str, typer.Argument(metavar="B", help="To: seq or UTC time.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What changed between two points: events, standings moves, corrections, re-pairings
    (players shown by name; the JSON's "names" maps their ids to names)."""
    from commands.reads.audit import diff_between
    from ledger.url import open_store

    with reported_errors():
        st = open_store(store, create=False)
        view = diff_between(st, tournament, a, b)
    if as_json:
        print_json(view)
        return
    from commands.cli import grids

    grids.show_diff(view)


@app.command()
def explain(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id, or a name only one player has.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:
    """How a player's points and every tiebreaker were derived, with the section (players
    shown by name; the JSON's "names" maps their ids to names)."""
    from commands.cli.people import player_id
    from commands.reads.audit import explained
    from commands.reads.views import json_of

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        model = explained(state, player_id(st, state, player), names_of(st, state))
    if as_json:
        print_json(json_of(model))
        return
    from commands.cli import grids

    grids.show_explain(model)


@app.command()
def export(
    tournament: Tournament,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="jsonl: the full log, to import elsewhere; csv: standings with every "
            "tiebreaker, then every match result, then the event (UTF-8 with a byte order "
            "mark, for spreadsheets); json: the results document (rounds, matches, byes, "
            "drops, penalties, cut, standings, seq and head).",
        ),
    ] = "jsonl",
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="FILE",
            help="Write to FILE (written whole or not at all); - for standard output.",
        ),
    ] = "-",
    store: StoreOpt = None,
) -> None:
    """Write the tournament: the full log (jsonl: a header line with the players'
    registry, then one event per line in its canonical stored bytes), or its results
    (csv, json) with names and without external ids."""
    from ledger.transfer import export_lines
    from ledger.url import open_store

    if fmt not in ("jsonl", "csv", "json"):
        fail(f"export: unknown format {fmt!r} (jsonl, csv, json)", 2)
    with reported_errors():
        if fmt != "jsonl":
            data = results_export(tournament, store, fmt)
        else:
            st = open_store(store, create=False)
            if not st.load(tournament):  # checks every event: a damaged log is not exported
                fail(f"unknown tournament {tournament!r}", 1)
            data = b"".join(line + b"\n" for line in export_lines(st, tournament))
    write_output(output, data, "export")


def results_export(tournament: str, store: str | None, fmt: str) -> bytes:
    """The results document of the tournament's whole (checked) log, as CSV or JSON."""
    from commands.text.results_csv import results_bytes

    st, state, events = load_state(tournament, store)
    return results_bytes(state, events, st.players(tournament), fmt)


IMPORT_FORMATS = ("jsonl", "json", "csv")


@app.command("import")
def import_(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="The file to import.")],
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="jsonl: a log exported by `tledger export` (its events and hashes, the "
            "chain verified first); json or csv: a results document (`export --format "
            "json|csv`), rebuilt as the commands that reach the same results.",
        ),
    ] = "jsonl",
    tournament: Annotated[
        str | None, typer.Option(help="json/csv: rebuild under this id instead.")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="json/csv: decide everything, append nothing.")
    ] = False,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild a tournament in this store from a log export or a results document."""
    from ledger.transfer import import_lines
    from ledger.url import open_store

    if fmt not in IMPORT_FORMATS:
        fail(f"import: unknown format {fmt!r} (use one of: {', '.join(IMPORT_FORMATS)})", 2)
    raw = read_source(source)
    if fmt != "jsonl":
        from commands.cli.imports import import_results

        import_results(raw, fmt, tournament, store, dry_run, as_json)
        return
    if tournament is not None or dry_run:
        fail("import: --tournament and --dry-run apply to a results document (json, csv)", 2)
    with reported_errors():
        tournament, count = import_lines(open_store(store), raw.splitlines())
    if as_json:
        print_json({"tournament": tournament, "events": count})
        return
    typer.echo(f"imported {tournament}: {count} events, chain verified")


@app.command()
def forget(
    tournament: Tournament,
    player: Annotated[
        str, typer.Argument(help="Player id (a team member's too) whose personal data to erase.")
    ],
    store: StoreOpt = None,
) -> None:
    """Erase a player's name and external id (GDPR); the log and its chain stay intact."""
    with reported_errors():
        st, state, _ = load_state(tournament, store)
        members = {p for team in state.teams.values() for p in team}
        if player not in state.players and player not in members:
            from commands.errors import UnknownPlayer

            raise UnknownPlayer(player)
        erased = st.forget(tournament, player)
    typer.echo(f"{player}: {'erased' if erased else 'nothing stored to erase'}")
