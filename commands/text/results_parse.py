"""Reading the results exports: the JSON results document and the CSV.

The CSV has three sections, each a header row and its rows, separated by one
blank line: the standings in order with every tiebreaker unrounded and what each
player's standing follows from besides the matches (the first round they could
be paired in, the Swiss rounds they missed while away, the round after which they
dropped, their status, in lcg-2.1d the points deducted as penalties, and in a team
event each team's own name and members); every
match result, byes included, one result field per column; and the event (field,
value): format, ruleset, options, seed, the cut, ``seq`` and head. The column names
live here, where they are read, and the writer (``commands.text.results_csv``) uses
them, so the two cannot drift apart.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import orjson

from commands.text.results_data import InvalidResults, PlayedRound, PlayedTable, Results
from commands.text.results_json import results_of_document
from commands.text.results_roster import changes_of_players, teams_of

CSV_FORMAT = "tledger-results-csv/1"
JSON_FORMAT = "tledger-results/1"
STANDING_COLUMNS = ("rank", "player", "name", "points", "wins", "losses", "draws", "dropped")
#: after the tiebreakers: what a standing follows from besides the matches
PLAYER_COLUMNS = ("first_round", "missed_rounds", "dropped_after_round", "status")
DEDUCTIONS = "deductions"
#: last, in a team event only (lcg-2.1d "Team-Turniere"): the team's own name and its
#: two members, what ``register_team`` takes (``name`` holds "Team (Member, Member)")
TEAM_COLUMNS = ("team_name", "member_1", "member_1_name", "member_2", "member_2_name")
RESULT_COLUMNS = (
    "round", "stage", "table", "bracket", "player_a", "name_a", "player_b", "name_b", "state",
    "games_a", "games_b", "draws", "points_a", "points_b", "winner", "decided_by",
    "game_results", "light", "no_show", "concession", "intentional_draw", "double_loss",
)  # fmt: skip
EVENT_COLUMNS = ("field", "value")
#: Cells holding what people typed (ids, names) and the event's values. A spreadsheet
#: runs a cell that starts like a formula ("=HYPERLINK(...)" as a player's name), so
#: such a cell is written with a leading apostrophe, as OWASP advises against CSV
#: injection (one that starts with an apostrophe gets another), and read without it.
TEXT_COLUMNS = frozenset({"player", "name", "player_a", "name_a", "player_b", "name_b",
                          "winner", "no_show", "concession", "light", "value",
                          *TEAM_COLUMNS})  # fmt: skip
FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")
#: result fields of one value each (the pairs games and points have a column per player)
PLAIN_FIELDS = ("draws", "winner", "decided_by", "light", "no_show", "concession")
FLAGS = ("intentional_draw", "double_loss")


def escaped(text: str) -> str:
    """A text cell a spreadsheet shows as text, never runs."""
    return "'" + text if text.startswith(FORMULA_START) else text


def unescaped(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def read_json(data: bytes) -> Results:
    """The JSON results document (``export --format json``)."""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InvalidResults(f"not JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("format") != JSON_FORMAT:
        raise InvalidResults(f"not a results document: its format must be {JSON_FORMAT!r}")
    results = results_of_document(doc)
    results.check_teams()
    return results


def read_csv(data: bytes) -> Results:
    """The CSV export (``export --format csv``), with or without its byte order mark."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidResults(f"not UTF-8 text (byte {exc.start})") from None
    sections = split_sections(text)
    if len(sections) != 3:
        raise InvalidResults(
            f"expected 3 sections (standings, results, event) separated by a blank line, "
            f"found {len(sections)}"
        )
    event = event_fields(sections[2])
    if event.get("format") != CSV_FORMAT:
        raise InvalidResults(f"the event section does not name the format {CSV_FORMAT!r}")
    tiebreakers = loads_cell(event, "tiebreakers", list)
    standings, facts = standing_rows(sections[0], [str(t) for t in tiebreakers])
    played = rounds_of(records(sections[1], RESULT_COLUMNS))
    cut_seeds = loads_cell(event, "cut_seeds", list) if event.get("cut_seeds") else None
    results = Results(
        tournament=event_text(event, "tournament"), name=event_text(event, "name"),
        ruleset=event_text(event, "ruleset"), options=loads_cell(event, "options", dict),
        seed=int(event_number(event, "seed")), finished=event.get("stage") == "finished",
        players=[], rounds=played,
        cut_size=int(event_number(event, "cut_size")) if event.get("cut_size") else None,
        cut_seeds=cut_seeds, standings=standings,
        seq=int(event_number(event, "seq")), head=event.get("head", ""),
    )  # fmt: skip
    results.players, results.changes, results.deductions = changes_of_players(facts, results)
    results.teams = teams_of(facts)
    results.check_teams()
    return results


Row = tuple[int, list[str]]


def split_sections(text: str) -> list[list[Row]]:
    """Rows with their line numbers, in sections separated by blank rows."""
    reader = csv.reader(io.StringIO(text, newline=""))
    sections: list[list[Row]] = [[]]
    try:
        for row in reader:
            if not any(cell.strip() for cell in row):
                if sections[-1]:
                    sections.append([])
                continue
            sections[-1].append((reader.line_num, row))
    except csv.Error as exc:
        raise InvalidResults(f"line {reader.line_num}: {exc}") from None
    return [s for s in sections if s]


