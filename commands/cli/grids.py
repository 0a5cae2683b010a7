"""Human output: Rich grids over the same read models the JSON prints. The models
carry the players' display names (joined once, in ``commands.reads.views``); nothing here
looks a name up or computes a value."""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Mapping
from typing import Any, get_args

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from commands.reads.auditmodels import Explained
from commands.reads.eventtext import describe_result, event_detail
from commands.reads.models import (
    LogPage,
    Pairings,
    Standings,
    Status,
    TableStateName,
    TokenList,
)
from commands.reads.people import sort_key
from projections.rulesets import ruleset
from projections.rulesets.base import Tiebreaker

#: A terminal's own width; 80 columns when standard output is a file or a pipe (rich would
#: otherwise take the width of whatever terminal the shell runs in, and a printout made
#: from a wide window would not fit a page or a narrow one).
console = Console(width=None if sys.stdout.isatty() else 80)
TABLE_STATES: tuple[TableStateName, ...] = get_args(TableStateName)


def tiebreakers_of(ruleset_id: str) -> dict[str, Tiebreaker]:
    """The ruleset's own description of its tiebreakers (label, section, how shown), by
    key: a new ruleset or tiebreaker needs no change here."""
    return {t.key: t for t in ruleset(ruleset_id).tiebreakers}


def shown(value: object) -> str:
    """A field as a person reads it: an unset one is "-", never "None"."""
    return "-" if value is None else str(value)


def show_status(model: Status) -> None:
    grid = Table(title=f"{model.tournament} ({model.ruleset})", show_header=False)
    grid.add_column()
    grid.add_column(overflow="fold")  # the head wraps whole, never cut short with "…"
    for key in ("stage", "round", "round_state", "rounds_planned", "cut_size", "players",
                "active_players", "seq", "head"):  # fmt: skip
        value = getattr(model, key)
        grid.add_row(key.replace("_", " "), shown(None if key == "round" and not value else value))
    checks = model.deck_checks
    grid.add_row("deck checks", f"{checks.checked} of about {checks.target} (10% target)")
    if model.tables:
        counts = Counter(t.state for t in model.tables)
        grid.add_row("tables", ", ".join(f"{counts[s]} {s}" for s in TABLE_STATES if counts[s]))
        late = sum(1 for t in model.tables if t.over_time)
        if late:
            grid.add_row("over time", f"{late} table{'s' if late > 1 else ''} still playing")
    built = model.deck_building
    if built is not None:
        grid.add_row("deck building", f"{built.minutes} min from {built.started_at:%H:%M} "
                     f"to {built.ends_at:%H:%M} UTC")  # fmt: skip
    if model.champion:
        name = model.names.get(model.champion, model.champion)
        grid.add_row("champion", escape(f"{name} ({model.champion})"))
    console.print(grid)
    show_witness(model.seq, model.head)
    show_waiting(model)


def show_witness(seq: int, head: str) -> None:
    """The head as a witness, whole on one line as ``verify --witness`` takes it (the
    grid above folds it to fit): what to copy or photograph."""
    console.print("witness (for verify --witness):")
    console.print(f"seq {seq} {head}", soft_wrap=True, highlight=False)


def show_waiting(model: Status) -> None:
    """Every table still waiting for a confirmed result, with its players and state (the
    confirmed ones are counted above): whom the organizer has to ask."""
    waiting = [t for t in model.tables if t.state != "confirmed"]
    if not waiting:
        return
    grid = Table(title=f"Round {model.round}: waiting for a result")
    for col in ("Table", "Players", "State"):
        grid.add_column(col, overflow="fold")
    for t in waiting:
        players = " v ".join(f"{model.names.get(p, p)} ({p})" for p in t.players)
        state = f"{t.state}, OVER TIME" if t.over_time else t.state
        grid.add_row("-" if t.table is None else str(t.table), escape(players), state)
    console.print(grid)


