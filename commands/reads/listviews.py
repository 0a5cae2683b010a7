"""Which lists may be shown, and when, as the ruleset declares it (``Ruleset.list_schedule``):
never to players before the event ends (swu-1.4 §7.1: the organizer may
publish lists; swu-1.0 §7.1 alike), except the lists of the top cut while it runs,
which its players exchange (swu-1.4 §4.6.1; swu-1.0 §4.4.1). The X-Wing, Armada and
LCG regulations exchange no lists: theirs are shown after the event only. Anything
earlier is refused with the reason. Officials see a player's list at any time
(:func:`official_list`: a deck check needs it), and what each deck check found
(:func:`deck_check_comparisons`).

The cards are not in the events (:mod:`ledger.list_events`): each list shown is read
from ``tledger_lists`` and checked against the hash its event committed to, so a
damaged or swapped list is an integrity error naming the seq, never shown. A list is
shown with the salt of its hash, so that whoever sees it can check it against the log.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from commands.errors import UnknownPlayer, WrongPhase
from commands.lists import differences
from commands.reads.listmodels import (
    DeckCheckComparison,
    ListViolation,
    OfficialList,
    PublishedList,
    PublishedLists,
)
from ledger.errors import ListDamaged
from ledger.list_rows import checked
from ledger.store import ListEntry
from projections.rulesets.deckcompare import summary
from projections.standings import ruleset_of
from projections.state import TournamentState
from projections.tournament import DeckList


def published_lists(
    state: TournamentState, names: Mapping[str, str], stored: Sequence[ListEntry]
) -> PublishedLists:
    """The lists that may be shown now (``stored``: the tournament's ``tledger_lists``
    rows), or WrongPhase saying when they may (the ruleset's ``list_schedule``)."""
    schedule = ruleset_of(state).list_schedule
    if state.finished:
        scope, section = "event", schedule.published
        players = [p for p in state.players if p in state.lists]
    elif state.cut is not None and schedule.exchanged_in_cut is not None:
        scope, section = "top_cut", schedule.exchanged_in_cut
        players = [p for p in state.cut.seeds if p in state.lists]
    else:
        raise WrongPhase(not_yet(state))
    by_seq = {e.seq: e for e in stored}
    shown = [
        PublishedList(player=p, name=names.get(p, p), seq=d.seq, list_hash=d.hash,
                      salt=e.salt or None, corrected=d.corrected, list=e.list)
        for p in players
        for d in (state.lists[p],)
        for e in (kept(state, by_seq, d),)
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
    checks = deck_check_comparisons(state, stored, player=player)
    return OfficialList(tournament=state.id, player=player, name=names.get(player, player),
                        seq=held.seq, list_hash=held.hash, salt=entry.salt or None,
                        corrected=held.corrected,
                        locked=state.lists_locked, list=entry.list, violations=found,
                        deck_checks=checks)  # fmt: skip


def deck_check_comparisons(
    state: TournamentState, stored: Sequence[ListEntry], player: str | None = None,
    seqs: Collection[int] | None = None,
) -> list[DeckCheckComparison]:  # fmt: skip
    """The deck checks that recorded what was presented (one player's, or those at
    ``seqs``), each with every difference from the list in force then, card names
    included: for officials only. Both lists are read from ``tledger_lists`` and checked
    against their events' hashes, and the differences against the event's summary."""
    by_seq = {e.seq: e for e in stored}
    shown: list[DeckCheckComparison] = []
    for p in state.presented_checks:
        check = p.check
        if (player is not None and check.player != player) or (
            seqs is not None and p.seq not in seqs
        ):
            continue
        presented = checked(state.id, by_seq, p.seq, check.player, check.presented_hash or "")
        found = differences(state, p.compared, stored, presented.list) if p.compared else []
        if p.compared is not None and summary(found) != check.differences:
            raise ListDamaged(state.id, p.seq, "the deck check's differences are not those "
                                               "of its lists")  # fmt: skip
        shown.append(DeckCheckComparison(
            seq=p.seq, player=check.player, round=check.round, timing=check.timing,
            outcome=check.outcome, presented_hash=presented.list_hash,
            presented_salt=presented.salt or None, presented=presented.list,
            compared_seq=p.compared.seq if p.compared else None,
            compared_hash=check.compared_hash, note=check.note, differences=found,
        ))  # fmt: skip
    return shown


def kept(state: TournamentState, by_seq: Mapping[int, ListEntry], held: DeckList) -> ListEntry:
    """The stored list of the event at ``held.seq``, checked against its hash."""
    return checked(state.id, by_seq, held.seq, held.player, held.hash)


def not_yet(state: TournamentState) -> str:
    schedule = ruleset_of(state).list_schedule
    after, cut = schedule.published, schedule.exchanged_in_cut
    when = f"after the event ({after})" if after else "after the event"
    also = f", and the top cut's while it runs ({cut})" if cut else ""
    return f"lists are shown {when}{also}; the tournament's stage is {state.stage}"
