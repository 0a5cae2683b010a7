"""A console over an in-memory store, signed in with a token of a chosen role."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.tokens import create_token
from commands.web import create_app
from ledger.url import open_store

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


@pytest.fixture
def handler() -> Handler:
    return Handler(open_store(f"memory://{uuid.uuid4().hex}"))


@pytest.fixture
def console(handler: Handler) -> Iterator[TestClient]:
    """A browser without a session (follow_redirects off: tests look at each answer)."""
    with TestClient(create_app(handler), follow_redirects=False) as http:
        yield http


@pytest.fixture
def sign_in(console: TestClient, handler: Handler) -> Callable[..., TestClient]:
    """Sign ``console`` in with a new token of ``role`` (scope ``tournament``)."""

    def signed(role: str = "organizer", tournament: str | None = None) -> TestClient:
        secret = create_token(handler.store, role, tournament, None, label="desk", now=NOW)
        answer = console.post("/console/login", data={"token": secret, "next": "/console"})
        assert answer.status_code == 303 and answer.headers["location"] == "/console"
        return console

    return signed
