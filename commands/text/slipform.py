"""The slip report page's form, both ways: its fields into the contract's ``report_result``
command, and a reported result back into fields (the one-tap "confirm" form).

A slip's code names one match, so the form never names a match: the command's round
and players come from the code's entry. A player's own code names the reporter too, so
the form only says what they saw; the form of a code issued before players held their
own also says which of the two is reporting. A reporter who is not the code's holder,
or not one of the two players, is refused (403); a field
that is missing or not a number is refused (422) with its name; whether the result
fits the ruleset is then for the ruleset to say, as for any report
(``Ruleset.validate_result``). Field names: ``player`` (the reporter, which a player's
own code may leave out); ``no_show`` (empty, or the
absent player); by the form's kind ``games_0``, ``games_1``, ``draws`` or ``points_0``,
``points_1`` (in the match's player order) or ``game_1`` ... (a player, or ``draw``);
on a level result ``winner`` (and ``decided_by`` at an SWU table); ``nonce`` makes a
resent form a safe retry (the command's ``command_id``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from commands.errors import InvalidCommand
from commands.models import ReportResult, parse_command
from commands.reads.papermodels import MatchSlip
from commands.roles import Forbidden

NONCE = re.compile(r"[0-9a-f]{8,32}")
MAX_DIGITS = 5


def command_of(fields: Mapping[str, str], slip: MatchSlip, holder: str | None) -> ReportResult:
    """The ``report_result`` the form asks for, acted by the code's ``holder``; by the
    chosen player when the code has none (issued before players held their own)."""
    player = reporter(fields, slip, holder)
    nonce = fields.get("nonce", "")
    body: dict[str, Any] = {
        "type": "report_result", "tournament": slip.tournament, "round": slip.round,
        "players": slip.players, "result": result_of(fields, slip),
        "actor": {"role": "player", "id": player},
    }  # fmt: skip
    if NONCE.fullmatch(nonce):
        body["command_id"] = f"slip-{nonce}"
    command = parse_command(body)
    assert isinstance(command, ReportResult)
    return command


def reporter(fields: Mapping[str, str], slip: MatchSlip, holder: str | None) -> str:
    """Who reports: the code's holder (a ``player`` field naming anyone else is refused,
    so that one code never confirms as the opponent), or the chosen player."""
    player = fields.get("player", "") or (holder or "")
    if not player:
        raise InvalidCommand("player: say which of the two players you are")
    if holder is not None and player != holder:
        raise Forbidden("this code reports as its holder only: the opponent reports and "
                        "confirms with the code on their own half of the slip")  # fmt: skip
    if player not in slip.players:
        raise Forbidden("this slip's code reports only its own match, by one of its two players")
    return player


def result_of(fields: Mapping[str, str], slip: MatchSlip) -> dict[str, Any]:
    """The result as the contract's JSON, in the match's player order."""
    absent = fields.get("no_show", "")
    if absent:
        return {"no_show": absent}
    match slip.form.kind:
        case "games":
            games = [whole(fields, "games_0"), whole(fields, "games_1")]
            result: dict[str, Any] = {"games": games, "draws": whole(fields, "draws", 0)}
            if slip.form.tie == "table" and games[0] == games[1] and fields.get("winner"):
                result |= {"winner": fields["winner"], "decided_by": decided_by(fields)}
            return result
        case "points":
            points = [whole(fields, "points_0"), whole(fields, "points_1")]
            result = {"points": points}
            if points[0] == points[1] and fields.get("winner"):
                result["winner"] = fields["winner"]
                if slip.form.tie == "final_salvo":
                    result["decided_by"] = "final_salvo"
            return result
        case "game_results":
            return {"game_results": [chosen(fields, f"game_{n}")
                                     for n in range(1, slip.form.games + 1)]}  # fmt: skip


def whole(fields: Mapping[str, str], name: str, default: int | None = None) -> int:
    """A whole number field (0 or more); ``default`` when it may be left empty."""
    text = fields.get(name, "").strip()
    if not text and default is not None:
        return default
    if not text.isdigit() or len(text) > MAX_DIGITS:
        raise InvalidCommand(f"{name}: must be a whole number, 0 or more")
    return int(text)


def decided_by(fields: Mapping[str, str]) -> str:
    """How an SWU elimination match level on games was decided at the table (swu-1.4
    §4.3.2: remaining base HP, then initiative)."""
    value = fields.get("decided_by", "")
    if not value:
        raise InvalidCommand("decided_by: say whether base HP or initiative decided the match")
    return value


def chosen(fields: Mapping[str, str], name: str) -> str:
    value = fields.get(name, "")
    if not value:
        raise InvalidCommand(f"{name}: say who won the game, or that it was a draw")
    return value


def fields_of(result: Mapping[str, Any], slip: MatchSlip) -> dict[str, str] | None:
    """A reported result as the form's fields, so that the opponent confirms it by sending
    the same result (matching self-reports confirm each other); None
    when the form cannot say it (a shape reported another way, like a concession)."""
    fields: dict[str, str] = {}
    if "no_show" in result:
        fields["no_show"] = str(result["no_show"])
    for key in ("games", "points"):
        fields |= {f"{key}_{i}": str(v) for i, v in enumerate(result.get(key, ()))}
    for n, game in enumerate(result.get("game_results", ()), start=1):
        fields[f"game_{n}"] = str(game)
    for key in ("draws", "winner", "decided_by"):
        if key in result:
            fields[key] = str(result[key])
    try:
        same = result_of(fields, slip) == dict(result)
    except InvalidCommand:
        same = False
    return fields if same else None
