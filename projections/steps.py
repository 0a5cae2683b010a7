"""The steps of the fold: how each fact changes a tournament's state.

``evolve`` only applies facts; it never rejects a stored event (rules live in
``decide``). Each step updates the fold's own state in place (see
:mod:`projections.state` for why).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import assert_never

from ledger.events import (
    AutomaticResultWithdrawn,
    CutMade,
    DeckBuildingStarted,
    DeckCheckRecorded,
    Event,
    ListCorrected,
    ListsLocked,
    ListSubmitted,
    MatchResult,
    OptionsChanged,
    PairingsRevised,
    PenaltyIssued,
    PlayerDisqualified,
    PlayerDropped,
    PlayerRegistered,
    PlayerReinstated,
    PlayerRejoined,
    PodsAssigned,
    RegistrationWithdrawn,
    ResultCorrected,
    ResultReported,
    RoundPaired,
    RoundStarted,
    TeamRegistered,
    TimeExtensionGranted,
    TournamentCreated,
    TournamentFinished,
    TournamentReopened,
)
from ledger.fields import normalized
from projections.tournament import (
    OFFICIAL_ROLES,
    DeckList,
    Match,
    Player,
    PresentedCheck,
    Report,
    Round,
    TournamentState,
)


def _created(state: TournamentState, e: TournamentCreated, seq: int) -> None:
    state.id, state.name, state.ruleset = e.tournament, e.name, e.ruleset
    state.options, state.seed, state.created_at = dict(e.options), e.seed, e.at


def _registered(state: TournamentState, e: PlayerRegistered, seq: int) -> None:
    state.players[e.player] = Player(e.player, seq, first_round=len(state.rounds) + 1)
    _remember_forms(state, (e.player,))


def _team_registered(state: TournamentState, e: TeamRegistered, seq: int) -> None:
    """A team is a competitor like a player (lcg-2.1d "Team-Turniere")."""
    state.players[e.team] = Player(e.team, seq, first_round=len(state.rounds) + 1)
    state.teams[e.team] = e.members
    _remember_forms(state, (e.team, *e.members))


def _remember_forms(state: TournamentState, ids: Iterable[str]) -> None:
    """Ids stored as they were typed before ids were normalized, under their NFC form."""
    for stored in ids:
        form = normalized(stored)
        if form != stored:
            state.other_forms[form] = stored


def _dropped(state: TournamentState, e: PlayerDropped, seq: int) -> None:
    player = state.players[e.player]
    player.dropped, player.dropped_after = True, len(state.rounds)
    player.drops.append((len(state.rounds), e))
    player.dropped_seq = seq


def _rejoined(state: TournamentState, e: PlayerRejoined, seq: int) -> None:
    """A returning player missed every round paired while they were away."""
    state.players[e.player].rejoined.append(back(state, e.player))


def back(state: TournamentState, player_id: str) -> int:
    """A player who was out plays again from the next round: every Swiss round paired
    while they were out counts as missed (as the ruleset counts a missed round). Returns
    the round they are back for."""
    player = state.players[player_id]
    away_from = (player.dropped_after or 0) + 1
    player.missed += [r.number for r in state.rounds[away_from - 1 :] if r.stage == "swiss"]
    player.dropped, player.dropped_after = False, None
    return len(state.rounds) + 1


def _paired(state: TournamentState, e: RoundPaired, seq: int) -> None:
    rnd = Round(e.round, e.stage, e.method, e.seed, e.engine, paired_seq=seq)
    for t in e.pairings:
        match = Match(e.round, t.table, t.players, e.stage, t.bracket, t.slot, t.light,
                      t.chooses_side)  # fmt: skip
        if match.is_bye:
            match.status = "bye"
        rnd.matches.append(match)
        rnd.by_pair[frozenset(t.players)] = match
        for player in t.players:
            rnd.by_player.setdefault(player, match)
    if e.round == 1 and e.stage == "swiss":
        state.round1_players = sum(len(t.players) for t in e.pairings)
    state.rounds.append(rnd)


def _started(state: TournamentState, e: RoundStarted, seq: int) -> None:
    rnd = state.round(e.round)
    if rnd is not None:
        rnd.started_at = e.at


def _reported(state: TournamentState, e: ResultReported, seq: int) -> None:
    rnd = state.round(e.round)
    match = rnd.match_of(*e.players) if rnd else None
    if match is None:
        return
    result = match.oriented(e.players, e.result)
    match.reports.append(Report(seq, e.actor, result, e.at))
    settle(match)


def settle(match: Match) -> None:
    """Decide what a match's reports add up to: its status and the result that counts.

    A correction wins over every report. An official's report (organizer,
    judge, scorekeeper) is confirmed and the latest one wins; players'
    self-reports confirm each other when both agree, and leave the match
    disputed when they differ.
    """
    if match.corrections:
        match.result, match.status = match.corrections[-1].result, "confirmed"
        return
    official = [r for r in match.reports if r.actor.role in OFFICIAL_ROLES]
    if official:
        match.result, match.status = official[-1].result, "confirmed"
        return
    latest: dict[str, MatchResult] = {r.actor.id: r.result for r in match.reports}
    results = [latest[p] for p in match.players if p in latest]
    if len(results) == 2:
        agreed = results[0] == results[1]
        match.result = results[0] if agreed else None
        match.status = "confirmed" if agreed else "disputed"
    else:
        match.result, match.status = None, "unconfirmed"


def _corrected(state: TournamentState, e: ResultCorrected, seq: int) -> None:
    rnd = state.round(e.round)
    match = rnd.match_of(*e.players) if rnd else None
    if match is not None:
        match.corrections.append(Report(seq, e.actor, match.oriented(e.players, e.result)))
        settle(match)


def _revised(state: TournamentState, e: PairingsRevised, seq: int) -> None:
    """Replace the re-paired tables; every other table stays as published."""
    rnd = state.round(e.round)
    if rnd is None:
        return
    gone = {frozenset(t.players) for t in e.replaced}
    kept = [m for m in rnd.matches if frozenset(m.players) not in gone]
    new = [Match(e.round, t.table, t.players, rnd.stage, t.bracket, t.slot, t.light,
                 t.chooses_side) for t in e.tables]  # fmt: skip
    for match in new:
        if match.is_bye:
            match.status = "bye"
    rnd.matches = sorted([*kept, *new], key=lambda m: (m.table is None, m.table or 0))
    rnd.index()


def _disqualified(state: TournamentState, e: PlayerDisqualified, seq: int) -> None:
    player = state.players[e.player]
    player.disqualified = True
    if not player.dropped:
        player.dropped_after = len(state.rounds)


def _penalized(state: TournamentState, e: PenaltyIssued, seq: int) -> None:
    player = state.players[e.player]
    player.penalties.append(e)
    if e.penalty == "point_deduction" and e.points:
        player.deductions += e.points


def _deck_checked(state: TournamentState, e: DeckCheckRecorded, seq: int) -> None:
    state.deck_checks.append(e)
    if e.presented_hash is not None:
        state.presented_checks.append(PresentedCheck(seq, e, state.lists.get(e.player)))


def _extended(state: TournamentState, e: TimeExtensionGranted, seq: int) -> None:
    state.extensions.append(e)
    rnd = state.round(e.round)
    match = rnd.match_for(e.players[0]) if rnd else None
    if match is not None:
        match.extension_minutes += e.minutes


def _cut(state: TournamentState, e: CutMade, seq: int) -> None:
    state.cut = e


def _finished(state: TournamentState, e: TournamentFinished, seq: int) -> None:
    state.finished = True


def _reinstated(state: TournamentState, e: PlayerReinstated, seq: int) -> None:
    """A drop undone: paired again from the next round; the Swiss rounds paired while the
    player was (wrongly) out count as missed rounds, as the ruleset counts them."""
    state.players[e.player].reinstated.append(back(state, e.player))


def _result_withdrawn(state: TournamentState, e: AutomaticResultWithdrawn, seq: int) -> None:
    """A drop undone before its round started: the table's automatic loss goes (every
    report of a table not yet played with it), and the player, back with
    ``player_reinstated`` just before, plays this round rather than the next."""
    rnd = state.round(e.round)
    match = rnd.match_of(*e.players) if rnd else None
    if match is not None:
        match.reports.clear()
        match.corrections.clear()
        match.result, match.status = None, "pending"
    reinstated = state.players[e.player].reinstated
    if reinstated and reinstated[-1] == e.round + 1:
        reinstated[-1] = e.round


def _reopened(state: TournamentState, e: TournamentReopened, seq: int) -> None:
    state.finished = False


def _withdrawn(state: TournamentState, e: RegistrationWithdrawn, seq: int) -> None:
    """Before round 1 nothing refers to a player yet: the registration simply goes."""
    for gone in (e.player, *state.teams.get(e.player, ())):
        state.other_forms.pop(normalized(gone), None)
    state.players.pop(e.player, None)
    state.teams.pop(e.player, None)


def _options_changed(state: TournamentState, e: OptionsChanged, seq: int) -> None:
    state.options = dict(e.effective)


def _list_submitted(state: TournamentState, e: ListSubmitted, seq: int) -> None:
    """A resubmission before locking replaces the player's list."""
    state.lists[e.player] = DeckList(e.player, e.list_hash, seq, e.violations)


