"""The JSON results document (``tledger export --format json``) read back as plain
facts. Every field is checked as it is read, so a hand-edited or truncated document
fails with the field it lacks rather than deep inside a command."""

from __future__ import annotations

from typing import Any

from commands.text.results_data import (
    Change,
    Deduction,
    InvalidResults,
    Member,
    PlayedRound,
    PlayedTable,
    Registered,
    Results,
    Team,
)

CHANGES = ("dropped", "rejoined", "reinstated", "disqualified")


def need(obj: Any, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]`` of the given JSON type, or InvalidResults naming the field."""
    if not isinstance(obj, dict) or key not in obj:
        raise InvalidResults(f"{where}: no {key!r}")
    value = obj[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise InvalidResults(f"{where}.{key}: not the JSON type it must be")
    return value


def results_of_document(doc: dict[str, Any]) -> Results:
    cut = doc.get("cut")
    return Results(
        tournament=need(doc, "tournament", str, "document"),
        name=need(doc, "name", str, "document"),
        ruleset=need(doc, "ruleset", str, "document"),
        options=need(doc, "options", dict, "document"),
        seed=need(doc, "seed", int, "document"),
        finished=need(doc, "stage", str, "document") == "finished",
        players=[registered(p, f"players[{i}]")
                 for i, p in enumerate(need(doc, "players", list, "document"))],
        rounds=[played_round(r, f"rounds[{i}]")
                for i, r in enumerate(need(doc, "rounds", list, "document"))],
        changes=[change(c, f"roster_changes[{i}]")
                 for i, c in enumerate(need(doc, "roster_changes", list, "document"))],
        deductions=[deduction(p, f"penalties[{i}]")
                    for i, p in enumerate(need(doc, "penalties", list, "document"))
                    if isinstance(p, dict) and p.get("penalty") == "point_deduction"],
        cut_size=need(cut, "size", int, "cut") if cut is not None else None,
        cut_seeds=[str(s) for s in need(cut, "seeds", list, "cut")] if cut is not None else None,
        standings=need(doc, "standings", list, "document"),
        teams=[team(x, f"teams[{i}]") for i, x in enumerate(need(doc, "teams", list, "document"))]
        if "teams" in doc else [],
        seq=need(doc, "seq", int, "document"), head=need(doc, "head", str, "document"),
    )  # fmt: skip


def registered(p: Any, where: str) -> Registered:
    return Registered(need(p, "player", str, where), need(p, "name", str, where),
                      need(p, "first_round", int, where))  # fmt: skip


def team(t: Any, where: str) -> Team:
    """A team event's team (lcg-2.1d "Team-Turniere"): two members, each an id and a name."""
    members = need(t, "members", list, where)
    if len(members) != 2:
        raise InvalidResults(f"{where}.members: not two members")
    first, second = (Member(need(m, "player", str, f"{where}.members[{i}]"),
                            need(m, "name", str, f"{where}.members[{i}]"))
                     for i, m in enumerate(members))  # fmt: skip
    return Team(need(t, "team", str, where), need(t, "name", str, where), (first, second))


def played_round(r: Any, where: str) -> PlayedRound:
    stage = need(r, "stage", str, where)
    if stage not in ("swiss", "elimination"):
        raise InvalidResults(f"{where}.stage: {stage!r} is not swiss or elimination")
    tables = [played_table(m, f"{where}.matches[{i}]")
              for i, m in enumerate(need(r, "matches", list, where))]  # fmt: skip
    tables += [PlayedTable((str(p),)) for p in need(r, "byes", list, where)]
    return PlayedRound(need(r, "round", int, where), stage, need(r, "started", bool, where),
                       tables)  # fmt: skip


def played_table(m: Any, where: str) -> PlayedTable:
    players = need(m, "players", list, where)
    if len(players) != 2 or not all(isinstance(p, str) for p in players):
        raise InvalidResults(f"{where}.players: not two player ids")
    table = m.get("table")
    if table is not None and not isinstance(table, int):
        raise InvalidResults(f"{where}.table: not a number")
    result = m.get("result")
    if result is not None and not isinstance(result, dict):
        raise InvalidResults(f"{where}.result: not a result object")
    return PlayedTable((players[0], players[1]), table, result)


def change(c: Any, where: str) -> Change:
    kind = need(c, "change", str, where)
    if kind not in CHANGES:
        raise InvalidResults(f"{where}.change: {kind!r} is not one of {', '.join(CHANGES)}")
    after = need(c, "after_round", int, where)
    return Change(need(c, "player", str, where), kind, after, need(c, "after_cut", bool, where))


def deduction(p: Any, where: str) -> Deduction:
    return Deduction(need(p, "player", str, where), need(p, "round", int, where),
                     float(need(p, "points", (int, float), where)),
                     need(p, "infraction", str, where))  # fmt: skip
