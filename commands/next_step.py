"""What the organizer does next, from the status read model (issue 17: the console's
overview says "Round 2 is complete: pair round 3").

The stages and round states are the design's (Round lifecycle): a round is paired,
started, and complete when every table has a confirmed result; the next round can be
paired only then; after the Swiss rounds planned comes the cut (when the event has
one), the elimination rounds from the bracket, and the finish once there is a
champion. One sentence and the console tab where it is done; it decides nothing (the
commands refuse what the rules refuse).
"""

from __future__ import annotations

from commands.readmodels import ReadModel, Status


class NextStep(ReadModel):
    text: str
    tab: str
    missing: int
    disputed: int


def next_step(status: Status) -> NextStep:
    """The one thing to do next, and how many tables wait for a result or a judge."""
    missing = sum(t.state in ("missing", "unconfirmed") for t in status.tables)
    disputed = sum(t.state == "disputed" for t in status.tables)
    text, tab = advice(status, missing + disputed)
    return NextStep(text=text, tab=tab, missing=missing, disputed=disputed)


def advice(status: Status, waiting: int) -> tuple[str, str]:
    stage, number, state = status.stage, status.round, status.round_state
    if stage == "finished":
        return "The tournament is finished: export the results", "finals"
    if stage == "registration":
        if status.active_players < 2:
            return "Register the players", "players"
        return f"{status.active_players} players registered: pair round 1", "round"
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
