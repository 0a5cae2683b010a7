"""Errors of the audit: one root, ``ReplayError``."""

from __future__ import annotations


class ReplayError(Exception):
    """Root of the audit's errors (a point that does not exist, an unknown player)."""


class BadPoint(ReplayError):
    """A point in time that is neither a seq of the log nor an ISO 8601 time."""
