"""What the organizer does next, from the status read model (issue 17: the console's
overview says "Round 2 is complete: pair round 3").

The stages and round states are the design's (Round lifecycle): a round is paired,
started, and complete when every table has a confirmed result; the next round can be
paired only then; after the Swiss rounds planned comes the cut (when the event has
one), the elimination rounds from the bracket, and the finish once there is a
champion. Before round 1 of an SWU limited event (swu-1.4 §2.3.2) come a draft's pods
("8 Spieler pro Gruppe", §2.3.2.1) and deck building ("30 Minuten", §2.3.2), as
``commands.limited`` orders them (pods, then deck building; pairing does not wait for
either, so the advice moves on to round 1 once deck building has started). One
sentence and the console tab where it is done; it decides nothing (the commands
refuse what the rules refuse).
"""

from __future__ import annotations

from pydantic import Field

from commands.reads.models import ReadModel, Status, TableState
from commands.reads.podviews import Pods
from projections.rulesets import ruleset


class NextStep(ReadModel):
    """``waiting``: the current round's tables without a confirmed result, in table
    order; ``missing`` of them have no result or one side's only, ``disputed`` have two
    reports that differ, ``over_time`` are still playing after their time (only when
    the status was read at a time, ``ReadSide.status_at``)."""

    text: str
    tab: str
    missing: int
    disputed: int
    over_time: int = 0
    waiting: list[TableState] = Field(default_factory=list)


def next_step(status: Status, pods: Pods | None = None) -> NextStep:
    """The one thing to do next, and how many tables wait for a result or a judge
    (``pods``: the draft's pods, when the event may have them)."""
    waiting = [t for t in status.tables if t.state != "confirmed"]
    missing = sum(t.state in ("missing", "unconfirmed") for t in waiting)
    disputed = sum(t.state == "disputed" for t in waiting)
    text, tab = advice(status, missing + disputed, pods)
    return NextStep(text=text, tab=tab, missing=missing, disputed=disputed,
                    over_time=sum(bool(t.over_time) for t in waiting),
                    waiting=waiting)  # fmt: skip


def advice(status: Status, waiting: int, pods: Pods | None = None) -> tuple[str, str]:
    stage, number, state = status.stage, status.round, status.round_state
    if stage == "finished":
        return "The tournament is finished: export the results", "finals"
    if stage == "registration":
        return before_round_1(status, pods)
    if state == "paired":
        return f"Round {number} is paired: print the pairings and start it", "round"
    if state == "started" or waiting:
        return f"Round {number} is under way: {waiting} results to enter", "results"
    if status.champion:
        return "The bracket has a champion: finish the tournament", "finals"
    if stage == "swiss" and number >= status.rounds_planned and status.cut_size:
        return f"Round {number} is complete: make the top {status.cut_size} cut", "finals"
    if stage == "swiss" and number >= status.rounds_planned:
        return f"Round {number} is complete: the Swiss rounds are played; finish", "finals"
    return f"Round {number} is complete: pair round {number + 1}", "round"


def before_round_1(status: Status, pods: Pods | None) -> tuple[str, str]:
    """Registration, then a limited event's draft pods and deck building, then round 1."""
    players = status.active_players
    if players < 2:
        return "Register the players", "players"
    fmt = ruleset(status.ruleset, status.options).deck_format
    if status.deck_building is None and fmt is not None and fmt.limited:
        if fmt.pods is not None and pods is not None and not pods.pods:
            return f"{players} players registered: assign the draft pods", "round"
        return f"{players} players registered: start deck building", "round"
    return f"{players} players registered: pair round 1", "round"
