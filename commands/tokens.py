"""API tokens over their life (issue 13, "Who did it"): who holds one, until when it
works, and its revocation.

A token's ``label`` ("Anna (head judge)") names its holder. It is personal data,
so it stays in the token table and never enters a hashed event: an event keeps the
token's actor (``judge-<token id>``, :class:`commands.auth.Principal`), and the log
joins the label when it is read (:func:`actor_labels`). An expiry ends a token at a
set time (a judge's token for one day); a revocation ends it at once, for every
``serve`` process within its recheck bound (``commands.api.deps``). Time is an
input here: the caller passes ``now`` (only the CLI shell and the server read the
clock).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Literal

from commands.readmodels import TokenList, TokenRow
from ledger.store import Store, TokenEntry

TokenState = Literal["active", "expired", "revoked"]
DURATION = re.compile(r"([1-9][0-9]{0,5})([mhd])")
UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}
MAX_LABEL = 200


class UnknownToken(ValueError):
    """No token has this id."""


def parse_expiry(text: str, now: datetime) -> datetime:
    """``30m``, ``8h``, ``2d`` from ``now``, or an ISO 8601 time (UTC when it has no
    offset), which must lie after ``now``: a token that never worked is a typo."""
    found = DURATION.fullmatch(text.strip())
    if found:
        return now + int(found[1]) * UNITS[found[2]]
    try:
        when = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(
            f"--expires {text!r} is neither a duration (30m, 8h, 2d) nor an ISO 8601 time"
        ) from None
    when = when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)
    if when <= now:
        raise ValueError(f"--expires {text!r} is not in the future (now {stamp(now)})")
    return when


def check_label(label: str) -> str:
    """A label is one printable line (it is printed in the log and in ``token list``)."""
    from pydantic_core import PydanticCustomError

    from commands.fields import printable_text

    if not label.strip():
        raise ValueError("--label must not be blank")
    if len(label) > MAX_LABEL:
        raise ValueError(f"--label must have at most {MAX_LABEL} characters")
    try:
        return printable_text(label)
    except PydanticCustomError as exc:
        raise ValueError(f"--label {exc.message()}") from None


def state_of(entry: TokenEntry, now: datetime) -> TokenState:
    """Revoked wins over expired: a revocation is what someone did about the token."""
    if entry.revoked_at is not None:
        return "revoked"
    if entry.expires_at is not None and entry.expires_at <= now:
        return "expired"
    return "active"


def refusal(entry: TokenEntry, now: datetime) -> str | None:
    """Why the token may no longer be used at ``now`` (the 401's message), or None."""
    state = state_of(entry, now)
    return None if state == "active" else f"token {state}"


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
    from commands.auth import Principal

    labels: dict[tuple[str, str], str] = {}
    for entry in entries:
        if entry.label and entry.player is None:
            actor = Principal(entry).actor
            labels[(actor.role, actor.id)] = entry.label
    return labels


def revoke(store: Store, token_id: str, now: datetime) -> tuple[TokenEntry, bool]:
    """Revoke the token with this id at ``now``: the token and whether this call revoked
    it (False: it was revoked already, and keeps its first time)."""
    entry = next((t for t in store.tokens() if t.token_id == token_id), None)
    if entry is None:
        raise UnknownToken(f"no token has the id {token_id!r} (see tledger token list)")
    if entry.revoked_at is not None or not store.revoke_token(token_id, now):
        current = next(t for t in store.tokens() if t.token_id == token_id)
        return current, False
    return dataclasses.replace(entry, revoked_at=now), True


def stamp(when: datetime) -> str:
    """A time as people read it at a glance, in UTC (the JSON carries the full time)."""
    return f"{when.astimezone(UTC):%Y-%m-%d %H:%M}Z"
