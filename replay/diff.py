"""What changed between two points of a tournament's log (``tledger diff T A B``).

The events in between, how the standings moved (and who crossed the cut line),
which results were corrected and which tables were re-paired, and, once the cut
stands, which seeds the corrected standings would have given differently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ledger.events import PairingsRevised, ResultCorrected, to_json
from ledger.store import Recorded
from projections.cutline import seeding_changes
from projections.schedule import cut_size
from projections.standings import standings
from projections.state import fold


def diff(events: Sequence[Recorded], a: int, b: int) -> dict[str, Any]:
    """The change from seq ``a`` to seq ``b`` (a < b), as plain data."""
    before, after = fold(events[:a]), fold(events[:b])
    between = list(events[a:b])
    old = {s.player: s for s in standings(before)} if before.exists else {}
    new = {s.player: s for s in standings(after)}
    moves = [
        {"player": p, "from_rank": old[p].rank if p in old else None, "to_rank": s.rank,
         "from_points": old[p].scores.points if p in old else None, "to_points": s.scores.points}
        for p, s in new.items()
        if p not in old or (old[p].rank, old[p].scores.points) != (s.rank, s.scores.points)
    ]  # fmt: skip
    line = cut_size(after) if after.exists else 0
    inside_before = {p for p, s in old.items() if s.rank <= line}
    inside_after = {p for p, s in new.items() if s.rank <= line}
    return {
        "tournament": after.id, "from": a, "to": b,
        "events": [r.as_json() for r in between],
        "standings": sorted(moves, key=lambda m: m["to_rank"]),
        "cut_line": line,
        "crossed_cut": {"in": sorted(inside_after - inside_before),
                        "out": sorted(inside_before - inside_after)},
        "corrections": [{"seq": r.seq, **to_json(r.event)} for r in between
                        if isinstance(r.event, ResultCorrected)],
        "revisions": [{"seq": r.seq, **to_json(r.event)} for r in between
                      if isinstance(r.event, PairingsRevised)],
        # the cut stands; who the corrected standings would have seeded differently
        "cut_seeds": [{"seed": c.seed, "as_made": c.as_made, "now": c.now}
                      for c in seeding_changes(after)],
    }  # fmt: skip


def players_named(view: dict[str, Any]) -> list[str]:
    """Every player a diff names (standings moves, the cut line, corrected matches and
    re-paired tables), sorted: the players whose names a human face shows with it."""
    named = {m["player"] for m in view["standings"]}
    named |= {*view["crossed_cut"]["in"], *view["crossed_cut"]["out"]}
    named |= {p for c in view["corrections"] for p in c["players"]}
    named |= {p for r in view["revisions"] for t in (*r["replaced"], *r["tables"])
              for p in t["players"]}  # fmt: skip
    named |= {p for c in view["cut_seeds"] for p in (c["as_made"], c["now"]) if p}
    return sorted(named)
