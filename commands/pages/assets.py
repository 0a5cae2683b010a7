"""The pages' static files (``commands/pages/static/``): their stylesheets and scripts,
served at ``/static/{name}`` (``commands.api.static``); the console serves its own
folder the same way at ``/console/static/{name}``.

No page carries an inline script or style: each links these files, so the one
Content-Security-Policy (``commands.pages.policy``) allows this server's own files and
nothing else. A script's data are ``data-*`` attributes of the page, never script text.

A file is found by its plain name only (``live.js``: lower-case letters, digits and
hyphens, ``.css`` or ``.js``) among the files its folder holds: no path, no dot
segment, nothing outside the folder. Each folder is read once.

Printouts: the console serves them as rendered, linking their stylesheets like every
other page. A printout written to a file (``tledger print -o``) must print from any
browser with no server behind it, so ``self_contained`` puts each linked stylesheet's
text in its place. That file is the only page with inline CSS, and no server sends it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

STATIC = Path(__file__).with_name("static")
NAME = re.compile(r"[a-z0-9][a-z0-9-]*\.(css|js)")
TYPES = {"css": "text/css", "js": "text/javascript"}
#: a stylesheet as the templates link it (base.html.j2 and the pages extending it)
LINK = re.compile(r'<link rel="stylesheet" href="/static/(?P<name>[^"]+)">')


@dataclass(frozen=True, slots=True)
class Asset:
    """A static file as sent: its bytes, its media type, and an ETag of its bytes."""

    body: bytes
    media_type: str
    etag: str


@cache
def files(folder: Path = STATIC) -> dict[str, Asset]:
    """Every static file of ``folder`` by its name, read once."""
    found = {}
    for path in sorted(folder.iterdir()):
        named = NAME.fullmatch(path.name)
        if named and path.is_file():
            body = path.read_bytes()
            etag = f'"{hashlib.sha256(body).hexdigest()[:16]}"'
            found[path.name] = Asset(body, TYPES[named.group(1)], etag)
    return found


def find(name: str, folder: Path = STATIC) -> Asset | None:
    """The file ``name`` of ``folder``; None for any other name."""
    return files(folder).get(name) if NAME.fullmatch(name) else None


def self_contained(html: str) -> str:
    """A page with each of its linked stylesheets inline (``tledger print``'s file)."""

    def inline(link: re.Match[str]) -> str:
        sheet = find(link["name"])
        if sheet is None or sheet.media_type != "text/css":
            raise ValueError(f"no stylesheet {link['name']!r} in {STATIC}")
        return f"<style>\n{sheet.body.decode()}</style>"

    return LINK.sub(inline, html)
