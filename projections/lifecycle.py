"""What can happen next in a tournament, and for each step that cannot, why not.

``lifecycle(state)`` is the one answer: the deciders ask it and refuse a command with
the step's reason, and every face asks it which actions to offer, so that no face
offers what a command refuses. The steps:

- Pair the next round, once the current one is complete (every table has a confirmed
  result): in the Swiss part drawn by the ruleset's pairing (swu-1.4 §4.1.1) until the
  planned rounds are paired (swu-1.4 §4.5 and each ruleset's table), or by hand; after
  the cut from the bracket only (swu-1.4 §4.1.2); in an lcg-2.1d team event, after the
  Swiss rounds, the final match of the two teams level on points at the top
  ("Team-Turniere": "Finalbegegnung").
- Start the paired round.
- Make the cut after the last Swiss round, its size from the ruleset's table or given
  (an event without Swiss rounds starts with elimination: everyone enters); a team
  event has none ("Eine Finalrunde gibt es im Team-Turnier nicht").
- Finish once every round is complete, the teams' final played, and after a cut the
  bracket has a champion; while the rules or the options call for a top cut that was
  not made, only with the organizer's reason for finishing without it
  (``finish_without_cut``), so that a click never skips a cut the players are owed.
- Before round 1 of an SWU limited event: the draft's pods and deck building
  (:mod:`projections.limited`).

A finished tournament takes none of them (``reopen_tournament`` undoes a finish made
in error). Who may take a step is not the lifecycle's to say (``commands.roles``); nor
are the values a command brings (a manual pairing's tables, a cut's size): those the
deciders check. Rules that depend on the regulation are asked of the ruleset object.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from ledger.events import Table
from projections import limited
from projections.bracket import Bracket
from projections.elimination import elimination_tables
from projections.pairing import eligible_players, too_few
from projections.refusal import (
    ALLOWED,
    NAMED_AT_MOST,
    Step,
    invalid_command,
    rule_violation,
    some_of,
    wrong_phase,
)
from projections.rulesets import Ruleset
from projections.rulesets.base import TeamFormat
from projections.schedule import cut_size, players_present, rounds_planned
from projections.standings import ruleset_of, swiss_standings
from projections.state import TABLE_STATE, TournamentState

#: How ``pair`` pairs the next round: drawn in the Swiss part, the team event's final
#: match, or from the bracket after the cut.
Pairing = Literal["swiss", "final", "bracket"]
#: The bracket and the tables of its next round (``elimination_tables``)
Ready = tuple[Bracket, tuple[Table, ...]]


class Lifecycle(BaseModel):
    """Each step of the tournament, allowed now or refused with its reason.

    ``pair``: ``pair_round`` without tables given (as ``pairing`` says);
    ``pair_by_hand``: with the tables given; ``cut``: ``make_cut`` of the ruleset's
    size; ``cut_sized``: of a size given (checked against the players when given);
    ``finish_without_cut``: ``finish_tournament`` with ``without_cut`` (a reason)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    pairing: Pairing
    pair: Step
    pair_by_hand: Step
    start: Step
    cut: Step
    cut_sized: Step
    finish: Step
    finish_without_cut: Step
    assign_pods: Step
    start_deck_building: Step


def lifecycle(state: TournamentState) -> Lifecycle:
    """What can happen next in the tournament ``state`` (one that exists)."""
    rules = ruleset_of(state)
    how = pairing_of(state, rules)
    if state.finished:
        done = wrong_phase(finished(state))
        return Lifecycle(pairing=how, pair=done, pair_by_hand=done, start=done, cut=done,
                         cut_sized=done, finish=done, finish_without_cut=done,
                         assign_pods=done, start_deck_building=done)  # fmt: skip
    ready = bracket_now(state)
    return Lifecycle(
        pairing=how, pair=pair(state, rules, how, ready),
        pair_by_hand=pair_by_hand(state, rules), start=start(state),
        cut=cut(state, rules, sized=False), cut_sized=cut(state, rules, sized=True),
        finish=finish(state, rules, ready, without_cut=False),
        finish_without_cut=finish(state, rules, ready, without_cut=True),
        assign_pods=limited.assign_pods(state, rules),
        start_deck_building=limited.start_deck_building(state, rules),
    )  # fmt: skip


