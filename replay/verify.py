"""Verify a tournament: the hash chain, then every published pairing re-derived.

Each automatic pairing is recomputed from its log prefix and its recorded seed
with the same engine; a pairing the engine would not have produced is reported.
A manual pairing is listed as manual and checked for rematches and repeated
byes (the constraints the engine would have kept). Revisions after corrections
(swu-1.4 §5.8) are re-derived from the state before the correction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.chain import verify_stored
from ledger.errors import ChainBroken
from ledger.events import PairingsRevised, ResultCorrected, RoundPaired, Table
from ledger.store import Recorded
from projections.bracket import ENGINE as BRACKET_ENGINE
from projections.bracket import elimination_tables
from projections.errors import ProjectionError
from projections.pairing import ENGINE as SWISS_ENGINE
from projections.pairing import pair_swiss, previous_opponents
from projections.revision import revise, revise_elimination
from projections.state import TournamentState, evolve


@dataclass(frozen=True, slots=True)
class PairingCheck:
    seq: int
    round: int
    kind: str  # "auto", "manual" or "revision"
    ok: bool
    detail: str = ""


@dataclass(slots=True)
class Verification:
    tournament: str
    events: int
    head: str | None = None
    broken_at: int | None = None
    broken: str = ""
    pairings: list[PairingCheck] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.broken_at is None and all(p.ok for p in self.pairings)

    def as_json(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament, "ok": self.ok, "events": self.events,
            "head": self.head, "broken_at": self.broken_at, "broken": self.broken or None,
            "pairings": [{"seq": p.seq, "round": p.round, "kind": p.kind, "ok": p.ok,
                          "detail": p.detail or None} for p in self.pairings],
        }  # fmt: skip


def verify(tournament: str, stored: list[tuple[int, int, bytes]], events: list[Recorded] | None,
           ) -> Verification:  # fmt: skip
    """Chain first; only an intact log is worth re-deriving pairings from."""
    report = Verification(tournament, len(stored))
    try:
        report.head = verify_stored(tournament, stored)
    except ChainBroken as exc:
        report.broken_at, report.broken = exc.seq, str(exc)
        return report
    report.pairings = check_pairings(events or [])
    return report


def tables_of(tables: tuple[Table, ...]) -> list[tuple[int | None, tuple[str, ...]]]:
    return [(t.table, t.players) for t in tables]


def check_pairings(events: list[Recorded]) -> list[PairingCheck]:
    state = TournamentState()
    checks: list[PairingCheck] = []
    for i, recorded in enumerate(events):
        event = recorded.event
        if isinstance(event, RoundPaired):
            checks.append(check_round(state, recorded.seq, event))
        elif isinstance(event, ResultCorrected) and i + 1 < len(events):
            following = events[i + 1].event
            if isinstance(following, PairingsRevised):
                checks.append(check_revision(state, recorded, events[i + 1].seq, following))
        evolve(state, recorded)
    return checks


def check_round(state: TournamentState, seq: int, event: RoundPaired) -> PairingCheck:
    if event.method == "manual":
        return PairingCheck(seq, event.round, "manual", *manual_validity(state, event))
    current = SWISS_ENGINE if event.stage == "swiss" else BRACKET_ENGINE
    if event.engine != current:
        return PairingCheck(seq, event.round, "auto", True,
                            f"paired by engine {event.engine}; this ledger runs {current} "
                            "and cannot re-derive it")  # fmt: skip
    try:
        if event.stage == "swiss":
            expected = pair_swiss(state, event.seed or 0, event.avoid)
        else:
            expected = elimination_tables(state)[1]
    except ProjectionError as exc:
        return PairingCheck(seq, event.round, "auto", False, f"engine refuses: {exc}")
    same = tables_of(expected) == tables_of(event.pairings)
    detail = "" if same else f"engine would pair {tables_of(expected)}"
    return PairingCheck(seq, event.round, "auto", same, detail)


def manual_validity(state: TournamentState, event: RoundPaired) -> tuple[bool, str]:
    """Manual pairings are the organizer's; report what the engine would have avoided."""
    met = previous_opponents(state, event.stage)
    rematches = [t.players for t in event.pairings
                 if len(t.players) == 2 and t.players[1] in met.get(t.players[0], ())]  # fmt: skip
    byes = {m.players[0] for r in state.rounds if r.stage == event.stage for m in r.matches
            if m.is_bye}  # fmt: skip
    again = [t.players[0] for t in event.pairings if len(t.players) == 1 and t.players[0] in byes]
    notes = [f"rematch {a} v {b}" for a, b in rematches] + [f"second bye for {p}" for p in again]
    return True, "; ".join(notes) if notes else "manual pairing"


def check_revision(
    state: TournamentState, correction: Recorded, seq: int, event: PairingsRevised
) -> PairingCheck:
    corrected = correction.event
    assert isinstance(corrected, ResultCorrected)
    following = state.round(event.round)
    try:
        if following is not None and following.stage == "elimination":
            revised = revise_elimination(state, event.round, correction)
        else:
            revised = revise(state, event.round, correction, corrected.players, event.seed)
    except ProjectionError as exc:
        return PairingCheck(seq, event.round, "revision", False, f"engine refuses: {exc}")
    same = (tables_of(revised.replaced), tables_of(revised.tables)) == (
        tables_of(event.replaced),
        tables_of(event.tables),
    )
    detail = "" if same else f"engine would re-pair {tables_of(revised.tables)}"
    return PairingCheck(seq, event.round, "revision", same, detail)


def find_head(events: list[Recorded], head: str) -> int | None:
    """The seq of the event whose hash is ``head`` (a published head), if any."""
    return next((r.seq for r in events if r.event.hash == head), None)
