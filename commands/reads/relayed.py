"""Where a player's report through a hosted mirror stands, for the player's slip page.

On a mirror, a report through a slip's code is held for the tournament's venue, which
decides it (commands.relay). The page shows the code's last report: waiting for the
venue, received by the venue (applied there, at its seq), or refused with the venue's
reason. The result itself shows once the venue's next push brings its events.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

from ledger.store import SlipCodeEntry, Store


class RelayState(BaseModel):
    """The last report held for the venue through one slip code."""

    status: Literal["pending", "applied", "refused"]
    received_at: datetime
    seq: int | None = None
    reason: str | None = None


def relay_state(store: Store, code: SlipCodeEntry) -> RelayState | None:
    """The code's last report held for the venue, or None (none was held: a venue's own
    slip page, or nothing reported through this code on the mirror)."""
    held = store.relayed(code.tournament, code_hash=code.code_hash)
    if not held:
        return None
    last = held[-1]
    status: Literal["pending", "applied", "refused"] = (
        "applied" if last.status == "applied" else
        "refused" if last.status == "refused" else "pending")  # fmt: skip
    return RelayState(status=status, received_at=last.received_at, seq=last.seq,
                      reason=last.reason)  # fmt: skip
