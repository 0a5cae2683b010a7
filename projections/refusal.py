"""One step of a tournament's lifecycle (:mod:`projections.lifecycle`): allowed now, or
refused with the sentence its command is refused with and the kind of refusal.

The kinds are the command errors a decider raises with the sentence: a step out of
place where the tournament stands ("wrong_phase"), a step a rule of the regulation
refuses, its section cited ("rule_violation"), or a step the command's input does not
fit in this state ("invalid_command"). The projections name the kind; the write side
maps it to its error class, as projections import nothing of the commands.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

Refusal = Literal["wrong_phase", "rule_violation", "invalid_command"]


class Step(BaseModel):
    """``allowed``, or not with ``reason`` (the refusal's sentence) and ``refusal`` (its
    kind); an allowed step has neither."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    allowed: bool
    reason: str | None = None
    refusal: Refusal | None = None


ALLOWED = Step(allowed=True)


def wrong_phase(reason: str) -> Step:
    return Step(allowed=False, reason=reason, refusal="wrong_phase")


def rule_violation(reason: str) -> Step:
    return Step(allowed=False, reason=reason, refusal="rule_violation")


def invalid_command(reason: str) -> Step:
    return Step(allowed=False, reason=reason, refusal="invalid_command")


#: the most items a refusal's sentence names: a big event's refusal stays a readable line
NAMED_AT_MOST = 10


def some_of(items: Sequence[str], most: int = NAMED_AT_MOST) -> str:
    """Items for a refusal's sentence, comma-separated: every one up to ``most``, else the
    first ``most`` and how many more ("21, 22, ... and 226 more"), so that a refusal
    naming 236 waiting tables is one line, not a page."""
    if len(items) <= most:
        return ", ".join(items)
    return f"{', '.join(items[:most])}, ... and {len(items) - most} more"
