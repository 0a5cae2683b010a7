"""The ``tledger`` command line: the organizer's tool and the JSON contract.

Heavy modules (pydantic models, the store, rich) are imported inside the
commands, so ``tledger --help`` answers fast. Exit codes (design: Errors):
0 ok, 2 input that does not fit the contract, 1 a command the ledger refuses or
an unknown tournament, 3 a store or integrity failure.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

if TYPE_CHECKING:
    from commands.handler import Handler, Outcome
    from ledger.store import Recorded, Store
    from projections.state import TournamentState

app = typer.Typer(
    name="tledger",
    help="Event-sourced tournament ledger for Star Wars organized play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)

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


def fail(message: str, code: int) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def reported_errors(prefix: str = "") -> Iterator[None]:
    """Turn every named error into one line on stderr and its exit code."""
    from commands.errors import CommandError
    from ledger.errors import InvalidExport, LedgerError
    from projections.errors import ProjectionError
    from replay.errors import ReplayError

    try:
        yield
    except CommandError as exc:
        fail(f"{prefix}{exc}", exc.exit_code)
    except (ProjectionError, ReplayError) as exc:
        fail(f"{prefix}{exc}", 1)
    except InvalidExport as exc:
        fail(f"{prefix}{exc}", 2)
    except LedgerError as exc:
        fail(f"{prefix}{exc}", 3)


def print_json(data: Any) -> None:
    import orjson

    sys.stdout.write(orjson.dumps(data).decode() + "\n")


# writing ---------------------------------------------------------------------


def execute(store: str | None, data: dict[str, Any], as_json: bool) -> None:
    """Run one command given as contract data, print the outcome, log one line."""
    from commands.bootstrap import handler_for
    from commands.models import parse_command

    with reported_errors(f"{data.get('type')}: "):
        handler = handler_for(store)
        outcome = run_logged(handler, parse_command(data))
    if as_json:
        print_json(outcome_view(outcome))
    else:
        describe_outcome(outcome)


def describe_outcome(outcome: Outcome) -> None:
    """One line per appended event; corrections say what they did and did not change."""
    for r in outcome.recorded:
        typer.echo(f"{r.event.type} (seq {r.seq})")
        timing = getattr(r.event, "timing", None)
        if r.event.type == "result_corrected" and timing in ("after_cut", "after_finish"):
            typer.echo("  standings change; the cut and played elimination matches stand")
        elif r.event.type == "result_corrected" and timing == "next_round_started":
            typer.echo("  the next round has started: its pairings stand (swu-1.4 §5.8)")
        elif r.event.type == "pairings_revised":
            tables = ", ".join(str(t.table) for t in r.event.replaced)
            typer.echo(f"  re-paired table(s) {tables} of round {r.event.round}")


def run_logged(handler: Handler, command: Any) -> Outcome:
    """Handle one command and log one line: tournament, type, seq, outcome."""
    from commands.errors import CommandError
    from commands.logs import command_logger

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
    from commands.views import event_view

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


@app.command()
def new(
    tournament: Tournament,
    name: Annotated[str, typer.Option(help="Event name.")],
    ruleset: Annotated[str, typer.Option(help="swu-1.4 and others as implemented.")] = "swu-1.4",
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Ruleset option KEY=VALUE.")
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a tournament."""
    options = dict(parse_option(o) for o in option or [])
    execute(store, {"type": "create_tournament", "tournament": tournament, "name": name,
                    "ruleset": ruleset, "options": options}, as_json)  # fmt: skip


