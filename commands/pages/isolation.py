"""Names isolated from the text around them, on every page and printout.

A name is typed by people and may be written right to left, or hold directional
formatting characters. Printed beside other text (the player's id, "v", the next
column), a direction the name leaves open turns that text too: "Ada" and an unclosed
RIGHT-TO-LEFT OVERRIDE print the id ``p9`` after it as "9p". New names must close what
they open (``ledger.fields``), but a name registered before that rule is shown as it was
stored, and a right-to-left name still reorders the numbers beside it. So every name
is isolated where it is printed:

- in an element, as ``<bdi>`` (the template filter ``bdi``): the browser lays the name
  out on its own, its direction taken from its first strong letter, and nothing of it
  reaches outside the element;
- in text that can hold no element (a page's title, a select's option, an attribute, a
  sentence composed before it is escaped), between FIRST STRONG ISOLATE and POP
  DIRECTIONAL ISOLATE (the filter ``isolate``), with the directional formatting
  characters of a name that does not close them dropped, so that the isolate closes
  everything the name opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from commands.reads.eventtext import describe_result
from ledger.fields import CLOSER_OF, CLOSERS, unbalanced_direction

FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"
DIRECTIONAL = frozenset(CLOSER_OF) | CLOSERS


def bdi(name: object) -> Markup:
    """The name, escaped, in a ``<bdi>`` element."""
    return Markup("<bdi>{}</bdi>").format(name)


def isolated(name: object) -> str:
    """The name as plain text between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE;
    an old name that leaves a direction open, or closes one it did not open, loses its
    directional formatting characters."""
    text = str(name)
    if unbalanced_direction(text) is not None:
        text = "".join(ch for ch in text if ch not in DIRECTIONAL)
    return f"{FIRST_STRONG_ISOLATE}{text}{POP_DIRECTIONAL_ISOLATE}"


def isolated_names(names: Mapping[str, str]) -> dict[str, str]:
    """Player -> name, each name isolated: for text composed with names in it."""
    return {player: isolated(name) for player, name in names.items()}


def said(result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A result as people say it (``describe_result``), its names isolated."""
    return describe_result(result, isolated_names(names))
