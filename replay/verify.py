"""Verify a tournament: the hash chain, then every published pairing re-derived.

Each automatic pairing is recomputed from its log prefix and its recorded seed
with the same engine; a pairing the engine would not have produced is reported. A
draft's pods (``pods_assigned``) are drawn again from their seed the same way.
A manual pairing is listed as manual and checked for rematches and repeated
byes (the constraints the engine would have kept). Revisions after corrections
(swu-1.4 §5.8) are re-derived from the state before the correction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.chain import verify_stored
from ledger.errors import ChainBroken
from ledger.events import (
    PairingsRevised,
    PodsAssigned,
    ResultCorrected,
    RoundPaired,
    Stage,
    Table,
)
from ledger.store import Recorded
from projections import elimination, pairing, pods
from projections.elimination import elimination_tables
from projections.errors import ProjectionError
from projections.pairing import pair_swiss, previous_opponents
from projections.revision import revise_round
from projections.state import TournamentState, evolve

#: The engine that pairs each stage, fresh (``round_paired``) or revised after a
#: correction (``pairings_revised``).
ENGINES: dict[Stage, str] = {"swiss": pairing.ENGINE, "elimination": elimination.ENGINE}


@dataclass(frozen=True, slots=True)
class PairingCheck:
    seq: int
    round: int
    kind: str  # "auto", "manual", "revision" or "pods"
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


def tables_of(tables: tuple[Table, ...]) -> list[dict[str, Any]]:
    """Every field a table publishes: number, players, bracket, slot and the lcg-2.1d
    sides ("Finalrunden"). A pairing that differs in any of them is not the engine's."""
    return [t.model_dump(mode="json", exclude_none=True) for t in tables]


def difference(verb: str, expected: tuple[Table, ...], published: tuple[Table, ...]) -> str:
    """What the engine would publish where the log differs; "" when they are the same."""
    want, have = tables_of(expected), tables_of(published)
    if want == have:
        return ""
    missing, extra = [t for t in want if t not in have], [t for t in have if t not in want]
    if not missing and not extra:
        return f"engine would {verb} {want} (the log has them in another order)"
    return f"engine would {verb} {missing} where the log has {extra}"


def engine_line(engine: str | None) -> str:
    """``tledger-swiss-2`` -> ``tledger-swiss``: the engine without its version."""
    name, _, version = (engine or "").rpartition("-")
    return name if version.isdigit() else engine or ""


def engine_check(stage: Stage, recorded: str | None) -> tuple[bool, str] | None:
    """None when ``recorded`` is the engine this ledger runs for ``stage``. Another
    version of it cannot be re-derived and is named as such. The other stage's engine
    never pairs this stage, fresh or revised after a correction (swu-1.4 §5.8 case 2
    re-pairs with the engine of the round), so a pairing that names it is a mismatch."""
    current = ENGINES[stage]
    if recorded == current:
        return None
    if any(engine_line(recorded) == engine_line(e) for s, e in ENGINES.items() if s != stage):
        return False, f"recorded engine {recorded}, but a {stage} round is paired by {current}"
    return True, (f"made by another engine version: paired by engine {recorded}; "
                  f"this ledger runs {current} and cannot re-derive it")  # fmt: skip


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
        elif isinstance(event, PodsAssigned):
            checks.append(check_pods(state, recorded.seq, event))
        evolve(state, recorded)
    return checks


def check_round(state: TournamentState, seq: int, event: RoundPaired) -> PairingCheck:
    """Re-derive an automatic pairing with its recorded seed and compare every field."""
    if event.method == "manual":
        return PairingCheck(seq, event.round, "manual", *manual_validity(state, event))
    other = engine_check(event.stage, event.engine)
    if other is not None:
        return PairingCheck(seq, event.round, "auto", *other)
    try:
        if event.stage == "swiss":
            expected = pair_swiss(state, event.seed or 0, event.avoid)
        else:
            expected = elimination_tables(state)[1]
    except ProjectionError as exc:
        return PairingCheck(seq, event.round, "auto", False, f"engine refuses: {exc}")
    detail = difference("pair", expected, event.pairings)
    return PairingCheck(seq, event.round, "auto", not detail, detail)


def check_pods(state: TournamentState, seq: int, event: PodsAssigned) -> PairingCheck:
    """A draft's pods (swu-1.4 §2.3.2.1) drawn again from the active players and the
    recorded seed (kind "pods", round 0: they come before round 1)."""
    if event.engine != pods.ENGINE:
        return PairingCheck(seq, 0, "pods", True, f"drawn by {event.engine}; this ledger "
                            f"runs {pods.ENGINE} and cannot re-derive it")  # fmt: skip
    expected = pods.draw_pods(state.active_players, event.pod_size, event.seed)
    if expected == event.pods:
        return PairingCheck(seq, 0, "pods", True)
    drawn, logged = ([list(p.players) for p in found] for found in (expected, event.pods))
    return PairingCheck(seq, 0, "pods", False, f"the draw from seed {event.seed} would seat "
                        f"{drawn} where the log has {logged}")  # fmt: skip


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
    """Re-derive a revision (swu-1.4 §5.8 case 2) from the state before the correction,
    with the engine of the round's stage, and compare the engine and every table field."""
    corrected = correction.event
    assert isinstance(corrected, ResultCorrected)
    following = state.round(event.round)
    other = engine_check(following.stage if following else "swiss", event.engine)
    if other is not None:
        return PairingCheck(seq, event.round, "revision", *other)
    try:
        revised = revise_round(state, event.round, correction, corrected.players, event.seed)
    except ProjectionError as exc:
        return PairingCheck(seq, event.round, "revision", False, f"engine refuses: {exc}")
    details = (
        difference("replace", revised.replaced, event.replaced),
        difference("re-pair", revised.tables, event.tables),
    )
    detail = "; ".join(d for d in details if d)
    return PairingCheck(seq, event.round, "revision", not detail, detail)


def find_head(events: list[Recorded], head: str) -> int | None:
    """The seq of the event whose hash is ``head`` (a published head), if any."""
    return next((r.seq for r in events if r.event.hash == head), None)
