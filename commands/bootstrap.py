"""Compose the application once: the store from its URL and the handler over it."""

from __future__ import annotations

from commands.handler import Handler
from ledger.url import open_store


def handler_for(url: str | None) -> Handler:
    """A handler on the store named by ``url`` (default: ``TLEDGER_STORE`` or local SQLite)."""
    return Handler(open_store(url))
