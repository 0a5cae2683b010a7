"""The judges' queue: the current round's tables a judge must settle.

Disputed tables come first (the players' reports differ: a judge's report decides,
``commands.decide.conflicts``), then missing results, then reports still waiting for
the opponent's confirmation; in table order within each. Every report is shown as the
log has it (who, when, which seq), so the judge sees both sides of a dispute.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from commands.reads.auditmodels import JudgeQueue, QueueReport, QueueTable
from commands.reads.eventtext import describe_result
from commands.reads.models import TableStateName
from commands.reads.slipmatch import as_json, report_form
from commands.reads.views import names_in
from projections.standings import ruleset_of
from projections.state import TABLE_STATE, Match, TournamentState

#: the order in which the queue shows the tables' states
URGENCY: dict[TableStateName, int] = {"disputed": 0, "missing": 1, "unconfirmed": 2,
                                      "confirmed": 3}  # fmt: skip


def judge_queue(state: TournamentState, names: Mapping[str, str]) -> JudgeQueue:
    """The current round's unconfirmed tables, most urgent first."""
    current = state.current
    matches = [m for m in current.matches if not m.is_bye] if current else []
    counts: dict[TableStateName, int] = {"missing": 0, "unconfirmed": 0, "disputed": 0,
                                         "confirmed": 0}  # fmt: skip
    for m in current.matches if current else []:
        counts[TABLE_STATE[m.status]] += 1
    waiting = [m for m in matches if TABLE_STATE[m.status] != "confirmed"]
    waiting.sort(key=lambda m: (URGENCY[TABLE_STATE[m.status]], m.table or 0))
    rules = ruleset_of(state) if current else None
    tables = [
        QueueTable(round=m.round, table=m.table, players=list(m.players),
                   state=TABLE_STATE[m.status], reports=reports_of(m),
                   form=report_form(rules, m.stage))
        for m in waiting if rules is not None
    ]  # fmt: skip
    named = {p for m in (current.matches if current else []) for p in m.players}
    return JudgeQueue(
        tournament=state.id, round=current.number if current else 0,
        round_state=current.state if current else None,
        stage=current.stage if current else None, seq=state.seq, head=state.head,
        counts=counts, tables=tables, names=names_in(names, sorted(named)),
    )  # fmt: skip


def reports_of(match: Match) -> list[QueueReport]:
    """Each player's latest self-report (in the match's player order), then any
    official's report, as the fold holds them."""
    latest = {r.actor.id: r for r in match.reports
              if r.actor.role == "player" and r.actor.id in match.players}  # fmt: skip
    mine = [latest[p] for p in match.players if p in latest]
    official = [r for r in match.reports if r.actor.role != "player"]
    return [QueueReport(seq=r.seq, at=r.at, role=r.actor.role, actor=r.actor.id,
                        result=as_json(r.result)) for r in (*mine, *official)]  # fmt: skip


def report_sentence(report: QueueReport, players: Sequence[str], names: Mapping[str, str]) -> str:
    """A report as one sentence in the table's order, with names: "Ada 2 – 0 Ben,
    reported by Ada" (the numbers are the players' in the order the table lists them,
    as the report is turned to it), so a judge reads whose score comes first; a result
    without a count reads "Ada v Ben, no-show: Ben, reported by the judge j1"."""
    first, second = (names.get(p, p) for p in players[:2])
    result: dict[str, Any] = dict(report.result)
    count = next((k for k in ("games", "points") if k in result), None)
    if count is not None:
        mine, theirs = result.pop(count)
        head = f"{first} {mine} – {theirs} {second}"
    else:
        head = f"{first} v {second}"
    if not result.get("draws"):
        result.pop("draws", None)
    rest = describe_result(result, names)
    said = f"{head}, {rest}" if rest else head
    by = names.get(report.actor, report.actor) if report.role == "player" else (
        f"the {report.role} {report.actor}")  # fmt: skip
    return f"{said}, reported by {by}"
