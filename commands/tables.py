"""Human output: Rich tables over the same read models the JSON prints. The models
carry the players' display names (joined once, in ``commands.views``); nothing here
looks a name up or computes a value."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, get_args

from rich.console import Console
from rich.table import Table
from rich.text import Text

from commands.people import sort_key
from commands.readmodels import (
    Bracket,
    LogPage,
    Pairings,
    Standings,
    Status,
    TableStateName,
    TokenList,
)
from projections.rulesets import ruleset
from projections.rulesets.base import Tiebreaker

console = Console()
TABLE_STATES: tuple[TableStateName, ...] = get_args(TableStateName)


def tiebreakers_of(ruleset_id: str) -> dict[str, Tiebreaker]:
    """The ruleset's own description of its tiebreakers (label, section, how shown), by
    key: a new ruleset or tiebreaker needs no change here."""
    return {t.key: t for t in ruleset(ruleset_id).tiebreakers}


def show_status(model: Status) -> None:
    table = Table(title=f"{model.tournament} ({model.ruleset})", show_header=False)
    for key in ("stage", "round", "round_state", "rounds_planned", "cut_size", "players",
                "active_players", "seq", "head"):  # fmt: skip
        table.add_row(key.replace("_", " "), str(getattr(model, key)))
    checks = model.deck_checks
    table.add_row("deck checks", f"{checks.checked} of about {checks.target} (10% target)")
    if model.tables:
        counts = Counter(t.state for t in model.tables)
        table.add_row("tables", ", ".join(f"{counts[s]} {s}" for s in TABLE_STATES if counts[s]))
    if model.champion:
        table.add_row("champion", model.champion)
    console.print(table)


def show_standings(model: Standings) -> None:
    shown = list(tiebreakers_of(model.ruleset).values())
    table = Table(title=f"Standings {model.tournament} (seq {model.seq})")
    for col in ("#", "Player", "Name", "Points", "W-L-D", *(t.label for t in shown)):
        table.add_column(col, justify="right" if col not in ("Player", "Name") else "left")
    for r in model.standings:
        rec = r.record
        table.add_row(
            str(r.rank), r.player, r.name + (" (dropped)" if r.dropped else ""), f"{r.points:g}",
            f"{rec.wins}-{rec.losses}-{rec.draws}",
            *(t.show(r.tiebreakers[t.key]) for t in shown),
        )  # fmt: skip
    console.print(table)
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
    table = Table(title=f"Log {model.tournament}")
    for col in ("Seq", "Position", "At", "Type", "Actor", "Detail"):
        table.add_column(col)
    skip = {"at", "actor", "tournament", "hash", "prev_hash"}
    for e in model.events:
        extra = e.model_extra or {}
        detail = ", ".join(f"{k}={v}" for k, v in extra.items() if k not in skip)
        actor = f"{extra['actor']['role']}:{extra['actor']['id']}"
        actor += f"\n{e.actor_label}" if e.actor_label else ""
        table.add_row(str(e.seq), str(e.position), extra["at"], e.type, Text(actor), detail)
    console.print(table)


def show_bracket(model: Bracket) -> None:
    """Each elimination round as a column of matches; winners in bold."""
    if not model.rounds:
        console.print("no elimination round yet")
        return
    table = Table(title=f"Bracket ({model.format} elimination)")
    for rnd in model.rounds:
        table.add_column(f"Round {rnd.round}")
    columns = []
    for rnd in model.rounds:
        cells = []
        for m in rnd.matches:
            shown = [f"[bold]{model.names.get(p, p)}[/bold]" if p == m.winner
                     else model.names.get(p, p) for p in m.players]  # fmt: skip
            label = {"upper": "U", "lower": "L", "final": "F"}.get(m.bracket or "", "")
            cells.append(
                f"{label} " + (" v ".join(shown) if len(shown) == 2 else f"{shown[0]} (bye)")
            )
        columns.append(cells)
    for row in range(max(len(c) for c in columns)):
        table.add_row(*(c[row] if row < len(c) else "" for c in columns))
    console.print(table)


def show_diff(view: Mapping[str, Any]) -> None:
    console.print(f"{view['tournament']}: seq {view['from']} -> {view['to']}, "
                  f"{len(view['events'])} event(s)")  # fmt: skip
    for e in view["events"]:
        console.print(f"  {e['seq']:>5} {e['type']} by {e['actor']['role']}:{e['actor']['id']}")
    for c in view["corrections"]:
        why = c.get("reason") or "no reason"
        console.print(f"  corrected round {c['round']} {' v '.join(c['players'])}: "
                      f"{c['previous']} -> {c['result']} ({why})")  # fmt: skip
    for r in view["revisions"]:
        tables = ", ".join(str(t.get("table")) for t in r["replaced"])
        console.print(f"  re-paired round {r['round']} table(s) {tables}: {r['reason']}")
    if view["standings"]:
        table = Table(title="Standings moves")
        for col in ("Player", "Rank", "Points"):
            table.add_column(col)
        for m in view["standings"]:
            table.add_row(m["player"], f"{m['from_rank']} -> {m['to_rank']}",
                          f"{m['from_points']} -> {m['to_points']}")  # fmt: skip
        console.print(table)
    crossed = view["crossed_cut"]
    if crossed["in"] or crossed["out"]:
        console.print(f"  cut line (top {view['cut_line']}): in {crossed['in']}, "
                      f"out {crossed['out']}")  # fmt: skip


def show_explain(view: Mapping[str, Any]) -> None:
    console.print(f"{view['player']} in {view['tournament']} ({view['ruleset']}): rank "
                  f"{view['rank']}, {view['points']:g} points"
                  + (" (dropped)" if view["dropped"] else ""))  # fmt: skip
    matches = Table(title="Matches")
    for col in ("Kind", "Opponent", "Result", "Points", "Games W-L-D", "MoV"):
        matches.add_column(col)
    for m in view["matches"]:
        matches.add_row(m["kind"], str(m["opponent"] or "-"), m["result"], f"{m['points']:g}",
                        "-".join(str(g) for g in m["games"]), f"{m['mov']:g}")  # fmt: skip
    console.print(matches)
    opponents = Table(title="Opponents")
    keys = [k for k in (view["opponents"][0] if view["opponents"] else {}) if k != "player"]
    for col in ("Opponent", *keys):
        opponents.add_column(col)
    for o in view["opponents"]:
        opponents.add_row(o["player"], *(f"{o[k]:.4f}" if isinstance(o[k], float) else str(o[k])
                                         for k in keys))  # fmt: skip
    console.print(opponents)
    described = tiebreakers_of(view["ruleset"])
    for key, t in view["tiebreakers"].items():
        tb = described[key]
        line = f"{tb.label} = {tb.show(t['value'])}  ({t['section']}) {t['how']}"
        console.print(line, markup=False)


def show_tokens(model: TokenList) -> None:
    """One row per token, readable at 80 columns: times in UTC to the minute (the JSON
    carries them in full), the player with a player token's role, labels as typed."""
    from commands.tokens import stamp

    if not model.tokens:
        console.print("no tokens")
        return
    table = Table(title="API tokens")
    for col in ("Id", "Role", "Scope", "Label", "Created", "Expires", "Revoked"):
        table.add_column(col, overflow="fold")
    for t in model.tokens:
        role = f"{t.role} {t.player}" if t.player else t.role
        expires = stamp(t.expires_at) if t.expires_at else "never"
        if t.state == "expired":
            expires += " (expired)"
        table.add_row(
            t.token_id, Text(role), Text(t.tournament or "every tournament"), Text(t.label or ""),
            stamp(t.created_at) if t.created_at else "-", expires,
            stamp(t.revoked_at) if t.revoked_at else "-",
        )  # fmt: skip
    console.print(table)
