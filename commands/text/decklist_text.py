"""SWU deck lists as plain text, as deck builders export them.

The accepted format: section headers ``Leader``, ``Base``, ``Deck`` and ``Sideboard``
(also ``Leaders``, ``Bases``, ``Main Deck``, ``Main``, any case, an optional trailing
``:`` and a count in parentheses, "Deck (50)"), each followed by one ``N Card Name``
line per entry (``3 Darth Vader | Dark Lord of the Sith``; ``3x`` is read as 3).
Blank lines and lines starting with ``#`` or ``//`` are skipped. Two leader lines (or
``2`` of one) give Twin Suns' ``leaders``. Anything else is refused naming the line,
so a list is never recorded as something the player did not write.

The text is read by the shell (``tledger list submit``) into the JSON shape of
:mod:`projections.rulesets.decklists`; the ledger records and hashes that JSON, never the text.
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from projections.rulesets.decklists import MAX_ENTRIES

SECTIONS = {
    "leader": "leader", "leaders": "leader", "base": "base", "bases": "base",
    "deck": "deck", "main": "deck", "main deck": "deck", "maindeck": "deck",
    "sideboard": "sideboard",
}  # fmt: skip
#: a header and an entry of a stripped line; each quantifier is followed by what it
#: cannot match, so a line costs time linear in its length however it is made
HEADER = re.compile(r"([A-Za-z]+(?: [A-Za-z]+)*)(?:\s*\(\s*\d+\s*\))?\s*:?")
ENTRY = re.compile(r"(\d+)\s*[xX]?\s+(\S.*)")
#: the most copies of a card an entry names, as the list shape takes (``Count``)
MAX_COUNT = 99


class BadDeckText(ValueError):
    """A line the text format does not read, named by its number."""


def looks_like_json(text: str) -> bool:
    """A file whose first non-blank character opens a JSON object is JSON, else text."""
    return text.lstrip().startswith("{")


def list_of(text: str) -> dict[str, Any]:
    """A pasted or read list as the contract's JSON: a JSON object as it is, else SWU
    text (``parse_swu_text``); BadDeckText says what does not read."""
    if not looks_like_json(text):
        return parse_swu_text(text)
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        raise BadDeckText(f"not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise BadDeckText("a list is a JSON object")
    return data


def parse_swu_text(text: str) -> dict[str, Any]:
    """The list the text describes, in the SWU shape, or BadDeckText naming the line."""
    section: str | None = None
    entries: dict[str, list[tuple[int, str]]] = {k: [] for k in set(SECTIONS.values())}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", "//")):
            continue
        header = HEADER.fullmatch(line)
        if header and header.group(1).lower() in SECTIONS:
            section = SECTIONS[header.group(1).lower()]
            continue
        entry = ENTRY.fullmatch(line)
        if entry is None:
            raise BadDeckText(f"line {number}: expected 'N Card Name' or a section header "
                              f"(Leader, Base, Deck, Sideboard), got {line[:60]!r}")  # fmt: skip
        if section is None:
            raise BadDeckText(f"line {number}: an entry before any section header "
                              "(Leader, Base, Deck, Sideboard)")  # fmt: skip
        entries[section].append((count_of(entry.group(1), number), entry.group(2)))
    return shaped(entries)


def count_of(digits: str, number: int) -> int:
    """An entry's count, at most ``MAX_COUNT`` (read before it is turned into a number:
    a count of a thousand digits is refused, not computed)."""
    if len(digits) > len(str(MAX_COUNT)) or int(digits) > MAX_COUNT:
        raise BadDeckText(f"line {number}: a count is at most {MAX_COUNT}, got {digits[:12]}")
    return int(digits)


def shaped(entries: dict[str, list[tuple[int, str]]]) -> dict[str, Any]:
    named = {kind: sum(count for count, _ in entries[kind]) for kind in ("leader", "base")}
    if named["base"] > 1:
        raise BadDeckText(f"the Base section names {named['base']} bases; a list has one base")
    if named["leader"] > MAX_ENTRIES:
        raise BadDeckText(f"the Leader section names {named['leader']} leaders; "
                          f"a list names at most {MAX_ENTRIES}")  # fmt: skip
    leaders = [name for count, name in entries["leader"] for _ in range(count)]
    bases = [name for count, name in entries["base"] for _ in range(count)]
    data: dict[str, Any] = {
        "deck": [{"card": name, "count": count} for count, name in entries["deck"]],
        "sideboard": [{"card": name, "count": count} for count, name in entries["sideboard"]],
    }
    if len(leaders) == 1:
        data["leader"] = leaders[0]
    elif leaders:
        data["leaders"] = leaders
    if bases:
        data["base"] = bases[0]
    return data


def swu_text(data: dict[str, Any]) -> str:
    """A recorded SWU list in the text format (what ``tledger lists`` prints), which
    :func:`parse_swu_text` reads back to the same list."""
    leaders = ([data["leader"]] if "leader" in data else []) + list(data.get("leaders", []))
    lines = ["Leader", *(f"1 {name}" for name in leaders)]
    if "base" in data:
        lines += ["Base", f"1 {data['base']}"]
    for title, key in (("Deck", "deck"), ("Sideboard", "sideboard")):
        cards = data.get(key) or []
        if cards:
            lines += [title, *(f"{e['count']} {e['card']}" for e in cards)]
    return "\n".join(lines)
