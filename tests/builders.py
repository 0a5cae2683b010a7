"""Small builders for tests: literal events and commands without a store."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from commands.decide import decide
from commands.lists import list_entries
from commands.models import parse_command
from ledger.chain import GENESIS, seal
from ledger.events import EventBase
from ledger.store import ListEntry, Recorded
from projections.standings import Standing
from projections.state import TournamentState, fold

T0 = datetime(2026, 1, 10, 10, 0, tzinfo=UTC)


def recorded(events: list[EventBase], start: int = 1, prev: str = GENESIS) -> list[Recorded]:
    """Seal events into a chain and number them as a store would."""
    return [Recorded(seq, seq, s.event) for seq, s in enumerate(seal(events, prev), start=start)]


def state_of(*events: EventBase | list[EventBase]) -> TournamentState:
    """Fold literal events (single ones or lists of them), numbered 1, 2, 3, ..."""
    flat: list[EventBase] = []
    for e in events:
        flat.extend(e if isinstance(e, list) else [e])
    return fold(Recorded(seq, seq, e) for seq, e in enumerate(flat, start=1))  # type: ignore[arg-type]


def by_player(rows: list[Standing]) -> dict[str, Standing]:
    return {s.player: s for s in rows}


class Given:
    """given(commands...) -> when(command) -> events; all pure, no store. The lists the
    commands record are kept as the handler keeps them beside the log (``lists``), and
    given to ``decide`` as the handler gives them; ``salt`` salts their hashes."""

    def __init__(self, *commands: dict[str, Any], seed: int = 7, salt: bytes = b"") -> None:
        self.log: list[Recorded] = []
        self.lists: list[ListEntry] = []
        self.seed, self.salt = seed, salt
        for command in commands:
            self.apply(command)

    @property
    def state(self) -> TournamentState:
        return fold(self.log)

    def when(self, command: dict[str, Any]) -> list[EventBase]:
        state = self.state
        at = T0 + timedelta(minutes=len(self.log))
        return decide(state, parse_command(command), now=at, seed=self.seed,
                      kept_lists=self.lists, salt=self.salt)  # fmt: skip

    def apply(self, command: dict[str, Any]) -> list[EventBase]:
        state, events = self.state, self.when(command)
        self.lists += list_entries(state, parse_command(command), events, state.seq + 1,
                                   self.salt)  # fmt: skip
        head = self.log[-1].event.hash if self.log else GENESIS
        self.log += recorded(events, start=len(self.log) + 1, prev=head)
        return events


def create(t: str = "t1", ruleset: str = "swu-1.4", **options: Any) -> dict[str, Any]:
    return {"type": "create_tournament", "tournament": t, "name": "Test", "ruleset": ruleset,
            "options": options}  # fmt: skip


def register(*players: str, t: str = "t1") -> list[dict[str, Any]]:
    return [{"type": "register_player", "tournament": t, "player": p, "name": p.upper()}
            for p in players]  # fmt: skip


def drop(*players: str, t: str = "t1") -> list[dict[str, Any]]:
    return [{"type": "drop_player", "tournament": t, "player": p} for p in players]


def pair(*tables: list[str], t: str = "t1") -> dict[str, Any]:
    return {"type": "pair_round", "tournament": t, "pairings": [list(x) for x in tables]}


def start(t: str = "t1") -> dict[str, Any]:
    return {"type": "start_round", "tournament": t}


def report(rnd: int, a: str, b: str, t: str = "t1", **result: Any) -> dict[str, Any]:
    return {"type": "report_result", "tournament": t, "round": rnd, "players": [a, b],
            "result": result}  # fmt: skip