@app.command()
def register(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id (a seat number, never personal data).")],
    name: Annotated[str | None, typer.Option(help="Display name (kept out of the log).")] = None,
    external_id: Annotated[str | None, typer.Option(help="External id, e.g. SWU UID.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Register a player (also after round 1: paired from the next round)."""
    execute(store, {"type": "register_player", "tournament": tournament, "player": player,
                    "name": name, "external_id": external_id}, as_json)  # fmt: skip


@app.command()
def drop(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id.")],
    reason: Annotated[str | None, typer.Option(help="Why (optional).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Drop a player: never paired again."""
    execute(store, {"type": "drop_player", "tournament": tournament, "player": player,
                    "reason": reason}, as_json)  # fmt: skip


@app.command()
def rejoin(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Let a dropped player rejoin the Swiss stage (X-Wing, Armada: missed rounds are losses)."""
    execute(store, {"type": "rejoin_player", "tournament": tournament, "player": player}, as_json)


@app.command()
def pair(
    tournament: Tournament,
    seed: Annotated[int | None, typer.Option(help="Seed for the random draw.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pair the next round automatically (seed chosen and recorded unless given)."""
    execute(store, {"type": "pair_round", "tournament": tournament, "seed": seed}, as_json)


@app.command()
def start(tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Start the current round."""
    execute(store, {"type": "start_round", "tournament": tournament}, as_json)


@app.command()
def finish(tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Finish the tournament."""
    execute(store, {"type": "finish_tournament", "tournament": tournament}, as_json)


@app.command()
def report(
    tournament: Tournament,
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")],
    player1: Annotated[str, typer.Argument(help="First player id.")],
    player2: Annotated[str, typer.Argument(help="Second player id.")],
    games: Annotated[str | None, typer.Option(help="Game wins as W1-W2 (SWU), e.g. 2-1.")] = None,
    draws: Annotated[int, typer.Option(help="Drawn games (SWU).")] = 0,
    intentional_draw: Annotated[bool, typer.Option("--id", help="Intentional draw.")] = False,
    result: Annotated[str | None, typer.Option(help="The result as contract JSON.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Report a match result (for other shapes pass --result JSON)."""
    data: Any
    if result is not None:
        data = json_option(result, "--result")
    elif intentional_draw:
        data = {"intentional_draw": True}
    elif games is not None:
        data = {"games": split_pair(games), "draws": draws}
    else:
        fail("report_result: give --games W1-W2, --id or --result JSON", 2)
    execute(store, {"type": "report_result", "tournament": tournament, "round": round_number,
                    "players": [player1, player2], "result": data}, as_json)  # fmt: skip


def split_pair(text: str) -> list[int]:
    first, sep, second = text.partition("-")
    if not sep or not first.isdigit() or not second.isdigit():
        fail(f"report_result: --games {text!r} must look like 2-1", 2)
    return [int(first), int(second)]


@app.command()
def correct(
    tournament: Tournament,
    round_number: Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")],
    player1: Annotated[str, typer.Argument(help="First player id.")],
    player2: Annotated[str, typer.Argument(help="Second player id.")],
    result: Annotated[str, typer.Option(help="The corrected result as contract JSON.")],
    reason: Annotated[str | None, typer.Option(help="Why (required after a cut).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Correct a confirmed result (swu-1.4 §5.8 timing: may re-pair the next round)."""
    execute(store, {"type": "correct_result", "tournament": tournament, "round": round_number,
                    "players": [player1, player2], "result": json_option(result, "--result"),
                    "reason": reason}, as_json)  # fmt: skip


@app.command()
def disqualify(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Disqualify a player: removed, may not rejoin; an open match is recorded as lost."""
    execute(store, {"type": "disqualify_player", "tournament": tournament, "player": player,
                    "reason": reason}, as_json)  # fmt: skip


@app.command()
def penalty(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id.")],
    round_number: Annotated[int, typer.Option("--round", help="Round of the infraction.")],
    kind: Annotated[
        str,
        typer.Option(
            "--penalty", help="warning, game_loss, match_loss, disqualification or point_deduction."
        ),
    ],
    infraction: Annotated[str, typer.Option(help="What happened.")],
    points: Annotated[float | None, typer.Option(help="Points to deduct (LCG).")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Issue a penalty."""
    execute(store, {"type": "issue_penalty", "tournament": tournament, "player": player,
                    "round": round_number, "penalty": kind, "infraction": infraction,
                    "points": points}, as_json)  # fmt: skip


@app.command("deck-check")
def deck_check(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id.")],
    round_number: Annotated[int, typer.Option("--round", help="Round.")],
    timing: Annotated[str, typer.Option(help="before_game_1, between_games or after_match.")],
    outcome: Annotated[str, typer.Option(help="legal, illegal or unfixable (LCG).")],
    minutes: Annotated[int, typer.Option(help="Minutes the check took.")] = 0,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record a deck check (its time plus 3 minutes extends the match, swu-1.4 §6)."""
    execute(store, {"type": "record_deck_check", "tournament": tournament, "player": player,
                    "round": round_number, "timing": timing, "outcome": outcome,
                    "minutes": minutes}, as_json)  # fmt: skip


@app.command("lcg-count")
def lcg_count(
    light_objectives: Annotated[
        int, typer.Option(min=0, help="Objectives in the light side's victory pile.")
    ],
    light_damage: Annotated[int, typer.Option(min=0, help="Damage on dark-side objectives.")],
    dark_dial: Annotated[int, typer.Option(min=0, max=12, help="Death Star dial.")],
    dark_damage: Annotated[int, typer.Option(min=0, help="Damage on light-side objectives.")],
    balance: Annotated[
        str, typer.Option(help="Side the Balance of the Force favours: light or dark.")
    ],
    as_json: JsonOpt = False,
) -> None:
    """The count of an LCG final game at time (lcg-2.1d "Spielende durch Zeitablauf")."""
    from projections.rulesets.lcg_finals import dark_side_count, light_side_count

    if balance not in ("light", "dark"):
        fail("--balance must be light or dark", 2)
    light = light_side_count(light_objectives, light_damage, balance == "light")
    dark = dark_side_count(dark_dial, dark_damage, balance == "dark")
    winner = "light" if light > dark else "dark" if dark > light else None
    if as_json:
        print_json({"light": float(light), "dark": float(dark), "winner": winner})
    else:
        verdict = (
            f"the {winner} side wins" if winner else "a tie: the document gives no further rule"
        )
        typer.echo(f"light {float(light):g}, dark {float(dark):g}: {verdict}")


def json_option(text: str, name: str) -> Any:
    import orjson

    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        fail(f"{name} is not JSON: {exc}", 2)


@app.command()
def apply(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="JSON Lines commands.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Execute JSON Lines commands in order; stop at the first rejected one."""
    from commands.bootstrap import handler_for

    lines = read_source(source).splitlines()
    with reported_errors():
        handler = handler_for(store)
    count = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        with reported_errors(f"line {number}: "):
            command = parse_line(line, number)
            outcome = run_logged(handler, command)
        count += 1
        if as_json:
            print_json({"line": number, "type": command.type, **outcome_view(outcome)})
    if not as_json:
        typer.echo(f"applied {count} command(s)")


def parse_line(line: bytes, number: int) -> Any:
    """One JSON Lines line as a command: bad bytes, bad JSON and a bad command are each
    input that does not fit the contract (exit 2), named with the line."""
    import orjson

    from commands.models import parse_command

    try:
        text = line.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        fail(f"line {number}: not UTF-8: {exc.reason} at byte {exc.start + 1}", 2)
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        fail(f"line {number}: malformed JSON: {exc}", 2)
    return parse_command(data)


def read_source(source: str) -> bytes:
    """FILE or standard input as bytes. Decoding is per line, so that a byte that is not
    UTF-8 is reported with its line; and only a line feed or a carriage return ends a
    line (a U+2028 inside a JSON string does not, as it did when splitting text)."""
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror}", 2)


# reading ---------------------------------------------------------------------


def load_state(
    tournament: str, store_url: str | None, as_of: str | None = None
) -> tuple[Store, TournamentState, list[Recorded]]:
    """Open the store and fold the tournament (the prefix known at ``as_of``)."""
    from commands.errors import UnknownTournament
    from ledger.url import open_store
    from replay.rebuild import rebuild

    store = open_store(store_url, create=False)
    state, events = rebuild(store, tournament, as_of)
    if not state.exists:
        raise UnknownTournament(tournament)
    return store, state, events


@app.command()
def status(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False, as_of: AsOfOpt = None
) -> None:
    """Where the tournament stands: stage, round, players, head hash."""
    from commands.views import status_view

    with reported_errors():
        _, state, _ = load_state(tournament, store, as_of)
        view = status_view(state)
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_status(view)


@app.command()
def standings(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False, as_of: AsOfOpt = None
) -> None:
    """Standings with points, record and tiebreakers."""
    from commands.views import standings_view

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        view = standings_view(state, st.players(tournament))
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_standings(view)


@app.command()
def pairings(
    tournament: Tournament,
    round_number: Annotated[int | None, typer.Option("--round", min=1, help="Round.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:
    """Pairings of the current (or a given) round, by table and by name."""
    from commands.errors import WrongPhase
    from commands.views import pairings_view

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        if round_number is not None and state.round(round_number) is None:
            raise WrongPhase(f"round {round_number} is not paired")
        view = pairings_view(state, round_number)
        names = st.players(tournament)
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_pairings(view, {p: e.name for p, e in names.items()})


@app.command()
def bracket(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False, as_of: AsOfOpt = None
) -> None:
    """The elimination bracket: every round's matches, brackets and winners."""
    from commands.views import bracket_view

    with reported_errors():
        st, state, _ = load_state(tournament, store, as_of)
        view = bracket_view(state)
        names = st.players(tournament)
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_bracket(view, {p: e.name for p, e in names.items()})


@app.command()
def cut(
    tournament: Tournament,
    size: Annotated[
        int | None, typer.Option(help="Cut size (default: the ruleset's table).")
    ] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Make the top cut from the final Swiss standings; then `pair` pairs the bracket."""
    execute(store, {"type": "make_cut", "tournament": tournament, "size": size}, as_json)


@app.command()
def log(
    tournament: Tournament,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
    follow: Annotated[bool, typer.Option("--follow", help="Keep printing new events.")] = False,
) -> None:
    """Every event of the tournament, oldest first (--follow: as they arrive, JSON Lines)."""
    from commands.views import log_view

    if follow:
        follow_log(tournament, store)
        return
    with reported_errors():
        _, _, events = load_state(tournament, store, as_of)
    view = log_view(tournament, events)
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_log(view)


token_app = typer.Typer(help="API tokens for `tledger serve`.", no_args_is_help=True)
app.add_typer(token_app, name="token")


@token_app.command("create")
def token_create(
    role: Annotated[str, typer.Option(help="organizer, judge, scorekeeper, player or reader.")],
    tournament: Annotated[
        str | None, typer.Option(help="Limit the token to one tournament.")
    ] = None,
    player: Annotated[str | None, typer.Option(help="The player of a player token.")] = None,
    store: StoreOpt = None,
) -> None:
    """Create an API token; it is printed once, alone on the last line (only a hash is kept)."""
    from commands.auth import create_token
    from ledger.url import open_store

    with reported_errors():
        try:
            secret = create_token(open_store(store), role, tournament, player)
        except ValueError as exc:
            fail(f"token create: {exc}", 2)
    scope = f"tournament {tournament}" if tournament else "every tournament"
    typer.echo(f"{role} token for {scope}" + (f", player {player}" if player else ""), err=True)
    typer.echo(secret)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port.")] = 8000,
    store: StoreOpt = None,
) -> None:
    """Serve the HTTP API (FastAPI on uvicorn) over the store."""
    import uvicorn

    from commands.api import create_app
    from commands.bootstrap import handler_for

    with reported_errors():
        handler = handler_for(store)
    uvicorn.run(create_app(handler), host=host, port=port, log_level="warning")


@app.command()
def verify(
    tournament: Annotated[str | None, typer.Argument(help="Tournament id.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Verify every tournament.")] = False,
    head: Annotated[str | None, typer.Option(help="Prove a published head is in the log.")] = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Recompute the hash chain (naming the first bad seq, exit 3), then re-derive every
    automatic pairing from its log prefix and seed; manual pairings are listed as manual."""
    from ledger.url import open_store
    from replay.rebuild import gc_paused
    from replay.verify import find_head
    from replay.verify import verify as verify_log

    if not every and tournament is None:
        fail("verify: name a tournament or give --all", 2)
    failed = False
    with reported_errors():
        st = open_store(store, create=False)
        names = st.tournaments() if every else [tournament or ""]
        for name in names:
            stored = st.load_raw(name)
            if not stored:
                fail(f"unknown tournament {name!r}", 1)
            with gc_paused():
                report = verify_log(name, stored, None)
                if report.broken_at is None:
                    report = verify_log(name, stored, st.load(name))
            view = report.as_json()
            if head is not None:
                view["head_seq"] = find_head(st.load(name), head) if report.head else None
                failed |= view["head_seq"] is None
            failed |= not report.ok
            show_verification(view, as_json, head)
    if failed:
        raise typer.Exit(3)


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
    from commands.views import pairings_view, standings_view, status_view

    with reported_errors():
        st, state, _events = load_state(tournament, store, until)
        names = st.players(tournament)
        view = {"status": status_view(state), "pairings": pairings_view(state),
                "standings": standings_view(state, names)}  # fmt: skip
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_status(view["status"])
    if state.rounds:
        tables.show_pairings(view["pairings"], {p: e.name for p, e in names.items()})
    tables.show_standings(view["standings"])


@app.command()
def diff(
    tournament: Tournament,
    a: Annotated[str, typer.Argument(metavar="A", help="From: seq or UTC time.")],
    b: Annotated[str, typer.Argument(metavar="B", help="To: seq or UTC time.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """What changed between two points: events, standings moves, corrections, re-pairings."""
    from ledger.url import open_store
    from replay.diff import diff as diff_log
    from replay.points import resolve_point

    with reported_errors():
        events = open_store(store, create=False).load(tournament)
        if not events:
            from commands.errors import UnknownTournament

            raise UnknownTournament(tournament)
        start, end = resolve_point(events, a), resolve_point(events, b)
        if start >= end:
            fail(f"diff: A (seq {start}) must come before B (seq {end})", 2)
        view = diff_log(events, start, end)
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_diff(view)


@app.command()
def explain(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id.")],
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:
    """How a player's points and every tiebreaker were derived, with the section."""
    from replay.explain import explain as explain_player

    with reported_errors():
        _, state, _ = load_state(tournament, store, as_of)
        view = explain_player(state, player)
    if as_json:
        print_json(view)
        return
    from commands import tables

    tables.show_explain(view)


@app.command()
def export(
    tournament: Tournament,
    fmt: Annotated[str, typer.Option("--format", help="jsonl: the full log.")] = "jsonl",
    output: Annotated[
        str | None, typer.Option("-o", "--output", help="File (default stdout).")
    ] = None,
    store: StoreOpt = None,
) -> None:
    """Write the full log: a header line with the players' registry, then one event per
    line in its canonical stored bytes."""
    from ledger.transfer import export_lines
    from ledger.url import open_store

    if fmt != "jsonl":
        fail(f"export: unknown format {fmt!r} (jsonl)", 2)
    with reported_errors():
        st = open_store(store, create=False)
        if not st.load(tournament):  # checks every event: a damaged log is not exported
            fail(f"unknown tournament {tournament!r}", 1)
        data = b"".join(line + b"\n" for line in export_lines(st, tournament))
    if output:
        Path(output).write_bytes(data)
    else:
        sys.stdout.buffer.write(data)


@app.command("import")
def import_(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="An export in jsonl.")],
    store: StoreOpt = None,
) -> None:
    """Rebuild a tournament from an export into this store, verifying its chain first."""
    from ledger.transfer import import_lines
    from ledger.url import open_store

    raw = sys.stdin.buffer.read() if source == "-" else read_bytes(source)
    with reported_errors():
        tournament, count = import_lines(open_store(store), raw.splitlines())
    typer.echo(f"imported {tournament}: {count} events, chain verified")


def read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", 2)


@app.command()
def forget(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id whose personal data to erase.")],
    store: StoreOpt = None,
) -> None:
    """Erase a player's name and external id (GDPR); the log and its chain stay intact."""
    with reported_errors():
        st, state, _ = load_state(tournament, store)
        if player not in state.players:
            from commands.errors import UnknownPlayer

            raise UnknownPlayer(player)
        erased = st.forget(tournament, player)
    typer.echo(f"{player}: {'erased' if erased else 'nothing stored to erase'}")


def follow_log(tournament: str, store_url: str | None) -> None:
    """Print each event as one JSON line as it arrives (the CLI twin of the SSE stream)."""
    import time

    from ledger.url import open_store

    with reported_errors():
        store = open_store(store_url, create=False)
        seen = 0
        try:
            while True:
                for r in store.load(tournament, after=seen):
                    print_json(r.as_json())
                    seen = r.seq
                sys.stdout.flush()
                time.sleep(0.5)
        except KeyboardInterrupt:
            return


def main() -> None:
    app()
