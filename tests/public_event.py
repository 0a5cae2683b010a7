"""Tournaments for the public page's tests, run in-process through the handler: a Swiss
event under way (40 players, round 2 started, a few results in) and one in its top cut.
Names are people's names: accents, a long double-barrelled one, two that share a
first name, so that search, wrapping and folding have something to do."""

from __future__ import annotations

from typing import Any

from commands.handler import Handler
from commands.models import parse_command
from ledger.chain import seal
from ledger.events import ORGANIZER, PlayerRegistered
from ledger.store import PlayerEntry

NAMES = [
    "Ada Lovelace", "Élan Müller", "Zoë Kravitz-Ødegaard", "Bjørn Ström", "Chidi Okafor",
    "Maximilian Alexander von Hohenzollern-Sigmaringen", "Dana Scully", "Fay Wray",
    "Grace Hopper", "Hedy Lamarr", "Ines Göbel", "Jürgen Straße", "Kai Tanaka", "Lena Ólafsdóttir",
    "Marta Nowak", "Nils Holgersson", "Olga Petrova", "Pavel Dvořák", "Quinn Fabray",
    "Rosa Parks", "Sven Åberg", "Tariq Aziz", "Ulla Weber", "Vera Lynn", "Wanda Maximoff",
    "Xavier Dupont", "Yara Greyjoy", "Zofia Wiśniewska", "Ada Byron", "Ben Kenobi",
    "Cara Dune", "Din Djarin", "Ezra Bridger", "Finn Rey", "Greef Karga", "Hera Syndulla",
    "Ione Skye", "Jyn Erso", "Kanan Jarrus", "Leia Organa",
]  # fmt: skip


def run(handler: Handler, t: str, *commands: dict[str, Any]) -> None:
    for command in commands:
        handler.handle(parse_command({"tournament": t, **command}))


def result(index: int) -> dict[str, Any]:
    """A varied but fixed Bo3 result: 2-0, 2-1, 1-2, 0-2 by table."""
    return {"games": [[2, 0], [2, 1], [1, 2], [0, 2]][index % 4], "draws": 0}


def report_round(handler: Handler, t: str, count: int | None = None) -> None:
    """Report the first ``count`` two-player tables of the current round (all: None)."""
    current = handler.folds.state(t).current
    assert current is not None
    tables = [m for m in current.matches if len(m.players) == 2][:count]
    for i, match in enumerate(tables):
        run(handler, t, {"type": "report_result", "round": current.number,
                         "players": list(match.players), "result": result(i)})  # fmt: skip


def running_event(handler: Handler, t: str, name: str = "Store Showdown Berlin",
                  players: int = 40, reported: int = 3) -> None:  # fmt: skip
    """Round 1 complete, round 2 paired and started with ``reported`` results in."""
    run(handler, t, {"type": "create_tournament", "name": name, "ruleset": "swu-1.4",
                     "options": {"seed": 14}})  # fmt: skip
    run(handler, t, *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]}
                      for i in range(players)))  # fmt: skip
    run(handler, t, {"type": "pair_round", "seed": 7}, {"type": "start_round"})
    report_round(handler, t)
    run(handler, t, {"type": "pair_round", "seed": 8}, {"type": "start_round"})
    report_round(handler, t, reported)


def event_in_its_cut(handler: Handler, t: str) -> None:
    """8 players, 3 Swiss rounds, a top 4: the semifinals played, the final paired."""
    run(handler, t, {"type": "create_tournament", "name": "Regional Finals", "ruleset": "swu-1.4",
                     "options": {"rounds": 3, "cut": 4, "seed": 14}})  # fmt: skip
    run(handler, t, *({"type": "register_player", "player": f"p{i + 1}", "name": NAMES[i]}
                      for i in range(8)))  # fmt: skip
    for seed in (1, 2, 3):
        run(handler, t, {"type": "pair_round", "seed": seed}, {"type": "start_round"})
        report_round(handler, t)
    run(handler, t, {"type": "make_cut"}, {"type": "pair_round"}, {"type": "start_round"})
    report_round(handler, t)
    run(handler, t, {"type": "pair_round"}, {"type": "start_round"})


def registered_long_ago(handler: Handler, t: str, player: str, name: str) -> None:
    """A registration as a version before names were checked wrote it, with a ``name``
    today's commands refuse (a right-to-left override left open): its event and its
    registry row appended as they were stored."""
    state = handler.folds.state(t)
    event = PlayerRegistered(tournament=t, at=state.created_at, actor=ORGANIZER, player=player)
    handler.store.append(t, seal([event], state.head), expected_version=state.seq,
                         players=[PlayerEntry(t, player, name, None)])  # fmt: skip


def clean_postgres(url: str, *tournaments: str) -> None:
    """A test's tournaments leave the shared PostgreSQL database: their events, registry
    rows, settings and venues' claims (nothing to do on another store)."""
    if not url.startswith("postgres"):
        return
    import psycopg

    from ledger.eventsourced import stream_id

    with psycopg.connect(url, autocommit=True) as db:
        for t in tournaments:
            db.execute("DELETE FROM tledger_tournament_settings WHERE tournament = %s", (t,))
            db.execute("DELETE FROM tledger_players WHERE tournament = %s", (t,))
            db.execute("DELETE FROM tledger_mirrors WHERE tournament = %s", (t,))
            db.execute("DELETE FROM tledger_events WHERE originator_id = %s", (stream_id(t),))
