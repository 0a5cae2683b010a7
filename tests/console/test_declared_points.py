"""The points each player declared on their list (X-Wing, Armada) are secret until the
lists are published: the console's pairings printout shows them to organizers and
judges, and to a scorekeeper or a reader it shows who chooses initiative and no
points, as the API and the public page do."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from commands.tokens import create_token
from commands.web import create_app
from tests.console.conftest import NOW
from tests.unit.test_initiative import with_lists


@pytest.mark.parametrize(
    ("role", "shown"),
    [("organizer", True), ("judge", True), ("scorekeeper", False), ("reader", False)],
)
def test_the_pairings_printout_shows_declared_points_to_officials_only(
    role: str, shown: bool
) -> None:
    event = with_lists("xwing-2.0")
    secret = create_token(event.handler.store, role, "t1", None, now=NOW)
    with TestClient(create_app(event.handler), follow_redirects=False) as console:
        console.post("/console/login", data={"token": secret})
        printout = console.get("/console/t/t1/print/pairings")
    assert printout.status_code == 200
    assert 'id="initiative-rule"' in printout.text
    assert ("87 pts" in printout.text) is shown
    assert ('class="pts"' in printout.text) is shown
