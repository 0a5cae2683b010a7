"""Which lists may be shown, and when (issue 15): never to players before the event
ends (swu-1.4 §7.1: the organizer may publish lists; swu-1.0 §7.1 alike), except the
lists of the top cut while it runs, which its players exchange (swu-1.4 §4.6.1;
swu-1.0 §4.4.1). The X-Wing, Armada and LCG regulations exchange no lists: theirs are
shown after the event only. Anything earlier is refused with the reason. Officials
see a player's list at any time (:func:`official_list`: a deck check needs it).

The cards are not in the events (:mod:`ledger.list_events`): each list shown is read
from ``tledger_lists`` and checked against the hash its event committed to, so a
damaged or swapped list is an integrity error naming the seq, never shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from commands.errors import UnknownPlayer, WrongPhase
from commands.listmodels import ListViolation, OfficialList, PublishedList, PublishedLists
from ledger.list_table import checked
from ledger.store import ListEntry
from projections.state import TournamentState
from projections.tournament import DeckList

PUBLISHED_AFTER = {"swu-1.4": "swu-1.4 §7.1", "swu-1.0": "swu-1.0 §7.1"}
EXCHANGED_IN_CUT = {"swu-1.4": "swu-1.4 §4.6.1", "swu-1.0": "swu-1.0 §4.4.1"}


def published_lists(
    state: TournamentState, names: Mapping[str, str], stored: Sequence[ListEntry]
) -> PublishedLists:
    """The lists that may be shown now (``stored``: the tournament's ``tledger_lists``
    rows), or WrongPhase saying when they may."""
    if state.finished:
        scope, section = "event", PUBLISHED_AFTER.get(state.ruleset)
        players = [p for p in state.players if p in state.lists]
    elif state.cut is not None and state.ruleset in EXCHANGED_IN_CUT:
        scope, section = "top_cut", EXCHANGED_IN_CUT[state.ruleset]
        players = [p for p in state.cut.seeds if p in state.lists]
    else:
        raise WrongPhase(not_yet(state))
    by_seq = {e.seq: e for e in stored}
    shown = [
        PublishedList(player=p, name=names.get(p, p), seq=d.seq, list_hash=d.hash,
                      corrected=d.corrected, list=kept(state, by_seq, d).list)
        for p in players
        for d in (state.lists[p],)
    ]  # fmt: skip
    return PublishedLists(tournament=state.id, ruleset=state.ruleset, scope=scope,
                          section=section, seq=state.seq, head=state.head, lists=shown)  # fmt: skip


def official_list(
    state: TournamentState, player: str, names: Mapping[str, str], stored: Sequence[ListEntry]
) -> OfficialList:
    """A player's list in force, for an official at any time; the player must have one."""
    if player not in state.players:
        raise UnknownPlayer(player)
    held = state.lists.get(player)
    if held is None:
        raise WrongPhase(f"{player} has no list")
    entry = kept(state, {e.seq: e for e in stored}, held)
    found = [ListViolation.model_validate(v) for v in entry.violations]
    return OfficialList(tournament=state.id, player=player, name=names.get(player, player),
                        seq=held.seq, list_hash=held.hash, corrected=held.corrected,
                        locked=state.lists_locked, list=entry.list, violations=found)  # fmt: skip


def kept(state: TournamentState, by_seq: Mapping[int, ListEntry], held: DeckList) -> ListEntry:
    """The stored list of the event at ``held.seq``, checked against its hash."""
    return checked(state.id, by_seq, held.seq, held.player, held.hash)


def not_yet(state: TournamentState) -> str:
    after = PUBLISHED_AFTER.get(state.ruleset)
    when = f"after the event ({after})" if after else "after the event"
    cut = EXCHANGED_IN_CUT.get(state.ruleset)
    also = f", and the top cut's while it runs ({cut})" if cut else ""
    return f"lists are shown {when}{also}; the tournament's stage is {state.stage}"
