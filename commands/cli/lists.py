"""Deck, squad and fleet lists from the command line: ``list submit`` and
``list correct`` read a list from a file (JSON in the game's shape, or for SWU the
text format of :mod:`commands.text.decklist_text`), ``lock-lists`` closes submissions,
``lists`` shows the lists when they may be shown (:mod:`commands.reads.listviews`) and
``list show`` shows one player's list to an official at any time (a deck check). The
lists are read from ``tledger_lists`` and checked against their events' hashes."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from commands.cli.execute import execute
from commands.cli.options import ActorOpt, AsOfOpt, JsonOpt, StoreOpt, Tournament
from commands.cli.output import fail, read_source, reported_errors

app = typer.Typer()
list_app = typer.Typer(
    help="Submit, correct or (officials) show a player's deck, squad or fleet list.",
    no_args_is_help=True,
)
app.add_typer(list_app, name="list")

Player = Annotated[str, typer.Argument(help="Player id or a unique name.")]
ListFile = Annotated[
    str,
    typer.Argument(
        metavar="FILE",
        help="The list (- for standard input): JSON in the game's shape "
        "(docs/REFERENCE.md, Lists), or for SWU text with Leader, Base, Deck and "
        "Sideboard headers and one 'N Card Name' line per entry.",
    ),
]


def read_list(source: str) -> dict[str, Any]:
    """The list a file holds, as the contract's JSON, or a one-line error (exit 2)."""
    from commands.text.decklist_text import BadDeckText, list_of

    try:
        text = read_source(source).decode("utf-8")
    except UnicodeDecodeError:
        fail(f"{source}: not UTF-8 text", 2)
    try:
        return list_of(text)
    except BadDeckText as exc:
        fail(f"{source}: {exc}", 2)


@list_app.command("submit")
def submit(
    tournament: Tournament, player: Player, file: ListFile, actor: ActorOpt = None,
    store: StoreOpt = None, as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Record a player's list (again, until lists are locked); rules it breaks are
    reported with their section, and recorded with it."""
    data = read_list(file)
    execute(store, {"type": "submit_list", "tournament": tournament, "player": player,
                    "list": data}, as_json, actor=actor)  # fmt: skip


@list_app.command("correct")
def correct(
    tournament: Tournament, player: Player, file: ListFile,
    reason: Annotated[str, typer.Option(help="Why the locked list changes (kept in the log).")],
    actor: ActorOpt = None, store: StoreOpt = None, as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Replace a locked list (a judge or the organizer, with a reason)."""
    data = read_list(file)
    execute(store, {"type": "correct_list", "tournament": tournament, "player": player,
                    "list": data, "reason": reason}, as_json, actor=actor)  # fmt: skip


@app.command("lock-lists")
def lock_lists(
    tournament: Tournament, actor: ActorOpt = None, store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:  # fmt: skip
    """Close list submissions; from now on a judge corrects a list with a reason. At
    competitive tier (SWU) starting round 1 locks submitted lists by itself (§3.1.3)."""
    execute(store, {"type": "lock_lists", "tournament": tournament}, as_json, actor=actor)


@list_app.command("show")
def show(
    tournament: Tournament, player: Player, actor: ActorOpt = None, store: StoreOpt = None,
    as_json: JsonOpt = False, as_of: AsOfOpt = None,
) -> None:  # fmt: skip
    """One player's list in force with its hash and the rules it breaks, for an
    official (organizer or judge) at any time: a deck check compares the deck with it.
    Players see lists only when they are published (tledger lists)."""
    from commands.cli.execute import actor_of
    from commands.cli.people import player_id
    from commands.cli.read import load_state, names_of, print_model
    from commands.errors import RuleViolation
    from commands.reads.listviews import official_list

    acting = actor_of(actor)
    with reported_errors("list show: "):
        if acting is not None and acting.role not in ("organizer", "judge"):
            raise RuleViolation(f"a {acting.role} may not see a list before it is published "
                                "(tledger lists)")  # fmt: skip
        st, state, _ = load_state(tournament, store, as_of)
        who = player_id(st, state, player)
        model = official_list(state, who, names_of(st, state), st.lists(tournament))
    if as_json:
        print_model(model)
        return
    show_list(model, state.ruleset)


def show_list(model: Any, ruleset: str) -> None:
    """One list under its player's name and hash, then the rules it breaks."""
    from commands.cli.grids import show_comparison

    corrected = ", corrected" if model.corrected else ""
    locked = "locked" if model.locked else "not locked"
    typer.echo(f"{model.name} ({model.player}), seq {model.seq}{corrected}, lists {locked}")
    typer.echo(hash_line(model.list_hash, model.salt))
    typer.echo(list_text(model.list, ruleset))
    for v in model.violations:
        typer.echo(f"violates {v.section}: {v.message}")
    for check in model.deck_checks:
        show_comparison(check)


@app.command("lists")
def lists(
    tournament: Tournament, store: StoreOpt = None, as_json: JsonOpt = False,
    as_of: AsOfOpt = None,
) -> None:  # fmt: skip
    """The lists with their hashes, when they may be shown: all after the event
    (swu-1.4 §7.1), the top cut's while it runs (swu-1.4 §4.6.1); refused before."""
    from commands.cli.read import load_state, names_of, print_model
    from commands.reads.listviews import published_lists

    with reported_errors("lists: "):
        st, state, _ = load_state(tournament, store, as_of)
        model = published_lists(state, names_of(st, state), st.lists(tournament))
    if as_json:
        print_model(model)
        return
    show_lists(model)


def show_lists(model: Any) -> None:
    """Each list under its player's name and hash; SWU lists in the text format."""
    where = f" ({model.section})" if model.section else ""
    typer.echo(f"Lists of {model.tournament}, {model.scope.replace('_', ' ')}{where}")
    for entry in model.lists:
        corrected = ", corrected" if entry.corrected else ""
        typer.echo(f"\n{entry.name} ({entry.player}), seq {entry.seq}{corrected}")
        typer.echo(hash_line(entry.list_hash, entry.salt))
        typer.echo(list_text(entry.list, model.ruleset))


def hash_line(digest: str, salt: str | None) -> str:
    """The list's hash and the salt it was hashed with (none for a list recorded before
    salts), to check the list against its event (docs/INTEGRATION.md, List hashes)."""
    return f"sha256 {digest}" + (f" salt {salt}" if salt else "")


def list_text(data: dict[str, Any], ruleset: str) -> str:
    """Lists in the text format deck builders read where the ruleset's are written so
    (``Ruleset.lists_as_text``: SWU); the others as indented JSON."""
    import orjson

    from commands.text.decklist_text import swu_text
    from projections.rulesets import ruleset_class

    if ruleset_class(ruleset).lists_as_text:
        return swu_text(data)
    return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
