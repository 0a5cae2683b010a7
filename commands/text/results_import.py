"""A results export back to the contract's commands, so that either export (JSON or
CSV) parses back to the same standings.

The commands are what an organizer would have run to reach the same results:
``create_tournament`` with the recorded ruleset, options and seed (so the random
last tiebreaker falls the same way), ``register_player`` (in a team event
``register_team`` with the team's members, lcg-2.1d "Team-Turniere") before the
first round a player could be paired in, per Swiss round a manual ``pair_round`` listing the
recorded tables in table order (then the byes), ``start_round`` and a
``report_result`` per confirmed result, the drops, returns and disqualifications
after the round in which they happened (before or after the cut), point
deductions after their round, ``make_cut`` with the recorded size after the last
Swiss round (a team event's cut of two comes with its final match's ``pair_round``,
``make_cut`` is refused there), and each elimination round paired from the bracket (the contract
pairs those from the bracket only; :func:`differences` compares them, and the
cut, with the export).

What cannot come back exactly, and why:

- a correction, pairing revision or dispute is not re-enacted: each match gets its
  final, confirmed result, which is all that standings count; an unconfirmed or
  disputed report counts for nothing and is left out;
- game and match losses given as penalties are already in the results they changed
  (swu-1.4 §6), so only point deductions (lcg-2.1d) are issued again, after the
  round they were for; warnings change nothing and are left out;
- a Swiss result corrected after the cut (swu-1.4 §5.8) changes the standings the
  cut would be made from, and an elimination that begins without Swiss rounds
  draws its seeds from the seed of the ``make_cut`` command: in both cases the
  bracket made again differs from the export's, which :func:`differences` names.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from commands.text.results_data import Change, PlayedRound, Results
from projections.rulesets import ruleset
from projections.state import TournamentState

REASON = "as in the results export"


def commands_of(results: Results, tournament: str | None = None) -> list[dict[str, Any]]:
    """The contract's commands, in order, that rebuild ``results`` (under another id
    when ``tournament`` is given)."""
    t = {"tournament": tournament or results.tournament}
    returns = "rejoin_player" if ruleset(results.ruleset, results.options).rejoin_allowed \
        else "reinstate_player"  # fmt: skip
    out: list[dict[str, Any]] = [
        {"type": "create_tournament", **t, "name": results.name, "ruleset": results.ruleset,
         "options": {**results.options, "seed": results.seed}},
    ]  # fmt: skip
    for gap in range(len(results.rounds) + 1):
        out += gap_commands(results, gap, t, returns)
        if gap < len(results.rounds):
            out += round_commands(results.rounds[gap], t)
    if results.finished:
        out.append({"type": "finish_tournament", **t})
    return out


def gap_commands(
    results: Results, gap: int, t: dict[str, str], returns: str
) -> Iterator[dict[str, Any]]:
    """What happened after ``gap`` rounds were paired, before the next one was."""
    for d in results.deductions:
        if d.round == gap:
            yield {"type": "issue_penalty", **t, "player": d.player, "round": d.round,
                   "penalty": "point_deduction", "infraction": d.infraction,
                   "points": d.points}  # fmt: skip
    teams = {team.team: team for team in results.teams}
    for p in results.players:
        if p.first_round != gap + 1:
            continue
        team = teams.get(p.player)
        if team is None:
            yield {"type": "register_player", **t, "player": p.player, "name": p.name}
        else:
            members = [{"player": m.player, "name": m.name} for m in team.members]
            yield {"type": "register_team", **t, "team": team.team, "name": team.name,
                   "members": members}  # fmt: skip
    yield from change_commands(results.changes, gap, gap > results.swiss_rounds, t, returns)
    cut_made = results.cut_size is not None and not results.team_event
    if cut_made and gap == results.swiss_rounds:
        yield {"type": "make_cut", **t, "size": results.cut_size}
        yield from change_commands(results.changes, gap, True, t, returns)


def change_commands(
    changes: Sequence[Change], gap: int, after_cut: bool, t: dict[str, str], returns: str
) -> Iterator[dict[str, Any]]:
    for c in changes:
        if c.after_round != gap or c.after_cut != after_cut:
            continue
        player = {**t, "player": c.player}
        if c.change == "dropped":
            yield {"type": "drop_player", **player}
        elif c.change == "disqualified":
            yield {"type": "disqualify_player", **player, "reason": REASON}
        elif c.change == "rejoined":
            yield {"type": "rejoin_player", **player}
        elif c.change == "reinstated" or returns == "reinstate_player":
            yield {"type": "reinstate_player", **player, "reason": REASON}
        else:
            yield {"type": "rejoin_player", **player}


def round_commands(rnd: PlayedRound, t: dict[str, str]) -> Iterator[dict[str, Any]]:
    """A Swiss round paired by hand as recorded (tables in table order, then the byes:
    the contract numbers manual tables in the order given); an elimination round paired
    from the bracket. Then its confirmed results."""
    if rnd.stage == "swiss":
        matches = sorted((x for x in rnd.tables if len(x.players) == 2),
                         key=lambda x: (x.table is None, x.table or 0))  # fmt: skip
        byes = [x for x in rnd.tables if len(x.players) == 1]
        yield {"type": "pair_round", **t, "pairings": [list(x.players) for x in matches + byes]}
    else:
        yield {"type": "pair_round", **t}
    if rnd.started:
        yield {"type": "start_round", **t, "round": rnd.number}
    for x in rnd.tables:
        if len(x.players) == 2 and x.result is not None:
            yield {"type": "report_result", **t, "round": rnd.number,
                   "players": list(x.players), "result": x.result}  # fmt: skip


def differences(results: Results, state: TournamentState) -> list[str]:
    """Where the rebuilt tournament ``state`` differs from the export in what it paired
    by itself: the cut and the elimination tables (Swiss tables are given by hand)."""
    found: list[str] = []
    cut = state.cut
    if results.cut_seeds is not None and cut is not None and list(cut.seeds) != results.cut_seeds:
        found.append(f"the cut seeds {list(cut.seeds)} where the export has {results.cut_seeds}")
    for rnd in results.rounds:
        rebuilt = state.round(rnd.number)
        want = sorted(sorted(x.players) for x in rnd.tables)
        have = sorted(sorted(m.players) for m in rebuilt.matches) if rebuilt else []
        if want != have:
            found.append(f"round {rnd.number} pairs {have} where the export has {want}")
    return found


def standings_differences(
    exported: Sequence[dict[str, Any]], rebuilt: Sequence[dict[str, Any]]
) -> list[str]:
    """Rows of the standings that differ (each as ``standings --json`` prints it)."""
    found = [f"rank {a.get('rank')}: export {a} rebuilt {b}"
             for a, b in zip(exported, rebuilt, strict=False) if a != b]  # fmt: skip
    if len(exported) != len(rebuilt):
        found.append(f"the export ranks {len(exported)} players, the rebuilt log {len(rebuilt)}")
    return found