def records(section: list[Row], required: tuple[str, ...]) -> list[tuple[int, dict[str, str]]]:
    """A section's rows as dicts by its header, which must hold ``required``."""
    (_, header), *rows = section
    missing = [c for c in required if c not in header]
    if missing:
        raise InvalidResults(f"line {section[0][0]}: the header lacks {', '.join(missing)}")
    out = []
    for line, row in rows:
        if len(row) != len(header):
            raise InvalidResults(f"line {line}: {len(row)} cells where the header has "
                                 f"{len(header)}")  # fmt: skip
        cells = zip(header, row, strict=True)
        out.append((line, {k: unescaped(v) if k in TEXT_COLUMNS else v for k, v in cells}))
    return out


def event_fields(section: list[Row]) -> dict[str, str]:
    return {r["field"]: r["value"] for _, r in records(section, EVENT_COLUMNS)}


def event_text(event: dict[str, str], key: str) -> str:
    if not event.get(key):
        raise InvalidResults(f"the event section has no {key}")
    return event[key]


def event_number(event: dict[str, str], key: str) -> int | float:
    return number(event_text(event, key), f"the event's {key}")


def loads_cell(event: dict[str, str], key: str, kind: type) -> Any:
    try:
        value = orjson.loads(event_text(event, key))
    except orjson.JSONDecodeError:
        raise InvalidResults(f"the event's {key} is not JSON") from None
    if not isinstance(value, kind):
        raise InvalidResults(f"the event's {key} is not a JSON {kind.__name__}")
    return value


def number(text: str, where: str) -> int | float:
    """An integer where the cell holds one, else a float (written unrounded)."""
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise InvalidResults(f"{where}: {text!r} is not a number") from None


def flag(text: str, where: str) -> bool:
    if text not in ("true", "false"):
        raise InvalidResults(f"{where}: {text!r} is neither true nor false")
    return text == "true"


def standing_rows(
    section: list[Row], tiebreakers: list[str]
) -> tuple[list[dict[str, Any]], list[tuple[int, dict[str, str]]]]:
    """The standings as ``standings --json`` rows, and every row's cells (the players'
    facts are read by ``commands.text.results_roster``)."""
    rows = records(section, (*STANDING_COLUMNS, *tiebreakers, *PLAYER_COLUMNS))
    standings = []
    for line, r in rows:
        where = f"line {line}"
        standings.append({
            "rank": int(number(r["rank"], where)), "player": r["player"], "name": r["name"],
            "points": number(r["points"], where),
            "record": {k: int(number(r[k], where)) for k in ("wins", "losses", "draws")},
            "dropped": flag(r["dropped"], where),
            "tiebreakers": {k: number(r[k], where) for k in tiebreakers},
        })  # fmt: skip
    return standings, rows


def rounds_of(rows: list[tuple[int, dict[str, str]]]) -> list[PlayedRound]:
    """The results section's rows as rounds 1, 2, 3, ... (a round is started once any of
    its matches has a report: the CSV does not say more)."""
    by_round: dict[int, list[tuple[str, str, PlayedTable]]] = {}
    for line, r in rows:
        where = f"line {line}"
        number_ = int(number(r["round"], where))
        by_round.setdefault(number_, []).append((r["stage"], r["state"], table_of(r, where)))
    if sorted(by_round) != list(range(1, len(by_round) + 1)):
        raise InvalidResults(f"the results name rounds {sorted(by_round)}, not 1, 2, 3, ...")
    rounds = []
    for n in sorted(by_round):
        stages = {stage for stage, _, _ in by_round[n]}
        if len(stages) != 1 or not stages <= {"swiss", "elimination"}:
            raise InvalidResults(f"round {n}: stage {sorted(stages)} is not swiss or elimination")
        started = any(state not in ("missing", "bye") for _, state, _ in by_round[n])
        rounds.append(PlayedRound(n, stages.pop(), started,  # type: ignore[arg-type]
                                  [t for _, _, t in by_round[n]]))  # fmt: skip
    return rounds


def table_of(r: dict[str, str], where: str) -> PlayedTable:
    players = (r["player_a"], r["player_b"]) if r["player_b"] else (r["player_a"],)
    if not r["player_a"]:
        raise InvalidResults(f"{where}: a table without player_a")
    table = int(number(r["table"], where)) if r["table"] else None
    confirmed = r["state"] == "confirmed" and len(players) == 2
    return PlayedTable(players, table, result_of_cells(r, where) if confirmed else None)


def result_of_cells(r: dict[str, str], where: str) -> dict[str, Any]:
    """A confirmed result in the contract's JSON, from its columns."""
    result: dict[str, Any] = {}
    for pair in ("games", "points"):
        a, b = r[f"{pair}_a"], r[f"{pair}_b"]
        if a or b:
            result[pair] = [int(number(a, where)), int(number(b, where))]
    for name in PLAIN_FIELDS:
        if r[name]:
            result[name] = int(number(r[name], where)) if name == "draws" else r[name]
    if r["game_results"]:
        try:
            games = orjson.loads(r["game_results"])
        except orjson.JSONDecodeError:
            games = None
        if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
            raise InvalidResults(f"{where}: game_results is not a JSON list of strings")
        result["game_results"] = games
    for name in FLAGS:
        if r[name]:
            result[name] = flag(r[name], where)
    if not result:
        raise InvalidResults(f"{where}: a confirmed match with no result")
    return result
