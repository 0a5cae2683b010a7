"""Read models: the public JSON shapes of ``status``, ``standings``, ``pairings``, ``log``.

Plain data (dicts and lists) so that the terminal tables, the JSON output and
the HTTP API share them. The shapes are the design's contract: keep them exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.store import PlayerEntry, Recorded
from projections.bracket import resolve
from projections.schedule import cut_size, players_present, rounds_planned
from projections.standings import ruleset_of, standings, swiss_standings
from projections.state import Match, TournamentState

ERASED = "(erased)"


def number(value: float) -> int | float:
    """Whole numbers print as integers (9, not 9.0); fractions stay unrounded."""
    return int(value) if float(value).is_integer() else value


def status_view(state: TournamentState) -> dict[str, Any]:
    present = players_present(state)
    current = state.current
    return {
        "tournament": state.id,
        "ruleset": state.ruleset,
        "options": state.options,
        "stage": state.stage,
        "round": current.number if current else 0,
        "round_state": current.state if current else None,
        "rounds_planned": rounds_planned(state),
        "cut_size": cut_size(state),
        "players": len(state.players),
        "active_players": len(state.active_players),
        "seq": state.seq,
        "position": state.position,
        "head": state.head,
        "deck_checks": {"checked": len(state.deck_checks), "target": deck_check_target(present)},
    }


def deck_check_target(players: int) -> int:
    """About 10% of decks over the event (swu-1.4 §6: 128 players -> about 12 checks)."""
    return max(1, players // 10) if players else 0


def standings_view(state: TournamentState, names: Mapping[str, PlayerEntry]) -> dict[str, Any]:
    rows = [
        {
            "rank": s.rank,
            "player": s.player,
            "name": names[s.player].name if s.player in names else ERASED,
            "points": number(s.scores.points),
            "record": {
                "wins": s.scores.record.wins,
                "losses": s.scores.record.losses,
                "draws": s.scores.record.draws,
            },
            "dropped": s.dropped,
            "tiebreakers": {k: number(v) for k, v in s.scores.tiebreakers.items()},
        }
        for s in standings(state)
    ]
    return {
        "tournament": state.id,
        "ruleset": state.ruleset,
        "seq": state.seq,
        "head": state.head,
        "standings": rows,
    }


def pairings_view(state: TournamentState, round_number: int | None = None) -> dict[str, Any]:
    rnd = state.round(round_number) if round_number else state.current
    return {
        "round": rnd.number if rnd else round_number or 0,
        "stage": rnd.stage if rnd else state.stage,
        "seq": state.seq,
        "head": state.head,
        "pairings": [table_view(m) for m in (rnd.matches if rnd else [])],
    }


def bracket_view(state: TournamentState) -> dict[str, Any]:
    """The elimination rounds as paired, with each match's bracket and winner."""
    if state.cut is None:
        return {"format": None, "rounds": []}
    swiss = [s.player for s in swiss_standings(state)]
    resolved = resolve(state, ruleset_of(state), swiss).resolved
    rounds = []
    for rnd in state.rounds:
        if rnd.stage != "elimination":
            continue
        matches = [
            {"table": m.table, "players": list(m.players), "bracket": m.bracket,
             "winner": resolved[m.slot].winner if m.slot in resolved else None}
            for m in rnd.matches
        ]  # fmt: skip
        rounds.append({"round": rnd.number, "matches": matches})
    return {"format": state.cut.format, "rounds": rounds}


def table_view(match: Match) -> dict[str, Any]:
    """One table; LCG final games also say who plays light or who chooses a side."""
    view: dict[str, Any] = {"table": match.table, "players": list(match.players)}
    for key in ("light", "chooses_side"):
        if getattr(match, key):
            view[key] = getattr(match, key)
    return view


def event_view(recorded: Recorded) -> dict[str, Any]:
    return recorded.as_json()


def log_view(tournament: str, events: Sequence[Recorded]) -> dict[str, Any]:
    return {"tournament": tournament, "events": [event_view(r) for r in events]}
