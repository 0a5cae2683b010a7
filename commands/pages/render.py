"""One Jinja2 environment for every HTML face.

Autoescaping is on for every template (names are typed by people: a name is text,
never markup), and an undefined variable is an error rather than an empty string, so
that a template that names a field the read model lacks fails its test instead of
printing a blank on the wall.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

from commands.pages.isolation import bdi, isolated

TEMPLATES = Path(__file__).with_name("templates")
LANGS = ("en", "de")


@cache
def environment(*folders: tuple[str, Path]) -> jinja2.Environment:
    """The environment of the pages' templates, and of each ``(prefix, folder)`` given: a
    face above the pages keeps its templates beside its code and names them
    ``prefix/name`` (the console's ``console/base.html.j2``). Every template prints a
    name through the filter ``bdi`` (in an element) or ``isolate`` (in a title, an
    option or an attribute): :mod:`commands.pages.isolation`."""
    pages = jinja2.FileSystemLoader(TEMPLATES)
    own = {prefix: jinja2.FileSystemLoader(folder) for prefix, folder in folders}
    made = jinja2.Environment(
        loader=jinja2.ChoiceLoader([jinja2.PrefixLoader(own), pages]) if own else pages,
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    made.filters.update(bdi=bdi, isolate=isolated)
    return made


def render(template: str, *folders: tuple[str, Path], **context: Any) -> str:
    """The page ``template`` (a file of ``templates/``, or of a face's ``folders``)
    rendered with ``context``."""
    return environment(*folders).get_template(template).render(**context)


def labels(words: Mapping[str, Mapping[str, str]], lang: str) -> dict[str, str]:
    """The labels of one face in ``lang`` (en or de: the regulations and many events are
    German). Each face keeps its own ``words``, every key in every language; a missing
    translation is an error here, not an English word on a German page."""
    if lang not in LANGS:
        raise ValueError(f"language {lang!r} (supported: {', '.join(LANGS)})")
    missing = sorted(k for k, v in words.items() if lang not in v)
    if missing:
        raise KeyError(f"no {lang} label for {', '.join(missing)}")
    return {key: value[lang] for key, value in words.items()}
