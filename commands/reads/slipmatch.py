"""The read model of one match slip's report page: a match, its players' names,
where its result stands and the shape of the result its ruleset takes.

Built from the fold like every read model (commands/reads/cache.py caches it per seq),
so the page renders it and decides nothing: the state of the match comes from the
fold's own settlement of its reports, the form's shape from the ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from commands.errors import UnknownMatch
from commands.reads.papermodels import MatchSlip, ReportForm, SelfReport
from commands.reads.views import names_in
from ledger.events import MatchResult, Stage
from projections.rulesets.base import Ruleset
from projections.standings import ruleset_of
from projections.state import TABLE_STATE, Match, TournamentState


class SlipMatchGone(UnknownMatch):
    """The slip's match is no longer paired (its tables were re-paired after a
    correction, swu-1.4 §5.8): its code reports nothing; a new slip has a new code."""

    http_status = 404


def match_slip(
    state: TournamentState, round_number: int, players: tuple[str, str], names: Mapping[str, str]
) -> MatchSlip:
    """The slip's match as its report page shows it."""
    rnd = state.round(round_number)
    match = rnd.match_of(*players) if rnd is not None else None
    if rnd is None or match is None:
        raise SlipMatchGone(f"round {round_number} has no match of {players[0]} and {players[1]}")
    return MatchSlip(
        tournament=state.id, event=state.name, ruleset=state.ruleset, round=rnd.number,
        stage=rnd.stage, table=match.table, players=list(match.players),
        names=names_in(names, match.players), state=TABLE_STATE[match.status],
        round_started=rnd.started_at is not None, finished=state.finished,
        awaiting=awaiting(match), reports=self_reports(match),
        result=as_json(match.result) if match.result and match.status == "confirmed" else None,
        form=report_form(ruleset_of(state), rnd.stage), seq=state.seq, head=state.head,
    )  # fmt: skip


def self_reports(match: Match) -> list[SelfReport]:
    """Each player's latest self-report (in the match's player order), as the fold
    settles them; an official's report is no self-report."""
    latest = {r.actor.id: r.result for r in match.reports
              if r.actor.role == "player" and r.actor.id in match.players}  # fmt: skip
    return [SelfReport(player=p, result=as_json(latest[p])) for p in match.players if p in latest]


def awaiting(match: Match) -> str | None:
    """The player an unconfirmed self-report waits for: the one who has not reported."""
    if match.status != "unconfirmed":
        return None
    reported = {r.player for r in self_reports(match)}
    return next((p for p in match.players if p not in reported), None)


def as_json(result: MatchResult) -> dict[str, Any]:
    return result.model_dump(mode="json", exclude_none=True)


def report_form(rules: Ruleset, stage: Stage) -> ReportForm:
    """The result the ruleset takes from a slip, in its own terms:
    its ``result_form`` for the stage, a best-of-N match won at more than half the games,
    a level result decided by the ruleset's ``tie_procedure``, victory points up to its
    ``points_cap``."""
    form = rules.result_form(stage)
    tie = rules.tie_procedure if form.tie_winner and rules.tie_procedure else "none"
    if form.kind == "games":
        return ReportForm(kind="games", max_wins=(form.games + 1) // 2, max_draws=form.games,
                          tie=tie)  # fmt: skip
    if form.kind == "points":
        return ReportForm(kind="points", max_points=rules.points_cap(stage), tie=tie)
    return ReportForm(kind="game_results", games=form.games, game_draws=form.draws)
