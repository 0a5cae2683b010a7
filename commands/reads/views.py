"""From a tournament's folded state to its typed read models (``commands.reads.models``).

The one place where a read joins names (a registry entry's name, or "(erased)"
once ``tledger forget`` removed it) and checks that an asked-for round was paired:
the CLI, the HTTP API and the HTML faces render what these functions return. The
player history lives in ``commands.reads.history``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any

import orjson

from commands.errors import UnknownPlayer, WrongPhase
from commands.reads.initiative import declared_points, initiative_rule
from commands.reads.logfilter import LogFilter
from commands.reads.models import (
    Bracket,
    BracketMatch,
    BracketRound,
    BracketSeed,
    DeckBuilding,
    DeckChecks,
    LoggedEvent,
    LogPage,
    Outstanding,
    Pairings,
    PairingTable,
    ReadModel,
    Record,
    StandingRow,
    Standings,
    Status,
    TableState,
    TableStateName,
)
from commands.reads.people import matches as found
from ledger.events import CutMade
from ledger.store import ListEntry, PlayerEntry, Recorded
from projections.bracket import Resolved, effective_seeds, resolve
from projections.elimination import winner
from projections.round_names import round_name, slot_names
from projections.rulesets.initiative import InitiativeRule
from projections.schedule import cut_size, players_present, rounds_planned
from projections.standings import ruleset_of, swiss_standings
from projections.standings import standings as ranked
from projections.state import TABLE_STATE, Match, Round, TournamentState

ERASED = "(erased)"


class PlayerNotFound(UnknownPlayer):
    """A read of a player the tournament does not know: no such resource (HTTP 404),
    where a command naming one is refused (409)."""

    http_status = 404


def registered_names(
    entries: Mapping[str, PlayerEntry], teams: Mapping[str, Sequence[str]] | None = None
) -> dict[str, str]:
    """Player id -> name, from the registry entries that are still there. A team of an
    lcg-2.1d team event (``teams``: team id -> member ids) is named with both members,
    "Rebel Cell (Ada, Ben)" ("Team-Turniere": standings and printouts by team), each
    member's name from their own entry, so that forgetting one erases only theirs."""
    names = {player: entry.name for player, entry in entries.items()}
    for team, members in (teams or {}).items():
        together = ", ".join(name_of(names, p) for p in members)
        names[team] = f"{name_of(names, team)} ({together})"
    return names


def name_of(names: Mapping[str, str], player: str) -> str:
    """A player's display name; an erased (or never named) player shows as "(erased)"."""
    return names.get(player, ERASED)


def names_in(names: Mapping[str, str], players: Iterable[str]) -> dict[str, str]:
    return {p: name_of(names, p) for p in players}


def number(value: float) -> int | float:
    """Whole numbers print as integers (9, not 9.0); fractions stay unrounded."""
    return int(value) if float(value).is_integer() else value


def paired_round(state: TournamentState, number: int | None = None) -> Round | None:
    """Round ``number`` (the current round when None); asking for one that was never
    paired is refused, not answered with an empty round."""
    if number is None:
        return state.current
    found = state.round(number)
    if found is None:
        raise WrongPhase(f"round {number} is not paired")
    return found


def status(
    state: TournamentState, names: Mapping[str, str] | None = None,
    late: Collection[tuple[str, ...]] = (),
) -> Status:  # fmt: skip
    """``late``: the players of the tables still playing after their time
    (``commands.reads.clockviews.late`` at the caller's now)."""
    current = state.current
    won = winner(state)
    tables = table_states(current, late)
    named = [p for t in tables for p in t.players]
    return Status(
        tournament=state.id, ruleset=state.ruleset, options=state.options, stage=state.stage,
        round=current.number if current else 0,
        round_state=current.state if current else None,
        rounds_planned=rounds_planned(state), cut_size=cut_size(state),
        players=len(state.players), active_players=len(state.active_players),
        seq=state.seq, position=state.position, head=state.head,
        deck_checks=DeckChecks(checked=len(state.deck_checks),
                               target=deck_check_target(players_present(state))),
        tables=tables,
        champion=won, deck_building=deck_building(state),
        names=names_in(names or {}, [*named, won] if won else named),
        name=state.name, teams=ruleset_of(state).team is not None,
        lists_due=ruleset_of(state).lists_due(),
        lists_submitted=sum(p in state.lists for p in state.active_players),
    )  # fmt: skip


