"""Human output: Rich tables over the same read models the JSON prints."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Console
from rich.table import Table

from projections.rulesets import ruleset
from projections.rulesets.base import Tiebreaker

console = Console()


def tiebreakers_of(ruleset_id: str) -> dict[str, Tiebreaker]:
    """The ruleset's own description of its tiebreakers (label, section, how shown), by
    key: a new ruleset or tiebreaker needs no change here."""
    return {t.key: t for t in ruleset(ruleset_id).tiebreakers}


def show_status(view: Mapping[str, Any]) -> None:
    table = Table(title=f"{view['tournament']} ({view['ruleset']})", show_header=False)
    for key in ("stage", "round", "round_state", "rounds_planned", "cut_size", "players",
                "active_players", "seq", "head"):  # fmt: skip
        table.add_row(key.replace("_", " "), str(view[key]))
    checks = view["deck_checks"]
    table.add_row("deck checks", f"{checks['checked']} of about {checks['target']} (10% target)")
    console.print(table)


def show_standings(view: Mapping[str, Any]) -> None:
    rows = view["standings"]
    shown = list(tiebreakers_of(view["ruleset"]).values())
    table = Table(title=f"Standings {view['tournament']} (seq {view['seq']})")
    for col in ("#", "Player", "Name", "Points", "W-L-D", *(t.label for t in shown)):
        table.add_column(col, justify="right" if col not in ("Player", "Name") else "left")
    for r in rows:
        rec = r["record"]
        name = r["name"] + (" (dropped)" if r["dropped"] else "")
        table.add_row(
            str(r["rank"]), r["player"], name, f"{r['points']:g}",
            f"{rec['wins']}-{rec['losses']}-{rec['draws']}",
            *(t.show(r["tiebreakers"][t.key]) for t in shown),
        )  # fmt: skip
    console.print(table)
    console.print(f"head {view['head']}")


def show_pairings(view: Mapping[str, Any], names: Mapping[str, str]) -> None:
    """By table, then alphabetically by player name (what goes on the wall)."""

    def label(p: str) -> str:
        return f"{names.get(p, '(erased)')} ({p})"

    by_table = Table(title=f"Round {view['round']} pairings by table")
    for col in ("Table", "Player", "Opponent"):
        by_table.add_column(col)
    by_name = Table(title=f"Round {view['round']} pairings by name")
    for col in ("Player", "Table", "Opponent"):
        by_name.add_column(col)
    entries = []
    for p in view["pairings"]:
        table_no = str(p["table"]) if p["table"] is not None else "bye"
        players = p["players"]
        opponent = label(players[1]) if len(players) == 2 else "BYE"
        by_table.add_row(table_no, label(players[0]), opponent)
        entries.append((label(players[0]), table_no, opponent))
        if len(players) == 2:
            entries.append((label(players[1]), table_no, label(players[0])))
    for entry in sorted(entries, key=lambda e: e[0].casefold()):
        by_name.add_row(*entry)
    console.print(by_table)
    console.print(by_name)
    console.print(f"head {view['head']}")


def show_log(view: Mapping[str, Any]) -> None:
    table = Table(title=f"Log {view['tournament']}")
    for col in ("Seq", "Position", "At", "Type", "Actor", "Detail"):
        table.add_column(col)
    skip = {"seq", "position", "at", "type", "actor", "tournament", "version", "hash",
            "prev_hash"}  # fmt: skip
    for e in view["events"]:
        detail = ", ".join(f"{k}={v}" for k, v in e.items() if k not in skip)
        actor = f"{e['actor']['role']}:{e['actor']['id']}"
        table.add_row(str(e["seq"]), str(e["position"]), e["at"], e["type"], actor, detail)
    console.print(table)


def show_bracket(view: Mapping[str, Any], names: Mapping[str, str]) -> None:
    """Each elimination round as a column of matches; winners in bold."""
    if not view["rounds"]:
        console.print("no elimination round yet")
        return
    table = Table(title=f"Bracket ({view['format']} elimination)")
    for rnd in view["rounds"]:
        table.add_column(f"Round {rnd['round']}")
    columns = []
    for rnd in view["rounds"]:
        cells = []
        for m in rnd["matches"]:
            shown = [f"[bold]{names.get(p, p)}[/bold]" if p == m["winner"] else names.get(p, p)
                     for p in m["players"]]  # fmt: skip
            label = {"upper": "U", "lower": "L", "final": "F"}.get(m["bracket"] or "", "")
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
