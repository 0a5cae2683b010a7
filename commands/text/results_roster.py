"""Who played when, from the CSV's player columns: the first round each player could
be paired in, the Swiss rounds they missed while away, the round after which they
left (and whether they were disqualified), and lcg-2.1d point deductions.

The CSV gives facts per player, not the log's sequence of drops and returns, so the
sequence is the simplest one with the same facts: each stretch of missed rounds is
a drop after the round before it and a return before the round after it (a rejoin
where the ruleset has one, a reinstatement otherwise: both count a missed round
alike); the last drop is after ``dropped_after_round``, after the cut when the
player is among the cut's seeds (a player dropped before the cut is not). A point
deduction is issued after the last Swiss round, before any cut: the CSV keeps each
player's total, not the round of each deduction. A team event's rows also give each
team's own name and its members (lcg-2.1d "Team-Turniere").
"""

from __future__ import annotations

from commands.text.results_data import (
    Change,
    Deduction,
    InvalidResults,
    Member,
    Registered,
    Results,
    Team,
)

REASON = "as in the results export"


def changes_of_players(
    facts: list[tuple[int, dict[str, str]]], results: Results
) -> tuple[list[Registered], list[Change], list[Deduction]]:
    players: list[Registered] = []
    changes: list[Change] = []
    deductions: list[Deduction] = []
    for line, r in facts:
        where = f"line {line}"
        player = r["player"]
        players.append(Registered(player, r["name"], whole(r["first_round"], where)))
        changes += returns_of(player, missed_of(r["missed_rounds"], where))
        leaving = leaving_of(player, r, results, where)
        if leaving is not None:
            changes.append(leaving)
        points = deducted(r.get("deductions", ""), where)
        if points:
            deductions.append(Deduction(player, max(1, results.swiss_rounds), points, REASON))
    return players, changes, deductions


def deducted(text: str, where: str) -> float:
    try:
        return float(text) if text else 0.0
    except ValueError:
        raise InvalidResults(f"{where}: deductions {text!r} is not a number") from None


def whole(text: str, where: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise InvalidResults(f"{where}: {text!r} is not a round number")
    return int(text)


def missed_of(text: str, where: str) -> list[int]:
    """``"2 3 5"``: the Swiss rounds missed, in any order."""
    return sorted(whole(word, where) for word in text.split())


def returns_of(player: str, missed: list[int]) -> list[Change]:
    """A drop before and a return after each stretch of consecutive missed rounds."""
    changes: list[Change] = []
    start = previous = None
    for number in [*missed, None]:
        if number is not None and previous is not None and number == previous + 1:
            previous = number
            continue
        if start is not None and previous is not None:
            changes += [Change(player, "dropped", start - 1), Change(player, "returned", previous)]
        start = previous = number
    return changes


def leaving_of(player: str, r: dict[str, str], results: Results, where: str) -> Change | None:
    status = r["status"]
    if status not in ("active", "dropped", "disqualified"):
        raise InvalidResults(f"{where}: status {status!r} is not active, dropped or disqualified")
    if status == "active":
        return None
    after = whole(r["dropped_after_round"], where)
    swiss = results.swiss_rounds
    after_cut = after > swiss or (after == swiss and player in (results.cut_seeds or []))
    return Change(player, "dropped" if status == "dropped" else "disqualified", after, after_cut)


def teams_of(facts: list[tuple[int, dict[str, str]]]) -> list[Team]:
    """The teams of a team event's rows (none where the CSV has no team columns)."""
    teams = []
    for line, r in facts:
        if "team_name" not in r:
            continue
        members = (Member(r.get("member_1", ""), r.get("member_1_name", "")),
                   Member(r.get("member_2", ""), r.get("member_2_name", "")))  # fmt: skip
        if not all(m.player for m in members):
            raise InvalidResults(f"line {line}: team {r['player']!r} without its two members")
        teams.append(Team(r["player"], r["team_name"], members))
    return teams
