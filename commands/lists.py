"""Submitting, locking and correcting deck, squad and fleet lists.

A list may be resubmitted until lists are locked; from then on only an official
changes it, with a reason (``list_corrected``), so a deck check compares what a player
presents with the list that was locked. At competitive tier a constructed-format
deck list is handed in "before the start of the event" (swu-1.4 §3.1.3, swu-1.0
§3.1.3): when round 1 starts with lists submitted and not yet locked, the start locks
them first. A tournament that collects no lists in the ledger gets no lock event.

The events commit to a list by its salted hash and count broken rules without naming a
card (:mod:`ledger.list_events`); the list, the full violations and the salt go to
``tledger_lists`` in the same append (:func:`list_entries`, which the handler passes to
the store). The salt is drawn by the handler and comes in as an input, as the seed
does, so deciding stays pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commands import models as m
from commands.context import Base, player_of, require_role
from commands.errors import InvalidCommand, RuleViolation, WrongPhase
from ledger.events import DeckCheckRecorded, EventBase
from ledger.list_events import ListCorrected, ListsLocked, ListSubmitted, Violation, counted
from ledger.list_rows import checked
from ledger.store import ListEntry
from projections.errors import InvalidList
from projections.rulesets.deckcompare import ListDifference, summary
from projections.rulesets.decklists import DeckList as Shaped
from projections.rulesets.decklists import list_hash, stored
from projections.standings import ruleset_of
from projections.state import TournamentState
from projections.tournament import DeckList

#: the deck-check event's note when the player has no list to compare with
NO_LIST = "no locked list to compare"
LOCKED = "lists are locked: a judge corrects a list with correct_list and a reason"


def submit_list(
    state: TournamentState, c: m.SubmitList, base: Base, seed: int, salt: bytes = b""
) -> list[EventBase]:
    require_role(c.actor, ("organizer", "player"), "submit a list")
    if c.actor is not None and c.actor.role == "player" and c.actor.id != c.player:
        raise RuleViolation("a player may submit only their own list")
    player_of(state, c.player)
    if state.lists_locked:
        raise WrongPhase(LOCKED)
    return listed(state, c, base, c.player, salt)


def listed(
    state: TournamentState, c: m.SubmitList | m.RegisterTeam, base: Base, player: str,
    salt: bytes,
) -> list[EventBase]:  # fmt: skip
    """The list's event: its hash with ``salt`` and the rules it breaks, counted (a team
    registering with its four decks submits them with the registration, lcg-2.1d
    Team-Turniere)."""
    data, found = recorded(state, c)
    return [ListSubmitted(**base, player=player, list_hash=list_hash(data, salt.hex()),
                          violations=counted(found))]  # fmt: skip


def lock_lists(state: TournamentState, c: m.LockLists, base: Base, seed: int) -> list[EventBase]:
    require_role(c.actor, ("organizer",), "lock lists")
    if state.lists_locked:
        raise WrongPhase("lists are locked already")
    return [ListsLocked(**base, missing=missing(state))]


def correct_list(
    state: TournamentState, c: m.CorrectList, base: Base, seed: int,
    kept: Sequence[ListEntry] = (), salt: bytes = b"",
) -> list[EventBase]:  # fmt: skip
    """A locked list replaced; refused when it is the list in force already (``kept``:
    the ``tledger_lists`` rows, whose salt the comparison needs)."""
    require_role(c.actor, ("organizer", "judge"), "correct a list")
    player_of(state, c.player)
    if not state.lists_locked:
        raise WrongPhase("lists are not locked yet: the player resubmits with submit_list")
    data, found = recorded(state, c)
    previous = state.lists.get(c.player)
    if (
        previous is not None
        and list_hash(data, in_force(state, previous, kept).salt) == previous.hash
    ):
        raise RuleViolation(f"correct_list: {c.player}'s list is this list already")
    return [ListCorrected(**base, player=c.player, list_hash=list_hash(data, salt.hex()),
                          previous_hash=previous.hash if previous else None, reason=c.reason,
                          violations=counted(found))]  # fmt: skip


def in_force(state: TournamentState, held: DeckList, kept: Sequence[ListEntry]) -> ListEntry:
    """The stored row of the list ``held``, checked against its event's hash (a damaged
    store is an integrity error naming the seq)."""
    return checked(state.id, {e.seq: e for e in kept}, held.seq, held.player, held.hash)


def recorded(
    state: TournamentState, c: m.SubmitList | m.CorrectList | m.RegisterTeam
) -> tuple[dict[str, Any], tuple[Violation, ...]]:
    """The list as kept (its game's shape, or InvalidCommand) and the rules it breaks."""
    if isinstance(c, m.RegisterTeam):
        assert c.list is not None
        deck = shape(state, c.list, c.type, [p.player for p in c.members])
    else:
        deck = shape(state, c.list, c.type, state.teams.get(c.player, ()))
    return stored(deck), ruleset_of(state).list_violations(deck)


def shape(
    state: TournamentState, data: dict[str, Any], kind: str, members: Sequence[str] = ()
) -> Shaped:
    """A list in the tournament's shape (``Ruleset.read_list``); a team's list holds the
    decks of its ``members``."""
    try:
        return ruleset_of(state).read_list(data, kind, members)
    except InvalidList as exc:
        raise InvalidCommand(str(exc)) from None


def list_entries(
    state: TournamentState, command: m.Command, events: Sequence[EventBase], first_seq: int,
    salt: bytes = b"",
) -> list[ListEntry]:  # fmt: skip
    """What ``tledger_lists`` keeps of the command's list events (``first_seq``: the seq
    of ``events[0]``), decided from the state and with the ``salt`` ``decide`` had: the
    list, the full violations and the salt, which the events only commit to; for a deck
    check, the list presented. Nothing for any other command."""
    if isinstance(command, m.RecordDeckCheck):
        return presented_entries(state, command, events, first_seq, salt)
    if not isinstance(command, m.SubmitList | m.CorrectList | m.RegisterTeam):
        return []
    kept: list[ListEntry] = []
    for seq, event in enumerate(events, start=first_seq):
        if isinstance(event, ListSubmitted | ListCorrected):
            data, found = recorded(state, command)
            if list_hash(data, salt.hex()) != event.list_hash:  # decide read the same
                raise AssertionError(f"seq {seq}: the list does not hash to its event's")
            dumped = tuple(v.model_dump(mode="json") for v in found)
            kept.append(ListEntry(state.id, seq, event.player, event.list_hash, data, dumped,
                                  salt.hex()))  # fmt: skip
    return kept


def missing(state: TournamentState) -> tuple[str, ...]:
    """Players still in the tournament without a list."""
    return tuple(p for p in state.active_players if p not in state.lists)


def locked_at_start(state: TournamentState, number: int, base: Base) -> list[EventBase]:
    """The lock that starting round 1 implies where lists are due before the event
    (``Ruleset.lists_due``: swu-1.4 §3.1.3 at competitive tier), when lists were submitted
    and are not locked yet; nothing otherwise."""
    if number != 1 or state.lists_locked or not state.lists:
        return []
    section = ruleset_of(state).lists_due()
    if section is None:
        return []
    reason = f"round 1 starts at competitive tier: lists are handed in before the event ({section})"
    return [ListsLocked(**base, missing=missing(state), reason=reason)]


def wants_lists(command: m.Command) -> bool:
    """Whether deciding ``command`` reads the kept lists: a deck check that compares what
    was presented with the list in force, and a correction that must differ from it
    (every other command decides from the fold)."""
    if isinstance(command, m.CorrectList):
        return True
    return isinstance(command, m.RecordDeckCheck) and command.presented is not None


def presented_fields(
    state: TournamentState, c: m.RecordDeckCheck, kept: Sequence[ListEntry], salt: bytes
) -> dict[str, Any]:
    """The deck-check event's fields for what was presented: its hash with ``salt``, the
    list in force it was compared with and the differences counted per zone and kind,
    naming no card; with no list in force, a note instead (the check is recorded all
    the same). No penalty follows from a difference: that is the judge's decision.
    ``kept``: the ``tledger_lists`` rows; the list in force is checked against its hash."""
    if c.presented is None:
        return {}
    data = stored(shape(state, c.presented, c.type, state.teams.get(c.player, ())))
    digest = list_hash(data, salt.hex())
    held = state.lists.get(c.player)
    if held is None:
        return {"presented_hash": digest, "note": NO_LIST}
    found = differences(state, held, kept, c.presented)
    return {"presented_hash": digest, "compared_hash": held.hash,
            "differences": summary(found), "difference_count": len(found)}  # fmt: skip


def differences(
    state: TournamentState, held: DeckList, kept: Sequence[ListEntry], presented: dict[str, Any]
) -> list[ListDifference]:
    """Every entry in which ``presented`` differs from the list ``held`` (its stored row
    checked against its event's hash: a damaged store is an integrity error); in an SWU
    limited event the draw deck and sideboard as one pool (swu-1.4 §2.3.2 note)."""
    listed = shape(state, in_force(state, held, kept).list, "record_deck_check")
    members = state.teams.get(held.player, ())
    return ruleset_of(state).list_differences(
        listed, shape(state, presented, "record_deck_check", members)
    )


def presented_entries(
    state: TournamentState, c: m.RecordDeckCheck, events: Sequence[EventBase], first_seq: int,
    salt: bytes,
) -> list[ListEntry]:  # fmt: skip
    """The presented list with its salt, kept at the seq of the deck-check event that
    commits to it."""
    if c.presented is None:
        return []
    data = stored(shape(state, c.presented, c.type, state.teams.get(c.player, ())))
    return [
        ListEntry(state.id, seq, event.player, event.presented_hash, data, (), salt.hex())
        for seq, event in enumerate(events, start=first_seq)
        if isinstance(event, DeckCheckRecorded) and event.presented_hash is not None
    ]
