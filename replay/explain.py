"""How a player's standing came about: every tiebreaker value with its inputs.

For each ruleset the derivation names the opponents that counted, their records
and values, the floors applied, and how byes, missed rounds and drops were
treated, with the regulation section, so that an auditor can recompute every value
by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from projections.rulesets import Outcome, Ruleset
from projections.standings import ruleset_of, standings, swiss_records
from projections.state import TournamentState
from replay.errors import ReplayError


def explain(state: TournamentState, player: str) -> dict[str, Any]:
    if player not in state.players:
        raise ReplayError(f"unknown player {player!r}")
    rules = ruleset_of(state)
    records = swiss_records(state, rules)
    row = next(s for s in standings(state) if s.player == player)
    sections = {t.key: t.section for t in rules.tiebreakers}  # cited by the ruleset itself
    return {
        "tournament": state.id, "ruleset": state.ruleset, "player": player,
        "rank": row.rank, "points": row.scores.points, "dropped": row.dropped,
        "matches": [match_row(o) for o in records[player]],
        "opponents": [opponent_row(rules, records, o) for o in opponents(records[player])],
        "tiebreakers": {
            key: {"value": value, "section": sections.get(key),
                  "how": how(rules, key, player, records)}
            for key, value in row.scores.tiebreakers.items()
        },
    }  # fmt: skip


def players_named(view: dict[str, Any]) -> list[str]:
    """The player explained and everyone they met, sorted (whose names a human face shows)."""
    met = {m["opponent"] for m in view["matches"] if m["opponent"]}
    return sorted({view["player"], *met, *(o["player"] for o in view["opponents"])})


def opponents(outcomes: Sequence[Outcome]) -> list[str]:
    return [o.opponent for o in outcomes if o.opponent is not None]


def match_row(o: Outcome) -> dict[str, Any]:
    kind = "bye" if o.is_bye else "unpaired loss" if o.unpaired else (
        "point deduction" if o.adjustment else "match")  # fmt: skip
    return {"kind": kind, "opponent": o.opponent, "result": o.result, "points": o.points,
            "games": [o.games_won, o.games_lost, o.games_drawn], "mov": o.mov}  # fmt: skip


def opponent_row(
    rules: Ruleset, records: Mapping[str, Sequence[Outcome]], opponent: str
) -> dict[str, Any]:
    outs = records[opponent]
    row: dict[str, Any] = {
        "player": opponent,
        "record": "-".join(
            str(sum(o.result == r for o in outs if not o.adjustment))
            for r in ("win", "loss", "draw")
        ),
        "points": sum(o.points for o in outs),
        "rounds": len([o for o in outs if not o.adjustment]),
    }
    return row | rules.explain_opponent(outs)


def how(rules: Ruleset, key: str, player: str, records: Mapping[str, Sequence[Outcome]]) -> str:
    """One sentence on how the value is computed and what was left out."""
    byes = sum(o.is_bye for o in records[player])
    missed = sum(o.unpaired for o in records[player])
    notes = {t.key: t.how for t in rules.tiebreakers}
    extra = []
    if byes:
        extra.append(f"{byes} bye(s)")
    if missed:
        extra.append(f"{missed} missed round(s) as unpaired losses")
    return notes.get(key, key) + (f" ({', '.join(extra)})" if extra else "")