def show_standings(model: Standings) -> None:
    shown = list(tiebreakers_of(model.ruleset).values())
    grid = Table(title=f"Standings {model.tournament} (seq {model.seq})")
    for col in ("#", "Player", "Name", "Points", "W-L-D", *(t.label for t in shown)):
        grid.add_column(col, justify="right" if col not in ("Player", "Name") else "left")
    for r in model.standings:
        rec = r.record
        grid.add_row(
            str(r.rank), r.player, r.name + (" (dropped)" if r.dropped else ""), f"{r.points:g}",
            f"{rec.wins}-{rec.losses}-{rec.draws}",
            *(t.show(r.tiebreakers[t.key]) for t in shown),
        )  # fmt: skip
    console.print(grid)
    console.print(f"head {model.head}")


def show_pairings(model: Pairings) -> None:
    """By table, then by player name as people read them (what goes on the wall)."""

    def label(p: str) -> str:
        return f"{model.names.get(p, p)} ({p})"

    by_table = Table(title=f"Round {model.round} pairings by table")
    for col in ("Table", "Player", "Opponent"):
        by_table.add_column(col)
    by_name = Table(title=f"Round {model.round} pairings by name")
    for col in ("Player", "Table", "Opponent"):
        by_name.add_column(col)
    entries = []
    for p in model.pairings:
        table_no = str(p.table) if p.table is not None else "bye"
        players = p.players
        opponent = label(players[1]) if len(players) == 2 else "BYE"
        by_table.add_row(table_no, label(players[0]), opponent)
        entries.append((label(players[0]), table_no, opponent))
        if len(players) == 2:
            entries.append((label(players[1]), table_no, label(players[0])))
    for entry in sorted(entries, key=lambda e: sort_key(e[0])):
        by_name.add_row(*entry)
    console.print(by_table)
    console.print(by_name)
    console.print(f"head {model.head}")


def show_log(model: LogPage) -> None:
    """One row per event: seq, time (UTC), type and who, then what it says in a line a
    person reads (tables as "1: p1 v p2", results as "2-1"); the hashes and the command
    digest are for machines (``--json``)."""
    grid = Table(title=f"Log {model.tournament}")
    grid.add_column("Seq", justify="right")
    grid.add_column("At (UTC)", no_wrap=True)
    grid.add_column("Event", overflow="fold")
    for e in model.events:
        extra = e.model_extra or {}
        actor = f"{extra['actor']['role']}:{extra['actor']['id']}"
        actor += f" ({e.actor_label})" if e.actor_label else ""
        at = str(extra["at"])[:19].replace("T", " ")
        what = f"{e.type} by {actor}"
        detail = event_detail(extra)
        grid.add_row(str(e.seq), at, escape(f"{what}\n{detail}" if detail else what))
    console.print(grid)


def label(names: Mapping[str, str], player: str) -> str:
    """A player as Name (id) where the registry has a name, else the id alone."""
    return f"{names[player]} ({player})" if player in names else player


def show_diff(view: Mapping[str, Any]) -> None:
    names: Mapping[str, str] = view.get("names", {})

    def said(players: Any) -> str:
        return ", ".join(label(names, p) for p in players) or "nobody"

    console.print(f"{view['tournament']}: seq {view['from']} -> {view['to']}, "
                  f"{len(view['events'])} event(s)", markup=False)  # fmt: skip
    for e in view["events"]:
        console.print(f"  {e['seq']:>5} {e['type']} by {e['actor']['role']}:{e['actor']['id']}",
                      markup=False)  # fmt: skip
    for c in view["corrections"]:
        why = c.get("reason") or "no reason"
        match = " v ".join(label(names, p) for p in c["players"])
        console.print(f"  corrected round {c['round']} {match}: "
                      f"{describe_result(c['previous'], names)} -> "
                      f"{describe_result(c['result'], names)} ({why})", markup=False)  # fmt: skip
    for r in view["revisions"]:
        tables = ", ".join(str(t.get("table")) for t in r["replaced"])
        console.print(f"  re-paired round {r['round']} table(s) {tables}: {r['reason']}",
                      markup=False)  # fmt: skip
    if view["standings"]:
        grid = Table(title="Standings moves")
        for col in ("Player", "Rank", "Points"):
            grid.add_column(col)
        for m in view["standings"]:
            grid.add_row(escape(label(names, m["player"])), f"{m['from_rank']} -> {m['to_rank']}",
                         f"{m['from_points']} -> {m['to_points']}")  # fmt: skip
        console.print(grid)
    crossed = view["crossed_cut"]
    if crossed["in"] or crossed["out"]:
        console.print(f"  cut line (top {view['cut_line']}): in {said(crossed['in'])}; "
                      f"out {said(crossed['out'])}", markup=False)  # fmt: skip
    for c in view.get("cut_seeds", []):  # the cut stands (projections.cutline)
        now = label(names, c["now"]) if c["now"] else "nobody"
        console.print(f"  seed {c['seed']}: {label(names, c['as_made'])} as made; {now} by the "
                      "corrected standings", markup=False)  # fmt: skip


