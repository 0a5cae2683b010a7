"""decide(state, command, now, seed) -> events: the rules, as pure functions.

Nothing here reads a clock, draws a random number or touches the store: time,
ids, seeds and the salt of a list's hash come in as arguments, so every decision can
be replayed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import assert_never

from commands import discipline, limited, lists, teams, undo
from commands import models as m
from commands.context import Base, match_of, refuse_taken, require
from commands.corrections import correct_result
from commands.cut import make_cut, pair_elimination
from commands.errors import (
    InvalidCommand,
    RuleViolation,
    TournamentExists,
    UnknownPlayer,
    UnknownTournament,
    WrongPhase,
)
from commands.idempotency import command_digest
from ledger.events import (
    ORGANIZER,
    Actor,
    DisputedReport,
    EventBase,
    MatchResult,
    PlayerRegistered,
    ResultReported,
    RoundPaired,
    RoundStarted,
    Table,
    TournamentCreated,
    TournamentFinished,
)
from ledger.store import ListEntry
from projections.errors import InvalidOptions, InvalidResult, NoValidPairing, UnknownRuleset
from projections.lifecycle import finished, lifecycle
from projections.pairing import ENGINE, eligible_players, pair_swiss
from projections.refusal import some_of
from projections.rulesets import ruleset
from projections.standings import ruleset_of
from projections.state import Match, TournamentState


@contextmanager
def as_command_errors() -> Iterator[None]:
    """Translate projection errors into the command error a caller reports."""
    try:
        yield
    except (InvalidResult, InvalidOptions, UnknownRuleset) as exc:
        raise InvalidCommand(str(exc)) from None
    except NoValidPairing as exc:
        raise RuleViolation(str(exc)) from None


def decide(
    state: TournamentState, command: m.Command, *, now: datetime, seed: int,
    kept_lists: Sequence[ListEntry] = (), salt: bytes = b"",
) -> list[EventBase]:  # fmt: skip
    """The events that ``command`` causes in ``state``, or a named CommandError.
    ``kept_lists``: the ``tledger_lists`` rows, for a deck check that compares what was
    presented with the list in force and a list correction (``commands.lists.wants_lists``);
    ``salt``: random bytes the hash of a list the command records is salted with (empty:
    the unsalted hash of lists recorded before salts); inputs like ``now``, so deciding
    stays pure."""
    if not isinstance(command, m.CreateTournament):
        if not state.exists:
            raise UnknownTournament(command.tournament)
        if state.finished and not isinstance(command, m.CorrectResult | m.ReopenTournament):
            raise WrongPhase(finished(state))
    base = Base(
        tournament=command.tournament,
        at=now,
        actor=command.actor or ORGANIZER,
        command_id=command.command_id,
        command_digest=command_digest(command) if command.command_id else None,
    )
    with as_command_errors():
        return dispatch(state, command, base, seed, kept_lists, salt)


def dispatch(
    state: TournamentState, command: m.Command, base: Base, seed: int,
    kept_lists: Sequence[ListEntry] = (), salt: bytes = b"",
) -> list[EventBase]:  # fmt: skip
    """The decider of each command type. Exhaustive: a command added to ``m.Command``
    and not wired here fails mypy at ``assert_never``, never at run time."""
    match command:
        case m.CreateTournament():
            return create_tournament(state, command, base, seed)
        case m.RegisterPlayer():
            return register_player(state, command, base, seed)
        case m.RegisterTeam():
            return teams.register_team(state, command, base, seed, salt)
        case m.DropPlayer():
            return discipline.drop_player(state, command, base, seed)
        case m.RejoinPlayer():
            return discipline.rejoin_player(state, command, base, seed)
        case m.PairRound():
            return pair_round(state, command, base, seed)
        case m.StartRound():
            return start_round(state, command, base, seed)
        case m.ReportResult():
            return report_result(state, command, base, seed)
        case m.CorrectResult():
            return correct_result(state, command, base, seed)
        case m.DisqualifyPlayer():
            return discipline.disqualify_player(state, command, base, seed)
        case m.IssuePenalty():
            return discipline.issue_penalty(state, command, base, seed)
        case m.RecordDeckCheck():
            return discipline.record_deck_check(state, command, base, seed, kept_lists, salt)
        case m.GrantTimeExtension():
            return discipline.grant_time_extension(state, command, base, seed)
        case m.MakeCut():
            return make_cut(state, command, base, seed)
        case m.FinishTournament():
            return finish_tournament(state, command, base, seed)
        case m.ReinstatePlayer():
            return undo.reinstate_player(state, command, base, seed)
        case m.ReopenTournament():
            return undo.reopen_tournament(state, command, base, seed)
        case m.WithdrawRegistration():
            return undo.withdraw_registration(state, command, base, seed)
        case m.ChangeOptions():
            return undo.change_options(state, command, base, seed)
        case m.SubmitList():
            return lists.submit_list(state, command, base, seed, salt)
        case m.LockLists():
            return lists.lock_lists(state, command, base, seed)
        case m.CorrectList():
            return lists.correct_list(state, command, base, seed, kept_lists, salt)
        case m.AssignPods():
            return limited.assign_pods(state, command, base, seed)
        case m.StartDeckBuilding():
            return limited.start_deck_building(state, command, base, seed)
        case _:
            assert_never(command)


def create_tournament(
    state: TournamentState, c: m.CreateTournament, base: Base, seed: int
) -> list[EventBase]:
    if state.exists:
        raise TournamentExists(c.tournament)
    limited.refuse_unsupported(c.type, c.ruleset, c.options)
    options = ruleset(c.ruleset, c.options).options
    chosen = options.pop("seed", seed)
    return [TournamentCreated(**base, name=c.name, ruleset=c.ruleset, options=options, seed=chosen)]


def register_player(
    state: TournamentState, c: m.RegisterPlayer, base: Base, seed: int
) -> list[EventBase]:
    teams.refuse_player(state)
    refuse_taken(state, c.player, state.players)
    return [PlayerRegistered(**base, player=c.player)]


def pair_round(state: TournamentState, c: m.PairRound, base: Base, seed: int) -> list[EventBase]:
    """The next round as the lifecycle allows it: tables given by hand, the bracket's,
    the team final, or drawn. Pairs to keep apart are the organizer's hand in a Swiss
    draw, so they are taken only where tables given by hand are."""
    steps = lifecycle(state)
    if c.pairings is not None or c.avoid:
        require(steps.pair_by_hand)
    if c.pairings is not None:
        tables = manual_tables(state, c.pairings)
        return [RoundPaired(**base, round=len(state.rounds) + 1, method="manual", pairings=tables)]
    require(steps.pair)
    if steps.pairing == "bracket":
        return pair_elimination(state, base)
    if steps.pairing == "final":
        return teams.pair_final(state, base)
    chosen = c.seed if c.seed is not None else seed
    avoid = tuple((a, b) for a, b in c.avoid or [])
    for p in sorted({p for pair in avoid for p in pair}):
        if p not in state.players:
            raise UnknownPlayer(p)
    tables = pair_swiss(state, chosen, avoid)
    return [
        RoundPaired(
            **base, round=len(state.rounds) + 1, method="auto", seed=chosen, engine=ENGINE,
            ruleset=state.ruleset, avoid=avoid, pairings=tables,
        )
    ]  # fmt: skip


def manual_tables(state: TournamentState, pairings: list[list[str]]) -> tuple[Table, ...]:
    """Manual pairings list every eligible player exactly once (a one-player entry is a
    bye; to leave a player out, drop them first); tables are numbered in the order given."""
    listed = [p for pair in pairings for p in pair]
    for p in listed:
        if p not in state.players:
            raise UnknownPlayer(p)
    dupes = sorted(p for p, n in Counter(listed).items() if n > 1)
    if dupes:
        raise InvalidCommand(f"pair_round: pairings list {some_of(dupes)} more than once")
    inactive = sorted(p for p in listed if not state.players[p].active)
    if inactive:
        raise WrongPhase(f"pair_round: {some_of(inactive)} dropped and cannot be paired")
    missing = sorted(set(eligible_players(state)) - set(listed))
    if missing:
        raise RuleViolation(
            f"pair_round: manual pairings must list every active player; missing "
            f"{some_of(missing)} (drop a player first to leave them out)"
        )
    tables: list[Table] = []
    for pair in pairings:
        number = None if len(pair) == 1 else sum(len(t.players) == 2 for t in tables) + 1
        tables.append(Table(table=number, players=tuple(pair)))
    return tuple(tables)


def start_round(state: TournamentState, c: m.StartRound, base: Base, seed: int) -> list[EventBase]:
    current = state.current
    if current is not None and c.round and c.round != current.number:
        raise WrongPhase(f"round {c.round} is not the current round ({current.number})")
    require(lifecycle(state).start)
    assert current is not None
    number = current.number
    return [*lists.locked_at_start(state, number, base), RoundStarted(**base, round=number)]


def report_result(
    state: TournamentState, c: m.ReportResult, base: Base, seed: int
) -> list[EventBase]:
    rnd, match = match_of(state, c.round, c.players)
    if rnd.started_at is None:
        raise WrongPhase(f"round {c.round} has not started: start_round first")
    if c.actor is not None and c.actor.role == "player" and c.actor.id not in c.players:
        raise RuleViolation(f"player {c.actor.id!r} may report only their own match")
    ruleset_of(state).validate_result(c.players, c.result, rnd.stage)
    if match.status == "confirmed":
        raise WrongPhase(
            f"round {c.round} match {c.players[0]} v {c.players[1]} has a confirmed result; "
            "use correct_result to change it"
        )
    if c.result.intentional_draw and games_begun(state, match):
        raise RuleViolation(
            "an intentional draw is possible only before the first game begins (swu-1.4 §4.4)"
        )
    return [
        ResultReported(
            **base,
            round=c.round,
            players=c.players,
            result=c.result,
            disputed=conflicts(match, c.players, c.result, base["actor"]),
        )
    ]


def conflicts(
    match: Match, players: tuple[str, str], result: MatchResult, actor: Actor
) -> tuple[DisputedReport, ...] | None:
    """The players' standing self-reports this report contradicts.

    A player's report that differs from the opponent's flags the dispute; an official's
    report decides it, and records every player report it went against, so the log
    shows both sides of a dispute and how it was settled. ``None`` when nothing
    conflicts (the event's JSON then has no ``disputed`` at all)."""
    mine = match.oriented(players, result)
    latest = {r.actor.id: r for r in match.reports
              if r.actor.role == "player" and r.actor.id in match.players}  # fmt: skip
    found = tuple(
        DisputedReport(seq=r.seq, player=pid,
                       result=r.result if players[0] == match.players[0] else r.result.swapped())
        for pid, r in sorted(latest.items(), key=lambda item: item[1].seq)
        if r.result != mine and not (actor.role == "player" and actor.id == pid)
    )  # fmt: skip
    return found or None


def games_begun(state: TournamentState, match: Match) -> bool:
    """Whether the match has visibly begun: games reported, a game loss, or a deck check
    between games or after the match (swu-1.4 §4.4: an intentional draw comes first)."""
    if any(r.result.games or r.result.draws for r in match.reports):
        return True
    players = set(match.players)
    penalties = (
        p for pid in players for p in state.players[pid].penalties
        if p.round == match.round and p.penalty == "game_loss"
    )  # fmt: skip
    checks = (
        d for d in state.deck_checks
        if d.round == match.round and d.player in players and d.timing != "before_game_1"
    )  # fmt: skip
    return any(True for _ in penalties) or any(True for _ in checks)


def finish_tournament(
    state: TournamentState, c: m.FinishTournament, base: Base, seed: int
) -> list[EventBase]:
    """The end, when the lifecycle allows it (``projections.lifecycle.finish``): a top cut
    the rules or the options call for made, or the organizer's reason for finishing
    without it (``without_cut``), recorded with the finish."""
    steps = lifecycle(state)
    require(steps.finish if c.without_cut is None else steps.finish_without_cut)
    return [TournamentFinished(**base, without_cut=c.without_cut)]
