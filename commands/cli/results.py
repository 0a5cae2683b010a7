"""Results typed as people say them: ``report`` and ``correct`` take the same flags.

``--games 2-1 [--draws 1]`` (SWU), ``--games p1,draw`` (LCG: each game's winner, or
``draw``), ``--points 140-84`` (X-Wing, Armada), with ``--winner`` and
``--decided-by`` where a tie is decided at the table, ``--id`` (an intentional draw),
``--no-show P`` (every ruleset: P did not appear), or ``--result JSON`` for any
shape of the contract. ``extend`` grants a match more time. Exactly one
shape per command: conflicting flags are refused (exit 2) rather than one of them
silently winning (an ``--id`` beside ``--games`` used to record an intentional
draw). The numbers follow the order of the two players given.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from commands.cli.execute import execute
from commands.cli.options import ActorOpt, JsonOpt, StoreOpt, Tournament
from commands.cli.output import fail

app = typer.Typer()

Round = Annotated[int, typer.Argument(metavar="ROUND", help="Round number.")]
Player1 = Annotated[str, typer.Argument(help="First player: id or a unique name.")]
Player2 = Annotated[str, typer.Argument(help="Second player: id or a unique name.")]
Games = Annotated[
    str | None,
    typer.Option(help="Game wins as W1-W2 (SWU), e.g. 2-1; or each game's winner (LCG), "
                 "e.g. p1,draw."),
]  # fmt: skip
Draws = Annotated[int | None, typer.Option(min=0, help="Drawn games, with --games (SWU).")]
Points = Annotated[str | None, typer.Option(help="Victory points as P1-P2 (X-Wing, Armada).")]
Winner = Annotated[
    str | None, typer.Option(help="Who won a match level at the table (id or unique name).")
]
DecidedBy = Annotated[
    str | None, typer.Option("--decided-by", help="base_hp, initiative or final_salvo.")
]
IntentionalDraw = Annotated[bool, typer.Option("--id", help="Intentional draw (Swiss only).")]
ResultJson = Annotated[str | None, typer.Option(help="The result as contract JSON.")]
NoShow = Annotated[
    str | None, typer.Option("--no-show", help="The player who did not appear (every ruleset).")
]


def result_of(command: str, games: str | None, draws: int | None, points: str | None,
              winner: str | None, decided_by: str | None, intentional_draw: bool,
              result: str | None, no_show: str | None = None) -> dict[str, Any]:  # fmt: skip
    """The one result shape the flags name, or a one-line refusal (exit 2)."""
    # "2-1" counts games (SWU); "p1,draw" or a single "p1" names each game's winner (LCG)
    by_player = games is not None and ("," in games or "-" not in games)
    if draws is not None and (games is None or by_player):
        fail(f"{command}: --draws goes with --games W1-W2 (SWU)", 2)
    if (winner or decided_by) and games is None and points is None:
        fail(f"{command}: --winner and --decided-by go with --games or --points", 2)
    shapes = [name for name, given in (("--games", games), ("--points", points),
              ("--id", intentional_draw or None), ("--no-show", no_show),
              ("--result", result)) if given is not None]  # fmt: skip
    if len(shapes) != 1:
        given = " and ".join(shapes) if shapes else "none"
        fail(f"{command}: give exactly one of --games, --points, --id, --no-show or --result "
             f"(given: {given})", 2)  # fmt: skip
    data: dict[str, Any]
    if result is not None:
        data = json_option(command, result)
    elif intentional_draw:
        data = {"intentional_draw": True}
    elif no_show is not None:
        data = {"no_show": no_show}
    elif games is not None and by_player:
        data = {"game_results": game_winners(command, games)}
    elif games is not None:
        data = {"games": split_pair(command, "--games", games), "draws": draws or 0}
    else:
        data = {"points": split_pair(command, "--points", points or "")}
    extra = {"winner": winner, "decided_by": decided_by}
    return data | {k: v for k, v in extra.items() if v is not None}


def split_pair(command: str, flag: str, text: str) -> list[int]:
    from commands.text.result_text import number_pair

    pair = number_pair(text)
    if pair is None:
        fail(f"{command}: {flag} {text!r} must be two whole numbers like 2-1", 2)
    return list(pair)


def game_winners(command: str, text: str) -> list[str]:
    """LCG: each game's winner in order, or ``draw`` (lcg-2.1d: a match is two games)."""
    from commands.text.result_text import game_list

    winners = game_list(text)
    if winners is None:
        fail(f"{command}: --games {text!r} must name each game's winner, like p1,draw", 2)
    return winners


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
    no_show: NoShow = None, result: ResultJson = None, actor: ActorOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Report a match result: --games 2-1 (LCG: p1,draw), --points 140-84, --id,
    --no-show P or --result JSON."""
    data = result_of("report", games, draws, points, winner, decided_by, intentional_draw,
                     result, no_show)  # fmt: skip
    execute(store, {"type": "report_result", "tournament": tournament, "round": round_number,
                    "players": [player1, player2], "result": data}, as_json,
            actor=actor)  # fmt: skip


@app.command()
def correct(
    tournament: Tournament, round_number: Round, player1: Player1, player2: Player2,
    games: Games = None, draws: Draws = None, points: Points = None, winner: Winner = None,
    decided_by: DecidedBy = None, intentional_draw: IntentionalDraw = False,
    no_show: NoShow = None, result: ResultJson = None,
    reason: Annotated[str | None, typer.Option(help="Why (required from the cut on).")] = None,
    actor: ActorOpt = None, store: StoreOpt = None, as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Correct a confirmed result (swu-1.4 §5.8 timing: may re-pair the next round); the
    same result flags as report."""
    data = result_of("correct", games, draws, points, winner, decided_by, intentional_draw,
                     result, no_show)  # fmt: skip
    execute(store, {"type": "correct_result", "tournament": tournament, "round": round_number,
                    "players": [player1, player2], "result": data, "reason": reason},
            as_json, actor=actor)  # fmt: skip


@app.command()
def extend(
    tournament: Tournament, round_number: Round, player1: Player1, player2: Player2,
    minutes: Annotated[int, typer.Option(min=1, max=180, help="Minutes added to the match.")],
    reason: Annotated[str | None, typer.Option(help="Why (e.g. a ruling, a deck check).")] = None,
    actor: ActorOpt = None, store: StoreOpt = None, as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Grant one match a time extension (swu-1.4 §6: a deck check gets its own)."""
    execute(store, {"type": "grant_time_extension", "tournament": tournament,
                    "round": round_number, "players": [player1, player2], "minutes": minutes,
                    "reason": reason}, as_json, actor=actor)  # fmt: skip
