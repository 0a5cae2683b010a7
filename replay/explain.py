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
from projections.rulesets.swu_1_0 import Swu10
from projections.rulesets.swu_1_4 import FLOOR, Swu14
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
    if isinstance(rules, Swu14):
        raw = sum(o.points for o in outs if not o.unpaired) / (3 * max(1, len(outs)))
        row |= {"match_win": raw, "match_win_counted": rules.match_win_pct(outs),
                "game_win_counted": rules.game_win_pct(outs), "floored": raw < FLOOR}  # fmt: skip
    if isinstance(rules, Swu10):
        row["wl"] = rules.win_loss_ratio(outs)
    return row


def how(rules: Ruleset, key: str, player: str, records: Mapping[str, Sequence[Outcome]]) -> str:
    """One sentence on how the value is computed and what was left out."""
    byes = sum(o.is_bye for o in records[player])
    missed = sum(o.unpaired for o in records[player])
    notes = {
        "omw": "mean of the opponents' match-win % (match points / 3 x matches), each floored "
               "at 1/3; byes are not opponents",
        "gw": "own game points / (3 x games), win 3, draw 1 (melee.gg: 0), floored at 1/3; a bye "
              "is a 2-0 win (1-0 in Bo1)",
        "ogw": "mean of the opponents' game-win %, each floored at 1/3",
        "wl": "match wins / matches played, a bye a won match",
        "owl": "mean of the opponents' win/loss ratios",
        "oowl": "mean of the opponents' owl",
        "mov": "sum of margins of victory; a bye scores 1.5 x base, an unpaired loss 0",
        "sos": "mean over opponents of their points per round played (byes and unpaired losses "
               "count as rounds)" if rules.id in ("xwing-2.0", "armada-2.0")
               else "sum of the opponents' tournament points",
        "sos2": "sum of the opponents' sos",
    }  # fmt: skip
    extra = []
    if byes:
        extra.append(f"{byes} bye(s)")
    if missed:
        extra.append(f"{missed} missed round(s) as unpaired losses")
    return notes.get(key, key) + (f" ({', '.join(extra)})" if extra else "")
