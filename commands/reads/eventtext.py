"""Events and results as a person says them, in one line (plain text: a face escapes it).

The CLI's log grid and the console's history page both show an event's own fields
this way; the console passes the registry's names so that players read as names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: Event fields the log grid and the history page leave out: shown elsewhere in the
#: row, or for machines only (the chain's hashes, the command's digest).
NOT_DETAILED = frozenset({"at", "actor", "tournament", "hash", "prev_hash", "command_digest"})


def event_detail(fields: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """An event's own fields as "key value" pairs, tables and results as people say them;
    with ``names``, players by name (the console's history; the CLI's log shows ids)."""
    names = names or {}
    parts = []
    for key, value in fields.items():
        if key in NOT_DETAILED or value in (None, [], {}):
            continue
        parts.append(f"{key.replace('_', ' ')} {field_text(key, value, names)}")
    return ", ".join(parts)


def field_text(key: str, value: Any, names: Mapping[str, str]) -> str:
    """One field's value: a match's players as "A v B", tables as "1: A v B"."""

    def who(player: Any) -> str:
        return names.get(str(player), str(player))

    if key in ("pairings", "tables", "replaced") and isinstance(value, list):
        return "; ".join(f"{t.get('table') or 'bye'}: {' v '.join(who(p) for p in t['players'])}"
                         for t in value)  # fmt: skip
    if key in ("result", "previous") and isinstance(value, dict):
        return describe_result(value, names)
    if key in ("player", "team") and isinstance(value, str):
        return who(value)
    if key in ("players", "seeds") and isinstance(value, list):
        return " v ".join(who(p) for p in value)
    if key == "members" and isinstance(value, list):  # a team's two players (lcg-2.1d)
        return "[" + ", ".join(who(p) for p in value) + "]"
    if key == "violations" and isinstance(value, list):  # a list's broken rules, no cards
        return "; ".join(f"{v['rule']} x{v['count']} ({v['section']})" for v in value)
    if isinstance(value, dict):
        shown = (f"{k}={field_text(k, v, names)}" for k, v in value.items() if v is not None)
        return "(" + ", ".join(shown) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(field_text(key, v, names) for v in value) + "]"
    return str(value)


def describe_result(result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A result as people say it ("2-1", "140-84, won by Ada, by final salvo"), numbers
    in the order of the match's players; plain text (escape it for a table cell)."""

    def who(player: Any) -> str:
        return names.get(str(player), str(player))

    parts: list[str] = []
    for key in ("games", "points"):
        if key in result:
            parts.append("-".join(str(n) for n in result[key]))
    if result.get("draws"):
        parts.append(f"{result['draws']} drawn")
    games = result.get("game_results") or []
    if len(games) == 1:
        parts.append("drawn" if games[0] == "draw" else f"{who(games[0])} won")
    elif games:
        parts.append("games: " + ", ".join("draw" if g == "draw" else who(g) for g in games))
    for key, said in (("intentional_draw", "intentional draw"), ("double_loss", "double loss")):
        if result.get(key):
            parts.append(said)
    for key, said in (("concession", "conceded by"), ("no_show", "no-show:"),
                      ("winner", "won by"), ("light", "light side:")):  # fmt: skip
        if result.get(key):
            parts.append(f"{said} {who(result[key])}")
    if result.get("decided_by"):
        parts.append(f"by {str(result['decided_by']).replace('_', ' ')}")
    return ", ".join(parts)
