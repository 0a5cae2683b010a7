"""Errors of the projections: one root, ``ProjectionError``."""

from __future__ import annotations


class ProjectionError(Exception):
    """Root of the errors raised by rulesets and the pairing engine."""


class UnknownRuleset(ProjectionError):
    def __init__(self, ruleset: str, known: list[str]) -> None:
        super().__init__(f"unknown ruleset {ruleset!r} (known: {', '.join(known)})")
        self.ruleset = ruleset


class InvalidOptions(ProjectionError):
    """A ruleset option is unknown or has a value the ruleset does not take."""


class InvalidList(ProjectionError):
    """A deck, squad or fleet list is not in its game's shape."""


class InvalidResult(ProjectionError):
    """A result has a shape or numbers that the ruleset does not take."""


class NoValidPairing(ProjectionError):
    """The engine found no pairing that meets the hard constraints."""
