"""The lifecycle and the commands agree at every point of every golden log.

For each prefix of each log in ``tests/fixtures/logs`` (folded one event at a time,
the store read once), every step of ``projections.lifecycle`` is allowed exactly when
``decide`` accepts its command, and refused with the sentence and the error decide
refuses it with; and what the console offers from that point's read models (the
Round page's ``round_steps``, the overview's ``next_step``) is only ever accepted.
The stores are copied before they are opened: the golden files are never written.
"""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from commands.context import REFUSALS
from commands.decide import decide
from commands.errors import CommandError
from commands.models import parse_command
from commands.reads.next_step import next_step, next_steps
from commands.reads.roundtables import round_steps
from commands.reads.views import status
from ledger.url import open_store
from projections.lifecycle import Lifecycle, cut_of
from projections.pairing import eligible_players
from projections.refusal import Step
from projections.state import TournamentState, evolve

LOGS = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
GOLDEN = sorted(LOGS.glob("*/*.sqlite3"))
IDS = [f"{p.parent.name}/{p.name.removesuffix('.sqlite3')}" for p in GOLDEN]
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
SEED = 11
#: each step's command, as a face sends it
COMMANDS: dict[str, dict[str, Any]] = {
    "pair": {"type": "pair_round", "seed": SEED},
    "start": {"type": "start_round"},
    "cut": {"type": "make_cut"},
    "finish": {"type": "finish_tournament"},
    "finish_without_cut": {"type": "finish_tournament", "without_cut": "the venue closes"},
    "assign_pods": {"type": "assign_pods"},
    "start_deck_building": {"type": "start_deck_building"},
}
#: the step of the command an advice names
ADVISED = {c["type"]: step for step, c in COMMANDS.items() if step != "finish_without_cut"}


def refusal(state: TournamentState, body: dict[str, Any]) -> CommandError | None:
    """What ``decide`` answers ``body`` with in ``state``: None when it accepts it."""
    try:
        decide(state, parse_command({"tournament": state.id, **body}), now=NOW, seed=SEED)
    except CommandError as exc:
        return exc
    return None


def by_hand(state: TournamentState) -> dict[str, Any]:
    """Tables by hand of every eligible player, two by two (a bye last)."""
    players = eligible_players(state)
    return {"type": "pair_round", "pairings": [players[i : i + 2]
                                               for i in range(0, len(players), 2)]}  # fmt: skip


def disagreement(name: str, step: Step, refused: CommandError | None) -> str | None:
    """How the step and decide's answer differ (None: they agree)."""
    if step.allowed:
        return None if refused is None else f"{name}: allowed, decide refused {refused!r}"
    if refused is None:
        return f"{name}: refused ({step.reason}), decide accepted"
    expected = REFUSALS[step.refusal or "wrong_phase"]
    if type(refused) is not expected or str(refused) != step.reason:
        return f"{name}: {step.refusal} {step.reason!r}, decide {refused!r}"
    return None


def disagreements(state: TournamentState, steps: Lifecycle) -> list[str]:
    found = [disagreement(name, getattr(steps, name), refusal(state, body))
             for name, body in COMMANDS.items()]  # fmt: skip
    found.append(disagreement("pair_by_hand", steps.pair_by_hand, refusal(state, by_hand(state))))
    sized = refusal(state, {"type": "make_cut", "size": 2})
    if steps.cut_sized.allowed and not cut_of(state, 2).allowed:
        sized = None if str(sized) == cut_of(state, 2).reason else sized
    found.append(disagreement("cut_sized", steps.cut_sized, sized))
    return [f for f in found if f is not None]


def refused_offers(state: TournamentState) -> list[str]:
    """The console's offers at this point that decide refuses."""
    steps = next_steps(state).steps
    shown = round_steps(steps)
    offers = {"pair": shown.pair, "start": shown.start, "assign_pods": shown.assign_pods,
              "start_deck_building": shown.deck_building}  # fmt: skip
    bodies = [COMMANDS[name] for name, offered in offers.items() if offered]
    bodies += [by_hand(state)] if shown.by_hand else []
    advised = next_step(status(state), steps).command
    bodies += [COMMANDS[ADVISED[advised]]] if advised in ADVISED else []
    return [f"{body}: {exc!r}" for body in bodies if (exc := refusal(state, body)) is not None]


@pytest.mark.parametrize("golden", GOLDEN, ids=IDS)
def test_the_lifecycle_allows_exactly_what_decide_accepts_at_every_seq(
    golden: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "golden.sqlite3"
    shutil.copyfile(golden, copy)
    store = open_store(f"sqlite:///{copy}", create=False)
    (tournament,) = store.tournaments()
    state = TournamentState()
    found: list[str] = []
    for recorded in store.load(tournament):
        evolve(state, recorded)
        steps = next_steps(state).steps
        found += [f"seq {state.seq}: {d}" for d in disagreements(state, steps)]
        found += [f"seq {state.seq}: offered {d}" for d in refused_offers(state)]
    assert found == []
