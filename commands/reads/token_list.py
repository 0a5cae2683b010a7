"""The tokens as ``token list`` shows them, and the labels the log joins to the actors
that tokens made: read models over the token records, never the secret or its hash."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from commands.reads.models import TokenList, TokenRow
from commands.roles import Principal
from commands.tokens import state_of
from ledger.store import TokenEntry


def token_list(entries: Iterable[TokenEntry], now: datetime) -> TokenList:
    """The tokens as ``token list`` shows them: never the secret or its hash."""
    rows = [
        TokenRow(token_id=e.token_id, role=e.role, tournament=e.tournament, player=e.player,
                 label=e.label, created_at=e.created_at, expires_at=e.expires_at,
                 revoked_at=e.revoked_at, state=state_of(e, now))
        for e in entries
    ]  # fmt: skip
    return TokenList(tokens=rows)


def actor_labels(entries: Iterable[TokenEntry]) -> dict[tuple[str, str], str]:
    """(role, id) of each labelled token's actor -> its label. A player token acts as
    its player (the same actor as the player's own reports), so it names no one else
    and is left out."""
    labels: dict[tuple[str, str], str] = {}
    for entry in entries:
        if entry.label and entry.player is None:
            actor = Principal(entry).actor
            labels[(actor.role, actor.id)] = entry.label
    return labels
