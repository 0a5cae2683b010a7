"""The API tokens' records beside the events: their columns and how a row reads.

A token is a credential: only its SHA-256 is kept, never in a hashed event. Labels,
expiry and revocation came later; token records made before them gain their columns
as NULLable text when the store is opened (``SQLDialect._add_columns``), so their
tokens keep working. Times are ISO 8601 text in both databases (one query for both).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ledger.store import TokenEntry

#: the columns of ``tledger_tokens`` in the order the queries read them; the last four
#: came with labels and expiry: older token records gain them as NULLable text
TOKEN_COLUMNS = ("token_hash", "token_id", "role", "tournament", "player", "label",
                 "expires_at", "revoked_at", "created_at")  # fmt: skip
ADDED_TOKEN_COLUMNS = dict.fromkeys(("label", "expires_at", "revoked_at", "created_at"), "TEXT")


def acts_on(entry: TokenEntry, tournament: str | None) -> bool:
    """Whether the token may act on ``tournament`` (None: every token is listed)."""
    return tournament is None or entry.tournament in (None, tournament)


def time_text(value: datetime | None) -> str | None:
    """Times are kept as ISO 8601 text in both databases (one query for both)."""
    return None if value is None else value.isoformat()


def time_of(text: Any) -> datetime | None:
    return None if text is None else datetime.fromisoformat(str(text))


def token_of(row: Any) -> TokenEntry:
    """A ``tledger_tokens`` row (its columns by name) as the port's entry."""
    return TokenEntry(
        row["token_hash"], row["token_id"], row["role"], row["tournament"], row["player"],
        label=row["label"], expires_at=time_of(row["expires_at"]),
        revoked_at=time_of(row["revoked_at"]), created_at=time_of(row["created_at"]),
    )  # fmt: skip
