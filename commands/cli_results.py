"""Results typed as people say them: ``report`` and ``correct`` take the same flags.

``--games 2-1 [--draws 1]`` (SWU), ``--points 140-84`` (X-Wing, Armada), with
``--winner`` and ``--decided-by`` where a tie is decided at the table, ``--id`` (an
intentional draw), or ``--result JSON`` for any shape of the contract. Exactly one
shape per command: conflicting flags are refused (exit 2) rather than one of them
silently winning (an ``--id`` beside ``--games`` used to record an intentional
draw). The numbers follow the order of the two players given.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from commands.cli_options import ActorOpt, JsonOpt, StoreOpt, Tournament
from commands.cli_output import fail
from commands.cli_run import execute

app = typer.Typer()

Round = Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")]
Player1 = Annotated[str, typer.Argument(help="First player id.")]
Player2 = Annotated[str, typer.Argument(help="Second player id.")]
Games = Annotated[str | None, typer.Option(help="Game wins as W1-W2 (SWU), e.g. 2-1.")]
Draws = Annotated[int | None, typer.Option(min=0, help="Drawn games, with --games (SWU).")]
Points = Annotated[str | None, typer.Option(help="Victory points as P1-P2 (X-Wing, Armada).")]
Winner = Annotated[str | None, typer.Option(help="Who won a match level at the table.")]
DecidedBy = Annotated[
    str | None, typer.Option("--decided-by", help="base_hp, initiative or final_salvo.")
]
IntentionalDraw = Annotated[bool, typer.Option("--id", help="Intentional draw (Swiss only).")]
ResultJson = Annotated[str | None, typer.Option(help="The result as contract JSON.")]


def result_of(command: str, games: str | None, draws: int | None, points: str | None,
              winner: str | None, decided_by: str | None, intentional_draw: bool,
              result: str | None) -> dict[str, Any]:  # fmt: skip
    """The one result shape the flags name, or a one-line refusal (exit 2)."""
    if draws is not None and games is None:
        fail(f"{command}: --draws goes with --games", 2)
    if (winner or decided_by) and games is None and points is None:
        fail(f"{command}: --winner and --decided-by go with --games or --points", 2)
    shapes = [name for name, given in (("--games", games), ("--points", points),
              ("--id", intentional_draw or None), ("--result", result))
              if given is not None]  # fmt: skip
    if len(shapes) != 1:
        given = " and ".join(shapes) if shapes else "none"
        fail(f"{command}: give exactly one of --games, --points, --id or --result "
             f"(given: {given})", 2)  # fmt: skip
    data: dict[str, Any]
    if result is not None:
        data = json_option(command, result)
    elif intentional_draw:
        data = {"intentional_draw": True}
    elif games is not None:
        data = {"games": split_pair(command, "--games", games), "draws": draws or 0}
    else:
        data = {"points": split_pair(command, "--points", points or "")}
    extra = {"winner": winner, "decided_by": decided_by}
    return data | {k: v for k, v in extra.items() if v is not None}


def split_pair(command: str, flag: str, text: str) -> list[int]:
    first, sep, second = text.partition("-")
    if not sep or not first.isdigit() or not second.isdigit():
        fail(f"{command}: {flag} {text!r} must be two whole numbers like 2-1", 2)
    return [int(first), int(second)]


def json_option(command: str, text: str) -> Any:
    import orjson

    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        fail(f"{command}: --result is not JSON: {exc}", 2)


@app.command()
def report(
    tournament: Tournament, round_number: Round, player1: Player1, player2: Player2,
    games: Games = None, draws: Draws = None, points: Points = None, winner: Winner = None,
    decided_by: DecidedBy = None, intentional_draw: IntentionalDraw = False,
    result: ResultJson = None, actor: ActorOpt = None, store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Report a match result: --games 2-1, --points 140-84, --id or --result JSON."""
    data = result_of("report", games, draws, points, winner, decided_by, intentional_draw,
                     result)  # fmt: skip
    execute(store, {"type": "report_result", "tournament": tournament, "round": round_number,
                    "players": [player1, player2], "result": data}, as_json,
            actor=actor)  # fmt: skip


@app.command()
def correct(
    tournament: Tournament, round_number: Round, player1: Player1, player2: Player2,
    games: Games = None, draws: Draws = None, points: Points = None, winner: Winner = None,
    decided_by: DecidedBy = None, intentional_draw: IntentionalDraw = False,
    result: ResultJson = None,
    reason: Annotated[str | None, typer.Option(help="Why (required after a cut).")] = None,
    actor: ActorOpt = None, store: StoreOpt = None, as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Correct a confirmed result (swu-1.4 §5.8 timing: may re-pair the next round); the
    same result flags as report."""
    data = result_of("correct", games, draws, points, winner, decided_by, intentional_draw,
                     result)  # fmt: skip
    execute(store, {"type": "correct_result", "tournament": tournament, "round": round_number,
                    "players": [player1, player2], "result": data, "reason": reason},
            as_json, actor=actor)  # fmt: skip
