"""What every event shares: the stored-value base, the actor and the common fields.

Kept apart from :mod:`ledger.events` so that event families in modules of their own
(:mod:`ledger.list_events`) build on it without importing the union that lists them.
:mod:`ledger.events` re-exports every name here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["organizer", "judge", "scorekeeper", "player"]


class Frozen(BaseModel):
    """Base for every value that is stored: immutable and strict about fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Actor(Frozen):
    """Who did it: the role decides what counts (a player's report needs confirming)."""

    role: Role
    id: str = Field(min_length=1)


ORGANIZER = Actor(role="organizer", id="local")


class EventBase(Frozen):
    """Fields every event carries: where, when, who, and its place in the hash chain."""

    tournament: str
    at: datetime
    actor: Actor
    command_id: str | None = None
    #: SHA-256 of the command's body (without personal data), so a reused id with
    #: another body is refused rather than silently answered with the first outcome.
    command_digest: str | None = None
    prev_hash: str = ""
    hash: str = ""
