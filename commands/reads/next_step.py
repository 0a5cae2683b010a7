"""What can happen next, and the one thing the organizer does next (the console's
overview says "Round 2 is complete: pair round 3").

Both come from the tournament's lifecycle (``projections.lifecycle``), the same answer
the commands refuse by, so the advice never names a step a command refuses: a round
is paired, started, and complete when every table has a confirmed result; then the
next round is paired, the cut made after the Swiss rounds planned (when the event has
one), the elimination rounds paired from the bracket, and the tournament finished once
the last step allows it. Before round 1 of an SWU limited event (swu-1.4 §2.3.2) come
a draft's pods ("8 Spieler pro Gruppe", §2.3.2.1) and deck building ("30 Minuten",
§2.3.2); pairing does not wait for either, so the advice moves on to round 1 once
deck building has started. One sentence and the console tab where it is done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import Field

from commands.reads.models import ReadModel, Status, TableState
from commands.reads.people import named_sentence
from projections.lifecycle import Lifecycle, lifecycle
from projections.state import TournamentState


class NextSteps(ReadModel):
    """Each step of the tournament at ``seq``, allowed or refused with the sentence its
    command is refused with (``projections.lifecycle.Lifecycle``)."""

    tournament: str
    seq: int
    steps: Lifecycle


def next_steps(state: TournamentState) -> NextSteps:
    return NextSteps(tournament=state.id, seq=state.seq, steps=lifecycle(state))


#: The command of the step the advice names; None for registering the players or
#: exporting the results, or when the lifecycle allows nothing now (it says why).
Advised = Literal[
    "assign_pods", "start_deck_building", "pair_round", "start_round",
    "report_result", "make_cut", "finish_tournament",
] | None  # fmt: skip


class NextStep(ReadModel):
    """``command``: the command the advice ``text`` names; ``waiting``: the current
    round's tables without a confirmed result, in table order; ``playing`` of them have
    no report while their time runs, ``missing`` have no result after it or one side's
    only, ``disputed`` have two reports that differ, ``over_time`` are still playing
    after their time (only when the status was read at a time, ``ReadSide.status_at``;
    read without one, no table is over time)."""

    text: str
    tab: str
    command: Advised
    missing: int
    disputed: int
    over_time: int = 0
    playing: int = 0
    waiting: list[TableState] = Field(default_factory=list)


def next_step(status: Status, steps: Lifecycle, shown: Callable[[str], str] = str) -> NextStep:
    """The one thing to do next, and how many tables wait for a result or a judge
    (``status`` and ``steps`` of one seq). A lifecycle's sentence in the advice names
    players and teams by id: the advice names them by ``shown`` of their names
    (``named_sentence``)."""
    waiting = [t for t in status.tables if t.state != "confirmed"]
    playing = sum(t.shown == "playing" for t in waiting)
    missing = sum(t.state in ("missing", "unconfirmed") for t in waiting) - playing
    disputed = sum(t.state == "disputed" for t in waiting)
    text, tab, command = advice(status, steps, playing + missing + disputed)
    return NextStep(text=named_sentence(text, status.names, shown), tab=tab, command=command,
                    missing=missing, disputed=disputed, playing=playing,
                    over_time=sum(bool(t.over_time) for t in waiting),
                    waiting=waiting)  # fmt: skip


Advice = tuple[str, str, Advised]


def lists_warning(status: Status) -> str | None:
    """Before round 1 starts, where the ruleset expects lists handed in before the event
    (``Ruleset.lists_due``, swu-1.4 §3.1.3 at competitive tier): how many are missing,
    since starting round 1 locks the lists as they are; None when none is missing."""
    if status.round > 1 or status.round_state not in (None, "paired") or not status.lists_due:
        return None
    if status.lists_submitted >= status.active_players:
        return None
    return (f"{status.lists_submitted} of {status.active_players} lists submitted "
            f"({status.lists_due}): starting round 1 locks the lists as they are")  # fmt: skip


def counted(number: int, noun: str) -> str:
    """A count with its noun in the number it needs: "1 result", "4 results"."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def competitors(status: Status) -> str:
    """What the event registers and pairs: teams (lcg-2.1d "Team-Turniere") or players."""
    return "team" if status.teams else "player"


def advice(status: Status, steps: Lifecycle, waiting: int) -> Advice:
    number = status.round
    if status.stage == "finished":
        return "The tournament is finished: export the results", "finals", None
    if not number:
        return before_round_1(status, steps)
    if steps.start.allowed:
        return f"Round {number} is paired: print the pairings and start it", "round", "start_round"
    if status.round_state != "complete":
        return (f"Round {number} is under way: {counted(waiting, 'result')} to enter",
                "results", "report_result")  # fmt: skip
    return after_round(status, steps)


def after_round(status: Status, steps: Lifecycle) -> Advice:
    """Once the current round is complete: the cut when it may be made, else the next
    round, else the finish; else why nothing can happen."""
    done = f"Round {status.round} is complete"
    if steps.cut.allowed:
        return f"{done}: make the top {status.cut_size} cut", "finals", "make_cut"
    if steps.pair.allowed:
        return f"{done}: pair round {status.round + 1}", "round", "pair_round"
    if steps.finish.allowed and status.champion:
        return "The bracket has a champion: finish the tournament", "finals", "finish_tournament"
    if steps.finish.allowed:
        return f"{done}: the Swiss rounds are played; finish", "finals", "finish_tournament"
    return f"{done}: {steps.pair.reason}", "finals", None


def before_round_1(status: Status, steps: Lifecycle) -> Advice:
    """Registration, then a limited event's draft pods and deck building, then round 1."""
    players = status.active_players
    if players < 2:
        return f"Register the {competitors(status)}s", "players", None
    registered = f"{counted(players, competitors(status))} registered"
    if steps.start_deck_building.allowed:
        return f"{registered}: start deck building", "round", "start_deck_building"
    if steps.assign_pods.allowed:
        return f"{registered}: assign the draft pods", "round", "assign_pods"
    if steps.pair.allowed:
        return f"{registered}: pair round 1", "round", "pair_round"
    return f"{registered}: {steps.pair.reason}", "round", None
