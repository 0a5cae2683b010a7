"""API tokens over their life, so the log can say who did it: who holds one, until
when it works, and its revocation.

A token's ``label`` ("Anna (head judge)") names its holder. It is personal data,
so it stays in the token records and never enters a hashed event: an event keeps the
token's actor (``judge-<token id>``, :class:`commands.roles.Principal`), and the log
joins the label when it is read (``commands.reads.token_list.actor_labels``). An
expiry ends a token at a set time (a judge's token for one day); a revocation ends it
at once, for every ``serve`` process within its recheck bound (``commands.api.deps``). Time is an
input here: the caller passes ``now`` (only the CLI shell and the server read the
clock).
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Literal

from commands.roles import ROLES
from ledger.store import Store, TokenEntry

TokenState = Literal["active", "expired", "revoked"]
DURATION = re.compile(r"([1-9][0-9]{0,5})([mhd])")
UNITS = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}
MAX_LABEL = 200


class UnknownToken(ValueError):
    """No token has this id."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(
    store: Store, role: str, tournament: str | None, player: str | None, *,
    label: str | None = None, expires_at: datetime | None = None, now: datetime | None = None,
) -> str:  # fmt: skip
    """Make and record a token; the secret is returned once and never stored. ``label``
    names its holder (kept with the token, never in the log); ``expires_at`` ends it.
    ``now`` is the creation time (the clock when a shell does not give one)."""
    now = now or datetime.now(UTC)
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r} (roles: {', '.join(ROLES)})")
    if (role == "player") != (player is not None):
        raise ValueError("a player token names its player (--player), and only a player token")
    if role == "venue" and tournament is not None:
        raise ValueError("a venue token pushes the tournaments it claims (no --tournament)")
    if role == "player" and tournament is None:
        raise ValueError("a player token belongs to one tournament (--tournament)")
    if expires_at is not None and expires_at <= now:
        raise ValueError("a token's expiry must be in the future")
    label = check_label(label) if label is not None else None
    secret = "tl_" + secrets.token_urlsafe(32)
    store.put_token(TokenEntry(token_hash(secret), new_token_id(store), role, tournament, player,
                               label=label, expires_at=expires_at, created_at=now))  # fmt: skip
    return secret


def new_token_id(store: Store) -> str:
    """A short public id no other token has (``token revoke`` names a token by it)."""
    taken = {t.token_id for t in store.tokens()}
    while (candidate := secrets.token_hex(4)) in taken:
        pass
    return candidate


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

    from ledger.fields import printable_text

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