def finished(state: TournamentState) -> str:
    """Why nothing but a correction or a reopening happens to a finished tournament."""
    return (f"tournament {state.id!r} is finished (reopen_tournament undoes a finish "
            "made in error)")  # fmt: skip


def pairing_of(state: TournamentState, rules: Ruleset) -> Pairing:
    if state.cut is not None:
        return "bracket"
    if rules.team and len(state.rounds) >= rounds_planned(state):
        return "final"
    return "swiss"


def bracket_now(state: TournamentState) -> Ready | None:
    """After the cut, once the current round is complete: the bracket, read once for
    the next round and the finish alike (a large event's Swiss ranking is read once)."""
    current = state.current
    if state.cut is None or (current is not None and current.state != "complete"):
        return None
    return elimination_tables(state)


def unfinished(state: TournamentState, before: str) -> str | None:
    """While the current round has a table without a confirmed result: each such table
    and why, so the organizer knows whom to ask (None once it is complete); past ten,
    how many, and the first ten (``some_of``)."""
    current = state.current
    if current is None or current.state == "complete":
        return None
    waiting = [f"{f'table {m.table}' if m.table else ' v '.join(m.players)} "
               f"({TABLE_STATE[m.status]})"
               for m in current.matches if TABLE_STATE[m.status] != "confirmed"]  # fmt: skip
    if len(waiting) > NAMED_AT_MOST:  # the count first, then the first ones by table
        return (f"round {current.number} is not complete: {len(waiting)} tables still need "
                f"a confirmed result before {before}: {some_of(waiting)}")  # fmt: skip
    return (
        f"round {current.number} is not complete: {', '.join(waiting)} still "
        f"need{'s' if len(waiting) == 1 else ''} a confirmed result before {before}"
    )


def before_pairing(state: TournamentState, rules: Ruleset) -> Step | None:
    """What keeps any next round from being paired: the current round still open, or an
    event in a format this ledger does not pair."""
    waiting = unfinished(state, "the next round is paired")
    if waiting is not None:
        return wrong_phase(waiting)
    fmt = rules.deck_format
    if fmt is not None and fmt.multiplayer:
        return rule_violation(
            f"{fmt.label} is a multiplayer format ({rules.id} {fmt.section}): "
            "this ledger pairs head-to-head matches only"
        )
    return None


def pair(state: TournamentState, rules: Ruleset, how: Pairing, ready: Ready | None) -> Step:
    refused = before_pairing(state, rules)
    if refused is not None:
        return refused
    if how == "bracket":
        return from_bracket(ready or elimination_tables(state))
    if how == "final" and rules.team:
        return (
            ALLOWED if final_teams(state) is not None else wrong_phase(no_final(state, rules.team))
        )
    planned = rounds_planned(state)
    if len(state.rounds) >= planned:
        return wrong_phase(f"all {planned} Swiss rounds are paired")
    few = too_few(len(eligible_players(state)))
    return rule_violation(few) if few is not None else ALLOWED


def from_bracket(ready: Ready) -> Step:
    """The next elimination round: every bracket match whose players are known."""
    bracket, tables = ready
    if tables:
        return ALLOWED
    if bracket.champion:
        return wrong_phase(f"the bracket is complete ({bracket.champion} won): finish it")
    return wrong_phase("no elimination match is ready to be paired")


def pair_by_hand(state: TournamentState, rules: Ruleset) -> Step:
    """Tables given by hand, in the Swiss part only: the bracket pairs the rest."""
    refused = before_pairing(state, rules)
    if refused is not None:
        return refused
    if state.cut is not None:
        return invalid_command("pair_round: elimination rounds are paired from the bracket")
    return ALLOWED


def start(state: TournamentState) -> Step:
    current = state.current
    if current is None:
        return wrong_phase("no round is paired yet")
    if current.started_at is not None:
        return wrong_phase(f"round {current.number} has started already")
    return ALLOWED


