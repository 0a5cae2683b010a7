"""``/static/{name}`` and ``/console/static/{name}`` over HTTP: each file with its type,
an ETag the browser asks again with (a short 304 while the file is the same), HEAD for
the countdown's look at the server's clock, and nothing else of the server's files."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.web import create_app
from ledger.url import open_store


@pytest.fixture(scope="module")
def http() -> TestClient:
    return TestClient(create_app(Handler(open_store(f"memory://{uuid.uuid4().hex}"))))


@pytest.mark.parametrize(("path", "kind"), [
    ("/static/countdown.js", "text/javascript"), ("/static/public.css", "text/css"),
    ("/console/static/console.js", "text/javascript"),
    ("/console/static/console.css", "text/css")])  # fmt: skip
def test_each_file_comes_with_its_type_and_an_etag_to_ask_again_with(
    http: TestClient, path: str, kind: str
) -> None:
    answer = http.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == f"{kind}; charset=utf-8"
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["x-content-type-options"] == "nosniff"
    again = http.get(path, headers={"If-None-Match": answer.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_head_answers_for_the_countdowns_look_at_the_clock(http: TestClient) -> None:
    answer = http.head("/static/countdown.js")
    assert answer.status_code == 200 and answer.content == b""


@pytest.mark.parametrize("path", [
    "/static/..%2Fassets.py", "/static/%2E%2E%2Fpolicy.py", "/static/nope.js",
    "/static/console.js", "/console/static/countdown.js", "/console/static/..%2Froutes.py",
    "/static/base.html.j2", "/static/static"])  # fmt: skip
def test_nothing_else_is_served(http: TestClient, path: str) -> None:
    assert http.get(path).status_code == 404
