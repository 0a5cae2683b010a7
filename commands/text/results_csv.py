"""The results document as CSV (``tledger export --format csv``): a face of
``commands.reads.results_doc``, computing nothing of its own.

Three sections, each a header row and its rows, one blank line between them (the
layout and column names are those ``commands.text.results_parse`` reads back):

1. the standings in order: rank, player, name, points, record, dropped, every
   tiebreaker of the ruleset unrounded, then the first round the player could be
   paired in, the Swiss rounds missed while away, the round after which the player
   dropped and their status (and lcg-2.1d's deducted points; in a team event, each
   team's own name and its two members' ids and names);
2. every match result, byes included, one result field per column;
3. the event: format, tournament, name, ruleset, options, seed, tiebreakers, stage,
   the cut, champion, ``seq`` and head.

Ids and names that start like a spreadsheet formula ("=", "+", "-", "@") are
written with a leading apostrophe (OWASP: CSV injection), which the reader removes.
Numbers are machine-readable (a dot for the decimal point, tiebreakers in full float
precision, never percentages). The file is UTF-8 with a byte order mark: Excel
needs the mark to read names such as "Jürgen" or "Łukasz" correctly, Python's ``csv``
with ``encoding="utf-8-sig"`` and LibreOffice read it either way. Fields are
separated by commas and rows end with CRLF (RFC 4180); a German Excel, which
expects semicolons when a file is opened by double-click, reads it through Data >
From Text/CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from commands.reads.results_doc import (
    ResultsDocument,
    ResultsMatch,
    ResultsPlayer,
    ResultsRound,
    ResultsTeam,
    results_document,
)
from commands.reads.views import json_of
from commands.text.results_parse import (
    CSV_FORMAT,
    DEDUCTIONS,
    EVENT_COLUMNS,
    FLAGS,
    PLAIN_FIELDS,
    PLAYER_COLUMNS,
    RESULT_COLUMNS,
    STANDING_COLUMNS,
    TEAM_COLUMNS,
    TEXT_COLUMNS,
    escaped,
)
from ledger.store import PlayerEntry, Recorded
from projections.state import TournamentState

BOM = "\ufeff"


def csv_bytes(doc: ResultsDocument) -> bytes:
    """The whole file: byte order mark, then the three sections."""
    return (BOM + csv_text(doc)).encode("utf-8")


def csv_text(doc: ResultsDocument) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerows(standing_rows(doc))
    writer.writerow([])
    writer.writerows(result_rows(doc))
    writer.writerow([])
    writer.writerows(event_rows(doc))
    return out.getvalue()


def cell(value: Any) -> str:
    """Machine-readable text: integers as they are, floats unrounded (Python's shortest
    repr that reads back to the same float), flags as true/false, nothing as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def cells(columns: Iterable[str], values: Iterable[Any]) -> list[str]:
    """A row: text people typed escaped so that no spreadsheet runs it as a formula."""
    return [escaped(cell(v)) if c in TEXT_COLUMNS else cell(v)
            for c, v in zip(columns, values, strict=True)]  # fmt: skip


def standing_rows(doc: ResultsDocument) -> Iterable[list[str]]:
    extra = [DEDUCTIONS] if doc.point_deductions else []
    teams = None if doc.teams is None else {t.team: t for t in doc.teams}
    header = [*STANDING_COLUMNS, *doc.tiebreakers, *PLAYER_COLUMNS, *extra,
              *(TEAM_COLUMNS if teams is not None else ())]  # fmt: skip
    yield header
    players = {p.player: p for p in doc.players}
    for row in doc.standings:
        facts = players[row.player]
        record = row.record
        values = [row.rank, row.player, row.name, row.points, record.wins, record.losses,
                  record.draws, row.dropped, *(row.tiebreakers.get(k) for k in doc.tiebreakers),
                  *player_facts(facts)]  # fmt: skip
        if doc.point_deductions:
            values.append(doc.deductions.get(row.player, 0))
        if teams is not None:
            values += team_facts(teams[row.player])
        yield cells(header, values)


def player_facts(p: ResultsPlayer) -> list[Any]:
    return [p.first_round, " ".join(str(r) for r in p.missed_rounds), p.dropped_after_round,
            p.status]  # fmt: skip


def team_facts(team: ResultsTeam) -> list[Any]:
    return [team.name, *(value for m in team.members for value in (m.player, m.name))]


def result_rows(doc: ResultsDocument) -> Iterable[list[str]]:
    yield list(RESULT_COLUMNS)
    names = {p.player: p.name for p in doc.players}
    for rnd in doc.rounds:
        for match in rnd.matches:
            yield cells(RESULT_COLUMNS, match_values(rnd, match, names))
        for player in rnd.byes:
            yield cells(RESULT_COLUMNS, bye_values(rnd, player, names))


def match_values(rnd: ResultsRound, m: ResultsMatch, names: dict[str, str]) -> list[Any]:
    a, b = m.players
    result = m.result or {}
    games, points = result.get("games") or [None, None], result.get("points") or [None, None]
    plain = {name: result.get(name) for name in (*PLAIN_FIELDS, *FLAGS)}
    played = result.get("game_results")
    values: dict[str, Any] = {
        "round": rnd.round, "stage": rnd.stage, "table": m.table, "bracket": m.bracket,
        "player_a": a, "name_a": names.get(a), "player_b": b, "name_b": names.get(b),
        "state": m.state, "games_a": games[0], "games_b": games[1],
        "points_a": points[0], "points_b": points[1],
        "game_results": orjson.dumps(played).decode() if played is not None else None,
        **plain,
    }  # fmt: skip
    return [values[c] for c in RESULT_COLUMNS]


def bye_values(rnd: ResultsRound, player: str, names: dict[str, str]) -> list[Any]:
    values = {"round": rnd.round, "stage": rnd.stage, "player_a": player,
              "name_a": names.get(player), "state": "bye"}  # fmt: skip
    return [values.get(c) for c in RESULT_COLUMNS]


def event_rows(doc: ResultsDocument) -> Iterable[list[str]]:
    yield list(EVENT_COLUMNS)
    cut = doc.cut
    fields: list[tuple[str, Any]] = [
        ("format", CSV_FORMAT), ("tournament", doc.tournament), ("name", doc.name),
        ("ruleset", doc.ruleset), ("options", json_text(doc.options)), ("seed", doc.seed),
        ("tiebreakers", json_text(doc.tiebreakers)), ("stage", doc.stage),
        ("cut_size", cut.size if cut else None),
        ("cut_seeds", json_text(cut.seeds) if cut else None),
        ("champion", doc.champion), ("seq", doc.seq), ("head", doc.head),
    ]  # fmt: skip
    for name, value in fields:
        yield cells(EVENT_COLUMNS, (name, value))


def json_text(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def results_bytes(state: TournamentState, events: Sequence[Recorded],
                  entries: Mapping[str, PlayerEntry], fmt: str) -> bytes:  # fmt: skip
    """The results document of ``state`` (the fold of ``events``) with the registry's
    ``entries`` as CSV or JSON (``export --format csv|json`` and the console's
    downloads)."""
    doc = results_document(state, events, entries)
    if fmt == "csv":
        return csv_bytes(doc)
    return orjson.dumps(json_of(doc), option=orjson.OPT_INDENT_2) + b"\n"
