"""Commands that run a tournament: each builds one command of the contract and
appends its events (``apply`` runs a JSON Lines file of them), plus ``lcg-count``,
the count of an LCG final game at time."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from commands.cli.execute import actor_of, execute, outcome_view, parse_option, run_logged
from commands.cli.options import ActorOpt, JsonOpt, StoreOpt, Tournament
from commands.cli.output import fail, print_json, read_source, reported_errors

if TYPE_CHECKING:
    from ledger.events import Actor

app = typer.Typer()


@app.command()
def new(
    tournament: Tournament,
    name: Annotated[str, typer.Option(help="Event name.")],
    ruleset: Annotated[
        str | None, typer.Option(help="Ruleset id [default: the first implemented, swu-1.4].")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Ruleset option KEY=VALUE.")
    ] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a tournament."""
    from projections.rulesets import DEFAULT_RULESET

    options = dict(parse_option(o) for o in option or [])
    execute(store, {"type": "create_tournament", "tournament": tournament, "name": name,
                    "ruleset": ruleset or DEFAULT_RULESET, "options": options}, as_json,
            actor=actor)  # fmt: skip


@app.command()
def register(
    tournament: Tournament,
    player: Annotated[
        str | None, typer.Argument(help="Player id (a seat number, never personal data).")
    ] = None,
    name: Annotated[str | None, typer.Option(help="Display name (kept out of the log).")] = None,
    external_id: Annotated[str | None, typer.Option(help="External id, e.g. SWU UID.")] = None,
    csv_file: Annotated[
        str | None,
        typer.Option(
            "--csv", metavar="FILE|-",
            help="Register every row of a spreadsheet saved as CSV (header row with player "
            "or id, optional name and external_id; comma or semicolon): all rows or none.",
        ),
    ] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Register a player (also after round 1: paired from the next round), or every
    player of a spreadsheet with --csv."""
    if csv_file is not None:
        if player is not None or name is not None or external_id is not None:
            fail("register: give PLAYER (with --name, --external-id) or --csv, not both", 2)
        from commands.cli.spreadsheet import register_csv

        register_csv(tournament, csv_file, store, as_json, actor_of(actor))
        return
    if player is None:
        fail("register: give a PLAYER id, or --csv FILE", 2)
    execute(store, {"type": "register_player", "tournament": tournament, "player": player,
                    "name": name, "external_id": external_id}, as_json, actor=actor)  # fmt: skip


@app.command()
def drop(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id or a unique name.")],
    reason: Annotated[str | None, typer.Option(help="Why (optional).")] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Drop a player: never paired again."""
    execute(store, {"type": "drop_player", "tournament": tournament, "player": player,
                    "reason": reason}, as_json, actor=actor)  # fmt: skip


@app.command()
def rejoin(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id or a unique name.")],
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Let a dropped player rejoin the Swiss stage (X-Wing, Armada: missed rounds are losses)."""
    execute(
        store,
        {"type": "rejoin_player", "tournament": tournament, "player": player},
        as_json,
        actor=actor,
    )


@app.command()
def pair(
    tournament: Tournament,
    seed: Annotated[int | None, typer.Option(help="Seed for the random draw.")] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Pair the next round automatically (seed chosen and recorded unless given)."""
    execute(
        store, {"type": "pair_round", "tournament": tournament, "seed": seed}, as_json, actor=actor
    )


@app.command()
def start(
    tournament: Tournament, actor: ActorOpt = None, store: StoreOpt = None, as_json: JsonOpt = False
) -> None:
    """Start the current round."""
    execute(store, {"type": "start_round", "tournament": tournament}, as_json, actor=actor)


@app.command()
def finish(
    tournament: Tournament,
    without_cut: Annotated[
        str | None,
        typer.Option(
            "--without-cut",
            metavar="REASON",
            help="Finish although the rules or the options call for a top cut that was not "
            "made; the reason is recorded with the finish.",
        ),
    ] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Finish the tournament (refused while a cut the event calls for is not made, unless
    --without-cut gives the reason)."""
    body: dict[str, object] = {"type": "finish_tournament", "tournament": tournament}
    if without_cut is not None:
        body["without_cut"] = without_cut
    execute(store, body, as_json, actor=actor)


@app.command()
def disqualify(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id or a unique name.")],
    reason: Annotated[str, typer.Option(help="Why.")],
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Disqualify a player: removed, may not rejoin; an open match is recorded as lost."""
    execute(store, {"type": "disqualify_player", "tournament": tournament, "player": player,
                    "reason": reason}, as_json, actor=actor)  # fmt: skip


@app.command()
def penalty(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id or a unique name.")],
    round_number: Annotated[int, typer.Option("--round", help="Round of the infraction.")],
    kind: Annotated[
        str,
        typer.Option(
            "--penalty", help="warning, game_loss, match_loss, disqualification or point_deduction."
        ),
    ],
    infraction: Annotated[str, typer.Option(help="What happened.")],
    points: Annotated[float | None, typer.Option(help="Points to deduct (LCG).")] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Issue a penalty."""
    execute(store, {"type": "issue_penalty", "tournament": tournament, "player": player,
                    "round": round_number, "penalty": kind, "infraction": infraction,
                    "points": points}, as_json, actor=actor)  # fmt: skip


@app.command("deck-check")
def deck_check(
    tournament: Tournament,
    player: Annotated[str, typer.Argument(help="Player id or a unique name.")],
    round_number: Annotated[int, typer.Option("--round", help="Round.")],
    timing: Annotated[str, typer.Option(help="before_game_1, between_games or after_match.")],
    outcome: Annotated[str, typer.Option(help="legal, illegal or unfixable (LCG).")],
    minutes: Annotated[int, typer.Option(help="Minutes the check took.")] = 0,
    presented: Annotated[
        str | None,
        typer.Option(
            metavar="FILE",
            help="What the player presented (- for standard input), as for 'list submit': "
            "compared with the list in force, the differences recorded and shown.",
        ),
    ] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record a deck check (its time plus 3 minutes extends the match, swu-1.4 §6); with
    --presented, what differs from the player's list (the penalty stays the judge's)."""
    data: dict[str, Any] = {"type": "record_deck_check", "tournament": tournament,
                            "player": player, "round": round_number, "timing": timing,
                            "outcome": outcome, "minutes": minutes}  # fmt: skip
    if presented is not None:
        from commands.cli.lists import read_list

        data["presented"] = read_list(presented)
    execute(store, data, as_json, actor=actor)


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


@app.command()
def apply(
    source: Annotated[str, typer.Argument(metavar="FILE|-", help="JSON Lines commands.")],
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Execute JSON Lines commands in order; stop at the first rejected one. --actor acts
    for the lines that name no actor of their own."""
    from commands.bootstrap import handler_for

    default_actor = actor_of(actor)
    lines = read_source(source).splitlines()
    with reported_errors():
        handler = handler_for(store)
    count = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        with reported_errors(f"line {number}: "):
            command = parse_line(line, number, default_actor)
            outcome = run_logged(handler, command)
        count += 1
        if as_json:
            print_json({"line": number, "type": command.type, **outcome_view(outcome)})
    if not as_json:
        typer.echo(f"applied {count} command(s)")


def parse_line(line: bytes, number: int, actor: Actor | None = None) -> Any:
    """One JSON Lines line as a command: bad bytes, bad JSON and a bad command are each
    input that does not fit the contract (exit 2), named with the line. ``actor`` acts
    when the line names none."""
    import orjson

    from commands.actors import with_actor
    from commands.models import parse_command

    try:
        text = line.decode("utf-8-sig" if number == 1 else "utf-8")
    except UnicodeDecodeError as exc:
        fail(f"line {number}: not UTF-8: {exc.reason} at byte {exc.start + 1}", 2)
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        fail(f"line {number}: malformed JSON: {exc}", 2)
    return parse_command(with_actor(data, actor) if isinstance(data, dict) else data)


@app.command()
def cut(
    tournament: Tournament,
    size: Annotated[
        int | None, typer.Option(help="Cut size (default: the ruleset's table).")
    ] = None,
    actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Make the top cut from the final Swiss standings and print the seeds; then `pair`
    pairs the bracket."""
    execute(
        store, {"type": "make_cut", "tournament": tournament, "size": size}, as_json, actor=actor
    )
    if not as_json:
        show_seeds(tournament, store)


def show_seeds(tournament: str, store: str | None) -> None:
    """The seeds of the cut just made, from the bracket read model."""
    from commands.cli import bracket_grids
    from commands.cli.read import load_state, names_of
    from commands.reads import views

    with reported_errors():
        st, state, _ = load_state(tournament, store)
        model = views.bracket(state, names_of(st, state))
    bracket_grids.show_seeds(model)
