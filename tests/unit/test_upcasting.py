"""Events evolve by versions and upcasters; old logs still verify, fold and import.

The test defines a version 2 of ``player_dropped`` (a new required field,
derived from version 1 by an upcaster) the way a later release would, and
replays every golden log through it: the chain is checked on the stored bytes,
so nothing an upcaster does can break it, and the fold sees the new model.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal, Union, get_args

import orjson
import pytest
from pydantic import Field, TypeAdapter

from ledger import events as ev
from ledger.chain import GENESIS, seal, verify_stored
from ledger.transfer import import_lines
from ledger.url import open_store
from replay.rebuild import rebuild
from tests.plain_views import standings_view

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
EXPORTS = sorted(LOGS.glob("*/*.export.jsonl"))


class PlayerDroppedV2(ev.PlayerDropped):
    """Version 2: who announced the drop, which version 1 kept only in the actor."""

    version: Literal[2] = 2  # type: ignore[assignment]
    announced_by: Literal["player", "official"]


def drop_v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    role = data.get("actor", {}).get("role")
    return {**data, "announced_by": "player" if role == "player" else "official"}


@pytest.fixture
def version_2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    members = tuple(
        PlayerDroppedV2 if m is ev.PlayerDropped else m for m in get_args(get_args(ev.Event)[0])
    )
    union = Annotated[Union[members], Field(discriminator="type")]  # type: ignore[valid-type]  # noqa: UP007
    monkeypatch.setattr(ev, "EVENT_ADAPTER", TypeAdapter(union))
    monkeypatch.setattr(ev, "UPCASTERS", {("player_dropped", 1): drop_v1_to_v2})
    yield


def test_upcast_lifts_one_version_at_a_time_and_stamps_the_version(version_2: None) -> None:
    lifted = ev.upcast({"type": "player_dropped", "version": 1, "actor": {"role": "player"}})
    assert lifted["version"] == 2 and lifted["announced_by"] == "player"
    assert ev.upcast({"type": "player_dropped", "version": 2}) == {
        "type": "player_dropped", "version": 2}  # fmt: skip


@pytest.mark.parametrize("export", EXPORTS, ids=lambda p: f"{p.parent.name}/{p.name[:-13]}")
def test_old_logs_verify_fold_and_import_under_a_version_2_event(
    export: Path, version_2: None
) -> None:
    lines = export.read_bytes().splitlines()
    tournament = orjson.loads(lines[0])["tournament"]
    expected = orjson.loads(export.with_name(export.name[:-13] + ".expected.json").read_bytes())
    store = open_store(f"memory://{uuid.uuid4().hex}")
    import_lines(store, lines)
    assert verify_stored(tournament, store.load_raw(tournament)) == expected["head"]
    state, events = rebuild(store, tournament)
    drops = [r.event for r in events if r.event.type == "player_dropped"]
    assert drops and all(isinstance(d, PlayerDroppedV2) for d in drops)
    assert all(d.version == 2 and d.announced_by == "official" for d in drops)  # type: ignore[union-attr]
    assert state.head == expected["head"]
    assert standings_view(state, store.players(tournament)) == expected["standings"]


def test_a_version_2_event_is_written_and_read_back_as_version_2(version_2: None) -> None:
    event = PlayerDroppedV2(
        tournament="t1", at="2026-11-26T10:00:00Z", actor=ev.ORGANIZER, player="p1",  # type: ignore[arg-type]
        announced_by="official",
    )  # fmt: skip
    [sealed] = seal([event], GENESIS)
    assert b'"version":2' in sealed.data
    store = open_store(f"memory://{uuid.uuid4().hex}")
    store.append("t1", [sealed], expected_version=0)
    [loaded] = store.load("t1")
    assert isinstance(loaded.event, PlayerDroppedV2) and loaded.event.version == 2
