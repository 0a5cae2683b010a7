"""What the console does with text pasted into its forms: a caller whose role may not
send the command is refused before the paste is read, a paste is bounded in lines and
bytes with one line saying so, and text the csv module or the deck-list reader cannot
take is answered with one line, never a server error."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import unquote

import httpx
import pytest
from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.models import parse_command

CREATE = {"type": "create_tournament", "tournament": "t1", "name": "Store Showdown",
          "ruleset": "swu-1.4"}  # fmt: skip
#: not one line of it reads: a caller who may send it learns which line
BAD_PLAYERS = "p1,Ada\np1,Twice"
BAD_TEAMS = "only a team name"
BAD_LIST = "Leader\nnot a card line"


def flash(answer: httpx.Response) -> str:
    """The outcome line the answer's redirect carries."""
    return unquote(answer.headers["location"])


@pytest.fixture
def event(handler: Handler) -> Handler:
    handler.handle(parse_command(CREATE))
    return handler


@pytest.mark.parametrize("role", ["reader", "scorekeeper", "judge"])
@pytest.mark.parametrize(
    ("path", "field", "text", "kind"),
    [("players/paste", "list", BAD_PLAYERS, "register_player"),
     ("players/paste-teams", "list", BAD_TEAMS, "register_team"),
     ("lists/submit", "list", BAD_LIST, "submit_list")],
)  # fmt: skip
def test_a_paste_the_role_may_not_send_is_refused_before_it_is_read(
    sign_in: Callable[..., TestClient], event: Handler, role: str, path: str, field: str,
    text: str, kind: str,
) -> None:  # fmt: skip
    answer = sign_in(role).post(f"/console/t/t1/{path}", data={field: text, "player": "p1"})
    assert answer.status_code == 303
    assert flash(answer).endswith(f"error=a {role} may not send {kind}")
    assert event.folds.state("t1").seq == 1


def test_a_deck_check_pasted_by_a_scorekeeper_is_refused_before_the_list_is_read(
    sign_in: Callable[..., TestClient], event: Handler
) -> None:
    fields = {"player": "p1", "round": "1", "timing": "after_match", "outcome": "legal",
              "presented": BAD_LIST}  # fmt: skip
    answer = sign_in("scorekeeper").post("/console/t/t1/judge/deck-check", data=fields)
    assert flash(answer).endswith("error=a scorekeeper may not send record_deck_check")


def test_a_paste_of_more_than_10000_lines_is_refused_with_one_line(
    sign_in: Callable[..., TestClient], event: Handler
) -> None:
    names = "\n".join(f"Player {n}" for n in range(10_001))
    answer = sign_in().post("/console/t/t1/players/paste", data={"list": names})
    assert flash(answer).endswith(
        "error=a paste holds at most 10,000 lines (one player a line); "
        "this one has 10,001: paste it in parts"
    )
    assert event.folds.state("t1").seq == 1


def test_a_paste_over_a_mebibyte_is_refused_with_one_line(
    sign_in: Callable[..., TestClient], event: Handler
) -> None:
    names = "\n".join(f"Player with a rather long name {n:06d}" for n in range(30_000))
    answer = sign_in().post("/console/t/t1/players/paste", data={"list": names})
    assert answer.status_code == 303
    assert flash(answer).endswith("error=the form holds more than 1,024 KiB: send it in parts")


def test_a_csv_cell_over_the_csv_limit_is_one_line_naming_the_row(
    sign_in: Callable[..., TestClient], event: Handler
) -> None:
    sheet = f"player,name\np1,Ada\np2,{'x' * 140_000}\n"
    answer = sign_in().post("/console/t/t1/players/paste", data={"list": sheet})
    assert answer.status_code == 303
    assert flash(answer).endswith("error=row 3: a cell is longer than 131,072 characters")


def test_a_refusal_carries_at_most_one_short_line_back(
    sign_in: Callable[..., TestClient], event: Handler
) -> None:
    line = "a team name without members " * 4000
    answer = sign_in().post("/console/t/t1/players/paste-teams", data={"list": line})
    assert answer.status_code == 303 and len(answer.headers["location"]) < 1000
    assert "error=line 1: a team is 'Team name; Member 1; Member 2', got" in flash(answer)
