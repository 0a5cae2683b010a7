"""Run a small Swiss SWU tournament end to end through the real ``tledger`` CLI.

Eight players, Bo3, three automatically paired rounds on the embedded SQLite
store; results are drawn from a fixed seed so every run tells the same story.
Prints each round's pairings and the final standings, then verifies the chain.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

TLEDGER = str(Path(sys.executable).with_name("tledger"))
PLAYERS = ["Ada", "Bail", "Cassian", "Din", "Ezra", "Fennec", "Grogu", "Hera"]
RESULTS = [{"games": [2, 0], "draws": 0}, {"games": [2, 1], "draws": 0},
           {"games": [1, 2], "draws": 0}, {"games": [0, 2], "draws": 0},
           {"games": [1, 1], "draws": 1}]  # fmt: skip


def tledger(store: str, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run(
        [TLEDGER, *args, "--store", store], input=stdin, text=True, capture_output=True
    )
    if done.returncode != 0:
        sys.exit(f"tledger {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def command_lines(commands: list[dict[str, object]]) -> str:
    return "".join(json.dumps(c) + "\n" for c in commands)


def main() -> None:
    rng = random.Random(1977)
    folder = Path(tempfile.mkdtemp(prefix="tledger-demo-"))
    store = f"sqlite:///{folder / 'demo.sqlite3'}"
    print(f"Store: {store}\n")
    setup = [
        {
            "type": "create_tournament",
            "tournament": "demo",
            "name": "Store Showdown",
            "ruleset": "swu-1.4",
            "options": {"format": "bo3", "tier": "competitive"},
        }
    ]
    setup += [{"type": "register_player", "tournament": "demo", "player": f"p{i}", "name": n}
              for i, n in enumerate(PLAYERS, start=1)]  # fmt: skip
    tledger(store, "apply", "-", stdin=command_lines(setup))
    for round_number in (1, 2, 3):
        tledger(store, "pair", "demo")
        tledger(store, "start", "demo")
        print(tledger(store, "pairings", "demo"))
        tables = json.loads(tledger(store, "pairings", "demo", "--json"))["pairings"]
        reports = [
            {"type": "report_result", "tournament": "demo", "round": round_number,
             "players": t["players"], "result": rng.choice(RESULTS)}
            for t in tables if len(t["players"]) == 2
        ]  # fmt: skip
        tledger(store, "apply", "-", stdin=command_lines(reports))
    print(tledger(store, "standings", "demo"))
    print(tledger(store, "verify", "demo"))
    print("The same event in a browser (the organizer's console), and on the phones of")
    print("the venue's network (the public page, and slips that players scan to report):")
    print(f"  .venv/bin/tledger token create --role organizer --store {store}")
    print(f"  .venv/bin/tledger serve --venue --store {store}")
    print("  then open http://127.0.0.1:8000/console on this computer and paste the token;")
    print("  phones open the addresses it prints (serve without --venue: this computer only)")


if __name__ == "__main__":
    main()