def cut(state: TournamentState, rules: Ruleset, *, sized: bool) -> Step:
    """The top cut from the final Swiss standings (swu-1.4 §4.1.2 and the rulesets'
    tables); ``sized``: of a size the organizer gives rather than the table's."""
    if rules.team:
        return rule_violation(f"make_cut: {rules.team.no_finals}; teams level on points at "
                              "the end play a final match, which pair_round pairs")  # fmt: skip
    if state.cut is not None:
        return wrong_phase("the cut is made already")
    current = state.current
    if current is not None and current.state != "complete":
        return wrong_phase(f"round {current.number} is not complete")
    if not state.rounds:
        if len(eligible_players(state)) < 2:
            return rule_violation("an elimination needs at least two players")
        return ALLOWED
    played = sum(r.stage == "swiss" for r in state.rounds)
    planned = rounds_planned(state)
    if played < planned:
        return wrong_phase(f"{played} of {planned} Swiss rounds are played; cut after the last")
    if sized:
        return ALLOWED
    size = cut_size(state)
    if not size:
        return rule_violation(f"this event has no top cut ({state.ruleset}, "
                              f"{players_present(state)} players at round 1); give a size "
                              "to cut anyway")  # fmt: skip
    return cut_of(state, size)


def cut_of(state: TournamentState, size: int) -> Step:
    """A cut of ``size`` takes that many of the active players."""
    active = len(state.active_players)
    if size > active:
        return rule_violation(f"a top {size} cut needs {size} active players; {active} remain")
    return ALLOWED


def finish(state: TournamentState, rules: Ruleset, ready: Ready | None, *,
           without_cut: bool) -> Step:  # fmt: skip
    """Every round complete and, after a cut, the bracket decided (an event with no
    champion could not be reopened to play its final); a cut the rules or the options
    call for made, or ``without_cut`` given, which only such a missing cut takes."""
    refused = before_finish(state, rules, ready)
    if refused is not None:
        return refused
    due = cut_due(state, rules)
    if without_cut:
        return ALLOWED if due is not None else invalid_command(
            "finish_tournament: without_cut is for an event whose cut was not made; "
            "this one has none to make"
        )  # fmt: skip
    if due is not None:
        return rule_violation(f"{due}: make the cut first, or finish without it giving a "
                              "reason (without_cut)")  # fmt: skip
    return ALLOWED


def cut_due(state: TournamentState, rules: Ruleset) -> str | None:
    """The top cut the ruleset's table or the ``cut`` option calls for and that was not
    made, as a sentence (swu-1.4 §4.1.2 and the rulesets' tables); None when the cut is
    made or none is due (a team event has none)."""
    if rules.team or state.cut is not None:
        return None
    size = cut_size(state)
    if not size:
        return None
    return (f"this event calls for a top {size} cut ({state.ruleset}, "
            f"{players_present(state)} players) and it was not made")  # fmt: skip


def before_finish(state: TournamentState, rules: Ruleset, ready: Ready | None) -> Step | None:
    """What keeps any finish off: a round still open, the teams' final due, a bracket
    without a champion."""
    waiting = unfinished(state, "the tournament is finished")
    if waiting is not None:
        return wrong_phase(waiting)
    teams = final_teams(state) if rules.team else None
    if teams is not None and rules.team:
        return wrong_phase(
            f"{teams[0]} and {teams[1]} are level on points: pair_round pairs their final "
            f"match before the tournament finishes ({rules.team.section})"
        )
    if state.cut is not None and (ready or elimination_tables(state))[0].champion is None:
        return wrong_phase(
            "the bracket has no champion yet: pair and play the elimination rounds "
            "(pair_round) before finishing"
        )
    return None


def final_teams(state: TournamentState) -> tuple[str, str] | None:
    """The two teams of an lcg-2.1d team event's final match once it is due: every
    announced Swiss round is played and the two best active teams have equal points
    ("Wenn zwei Teams am Ende gleich viele Punkte haben"); of more than two level at the
    top, the two best by the Tabellen-Stärke. None when no final is due (or it is
    paired already)."""
    if not ruleset_of(state).team or state.cut is not None:
        return None
    played = sum(r.stage == "swiss" for r in state.rounds)
    if played < rounds_planned(state):
        return None
    ranked = [s for s in swiss_standings(state) if not s.dropped]
    if len(ranked) < 2 or ranked[0].scores.points != ranked[1].scores.points:
        return None
    return ranked[0].player, ranked[1].player


def no_final(state: TournamentState, team: TeamFormat) -> str:
    return (
        f"all {rounds_planned(state)} Swiss rounds are paired and no team is level with "
        f"the leader on points: finish the tournament ({team.section}: no final round)"
    )
