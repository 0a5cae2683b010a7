"""``verify`` as a read model: the chain, every pairing re-derived, a published head and
printed witnesses, computed once for ``tledger verify T`` and the console's audit page,
which render the same ``Verified``.

Pure but for the store read (the stored rows and, when the chain holds, the events
decoded from them): a big log takes a while, so the console runs it in a thread.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from commands.errors import UnknownTournament
from commands.reads.auditmodels import PairingCheckRow, Verified, WitnessRow
from ledger.store import Store
from replay.rebuild import gc_paused
from replay.verify import find_head, verify
from replay.witness import Witness, check_witnesses, first_contradicted


def verified(store: Store, tournament: str, witnesses: Sequence[Witness] = (),
             head: str | None = None) -> Verified:  # fmt: skip
    """The tournament's log checked: only an intact chain is worth re-deriving pairings
    from, and the witnesses are checked after it (``replay.witness``)."""
    stored = store.load_raw(tournament)
    if not stored:
        raise UnknownTournament(tournament)
    with gc_paused():
        report = verify(tournament, stored, None)
        events = store.load(tournament) if report.broken_at is None else []
        if report.broken_at is None:
            report = verify(tournament, stored, events)
    view = report.as_json()
    head_seq = find_head(events, head) if head is not None and report.head else None
    checks = check_witnesses(tournament, stored, witnesses) if witnesses else None
    first = first_contradicted(checks or ())
    rows = None if checks is None else [
        WitnessRow(**c.as_json(), name=c.name, verdict=c.verdict) for c in checks]  # fmt: skip
    return Verified(
        tournament=tournament, ok=report.ok and all(c.ok for c in checks or ()),
        events=view["events"], head=view["head"], broken_at=view["broken_at"],
        broken=view["broken"], pairings=[PairingCheckRow(**p) for p in view["pairings"]],
        head_seq=head_seq, witnesses=rows, asked_head=head,
        contradicted=first.message() if first is not None else None,
    )  # fmt: skip


def verified_json(model: Verified) -> dict[str, Any]:
    """The CLI's JSON: ``head_seq`` only when a head was asked about."""
    data = model.model_dump(mode="json")
    if model.asked_head is None:
        data.pop("head_seq")
    return data
