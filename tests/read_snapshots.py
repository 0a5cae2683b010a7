"""Every read of every golden log as bytes: the JSON each read model serializes to (now,
at every seq, per round and per player) and the command line's JSON of the audit reads
and exports. ``tests/fixtures/reads/`` keeps what this gave; a change to the house that
keeps behaviour must give the same bytes (``test_read_snapshots.py``).

Run ``python -m tests.read_snapshots`` to write the snapshots again, only when a read's
JSON changes on purpose, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import orjson
import typer
from click.testing import CliRunner

from commands.cli.main import app as cli
from commands.errors import CommandError
from commands.handler import Handler
from commands.reads.cache import LogQuery, Query, ReadSide
from ledger.url import open_store

LOGS = Path(__file__).resolve().parent / "fixtures" / "logs"
SNAPSHOTS = Path(__file__).resolve().parent / "fixtures" / "reads"
GOLDEN = sorted(LOGS.glob("*/*.sqlite3"))
#: as-of reads at every seq are kept as digests: a page of bytes per seq would be large
DIGESTED = ("status", "standings", "pairings", "bracket")


def snapshot_path(store: Path) -> Path:
    return SNAPSHOTS / store.parent.name / f"{store.name.removesuffix('.sqlite3')}.json"


def digest(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()


def reads(url: str) -> Iterator[tuple[str, str]]:
    """(key, bytes as text) of every read of the store's one tournament."""
    store = open_store(url, create=False)
    side = ReadSide(Handler(store).folds)
    (tournament,) = store.tournaments()
    status = orjson.loads(side.get(tournament, Query("status")).body)
    players = [
        p["player"] for p in orjson.loads(side.get(tournament, Query("players")).body)["players"]
    ]
    rounds = range(1, int(status["round"] or 0) + 1)
    queries = [Query(v) for v in ("status", "standings", "pairings", "bracket", "outstanding",
                                  "players", "queue", "pods", "clock")]  # fmt: skip
    queries += [Query("pairings", round=r) for r in rounds]
    queries += [Query("clock", round=r) for r in rounds]
    queries += [Query(v, player=p) for p in players for v in ("player", "explain")]
    queries += [Query("players", search=s) for s in ("a", "p1", "zz")]
    for r in rounds:
        pairings = orjson.loads(side.get(tournament, Query("pairings", round=r)).body)
        for table in pairings["pairings"]:
            if len(table["players"]) == 2:
                queries.append(Query("slip", round=r, players=tuple(table["players"])))
    for query in queries:
        yield repr(query), side.get(tournament, query).body.decode()
    for log in (LogQuery(), LogQuery(after_seq=5, limit=7)):
        yield repr(log), side.get(tournament, log).body.decode()
    try:
        yield "lists", side.lists(tournament).body.decode()
    except CommandError as exc:
        yield "lists", f"refused: {exc}"
    for seq in range(1, int(status["seq"]) + 1):
        for view in DIGESTED:
            yield f"as_of={seq} {view}", digest(side.get(tournament, Query(view), str(seq)).body)
    yield from cli_reads(url, tournament, players, int(status["seq"]))


def cli_reads(url: str, tournament: str, players: list[str], seq: int) -> Iterator[tuple[str, str]]:
    runner, command = CliRunner(), typer.main.get_command(cli)
    asked = [["verify", tournament, "--json"], ["export", tournament, "--format", "json"],
             ["export", tournament, "--format", "csv"], ["export", tournament],
             ["replay", tournament, "--until", str(seq // 2), "--json"],
             ["diff", tournament, str(seq // 3), str(seq), "--json"],
             ["explain", tournament, players[0], "--json", "--as-of", str(seq // 2)]]  # fmt: skip
    for args in asked:
        done = runner.invoke(command, [*args, "--store", url])
        yield " ".join(args), f"exit {done.exit_code}\n{done.stdout}"


def collect(store: Path) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "golden.sqlite3"
        shutil.copyfile(store, copy)
        return dict(reads(f"sqlite:///{copy}"))


def main() -> None:
    for store in GOLDEN:
        path = snapshot_path(store)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(orjson.dumps(collect(store), option=orjson.OPT_INDENT_2) + b"\n")
        print(path)


if __name__ == "__main__":
    main()
