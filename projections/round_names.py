"""What people call an elimination match: final, semifinal, quarterfinal, round of 16.

A single-elimination round is named by how many players are left in it,
counted from the end of the bracket (the bracket's size, so a top 6 with two
byes still plays quarterfinals). Double elimination (swu-1.0 §4.1.4, lcg-2.1d
"Finalrunden") names the upper bracket the same way ("upper semifinal"), the
lower bracket by its round ("lower round 2", its last round "lower final"), then
the grand final and, when the upper-bracket player loses it, its deciding match.
The playoff of an uneven cut (swu-1.0 §4.1.2) comes before round one.

Where a regulation has its own word for a part of the bracket (``Ruleset.
bracket_terms``: lcg-2.1d "Siegergruppe", "Verlierergruppe", "Final-Begegnung";
swu-1.0 "main bracket", "secondary bracket", "uneven cut"), it follows the name
in parentheses, so the printout reads like the regulation the players know.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from projections.bracket import Node

_SLOT = re.compile(r"([A-Z]+)(\d+)")


def players_left_name(players: int) -> str:
    """final (2), semifinal (4), quarterfinal (8), then "round of N"."""
    return {2: "final", 4: "semifinal", 8: "quarterfinal"}.get(players, f"round of {players}")


def split(slot: str) -> tuple[str, int]:
    """``"U2-3"`` -> ("U", 2): the part of the bracket and its round number."""
    found = _SLOT.match(slot)
    return (found.group(1), int(found.group(2))) if found else (slot, 0)


def slot_names(nodes: Iterable[Node], terms: Mapping[str, str]) -> dict[str, str]:
    """Every node's name, by its slot id ("U1-1", "L2-1", "GF1", "P1")."""
    nodes = list(nodes)
    upper = max((split(n.id)[1] for n in nodes if n.id.startswith("U")), default=0)
    lower = max((split(n.id)[1] for n in nodes if n.id.startswith("L")), default=0)
    double = any(n.id.startswith("GF") for n in nodes)
    names = {}
    for node in nodes:
        part, number = split(node.id)
        names[node.id] = named(part, number, upper, lower, double, node.reset, terms)
    return names


def named(part: str, number: int, upper: int, lower: int, double: bool, reset: bool,
          terms: Mapping[str, str]) -> str:  # fmt: skip
    """One node's name from its part of the bracket and its round."""
    if part == "P":
        return with_term("playoff", terms.get("playoff"))
    if part == "GF":
        base = "grand final, deciding match" if reset else "grand final"
        return with_term(base, terms.get("grand_final"))
    if part == "L":
        base = "lower final" if number == lower else f"lower round {number}"
        return with_term(base, terms.get("lower"))
    base = players_left_name(2 ** (upper - number + 1))
    return with_term(f"upper {base}", terms.get("upper")) if double else base


def with_term(name: str, term: str | None) -> str:
    return f"{name} ({term})" if term else name


def round_name(match_names: Iterable[str]) -> str:
    """A round of the log holds every match that was ready (in double elimination an
    upper and a lower round at once): its name joins its matches' names, each once."""
    return " / ".join(dict.fromkeys(n for n in match_names if n)) or "elimination"
