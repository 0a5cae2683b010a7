"""What a drop or a disqualification will record, said before it is confirmed.

A player who leaves in the middle of a round loses their open match: the decider of
``drop_player`` and ``disqualify_player`` (``commands.discipline``) records it in the
ruleset's forfeit shape (a 2-0 win for the opponent in a best of three). The organizer
sees that result named before confirming ("This records Ryan O'Connor's 2-0 win at
table 8 of round 3"). The preview runs the decider on the current state without
appending, so the sentence is exactly what confirming appends; a refusal (dropped
already, disqualified) is the same one line confirming would give. Whether a
reinstatement could still withdraw the result is the decider of ``reinstate_player``
asked of the state the drop would leave (``commands.undo.automatic_result``). A
reinstatement is previewed the same way: whether it withdraws that result and gives the
player back their table, or the player returns from the next round and the loss stands.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Literal, cast

from commands.decide import decide
from commands.models import DisqualifyPlayer, DropPlayer, ReinstatePlayer
from commands.reads.eventtext import describe_result
from commands.reads.models import ReadModel
from commands.reads.views import name_of
from commands.undo import automatic_result
from ledger.events import AutomaticResultWithdrawn, Event, EventBase, ResultReported
from projections.state import TournamentState, apply_event


class LeavingPreview(ReadModel):
    """What confirming the drop (or disqualification) of ``player`` records: ``text``, the
    sentences that say it; ``table`` and ``round`` of the match recorded as lost (None
    when none is); ``withdrawable``: a reinstatement before the round starts withdraws
    that result (drops only)."""

    player: str
    name: str
    action: Literal["drop", "disqualify", "reinstate"]
    text: list[str]
    round: int | None
    table: int | None
    withdrawable: bool


def leaving_preview(
    state: TournamentState, command: DropPlayer | DisqualifyPlayer, names: Mapping[str, str],
    now: datetime, seed: int,
) -> LeavingPreview:  # fmt: skip
    """The command decided on ``state`` and not appended (raises as ``decide`` would,
    except for a missing reason, which the confirmation asks for)."""
    trial = command
    if isinstance(command, DisqualifyPlayer) and not command.reason:
        trial = command.model_copy(update={"reason": "preview"})
    events = decide(state, trial, now=now, seed=seed)
    name = name_of(names, command.player)
    action: Literal["drop", "disqualify"] = (
        "drop" if isinstance(command, DropPlayer) else "disqualify"
    )
    said = [f"{name} drops: not paired in any later round." if action == "drop" else
            f"{name} is disqualified: removed from the event for good, never paired again "
            "and never reinstated."]  # fmt: skip
    lost = next((e for e in events if isinstance(e, ResultReported)), None)
    if lost is None:
        said.append(f"No result is recorded: {name} has no table waiting for a result.")
        return LeavingPreview(player=command.player, name=name, action=action, text=said,
                              round=None, table=None, withdrawable=False)  # fmt: skip
    rnd = state.round(lost.round)
    match = rnd.match_of(*lost.players) if rnd else None
    table = match.table if match else None
    said.append(win_text(lost, command.player, table, names))
    withdrawable = action == "drop" and would_withdraw(state, events, command.player)
    if withdrawable:
        said.append(f"Round {lost.round} has not started: reinstating {name} before it "
                    "starts withdraws this result and puts them back at their table.")  # fmt: skip
    return LeavingPreview(player=command.player, name=name, action=action, text=said,
                          round=lost.round, table=table, withdrawable=withdrawable)  # fmt: skip


def return_preview(state: TournamentState, command: ReinstatePlayer, names: Mapping[str, str],
                   now: datetime, seed: int) -> LeavingPreview:  # fmt: skip
    """The reinstatement decided on ``state`` and not appended: the table it gives back
    (its automatic result withdrawn) or the round the player returns for."""
    trial = command if command.reason else command.model_copy(update={"reason": "preview"})
    events = decide(state, trial, now=now, seed=seed)
    name = name_of(names, command.player)
    withdrawn = next((e for e in events if isinstance(e, AutomaticResultWithdrawn)), None)
    if withdrawn is None:
        said = [
            f"{name} is paired again from round {len(state.rounds) + 1}.",
            "A loss recorded at the drop stands: correct it if the match was played.",
        ]
        return LeavingPreview(player=command.player, name=name, action="reinstate", text=said,
                              round=None, table=None, withdrawable=False)  # fmt: skip
    rnd = state.round(withdrawn.round)
    match = rnd.match_of(*withdrawn.players) if rnd else None
    table = match.table if match else None
    where = f"table {table} of round {withdrawn.round}" if table else f"round {withdrawn.round}"
    said = [f"This withdraws the loss recorded at the drop at {where}: the table has no "
            f"result, and {name} plays there.",
            f"{name} is paired in later rounds again."]  # fmt: skip
    return LeavingPreview(player=command.player, name=name, action="reinstate", text=said,
                          round=withdrawn.round, table=table, withdrawable=False)  # fmt: skip


def win_text(lost: ResultReported, leaving: str, table: int | None,
             names: Mapping[str, str]) -> str:  # fmt: skip
    """ "This records Ryan O'Connor's 2-0 win at table 8 of round 3": the forfeit from the
    winner's side, as people say it (``describe_result``)."""
    winner = next(p for p in lost.players if p != leaving)
    result = lost.result if lost.players[0] == winner else lost.result.swapped()
    where = f"at table {table} of round {lost.round}" if table else f"in round {lost.round}"
    said = describe_result(result.model_dump(mode="json", exclude_none=True), names)
    scored = result.games is not None or result.points is not None
    if scored:
        score = said.split(", ")[0]
        return f"This records {name_of(names, winner)}'s {score} win {where}."
    return f"This records a win for {name_of(names, winner)} {where} ({said})."


def would_withdraw(state: TournamentState, events: Sequence[EventBase], player: str) -> bool:
    """Whether ``reinstate_player`` would withdraw the loss, asked of the state the drop's
    events would leave (a copy: the kept fold is never changed by a read)."""
    after = copy.deepcopy(state)
    for offset, event in enumerate(events, start=1):
        apply_event(after, cast(Event, event), state.seq + offset)
    return automatic_result(after, player) is not None
