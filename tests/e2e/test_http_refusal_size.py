"""A 409 naming waiting tables over HTTP names ten and counts the rest: its body stays
small however big the event (it once listed every table, 10 KB at 236 tables)."""

from __future__ import annotations

from pathlib import Path

from commands.handler import Handler
from ledger.url import open_store
from tests.e2e.test_read_cache import Client

PLAYERS = [f"p{i}" for i in range(1, 61)]


def test_the_409_of_a_round_not_complete_names_ten_tables_and_the_count(tmp_path: Path) -> None:
    api = Client(Handler(open_store(f"sqlite:///{tmp_path / 'big.sqlite3'}")))
    commands = [{"type": "create_tournament", "tournament": "t", "name": "Big", "ruleset":
                 "swu-1.4"}] + [{"type": "register_player", "tournament": "t", "player": p,
                                 "name": p.upper()} for p in PLAYERS]  # fmt: skip
    commands += [{"type": "pair_round", "tournament": "t"}, {"type": "start_round",
                                                             "tournament": "t"}]  # fmt: skip
    for command in commands:
        assert api.post(command).is_success, command
    refused = api.post({"type": "pair_round", "tournament": "t"})
    assert refused.status_code == 409
    said = refused.json()["error"]
    assert said.startswith("round 1 is not complete: 30 tables still need a confirmed result")
    assert said.endswith(", ... and 20 more") and said.count("(missing)") == 10
    assert len(refused.content) < 500
