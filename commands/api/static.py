"""``/static/{name}``: the pages' stylesheets and scripts (``commands/pages/static/``,
found by ``commands.pages.assets``), for the public page, the projector's clock, the
slip report page, the printouts and the console's countdown.

The files keep their names from one version to the next, so a browser keeps them but
asks again each time (``no-cache``) with their ETag, and a page and its script never
come from two versions of the server: the answer is a short 304 while the file is the
same. ``HEAD`` answers too: ``countdown.js`` reads the server's ``Date`` from it.
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response

from commands.api.reads import matches
from commands.pages.assets import Asset, find

router = APIRouter(include_in_schema=False)


@router.api_route("/static/{name}", methods=["GET", "HEAD"])
async def get_static(request: Request, name: str) -> Response:
    """A stylesheet or script of the pages."""
    return served(request, name, find(name))


def served(request: Request, name: str, found: Asset | None) -> Response:
    """The file ``found`` (404 when there is none by ``name``), or 304 when the browser's
    copy is current."""
    if found is None:
        raise HTTPException(404, f"no file {name!r}")
    headers = {"Cache-Control": "no-cache", "ETag": found.etag, "X-Content-Type-Options": "nosniff"}
    if matches(request.headers.get("if-none-match"), found.etag):
        return Response(status_code=304, headers=headers)
    return Response(found.body, media_type=found.media_type, headers=headers)