def deck_building(state: TournamentState) -> DeckBuilding | None:
    """The limited event's deck-building phase once started (swu-1.4 §2.3.2)."""
    started = state.deck_building
    if started is None:
        return None
    return DeckBuilding(started_at=started.at, minutes=started.minutes,
                        ends_at=started.at + timedelta(minutes=started.minutes))  # fmt: skip


def deck_check_target(players: int) -> int:
    """About 10% of decks over the event (swu-1.4 §6: 128 players -> about 12 checks)."""
    return max(1, players // 10) if players else 0


def table_states(rnd: Round | None, late: Collection[tuple[str, ...]] = ()) -> list[TableState]:
    if rnd is None:
        return []
    waiting = rnd.state == "paired"
    return [TableState(table=m.table, players=list(m.players), state=TABLE_STATE[m.status],
                       over_time=True if m.players in late else None,
                       shown=shown_state(TABLE_STATE[m.status], waiting, m.players in late))
            for m in rnd.matches]  # fmt: skip


def shown_state(state: TableStateName, not_started: bool, over_time: bool) -> str:
    """A table's state as the organizer reads it: a table without a report reads "not
    started" before its round starts and "playing" while its time (the round's, or its
    own with an extension) runs, since no result is missing yet; "missing" only once
    that time is over. Any other state is the contract's."""
    if state != "missing":
        return state
    if not_started:
        return "not started"
    return "missing" if over_time else "playing"


def outstanding(state: TournamentState) -> Outstanding:
    """The current round's tables still waiting for a confirmed result."""
    current = state.current
    tables = table_states(current)
    counts: dict[TableStateName, int] = {
        "missing": 0, "unconfirmed": 0, "disputed": 0, "confirmed": 0}  # fmt: skip
    for table in tables:
        counts[table.state] += 1
    return Outstanding(
        tournament=state.id, round=current.number if current else 0,
        round_state=current.state if current else None, seq=state.seq, head=state.head,
        counts=counts, tables=[t for t in tables if t.state != "confirmed"],
    )  # fmt: skip


def standings(state: TournamentState, names: Mapping[str, str]) -> Standings:
    rows = [
        StandingRow(
            rank=s.rank, player=s.player, name=name_of(names, s.player),
            points=number(s.scores.points),
            record=Record(wins=s.scores.record.wins, losses=s.scores.record.losses,
                          draws=s.scores.record.draws),
            dropped=s.dropped,
            tiebreakers={k: number(v) for k, v in s.scores.tiebreakers.items()},
        )
        for s in ranked(state)
    ]  # fmt: skip
    return Standings(tournament=state.id, ruleset=state.ruleset, seq=state.seq,
                     head=state.head, standings=rows)  # fmt: skip


def pairings(
    state: TournamentState,
    round_number: int | None = None,
    names: Mapping[str, str] | None = None,
    search: str | None = None,
    lists: Sequence[ListEntry] = (),
    show_points: bool = False,
) -> Pairings:
    """The round's tables; with ``search``, only those where a player's name or id holds
    it, folded as ``commands.reads.people.matches`` folds (the public page's "where do I
    play?"). With ``lists`` (the tournament's ``tledger_lists`` rows), who chooses
    initiative where the ruleset decides it by list points; the points themselves only
    with ``show_points`` (the organizer's printout)."""
    rule = initiative_rule(state)
    points = declared_points(state, lists) if rule is not None and lists else {}
    rnd = paired_round(state, round_number)
    matches = rnd.matches if rnd else []
    if search:
        matches = [
            m for m in matches if any(found(search, name_of(names or {}, p), p) for p in m.players)
        ]
    return Pairings(
        round=rnd.number if rnd else round_number or 0,
        stage=rnd.stage if rnd else state.stage,
        seq=state.seq, head=state.head,
        pairings=[pairing_table(m, rule, points, show_points) for m in matches],
        names=names_in(names or {}, (p for m in matches for p in m.players)),
    )  # fmt: skip


def pairing_table(
    match: Match,
    rule: InitiativeRule | None = None,
    points: Mapping[str, int] | None = None,
    show_points: bool = False,
) -> PairingTable:
    """A table as the read side shows it; with ``rule`` and the players' declared
    ``points``, who chooses initiative (nothing for a bye or a player without a list)."""
    decided = rule.decide(match.players, points) if rule is not None and points else None
    return PairingTable(
        table=match.table, players=list(match.players), light=match.light,
        chooses_side=match.chooses_side,
        chooses_initiative=decided.chooses if decided else None,
        initiative_tie=True if decided and decided.tie else None,
        list_points=dict(zip(match.players, decided.points, strict=True))
        if decided is not None and show_points else {},
    )  # fmt: skip


def bracket(state: TournamentState, names: Mapping[str, str] | None = None) -> Bracket:
    """The elimination rounds as paired, with each match's bracket and winner; for human
    faces also each round's name, the results, the seeds and the champion."""
    if state.cut is None:
        return Bracket(format=None, rounds=[])
    rules = ruleset_of(state)
    ranked_swiss = swiss_standings(state)
    swiss = [s.player for s in ranked_swiss]
    built = resolve(state, rules, swiss)
    called = slot_names(built.nodes, rules.bracket_terms)
    rounds = [bracket_round(rnd, built.resolved, called, rules.tie_procedure)
              for rnd in state.rounds if rnd.stage == "elimination"]  # fmt: skip
    records = {s.player: Record(wins=s.scores.record.wins, losses=s.scores.record.losses,
                                draws=s.scores.record.draws) for s in ranked_swiss}  # fmt: skip
    seeds = bracket_seeds(state.cut, effective_seeds(state, state.cut, rules, swiss), records)
    shown = [*(p for r in rounds for m in r.matches for p in m.players),
             *(p for s in seeds for p in (s.player, s.playoff) if p)]  # fmt: skip
    return Bracket(format=state.cut.format, rounds=rounds, names=names_in(names or {}, shown),
                   seeds=seeds, champion=built.champion)  # fmt: skip


def bracket_round(rnd: Round, resolved: dict[str, Resolved], called: Mapping[str, str],
                  tie: str | None = None) -> BracketRound:  # fmt: skip
    matches = []
    for m in rnd.matches:
        result = m.result.model_dump(mode="json", exclude_none=True) if m.result else None
        matches.append(BracketMatch(
            table=m.table, players=list(m.players), bracket=m.bracket,
            winner=resolved[m.slot].winner if m.slot in resolved else None,
            name=called.get(m.slot, "") if m.slot else "", result=result,
            decided=decided(result, tie)))  # fmt: skip
    return BracketRound(round=rnd.number, matches=matches, name=round_name(m.name for m in matches))


def decided(result: Mapping[str, Any] | None, tie: str | None) -> str:
    """How a match level on its count was decided, where the result names its winner:
    the result's ``decided_by`` (swu-1.4 §4.3.2: base HP, then initiative; X-Wing's final
    salvo), else the ruleset's tie procedure (``Ruleset.tie_procedure``); "" otherwise."""
    if not result or "winner" not in result:
        return ""
    return str(result.get("decided_by") or tie or "")


def bracket_seeds(cut: CutMade, seeds: Sequence[str],
                  records: Mapping[str, Record] | None = None) -> list[BracketSeed]:  # fmt: skip
    """The bracket's places, best first (after any replacement of a qualified player who
    dropped before the first elimination game, as the bracket pairs them), each with the
    Swiss record its player made the cut with."""
    playoff, known = dict(cut.playoff), records or {}
    return [BracketSeed(seed=number, player=p, playoff=playoff.get(p), record=known.get(p))
            for number, p in enumerate(seeds, start=1)]  # fmt: skip


def log_page(
    tournament: str,
    events: Sequence[Recorded],
    next_after_seq: int | None = None,
    keep: LogFilter | None = None,
    labels: Mapping[tuple[str, str], str] | None = None,
) -> LogPage:
    """Events oldest first; ``keep`` leaves out those the filter does not keep (``log
    --type --player --round``); ``labels``: (role, id) of token actors -> the token's
    label (commands.tokens)."""
    shown = keep.apply(events) if keep is not None else events
    return LogPage(tournament=tournament, events=[logged(r, labels) for r in shown],
                   next_after_seq=next_after_seq)  # fmt: skip


def logged(recorded: Recorded, labels: Mapping[tuple[str, str], str] | None = None) -> LoggedEvent:
    data = recorded.as_json()
    actor = data["actor"]  # every event carries its actor
    label = labels.get((actor["role"], actor["id"])) if labels else None
    return LoggedEvent.model_validate(data if label is None else {**data, "actor_label": label})


def event_view(recorded: Recorded) -> dict[str, Any]:
    """One event as the contract's JSON (what ``apply`` and ``POST /commands`` answer)."""
    return recorded.as_json()


def json_of(model: ReadModel) -> dict[str, Any]:
    """A model as the contract's plain JSON data."""
    return model.model_dump(mode="json")


def json_bytes(model: ReadModel) -> bytes:
    """A model serialized once, as every face sends it."""
    return orjson.dumps(json_of(model))
