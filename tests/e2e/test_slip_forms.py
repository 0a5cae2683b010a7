"""The slip report page's forms per ruleset and its behaviour as a page: X-Wing's final
salvo, LCG's games and no-shows, a missing field, a resent form, the phone's language,
nothing loaded from elsewhere, the code field, and a match paired again after a
correction. Against the application in process on SQLite (the flows through a real
server are in ``test_slip_report``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from commands.pages.policy import CONTENT_SECURITY_POLICY
from commands.slipcodes import hash_of
from tests.e2e.test_slip_report import (
    WON,
    Event,
    client,
    field_pairs,
    make_event,
    post,
    state_line,
)


@pytest.fixture
def local(tmp_path: Path) -> Event:
    return make_event(f"sqlite:///{tmp_path / 'slips.sqlite3'}")


def test_x_wing_equal_points_name_the_final_salvo_winner_and_confirm_in_one_tap(
    tmp_path: Path,
) -> None:
    event = make_event(f"sqlite:///{tmp_path / 'xwing.sqlite3'}", ruleset="xwing-2.0")
    http = client(event)
    level = post(http, event.codes["p1"], points_0="50", points_1="50", winner="p2")
    assert level.status_code == 200, level.text
    assert event.reports()[0]["result"] == {"points": [50, 50], "winner": "p2",
                                            "decided_by": "final_salvo"}  # fmt: skip
    page = http.get(f"/s/{event.codes['p2']}").text
    assert "I am <bdi>Ben</bdi>: confirm" in page
    confirm = page[page.index('class="confirm"') : page.index("</form>")]
    assert 'name="points_0" value="50"' in confirm and 'name="winner" value="p2"' in confirm
    fields = dict(field_pairs(confirm))
    assert post(http, event.codes["p2"], **fields).status_code == 200
    assert event.status("p1", "p2") == "confirmed"


def test_lcg_reports_each_game_and_a_no_show_names_the_absent_player(tmp_path: Path) -> None:
    event = make_event(f"sqlite:///{tmp_path / 'lcg.sqlite3'}", ruleset="lcg-2.1d")
    http = client(event)
    page = http.get(f"/s/{event.codes['p1']}").text
    assert 'name="game_1"' in page and 'name="game_2"' in page and 'name="game_3"' not in page
    games = post(http, event.codes["p1"], game_1="p1", game_2="draw")
    assert games.status_code == 200, games.text
    absent = post(http, event.codes["p3"], no_show="p4")
    assert absent.status_code == 200, absent.text
    assert [r["result"] for r in event.reports()] == [
        {"game_results": ["p1", "draw"]}, {"no_show": "p4"}]  # fmt: skip


def test_a_missing_field_is_named_and_a_script_may_send_json(local: Event) -> None:
    http = client(local)
    code = local.codes["p2"]
    missing = post(http, code, games_0="2", draws="1")
    assert missing.status_code == 422 and "games_1: must be a whole number" in missing.text
    assert 'value="1" checked' in missing.text, "what was sent stays in the form"
    assert local.reports() == []
    sent = http.post(f"/s/{code}", json={"games_0": 2, "games_1": 1, "draws": 0})
    assert sent.status_code == 200, sent.text
    assert local.reports()[0]["actor"] == {"role": "player", "id": "p2"}
    assert http.post(f"/s/{code}", content=b"[1]",
                     headers={"content-type": "application/json"}).status_code == 400  # fmt: skip


def test_a_resent_form_appends_nothing(local: Event) -> None:
    http = client(local)
    code = local.codes["p1"]
    assert post(http, code, nonce="0123456789abcdef", **WON).status_code == 200
    seq = local.seq
    again = post(http, code, nonce="0123456789abcdef", **WON)
    assert again.status_code == 200
    assert local.seq == seq and len(local.reports()) == 1


def test_the_page_speaks_the_phone_language(local: Event) -> None:
    http = client(local)
    code = local.codes["p1"]
    german = http.get(f"/s/{code}", headers={"Accept-Language": "fr-FR, de;q=0.8, en;q=0.5"})
    assert state_line(german.text) == "Noch kein Ergebnis" and 'lang="de"' in german.text
    english = http.get(f"/s/{code}?lang=en", headers={"Accept-Language": "de"})
    assert state_line(english.text) == "No result yet"
    unknown = http.get("/s/NOPE-NOPE?lang=de")
    assert "Zu diesem Code gibt es kein Spiel." in unknown.text


def test_the_page_loads_nothing_from_elsewhere_and_keeps_the_code_out_of_the_log(
    local: Event,
) -> None:
    lines: list[dict[str, Any]] = []
    http = client(local, access_log=lines.append)
    code = local.codes["p1"]
    page = http.get(f"/s/{code}")
    assert page.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    assert page.headers["Cache-Control"] == "no-store"
    assert "http://" not in page.text and "https://" not in page.text
    assert re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text) == [
        "/static/base.css", "/static/slip.css", "/static/slip.js"]  # fmt: skip
    assert [line["path"] for line in lines] == ["/s/{code}"]
    assert code not in str(lines)


def test_the_code_field_leads_to_the_code_page(local: Event) -> None:
    http = client(local)
    typed = local.codes["p1"].lower()
    found = http.get("/s", params={"code": f" {typed} ", "lang": "de"}, follow_redirects=False)
    assert found.status_code == 303
    assert found.headers["location"] == f"/s/{typed}?lang=de"
    assert http.get(found.headers["location"]).status_code == 200


def test_a_match_paired_again_after_a_correction_has_no_code(tmp_path: Path) -> None:
    event = make_event(f"sqlite:///{tmp_path / 'revised.sqlite3'}")
    for players in (["p1", "p2"], ["p3", "p4"]):
        event.run(type="report_result", round=1, players=players,
                  result={"games": [2, 0], "draws": 0})  # fmt: skip
    event.run(type="pair_round", seed=1)
    codes = event.issue(2)
    match_of = {code: event.handler.store.slip_code(hash_of(code) or "") for code in codes.values()}
    before = {frozenset(entry.players) for entry in match_of.values() if entry}
    event.run(type="correct_result", round=1, players=["p1", "p2"],
              result={"games": [0, 2], "draws": 0}, reason="slip filled in reverse")  # fmt: skip
    rnd = event.handler.folds.state(event.id).round(2)
    assert rnd is not None
    after = {frozenset(m.players) for m in rnd.matches}
    assert before != after, "the correction re-paired round 2"
    http = client(event)
    for code, entry in match_of.items():
        answer = http.get(f"/s/{code}")
        if entry and frozenset(entry.players) in after:
            assert answer.status_code == 200
        else:
            assert answer.status_code == 404 and "was paired again" in answer.text