def _lists_locked(state: TournamentState, e: ListsLocked, seq: int) -> None:
    state.lists_locked = True


def _list_corrected(state: TournamentState, e: ListCorrected, seq: int) -> None:
    state.lists[e.player] = DeckList(e.player, e.list_hash, seq, e.violations, corrected=True)


def _pods_assigned(state: TournamentState, e: PodsAssigned, seq: int) -> None:
    """A reassignment replaces the pods (swu-1.4 §2.3.2.1; commands.limited)."""
    state.pods, state.pods_seq = e, seq


def _deck_building_started(state: TournamentState, e: DeckBuildingStarted, seq: int) -> None:
    state.deck_building = e


def apply_event(state: TournamentState, event: Event, seq: int) -> None:
    """The per-event step of ``evolve``. Exhaustive: an event added to ``Event`` and not
    wired here fails mypy at ``assert_never``, never at run time. The commonest events of a
    large tournament come first: a class pattern is one ``isinstance`` check."""
    match event:
        case ResultReported():
            _reported(state, event, seq)
        case PlayerRegistered():
            _registered(state, event, seq)
        case RoundPaired():
            _paired(state, event, seq)
        case RoundStarted():
            _started(state, event, seq)
        case TournamentCreated():
            _created(state, event, seq)
        case TeamRegistered():
            _team_registered(state, event, seq)
        case PlayerDropped():
            _dropped(state, event, seq)
        case PlayerRejoined():
            _rejoined(state, event, seq)
        case ResultCorrected():
            _corrected(state, event, seq)
        case PairingsRevised():
            _revised(state, event, seq)
        case PlayerDisqualified():
            _disqualified(state, event, seq)
        case PenaltyIssued():
            _penalized(state, event, seq)
        case DeckCheckRecorded():
            _deck_checked(state, event, seq)
        case TimeExtensionGranted():
            _extended(state, event, seq)
        case CutMade():
            _cut(state, event, seq)
        case TournamentFinished():
            _finished(state, event, seq)
        case PlayerReinstated():
            _reinstated(state, event, seq)
        case AutomaticResultWithdrawn():
            _result_withdrawn(state, event, seq)
        case TournamentReopened():
            _reopened(state, event, seq)
        case RegistrationWithdrawn():
            _withdrawn(state, event, seq)
        case OptionsChanged():
            _options_changed(state, event, seq)
        case ListSubmitted():
            _list_submitted(state, event, seq)
        case ListsLocked():
            _lists_locked(state, event, seq)
        case ListCorrected():
            _list_corrected(state, event, seq)
        case PodsAssigned():
            _pods_assigned(state, event, seq)
        case DeckBuildingStarted():
            _deck_building_started(state, event, seq)
        case _:
            assert_never(event)
