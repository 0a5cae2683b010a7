"""A result typed as people say it at the scorekeeper's desk, into the contract's
result JSON: the scorekeeper types the table number and the result and presses Enter.

The words follow the CLI's result flags (``commands.cli.results``: ``--games 2-1``,
``--points 150-80``, ``--games p1,draw``, ``--id``, ``--no-show P``) and the boxes
the ruleset's slip asks for (``Ruleset.result_form``), so a typed line takes the
shapes the contract takes and nothing else; whether the result fits the ruleset is
then the ruleset's to say, as for any report. Numbers follow the order of the
table's players. Forms:

- games (SWU): ``2-1``, ``2-0``, ``1-1-1`` (wins, wins, drawn games), ``id`` (an
  intentional draw); a level elimination match adds who won and how: ``1-1-1 p2 base_hp``;
- points (X-Wing, Armada): ``150-80``; when level, who won: ``150-150 2``;
- game winners (LCG): ``1,draw`` (each game's winner, or ``draw``);
- every ruleset: ``ns 2`` (``no-show 2``): the named player did not appear.

A player is named by seat (``1``, ``2``: first or second at the table, as the hint
says: a team event's competitor ids are no names a scorekeeper reads) or by id.
Pure: text in, JSON out, or ``InvalidCommand`` naming what does not fit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from commands.errors import InvalidCommand
from commands.reads.models import ReadModel
from projections.rulesets.base import ResultForm
from projections.standings import ruleset_of
from projections.state import TournamentState

PAIR = re.compile(r"(\d{1,5})-(\d{1,5})(?:-(\d{1,5}))?")
NO_SHOW = ("ns", "no-show", "noshow")
DRAW_WORDS = ("draw", "d")


def number_pair(text: str) -> tuple[int, int] | None:
    """``"2-1"`` as (2, 1), or None when it is not two whole numbers (``--games``,
    ``--points`` of the CLI read the same)."""
    found = PAIR.fullmatch(text.strip())
    if found is None or found.group(3) is not None:
        return None
    return int(found.group(1)), int(found.group(2))


def game_list(text: str) -> list[str] | None:
    """``"p1,draw"``: each game's winner in order (LCG), or None with an empty entry."""
    winners = [w.strip() for w in text.split(",")]
    return winners if all(winners) else None


def parse_result(text: str, form: ResultForm, players: Sequence[str]) -> dict[str, Any]:
    """The result JSON ``text`` says for a match of ``players`` on a slip like ``form``."""
    words = text.strip().split()
    if not words:
        raise InvalidCommand("result: type a result, e.g. 2-1")
    head, rest = words[0].casefold(), words[1:]
    if head in NO_SHOW:
        return {"no_show": seat(rest, players, text)}
    if head == "id" and not rest:
        if not form.intentional_draw:
            raise InvalidCommand("result: an intentional draw is not taken here")
        return {"intentional_draw": True}
    match form.kind:
        case "games":
            return games(words, form, players, text)
        case "points":
            return points(words, players, text)
        case "game_winners":
            return game_winners(words, players, text)


def games(words: list[str], form: ResultForm, players: Sequence[str], text: str
          ) -> dict[str, Any]:  # fmt: skip
    found = PAIR.fullmatch(words[0])
    if found is None:
        raise InvalidCommand(f"result: {text!r} is not game wins like 2-1 (or 1-1-1, id, ns p2)")
    result: dict[str, Any] = {"games": [int(found.group(1)), int(found.group(2))],
                              "draws": int(found.group(3) or 0)}  # fmt: skip
    if len(words) > 1:
        result["winner"] = seat(words[1:2], players, text)
        result["decided_by"] = words[2] if len(words) > 2 else "base_hp"
    if len(words) > 3 or (len(words) > 1 and not form.tie_winner):
        raise InvalidCommand(f"result: {text!r} has more than the games of the match")
    return result


def points(words: list[str], players: Sequence[str], text: str) -> dict[str, Any]:
    pair = number_pair(words[0])
    if pair is None or len(words) > 2:
        raise InvalidCommand(f"result: {text!r} is not points like 150-80 (or 150-150 p2)")
    result: dict[str, Any] = {"points": list(pair)}
    if len(words) == 2:
        result["winner"] = seat(words[1:], players, text)
    return result


def game_winners(words: list[str], players: Sequence[str], text: str) -> dict[str, Any]:
    winners = game_list(" ".join(words))
    if winners is None:
        raise InvalidCommand(f"result: {text!r} must name each game's winner, like 1,draw")
    named = ["draw" if w.casefold() in DRAW_WORDS else seat([w], players, text) for w in winners]
    return {"game_results": named}


def seat(words: Sequence[str], players: Sequence[str], text: str) -> str:
    """A player of the table named by id, or by seat number (1 or 2)."""
    if len(words) != 1:
        raise InvalidCommand(f"result: {text!r}: name one player (1 or 2 by seat, or an id)")
    word = words[0]
    if word in players:
        return word
    if word in ("1", "2") and len(players) == 2:
        return players[int(word) - 1]
    raise InvalidCommand(f"result: {word!r} is not a player of this table (1 or 2 by seat)")


class TypedEntry(ReadModel):
    """What a typed line reports: the current round's match at the table, and the result
    JSON in the order of its players."""

    round: int
    table: int
    players: tuple[str, str]
    result: dict[str, Any]


def table_entry(state: TournamentState, table: str, text: str) -> TypedEntry:
    """The report a scorekeeper typed as "table, result" for the current round."""
    current = state.current
    if current is None:
        raise InvalidCommand("no round is paired yet")
    if not table.strip().isdigit():
        raise InvalidCommand(f"table: {table!r} is not a table number")
    number = int(table.strip())
    match = next((m for m in current.matches if m.table == number), None)
    if match is None or match.is_bye:
        raise InvalidCommand(f"round {current.number} has no table {number}")
    form = ruleset_of(state).result_form(match.stage)
    players = (match.players[0], match.players[1])
    return TypedEntry(round=current.number, table=number, players=players,
                      result=parse_result(text, form, players))  # fmt: skip


def hint(state: TournamentState) -> str:
    """How results are typed for the current round's ruleset and stage."""
    stage = state.current.stage if state.current else "swiss"
    form = ruleset_of(state).result_form(stage)
    words = {"games": "game wins: 2-1, 2-0, 1-1-1 (with drawn games)",
             "points": "points: 150-80; level: 150-150 2 (who won)",
             "game_winners": "each game's winner: 1,draw"}  # fmt: skip
    extra = ", id (intentional draw)" if form.intentional_draw else ""
    level = (
        "; level at the table: 1-1-1 2 base_hp" if form.kind == "games" and form.tie_winner else ""
    )
    return f"{words[form.kind]}{extra}{level}; ns 2 (no-show); a player by seat, 1 or 2"