def show_explain(model: Explained) -> None:
    names = model.names
    console.print(f"{label(names, model.player)} in {model.tournament} ({model.ruleset}): "
                  f"rank {model.rank}, {model.points:g} points"
                  + (" (dropped)" if model.dropped else ""), markup=False)  # fmt: skip
    matches = Table(title="Matches")
    for col in ("Kind", "Opponent", "Result", "Points", "Games W-L-D", "MoV"):
        matches.add_column(col)
    for m in model.matches:
        opponent = label(names, m["opponent"]) if m["opponent"] else "-"
        matches.add_row(m["kind"], escape(opponent), m["result"], f"{m['points']:g}",
                        "-".join(str(g) for g in m["games"]), f"{m['mov']:g}")  # fmt: skip
    console.print(matches)
    opponents = Table(title="Opponents", box=box.SIMPLE_HEAD)  # many columns: light rules
    keys = [k for k in (model.opponents[0] if model.opponents else {}) if k != "player"]
    opponents.add_column("Opponent", min_width=len("Opponent"))
    for col in keys:
        opponents.add_column(col.replace("_", " "))
    for o in model.opponents:
        opponents.add_row(escape(label(names, o["player"])),
                          *(f"{o[k]:.4f}" if isinstance(o[k], float) else str(o[k])
                            for k in keys))  # fmt: skip
    console.print(opponents)
    for t in model.tiebreakers.values():
        console.print(f"{t.label} = {t.shown}  ({t.section}) {t.how}", markup=False)


def show_tokens(model: TokenList) -> None:
    """One row per token, readable at 80 columns: times in UTC to the minute (the JSON
    carries them in full), the player with a player token's role, labels as typed."""
    from commands.tokens import stamp

    if not model.tokens:
        console.print("no tokens")
        return
    grid = Table(title="API tokens")
    for col in ("Id", "Role", "Scope", "Label", "Created", "Expires", "Revoked"):
        grid.add_column(col, overflow="fold")
    for t in model.tokens:
        role = f"{t.role} {t.player}" if t.player else t.role
        expires = stamp(t.expires_at) if t.expires_at else "never"
        if t.state == "expired":
            expires += " (expired)"
        grid.add_row(
            t.token_id, Text(role), Text(t.tournament or "every tournament"), Text(t.label or ""),
            stamp(t.created_at) if t.created_at else "-", expires,
            stamp(t.revoked_at) if t.revoked_at else "-",
        )  # fmt: skip
    console.print(grid)


def show_comparison(check: Any, indent: str = "") -> None:
    """A deck check's comparison for officials: against which list, then one line per
    entry that differs with its count in the list and in the deck (or the note why
    nothing was compared)."""
    head = f"{indent}deck check at seq {check.seq} (round {check.round}, {check.timing}, " \
           f"outcome {check.outcome}): presented sha256 {check.presented_hash}"  # fmt: skip
    typer.echo(head)
    if check.compared_seq is None:
        typer.echo(f"{indent}  {check.note}")
        return
    count = len(check.differences)
    found = f"{count} difference{'s' if count != 1 else ''}" if count else "no differences"
    typer.echo(f"{indent}  compared with the list of seq {check.compared_seq}: {found}")
    for d in check.differences:
        typer.echo(f"{indent}  {d.zone}: {d.entry}: {d.kind}, listed {d.listed}, "
                   f"presented {d.presented}")  # fmt: skip
