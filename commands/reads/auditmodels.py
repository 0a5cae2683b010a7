"""The typed read models of the judges' and auditors' faces: the judges' queue of
results to settle, and a verification with the witnesses it checked.

Like every read model (``commands.reads.models``) they are computed from the fold or
the stored log and rendered, never recomputed, by the console and the CLI.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from commands.reads.models import ReadModel, TableStateName
from commands.reads.papermodels import ReportForm


class QueueReport(ReadModel):
    """One report of a match as the log has it: who sent it (a player of the match or
    an official), when, at which seq, and the result turned to the match's order."""

    seq: int
    at: datetime | None
    role: str
    actor: str
    result: dict[str, Any]


class QueueTable(ReadModel):
    """A table of the current round whose result is not confirmed: its players'
    reports (each player's latest self-report first), and the form of the result
    its ruleset takes (the slip's, ``commands.reads.slipmatch.report_form``)."""

    round: int
    table: int | None
    players: list[str]
    state: TableStateName
    reports: list[QueueReport]
    form: ReportForm


class JudgeQueue(ReadModel):
    """The judges' queue: disputed tables first, then missing results, then results one
    player reported and the other has not confirmed."""

    tournament: str
    round: int
    round_state: Literal["paired", "started", "complete"] | None
    stage: Literal["swiss", "elimination"] | None
    seq: int
    head: str
    counts: dict[TableStateName, int]
    tables: list[QueueTable]
    names: dict[str, str] = Field(default_factory=dict)


class PairingCheckRow(ReadModel):
    seq: int
    round: int
    kind: str
    ok: bool
    detail: str | None


class WitnessRow(ReadModel):
    """A printed head's verdict (``replay.witness``): ``name`` and ``verdict`` as the CLI
    prints them; ``digits``: how many hex digits of the head the witness gave and were
    compared (64, or a prefix of at least 16)."""

    file: str
    line: int
    seq: int
    hash: str
    ok: bool
    reason: str | None
    digits: int
    name: str = Field("", exclude=True)
    verdict: str = Field("", exclude=True)


class Verified(ReadModel):
    """``tledger verify T``'s result: the chain, every pairing re-derived, the published
    head (``--head``) and the printed heads (``--witness``) checked. The JSON is the
    CLI's: ``head_seq`` only when a head was asked about, ``witnesses`` only when some
    were given; ``ok`` is false when a pairing, the head or a witness fails."""

    tournament: str
    ok: bool
    events: int
    head: str | None
    broken_at: int | None
    broken: str | None
    pairings: list[PairingCheckRow]
    head_seq: int | None = None
    witnesses: list[WitnessRow] | None = Field(None, exclude_if=lambda v: v is None)
    asked_head: str | None = Field(None, exclude=True)
    #: the failing witness of the lowest seq, as a line: where the log first differs
    contradicted: str | None = Field(None, exclude=True)


class TiebreakerWhy(ReadModel):
    """One tiebreaker's value, the section that defines it and how it was computed;
    ``label`` and ``shown`` (the value as the ruleset prints it) for human faces."""

    value: float | int
    section: str | None
    how: str
    label: str = Field("", exclude=True)
    shown: str = Field("", exclude=True)


class Explained(ReadModel):
    """``tledger explain T P``: how a player's points and every tiebreaker came about
    (``replay.explain``), with the names of everyone it names."""

    tournament: str
    ruleset: str
    player: str
    rank: int
    points: float | int
    dropped: bool
    matches: list[dict[str, Any]]
    opponents: list[dict[str, Any]]
    tiebreakers: dict[str, TiebreakerWhy]
    names: dict[str, str]
