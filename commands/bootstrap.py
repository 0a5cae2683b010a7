"""Compose the application once: the store from its URL and the handler over it."""

from __future__ import annotations

from commands.folds import FULL_CHECK_EVERY, Folds
from commands.handler import Handler
from ledger.url import open_store


def handler_for(url: str | None, full_check_every: float = FULL_CHECK_EVERY) -> Handler:
    """A handler on the store named by ``url`` (default: ``TLEDGER_STORE`` or local
    SQLite), over the process's folds (``full_check_every``: seconds between checks of
    a kept tournament's whole stored log)."""
    store = open_store(url)
    return Handler(store, folds=Folds(store, full_check_every))
