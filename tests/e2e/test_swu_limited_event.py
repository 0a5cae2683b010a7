"""SWU limited events end to end (swu-1.4 §2.3.2): a scripted sealed event and a
draft with its pods, each run through ``tledger apply`` from JSON Lines, round by round
(the results follow the pairings the ledger drew), to a champion; the pods read and
printed, and over HTTP; Twin Suns refused with nothing appended."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from commands.handler import Handler
from commands.models import parse_command
from commands.tokens import create_token
from commands.web import create_app
from ledger.url import open_store
from tests.e2e.test_cli import cli

#: a 30-card draw deck (swu-1.4 §2.3.2: "Ein Spieldeck aus mindestens 30 Karten"), with
#: more copies of a card than Premier allows, and the rest of the pool as sideboard
POOL: dict[str, Any] = {
    "leader": "Darth Vader | Dark Lord of the Sith", "base": "Energy Conversion Lab",
    "deck": [{"card": "TIE/ln Fighter", "count": 6}, *({"card": f"Card {i}", "count": 2}
                                                       for i in range(12))],
    "sideboard": [{"card": "TIE/ln Fighter", "count": 1}, {"card": "Side 1", "count": 9}],
}  # fmt: skip


def apply(store: str, tmp_path: Path, lines: list[dict[str, Any]]) -> None:
    """One JSON Lines file of commands through ``tledger apply``, which must accept all."""
    source = tmp_path / f"step-{uuid.uuid4().hex[:8]}.jsonl"
    source.write_text("".join(json.dumps(x) + "\n" for x in lines))
    done = cli("apply", str(source), "--store", store)
    assert done.exit_code == 0, done.stderr


def read(store: str, *args: str) -> Any:
    done = cli(*args, "--json", "--store", store)
    assert done.exit_code == 0, done.stderr
    return json.loads(done.stdout)


def results_of(t: str, pairings: dict[str, Any]) -> list[dict[str, Any]]:
    """The first-named player of every table wins 2-1 (byes need no result)."""
    return [{"type": "report_result", "tournament": t, "round": pairings["round"],
             "players": table["players"], "result": {"games": [2, 1], "draws": 0}}
            for table in pairings["pairings"] if len(table["players"]) == 2]  # fmt: skip


def run_limited_event(store: str, tmp_path: Path, t: str, fmt: str, players: int,
                      pods: dict[str, Any] | None) -> dict[str, Any]:  # fmt: skip
    """Create, register, (pods,) build decks, submit lists, play the Swiss rounds and the
    cut, finish; every step through ``tledger apply``. Returns the final status."""
    ids = [f"p{i}" for i in range(1, players + 1)]
    setup: list[dict[str, Any]] = [
        {"type": "create_tournament", "tournament": t, "name": f"{fmt.title()} Night",
         "ruleset": "swu-1.4", "options": {"deck_format": fmt, "rounds": 3, "cut": 4}},
        *({"type": "register_player", "tournament": t, "player": p, "name": f"Player {p}"}
          for p in ids),
    ]  # fmt: skip
    if pods is not None:
        setup.append({"type": "assign_pods", "tournament": t, **pods})
    setup.append({"type": "start_deck_building", "tournament": t})
    setup += [{"type": "submit_list", "tournament": t, "player": p, "list": POOL} for p in ids]
    apply(store, tmp_path, setup)
    for _ in range(3):
        apply(store, tmp_path, [{"type": "pair_round", "tournament": t},
                                {"type": "start_round", "tournament": t}])  # fmt: skip
        apply(store, tmp_path, results_of(t, read(store, "pairings", t)))
    apply(store, tmp_path, [{"type": "make_cut", "tournament": t}])
    while read(store, "status", t).get("champion") is None:
        apply(store, tmp_path, [{"type": "pair_round", "tournament": t},
                                {"type": "start_round", "tournament": t}])  # fmt: skip
        apply(store, tmp_path, results_of(t, read(store, "pairings", t)))
    apply(store, tmp_path, [{"type": "finish_tournament", "tournament": t}])
    return dict(read(store, "status", t))


def events_of(store: str, t: str) -> list[dict[str, Any]]:
    return list(read(store, "log", t)["events"])


def test_a_scripted_swu_sealed_event_runs_end_to_end_through_apply_swu_2_3_2(
    tmp_path: Path,
) -> None:
    store = f"sqlite:///{tmp_path}/sealed.sqlite3"
    final = run_limited_event(store, tmp_path, "s1", "sealed", 8, pods=None)
    assert final["stage"] == "finished" and final["champion"] in {f"p{i}" for i in range(1, 9)}
    built = final["deck_building"]
    started = datetime.fromisoformat(built["started_at"])
    assert built["minutes"] == 30  # swu-1.4 §2.3.2: "30 Minuten Zeit, ihr Deck zu bauen"
    assert datetime.fromisoformat(built["ends_at"]) == started + timedelta(minutes=30)
    events = events_of(store, "s1")
    types = [e["type"] for e in events]
    assert "pods_assigned" not in types
    assert types.index("deck_building_started") < types.index("list_submitted")
    # a limited list of 30 cards with 7 copies of one card breaks no rule (§2.3.2)
    assert all(not e.get("violations") for e in events if e["type"] == "list_submitted")
    # lists lock when round 1 starts at competitive tier, as in any event
    locked = next(e for e in events if e["type"] == "lists_locked")
    assert types.index("lists_locked") == types.index("round_started") - 1
    assert "competitive tier" in locked["reason"]
    assert types.count("cut_made") == 1 and types[-1] == "tournament_finished"
    done = cli("verify", "s1", "--store", store)
    assert done.exit_code == 0, done.stdout + done.stderr
    assert read(store, "pods", "s1")["pods"] == []


def test_a_scripted_swu_draft_event_with_pod_assignment_runs_end_to_end_swu_2_3_2_1(
    tmp_path: Path,
) -> None:
    store = f"sqlite:///{tmp_path}/draft.sqlite3"
    final = run_limited_event(store, tmp_path, "d1", "draft", 10,
                              pods={"pod_size": 5, "seed": 2024})  # fmt: skip
    assert final["stage"] == "finished" and final["deck_building"]["minutes"] == 30
    shown = read(store, "pods", "d1")
    assert (shown["pod_size"], shown["seed"]) == (5, 2024)
    assert [len(p["seats"]) for p in shown["pods"]] == [5, 5]
    seated = [s["player"] for p in shown["pods"] for s in p["seats"]]
    assert sorted(seated) == sorted(f"p{i}" for i in range(1, 11))
    assert [s["seat"] for s in shown["pods"][0]["seats"]] == [1, 2, 3, 4, 5]
    [assigned] = [e for e in events_of(store, "d1") if e["type"] == "pods_assigned"]
    assert assigned["seq"] == shown["assigned_seq"]
    assert [list(p["players"]) for p in assigned["pods"]] == [
        [s["player"] for s in p["seats"]] for p in shown["pods"]]  # fmt: skip
    table = cli("pods", "d1", "--store", store)
    assert table.exit_code == 0 and "Player p" in table.stdout
    page = cli("print", "d1", "pods", "--lang", "de", "--store", store)
    assert page.exit_code == 0 and "Gruppe 2" in page.stdout and "Platz" in page.stdout
    assert f"seq {final['seq']} {final['head']}" in page.stdout  # the witness line
    refused = cli("assign-pods", "d1", "--store", store)
    assert refused.exit_code == 1 and "is finished" in refused.stderr
    done = cli("verify", "d1", "--store", store)
    assert done.exit_code == 0, done.stdout + done.stderr


def test_the_cli_seats_pods_and_starts_deck_building(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path}/cli.sqlite3"
    apply(store, tmp_path, [
        {"type": "create_tournament", "tournament": "d", "name": "D", "ruleset": "swu-1.0",
         "options": {"deck_format": "draft", "tier": "casual", "format": "bo1"}},
        *({"type": "register_player", "tournament": "d", "player": f"p{i}"} for i in range(9)),
    ])  # fmt: skip
    early = cli("deckbuild", "d", "--store", store)
    assert early.exit_code == 1 and "assign_pods first (swu-1.0 §2.3.2.1)" in early.stderr
    assert cli("assign-pods", "d", "--size", "4", "--seed", "1", "--store", store).exit_code == 0
    assert [len(p["seats"]) for p in read(store, "pods", "d")["pods"]] == [5, 4]
    assert cli("deckbuild", "d", "--minutes", "40", "--store", store).exit_code == 0
    assert read(store, "status", "d")["deck_building"]["minutes"] == 40


def test_twin_suns_is_refused_by_apply_with_one_line_and_nothing_appended(tmp_path: Path) -> None:
    store = f"sqlite:///{tmp_path}/twin.sqlite3"
    line = {"type": "create_tournament", "tournament": "ts", "name": "Twin Suns Night",
            "ruleset": "swu-1.4", "options": {"format": "twin-suns"}}  # fmt: skip
    done = cli("apply", "-", "--store", store, stdin=json.dumps(line))
    assert done.exit_code == 2
    [message] = [x for x in done.stderr.splitlines() if not x.startswith("{")]
    assert message.startswith("error: line 1: create_tournament: Twin Suns is a multiplayer "
                              "format (swu-1.4 §2.3.1.2, §4.2 note)")  # fmt: skip
    assert cli("status", "ts", "--store", store).exit_code == 1  # unknown: nothing appended


def test_the_pods_read_over_http_as_on_the_cli() -> None:
    handler = Handler(open_store(f"memory://{uuid.uuid4().hex}"))
    secret = create_token(handler.store, "reader", None, None)
    for command in [
        {"type": "create_tournament", "name": "D", "ruleset": "swu-1.4",
         "options": {"deck_format": "draft"}},
        *({"type": "register_player", "player": f"p{i}"} for i in range(6)),
        {"type": "assign_pods", "pod_size": 3, "seed": 7},
    ]:  # fmt: skip
        handler.handle(parse_command({"tournament": "d", **command}))

    async def get(path: str) -> httpx.Response:
        transport = httpx.ASGITransport(app=create_app(handler))
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            return await http.get(path, headers={"Authorization": f"Bearer {secret}"})

    answer = asyncio.run(get("/tournaments/d/pods"))
    assert answer.status_code == 200 and answer.headers["etag"]
    body = answer.json()
    assert (body["pod_size"], body["seed"], body["assigned_seq"]) == (3, 7, 8)
    assert [[s["seat"] for s in p["seats"]] for p in body["pods"]] == [[1, 2, 3], [1, 2, 3]]
    assert "names" not in body
    assert asyncio.run(get("/tournaments/d/pods?as_of=7")).json()["pods"] == []
    assert asyncio.run(get("/tournaments/nope/pods")).status_code == 404
