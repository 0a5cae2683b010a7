"""Which venue a mirrored tournament comes from: one claim per tournament, beside the log.

A hosted mirror keeps a copy of tournaments whose only writer is a venue's ledger. The
first push of a tournament claims its id for the venue token that sent it; a push by
another venue token to a claimed id is refused, and a claimed tournament takes no
commands on the mirror. A claim is a side record like the tokens: no event and no hash.
The same SQL serves SQLite and PostgreSQL (``?`` placeholders, which the dialect turns
into its own); ``memory://`` keeps the claims in a dict.

Who holds an id is decided in the transaction that appends to it (:func:`settle`), under
the store's write lock: a push writes its claim with the stream's first events, and a
command of the mirror's own is refused there once a claim exists. A create and a claim
of the same id then serialize on the lock and on the stream's first event: exactly one
of them wins, whatever either read before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ledger.errors import Claimed, NotClaimable
from ledger.store import Claim
from ledger.token_rows import time_text

#: the side records' name in the database (stored schema: never renamed)
STORED_AS = "tledger_mirrors"
CREATE = (
    f"CREATE TABLE IF NOT EXISTS {STORED_AS} ("
    "tournament TEXT PRIMARY KEY, token_id TEXT NOT NULL, claimed_at TEXT NOT NULL)"
)
#: the first claim wins: a second one leaves the row as it is
CLAIM = (
    f"INSERT INTO {STORED_AS} (tournament, token_id, claimed_at) VALUES (?, ?, ?) "
    "ON CONFLICT (tournament) DO NOTHING"
)
#: the same, answering a row only when this statement made the claim
CLAIM_NEW = f"{CLAIM} RETURNING token_id"
SELECT = f"SELECT token_id FROM {STORED_AS} WHERE tournament = ?"
#: PostgreSQL: the claims of several tournaments in one query (a group commit's)
SELECT_ANY = f"SELECT tournament, token_id FROM {STORED_AS} WHERE tournament = ANY(%s::text[])"


def refusal(claim: Claim, holder: str | None, held: int) -> Claimed | NotClaimable | None:
    """Why an append with ``claim`` may not be written, the tournament held by ``holder``
    (None: no claim) and its stream holding events up to seq ``held`` before it; None
    when it may. A command of the mirror's own (``token_id`` None) only where no venue
    claimed the id; a venue's push under its own claim, or claiming an id whose stream
    holds no events yet."""
    if holder is not None and holder != claim.token_id:
        return Claimed(claim.tournament, holder)
    if holder is None and claim.token_id is not None and held > 0:
        return NotClaimable(claim.tournament)
    return None


def settle(cur: Any, placeholder: str, claim: Claim, held: Callable[[], int]) -> None:
    """Decide ``claim`` in the append's transaction, the store's write lock held (or, on
    SQLite, taken by the claim's own insert): as :func:`refusal` says, the claim row
    written when a venue's push claims the id now (``held()``: the seq of the newest
    event of the stream before this append). Raising rolls the whole append back."""

    def q(sql: str) -> str:
        return sql.replace("?", placeholder)

    if claim.token_id is not None:
        at = time_text(claim.at) or ""
        cur.execute(q(CLAIM_NEW), (claim.tournament, claim.token_id, at))
        if cur.fetchall():  # claimed by this very statement
            if (refused := refusal(claim, None, held())) is not None:
                raise refused
            return
    cur.execute(q(SELECT), (claim.tournament,))
    found = cur.fetchall()
    if (refused := refusal(claim, str(found[0]["token_id"]) if found else None, 0)) is not None:
        raise refused
