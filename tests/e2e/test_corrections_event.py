"""A scripted 16-player SWU event whose round-2 result is corrected in each timing situation
of swu-1.4 §5.8, run through ``tledger apply`` and read back with ``log`` and ``standings``."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app

PLAYERS = [f"p{i:02d}" for i in range(1, 17)]
R1 = [PLAYERS[i : i + 2] for i in range(0, 16, 2)]
R2 = [[a, b] for a, b in zip(PLAYERS[0::4] + PLAYERS[1::4], PLAYERS[2::4] + PLAYERS[3::4],
                             strict=True)]  # fmt: skip
WRONG, RIGHT = {"games": [2, 1], "draws": 0}, {"games": [1, 2], "draws": 0}
JUDGE = {"role": "judge", "id": "j-anna"}


def event(t: str, slip: dict[str, Any]) -> list[dict[str, Any]]:
    """Two Swiss rounds; round 2's first table is reported as ``slip``."""
    cmds: list[dict[str, Any]] = [
        {"type": "create_tournament", "tournament": t, "name": "Corrections", "ruleset": "swu-1.4",
         "options": {"seed": 16}}
    ]  # fmt: skip
    cmds += [{"type": "register_player", "tournament": t, "player": p, "name": p.upper()}
             for p in PLAYERS]  # fmt: skip
    for number, tables in ((1, R1), (2, R2)):
        cmds += [{"type": "pair_round", "tournament": t, "pairings": tables},
                 {"type": "start_round", "tournament": t}]  # fmt: skip
        for i, players in enumerate(tables):
            result = slip if (number, i) == (2, 0) else {"games": [2, 0], "draws": 0}
            cmds.append({"type": "report_result", "tournament": t, "round": number,
                         "players": players, "result": result})  # fmt: skip
    return cmds


def run(store: str, commands: list[dict[str, Any]], *read: str) -> Any:
    runner = CliRunner()
    lines = "".join(json.dumps(c) + "\n" for c in commands)
    if lines:
        applied = runner.invoke(app, ["apply", "-", "--store", store], input=lines)
        assert applied.exit_code == 0, applied.stderr
    if read:
        shown = runner.invoke(app, [*read, "--json", "--store", store])
        assert shown.exit_code == 0, shown.stderr
        return json.loads(shown.stdout)
    return None


def table(view: dict[str, Any]) -> dict[str, tuple[Any, ...]]:
    return {r["player"]: (r["points"], tuple(r["record"].values()), r["tiebreakers"])
            for r in view["standings"]}  # fmt: skip


@pytest.mark.parametrize(
    ("situation", "before_correction", "timing"),
    [
        ("not yet paired", [], "next_round_unpaired"),
        ("paired, not started", ["pair"], "next_round_paired"),
        ("started", ["pair", "start"], "next_round_started"),
    ],
)
def test_round_two_correction_in_each_timing_situation_swu14_5_8(
    situation: str, before_correction: list[str], timing: str
) -> None:
    store, t = f"memory://{uuid.uuid4().hex}", "c16"
    run(store, event(t, WRONG))
    steps = {"pair": {"type": "pair_round", "tournament": t, "seed": 3},
             "start": {"type": "start_round", "tournament": t}}  # fmt: skip
    run(store, [steps[s] for s in before_correction])
    published = run(store, [], "pairings", t)["pairings"] if before_correction else []
    before = table(run(store, [], "standings", t))

    a, b = R2[0]
    run(store, [{"type": "correct_result", "tournament": t, "round": 2, "players": [a, b],
                 "result": RIGHT, "reason": "slip filled in reverse", "actor": JUDGE}])  # fmt: skip
    log = run(store, [], "log", t)["events"]
    after = table(run(store, [], "standings", t))

    # the log keeps the original report and shows the correction with its reason and actor
    original = [e for e in log if e["type"] == "result_reported" and e["round"] == 2
                and e["players"] == [a, b]]  # fmt: skip
    assert [e["result"] for e in original] == [WRONG]
    [corrected] = [e for e in log if e["type"] == "result_corrected"]
    assert corrected["reason"] == "slip filled in reverse" and corrected["actor"] == JUDGE
    assert corrected["timing"] == timing and corrected["previous"] == WRONG
    revised = [e for e in log if e["type"] == "pairings_revised"]
    if timing == "next_round_paired":
        [revision] = revised
        replaced = {frozenset(t["players"]) for t in revision["replaced"]}
        assert any(a in p or b in p for p in replaced)
        kept = [p for p in published if frozenset(p["players"]) not in replaced]
        now = run(store, [], "pairings", t)["pairings"]
        assert all(p in now for p in kept)  # every other table stays as published
        assert {frozenset(p["players"]) for p in now} != {
            frozenset(p["players"]) for p in published
        }
    else:
        assert revised == []
        if published:
            assert run(store, [], "pairings", t)["pairings"] == published

    # verify re-derives the round-3 pairing and its revision from the log and the seeds
    checks = run(store, [], "verify", t)["pairings"]
    assert all(c["ok"] for c in checks)
    assert [c["kind"] for c in checks][2:] == (
        ["auto", "revision"] if timing == "next_round_paired" else ["auto"] if published else []
    )

    # standings differ exactly as the correction implies: as if reported right the first time
    truth = f"memory://{uuid.uuid4().hex}"
    run(truth, event(t, RIGHT))
    assert after == table(run(truth, [], "standings", t))
    assert before[a][0] - after[a][0] == 3 and after[b][0] - before[b][0] == 3
    assert {p for p in PLAYERS if before[p][:2] != after[p][:2]} == {a, b}
