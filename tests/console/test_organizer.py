"""The organizer's console pages: each page and action through the contract,
refusals as one line with nothing appended."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from fastapi.testclient import TestClient

from commands.handler import Handler
from commands.pages.policy import CONTENT_SECURITY_POLICY

NAMES = ["Ada", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]


def created(console: TestClient, t: str = "t1", **options: str) -> None:
    fields = {"ruleset": "swu-1.4", "tournament": t, "name": "Store Showdown",
              **{f"swu-1.4.{k}": v for k, v in options.items()}}  # fmt: skip
    answer = console.post("/console/new", data=fields)
    assert answer.status_code == 303 and "error" not in answer.headers["location"], answer.headers


def registered(console: TestClient, t: str = "t1") -> None:
    answer = console.post(f"/console/t/{t}/players/paste", data={"list": "\n".join(NAMES)})
    assert "registered+8" in answer.headers["location"].replace("%20", "+")


def with_players(console: TestClient) -> TestClient:
    """``console`` after creating t1 and pasting the eight names."""
    created(console)
    registered(console)
    return console


def seq(handler: Handler, t: str = "t1") -> int:
    return handler.folds.state(t).seq


def flash(answer: object) -> str:
    from urllib.parse import unquote

    return unquote(answer.headers["location"])  # type: ignore[attr-defined]


def test_the_new_event_form_shows_each_rulesets_options_and_defaults(
    sign_in: Callable[..., TestClient],
) -> None:
    console = sign_in()
    page = console.get("/console/new?ruleset=xwing-2.0")
    assert page.status_code == 200
    assert 'name="xwing-2.0.squad_points"' in page.text and "default: 100" in page.text
    assert "swu-1.4.format" not in page.text
    assert "default: bo3" in console.get("/console/new").text


def test_a_blank_option_is_not_sent_and_the_ruleset_default_is_recorded(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    created(sign_in(), tier="casual", rounds="")
    state = handler.folds.state("t1")
    assert state.options["tier"] == "casual" and state.options["format"] == "bo3"
    assert "rounds" not in state.options


def test_a_judge_cannot_create_an_event(sign_in: Callable[..., TestClient]) -> None:
    console = sign_in("judge")
    answer = console.post("/console/new", data={"ruleset": "swu-1.4", "tournament": "t1",
                                                "name": "X"})  # fmt: skip
    assert "only an organizer token without a tournament may create one" in flash(answer)


def test_a_pasted_list_registers_everyone_in_one_append_with_the_next_free_ids(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = with_players(sign_in())
    state = handler.folds.state("t1")
    assert list(state.players) == [f"p{n}" for n in range(1, 9)] and state.seq == 9
    page = console.get("/console/t/t1/players")
    assert 'value="p9"' in page.text and "Hal" in page.text
    assert "Ada" in console.get("/console/t/t1/players?q=ada").text
    assert "Hal" not in console.get("/console/t/t1/players?q=ada").text


def test_a_pasted_list_with_a_bad_line_registers_nobody_and_names_the_line(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    created(console)
    answer = console.post("/console/t/t1/players/paste", data={"list": "Ada\np1,Twice"})
    assert "line 2" in flash(answer) and seq(handler) == 1


def test_drop_rejoin_disqualify_and_withdraw_are_commands_of_the_contract(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = with_players(sign_in())
    console.post("/console/t/t1/players/p3/withdraw", data={"reason": "registered twice"})
    assert "p3" not in handler.folds.state("t1").active_players
    console.post("/console/t/t1/players/p4/drop", data={})
    assert handler.folds.state("t1").players["p4"].dropped
    answer = console.post("/console/t/t1/players/p5/disqualify", data={"reason": ""})
    assert (
        "error=" in answer.headers["location"]
        and not handler.folds.state("t1").players["p5"].disqualified
    )


def test_a_reader_sees_the_pages_but_cannot_act(
    sign_in: Callable[..., TestClient], handler: Handler, console: TestClient
) -> None:
    created(sign_in())
    before = seq(handler)
    reader = sign_in("reader")
    for tab in ("players", "lists", "round", "results", "finals"):
        assert reader.get(f"/console/t/t1/{tab}").status_code == 200, tab
    answer = reader.post("/console/t/t1/players/register", data={"player": "p1", "name": "Ada"})
    assert "a reader may not send register_player" in flash(answer) and seq(handler) == before


def run_round_one(console: TestClient) -> None:
    created(console, tier="casual")
    registered(console)
    assert "paired" in flash(console.post("/console/t/t1/round/pair", data={}))
    assert "round started" in flash(console.post("/console/t/t1/round/start", data={}))


def test_results_are_typed_as_table_and_result_and_confirmed(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    run_round_one(console)
    page = console.get("/console/t/t1/results")
    assert "data-tables='[{" in page.text and "Table 4" in page.text
    answer = console.post("/console/t/t1/results", data={"table": "1", "result": "2-1"})
    assert "table 1: 2-1" in flash(answer)
    match = handler.folds.state("t1").rounds[0].matches[0]
    names = handler.store.players("t1")
    first, second = (names[p].name for p in match.players)
    assert f"table 1: 2-1 (\u2068{first}\u2069 v \u2068{second}\u2069)" in flash(answer), (
        "named in the typed order, each name isolated"
    )
    assert match.status == "confirmed" and match.result is not None
    assert match.result.games == (2, 1)


def test_a_bad_result_line_gives_one_error_line_and_appends_nothing(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = sign_in()
    run_round_one(console)
    before = seq(handler)
    for table, line, said in (("1", "two-one", "is not game wins"), ("9", "2-0", "no table 9"),
                              ("1", "3-0", "")):  # fmt: skip
        answer = console.post("/console/t/t1/results", data={"table": table, "result": line})
        shown = flash(answer)
        assert "error=" in shown and said in shown and "\n" not in shown
    assert seq(handler) == before


def test_a_judge_may_enter_results_but_not_pair(
    sign_in: Callable[..., TestClient], handler: Handler, console: TestClient
) -> None:
    run_round_one(sign_in())
    judge = sign_in("judge")
    entered = judge.post("/console/t/t1/results", data={"table": "2", "result": "2-0"})
    assert "table 2" in flash(entered)
    assert "a judge may not send pair_round" in flash(judge.post("/console/t/t1/round/pair"))


def enter_all(console: TestClient, handler: Handler) -> None:
    current = handler.folds.state("t1").current
    assert current is not None
    for m in current.matches:
        if m.table is not None and m.status != "confirmed":
            console.post("/console/t/t1/results", data={"table": str(m.table), "result": "2-0"})


def round_one_played(console: TestClient, handler: Handler) -> TestClient:
    run_round_one(console)
    enter_all(console, handler)
    return console


def test_a_correction_shows_its_timing_before_and_its_impact_after(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = round_one_played(sign_in(), handler)
    a, b = handler.folds.state("t1").rounds[0].matches[0].players
    where = f"/console/t/t1/results/correct?round=1&a={a}&b={b}"
    preview = console.get(f"{where}&result=0-2")
    assert "round 2 is not paired yet: the result is corrected" in preview.text
    assert seq(handler) == 15
    fields = {"round": "1", "a": a, "b": b, "result": "0-2", "reason": ""}
    answer = console.post("/console/t/t1/results/correct", data=fields)
    assert "/results/impact?a=15&b=16" in answer.headers["location"]
    impact = console.get(answer.headers["location"])
    assert impact.status_code == 200 and "Standings" in impact.text


def test_a_correction_while_the_next_round_is_paired_names_the_tables_re_paired(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = round_one_played(sign_in(), handler)
    console.post("/console/t/t1/round/pair", data={})
    a, b = handler.folds.state("t1").rounds[0].matches[0].players
    preview = console.get(f"/console/t/t1/results/correct?round=1&a={a}&b={b}&result=0-2")
    assert "round 2 is paired but not started: table" in preview.text


def test_manual_pairings_warn_of_a_rematch_before_they_are_sent(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = round_one_played(sign_in(), handler)
    tables = [m.players for m in handler.folds.state("t1").rounds[0].matches]
    query = "&".join(f"a{n}={t[0]}&b{n}={t[1]}" for n, t in enumerate(tables, start=1))
    page = console.get(f"/console/t/t1/round?manual=1&{query}")
    assert "have played each other already" in page.text and seq(handler) == 15
    fields = {f"{side}{n}": p for n, t in enumerate(tables, start=1)
              for side, p in zip("ab", t, strict=True)}  # fmt: skip
    answer = console.post("/console/t/t1/round/pair", data={**fields, "manual": "1"})
    assert "paired (seq" in flash(answer)
    assert [m.players for m in handler.folds.state("t1").rounds[1].matches] == tables


def test_printouts_are_pages_and_slips_carry_codes_for_this_server(
    sign_in: Callable[..., TestClient],
) -> None:
    console = sign_in()
    run_round_one(console)
    pairings = console.get("/console/t/t1/print/pairings")
    assert pairings.status_code == 200
    assert pairings.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert '<link rel="stylesheet" href="/static/print-pairings.css">' in pairings.text
    assert "<style" not in pairings.text, "the page served links its stylesheets"
    assert "/s/" not in console.get("/console/t/t1/print/slips").text, "a read issues nothing"
    slips = console.post("/console/t/t1/print/slips")
    assert slips.status_code == 200 and "http://testserver/s/" in slips.text
    assert console.get("/console/t/t1/print/nope").status_code == 404


def test_the_overview_says_what_to_do_next(sign_in: Callable[..., TestClient]) -> None:
    console = with_players(sign_in())
    assert "8 players registered: pair round 1" in console.get("/console/t/t1").text


def test_finals_export_downloads_csv_and_json(sign_in: Callable[..., TestClient]) -> None:
    console = sign_in()
    run_round_one(console)
    page = console.get("/console/t/t1/finals")
    assert page.status_code == 200 and "Export CSV" in page.text
    assert "Make the cut" not in page.text, "round 1 of 3 is under way: no cut yet"
    csv = console.get("/console/t/t1/finals/export.csv")
    assert csv.status_code == 200 and "attachment" in csv.headers["content-disposition"]
    assert console.get("/console/t/t1/finals/export.json").json()["tournament"] == "t1"


def test_lists_are_submitted_as_text_and_locked(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    console = with_players(sign_in())
    text = (
        "Leader\n1 Darth Vader | Dark Lord of the Sith\nBase\n1 Energy Conversion Lab\n"
        "Deck\n3 TIE/ln Fighter\n"
    )
    answer = console.post("/console/t/t1/lists/submit", data={"player": "p1", "list": text})
    assert "list of p1 recorded" in flash(answer)
    page = console.get("/console/t/t1/lists")
    assert "1 of 8 submitted" in page.text
    assert "lists locked" in flash(console.post("/console/t/t1/lists/lock", data={}))
    assert handler.folds.state("t1").lists_locked


def test_the_round_page_shows_the_rounds_clock_and_a_tables_extension(
    sign_in: Callable[..., TestClient], handler: Handler
) -> None:
    """swu-1.4 §4.3.1: a Bo3 Swiss round lasts 55 minutes from its start; a judge's
    extension moves that table's end (the clock read model)."""
    console = sign_in()
    run_round_one(console)
    state = handler.folds.state("t1")
    assert state.current is not None and state.current.started_at is not None
    ends = state.current.started_at + timedelta(minutes=55)
    page = console.get("/console/t/t1/round").text
    assert f"ends <strong>{ends:%H:%M} UTC</strong>" in page and "55 min" in page
    assert f'data-ends="{ends.isoformat()}"' in page and "Projector clock" in page
    first = state.current.matches[0].players
    extension = {"round": "1", "minutes": "7", "match": " ".join(first)}
    answer = console.post("/console/t/t1/judge/extension", data=extension)
    assert "time extension granted" in flash(answer)
    later = ends + timedelta(minutes=7)
    page = console.get("/console/t/t1/round").text
    assert "Table 1: +7 min" in page and f'data-ends="{later.isoformat()}"' in page
