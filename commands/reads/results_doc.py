"""The results document: a tournament's results as one typed read model, what
``tledger export --format json`` writes and ``--format csv`` renders.

Organizers upload results elsewhere (rating sites, store systems), and an auditor
wants them in a form that stands alone: every round's tables with their results in
the contract's result JSON (in each ruleset's shape), the byes, the players with when
they could first be paired, their drops and returns with the round after which each
happened, the penalties, the cut, the ruleset with its options and recorded seed, and
the standings, with the log's ``seq`` and head. Enough to rebuild the standings through
the contract's commands (``commands.text.results_import``), which is how the export is
tested.

In an lcg-2.1d team event ("Team-Turniere") the competitors are teams: ``players``
and the standings name each team with both members, "Rebel Cell (Ada, Ben)", and
``teams`` (only in a team event, so other documents keep their bytes) gives each
team's own name and its members' ids and names, what ``register_team`` takes.

Names are included (they are printed publicly anyway); external ids are not, nor
are the reasons given for drops and disqualifications (a reason such as "ill" is
personal data and no result depends on it). A penalty keeps its infraction: that is
what the penalty is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from commands.reads.models import (
    Number,
    PlayerStatus,
    ReadModel,
    StageName,
    StandingRow,
    TableStateName,
    unset,
)
from commands.reads.roster import status_of
from commands.reads.views import name_of, number, registered_names, standings
from ledger.events import (
    CutMade,
    PlayerDisqualified,
    PlayerDropped,
    PlayerReinstated,
    PlayerRejoined,
    RoundPaired,
)
from ledger.store import PlayerEntry, Recorded
from projections.elimination import winner
from projections.state import TABLE_STATE, Match, Player, Round, TournamentState

FORMAT: Literal["tledger-results/1"] = "tledger-results/1"
RosterChangeKind = Literal["dropped", "rejoined", "reinstated", "disqualified"]


class ResultsPlayer(ReadModel):
    """A registered player; ``first_round``: the first round they could be paired in
    (a late registration's is later than 1); ``missed_rounds``: the Swiss rounds paired
    while they were away and came back from (X-Wing, Armada: unpaired losses);
    ``dropped_after_round``: how many rounds were paired when they left, if they did."""

    player: str
    name: str
    status: PlayerStatus
    first_round: int
    missed_rounds: list[int]
    dropped_after_round: int | None


class ResultsMatch(ReadModel):
    """One table with its two players and, once confirmed, its result in the contract's
    result JSON, numbers in the order of ``players``. Elimination tables also say their
    bracket, and LCG finals who plays light or chooses a side."""

    table: int | None
    players: list[str]
    state: TableStateName
    result: dict[str, Any] | None
    bracket: str | None = Field(None, exclude_if=unset)
    light: str | None = Field(None, exclude_if=unset)
    chooses_side: str | None = Field(None, exclude_if=unset)


class ResultsMember(ReadModel):
    player: str
    name: str


class ResultsTeam(ReadModel):
    """A team of a team event: its id (the competitor in rounds and standings), its own
    name and its two members ("Anmeldung": "als zweiköpfige Teams anmelden")."""

    team: str
    name: str
    members: list[ResultsMember]


class ResultsRound(ReadModel):
    """A round as it stands in the log (after any revision of its pairings, swu-1.4
    §5.8): its matches by table and the players who had a bye."""

    round: int
    stage: Literal["swiss", "elimination"]
    method: str
    started: bool
    matches: list[ResultsMatch]
    byes: list[str]


class RosterChange(ReadModel):
    """A drop, return or disqualification, in the order they happened: ``after_round``
    rounds were paired when it happened, ``after_cut`` whether the cut was made."""

    player: str
    name: str
    change: RosterChangeKind
    after_round: int
    after_cut: bool


class ResultsPenalty(ReadModel):
    player: str
    name: str
    round: int
    penalty: str
    infraction: str
    points: Number | None = Field(None, exclude_if=unset)
    at: datetime


class ResultsCut(ReadModel):
    """The bracket's entrants in seed order, the playoff for tied places (swu-1.0
    §4.1.2) and how the bracket runs."""

    size: int
    seeds: list[str]
    playoff: list[list[str]]
    format: Literal["single", "double"]
    order: Literal["seeded", "random"]


class ResultsDocument(ReadModel):
    format: Literal["tledger-results/1"] = FORMAT
    tournament: str
    name: str
    ruleset: str
    options: dict[str, Any]
    seed: int
    tiebreakers: list[str]
    stage: StageName
    seq: int
    head: str
    players: list[ResultsPlayer]
    teams: list[ResultsTeam] | None = Field(None, exclude_if=unset)
    rounds: list[ResultsRound]
    roster_changes: list[RosterChange]
    penalties: list[ResultsPenalty]
    cut: ResultsCut | None
    champion: str | None
    standings: list[StandingRow]
    #: whether the ruleset deducts points as a penalty (lcg-2.1d "Strafen (z. B.
    #: Punktabzug)"), and the points deducted from each player so far (already
    #: counted in their standings' points)
    point_deductions: bool
    deductions: dict[str, Number]


def results_document(
    state: TournamentState, events: Sequence[Recorded], entries: Mapping[str, PlayerEntry]
) -> ResultsDocument:
    """The document of the fold ``state`` of ``events`` (the same log); ``entries``: the
    registry (players, teams and their members, by id)."""
    from projections.standings import ruleset_of

    registry = {player: entry.name for player, entry in entries.items()}
    names = registered_names(entries, state.teams)
    ranked = standings(state, names)
    rules = ruleset_of(state)
    return ResultsDocument(
        tournament=state.id, name=state.name, ruleset=state.ruleset,
        options=dict(state.options), seed=state.seed,
        tiebreakers=[t.key for t in rules.tiebreakers],
        stage=state.stage,
        seq=state.seq, head=state.head,
        players=[results_player(p, names) for p in state.players.values()],
        teams=[results_team(team, members, registry) for team, members in state.teams.items()]
        if rules.team else None,
        rounds=[results_round(r) for r in state.rounds],
        roster_changes=roster_changes(state, events, names),
        penalties=penalties(state, names),
        cut=cut_of(state.cut), champion=winner(state), standings=ranked.standings,
        point_deductions=rules.point_deductions,
        deductions={p.id: number(p.deductions) for p in state.players.values() if p.deductions},
    )  # fmt: skip


def results_player(p: Player, names: Mapping[str, str]) -> ResultsPlayer:
    return ResultsPlayer(player=p.id, name=name_of(names, p.id), status=status_of(p),
                         first_round=p.first_round, missed_rounds=sorted(p.missed),
                         dropped_after_round=p.dropped_after)  # fmt: skip


def results_team(team: str, members: Sequence[str], registry: Mapping[str, str]) -> ResultsTeam:
    return ResultsTeam(team=team, name=name_of(registry, team), members=[
        ResultsMember(player=p, name=name_of(registry, p)) for p in members])  # fmt: skip


def results_round(rnd: Round) -> ResultsRound:
    return ResultsRound(
        round=rnd.number, stage=rnd.stage, method=rnd.method, started=rnd.started_at is not None,
        matches=[results_match(m) for m in rnd.matches if not m.is_bye],
        byes=[m.players[0] for m in rnd.matches if m.is_bye],
    )  # fmt: skip


def results_match(match: Match) -> ResultsMatch:
    """A result counts once confirmed; a self-report still waiting for the opponent, or
    disputed, shows as its state with no result."""
    confirmed = match.status == "confirmed" and match.result is not None
    return ResultsMatch(
        table=match.table, players=list(match.players), state=TABLE_STATE[match.status],
        result=match.result.model_dump(mode="json", exclude_none=True)
        if confirmed and match.result is not None else None,
        bracket=match.bracket, light=match.light, chooses_side=match.chooses_side,
    )  # fmt: skip


def roster_changes(
    state: TournamentState, events: Sequence[Recorded], names: Mapping[str, str]
) -> list[RosterChange]:
    """Drops, returns and disqualifications in log order, each with the rounds paired and
    whether the cut was made when it happened: the fold keeps each player's drops, but
    not how they interleave with another player's return or with the cut, which decides
    who enters the bracket."""
    changes: list[RosterChange] = []
    paired, cut = 0, False
    for recorded in events:
        event = recorded.event
        if isinstance(event, RoundPaired):
            paired = event.round
        elif isinstance(event, CutMade):
            cut = True
        kind = change_kind(event)
        player = getattr(event, "player", None)
        if kind is not None and isinstance(player, str) and player in state.players:
            changes.append(RosterChange(player=player, name=name_of(names, player), change=kind,
                                        after_round=paired, after_cut=cut))  # fmt: skip
    return changes


def change_kind(event: object) -> RosterChangeKind | None:
    if isinstance(event, PlayerDropped):
        return "dropped"
    if isinstance(event, PlayerRejoined):
        return "rejoined"
    if isinstance(event, PlayerReinstated):
        return "reinstated"
    if isinstance(event, PlayerDisqualified):
        return "disqualified"
    return None


def penalties(state: TournamentState, names: Mapping[str, str]) -> list[ResultsPenalty]:
    """Every penalty, oldest first."""
    issued = [p for player in state.players.values() for p in player.penalties]
    issued.sort(key=lambda p: p.at)
    return [
        ResultsPenalty(player=p.player, name=name_of(names, p.player), round=p.round,
                       penalty=p.penalty, infraction=p.infraction,
                       points=None if p.points is None else number(p.points), at=p.at)
        for p in issued
    ]  # fmt: skip


def cut_of(cut: CutMade | None) -> ResultsCut | None:
    if cut is None:
        return None
    return ResultsCut(size=cut.size, seeds=list(cut.seeds),
                      playoff=[list(pair) for pair in cut.playoff], format=cut.format,
                      order=cut.order)  # fmt: skip
