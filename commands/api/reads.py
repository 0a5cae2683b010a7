"""``GET /tournaments/{t}/...``: the read models of one tournament, now or as known at a
seq or time (``as_of``), the same JSON as the CLI's ``--json``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from commands import views
from commands.api.deps import READ_ERRORS, AsOf, Caller, handler_of, readable
from commands.errors import UnknownTournament, WrongPhase
from projections.state import TournamentState
from replay.points import prefix
from replay.rebuild import rebuild

router = APIRouter(prefix="/tournaments/{tournament}", responses=READ_ERRORS)
View = Callable[[TournamentState], dict[str, Any]]


def read(request: Request, tournament: str, caller: Caller, as_of: str | None,
         view: View) -> dict[str, Any]:  # fmt: skip
    """A read model of the tournament now (the cached fold) or as known at ``as_of``."""
    readable(caller, tournament)
    handler = handler_of(request)
    if as_of is None:
        found = handler.read(tournament, lambda s: view(s) if s.exists else None)
    else:
        state, _ = rebuild(handler.store, tournament, as_of)
        found = view(state) if state.exists else None
    if found is None:
        raise UnknownTournament(tournament)
    return found


@router.get("/status")
def get_status(request: Request, tournament: str, caller: Caller,
               as_of: AsOf = None) -> dict[str, Any]:  # fmt: skip
    return read(request, tournament, caller, as_of, views.status_view)


@router.get("/standings")
def get_standings(request: Request, tournament: str, caller: Caller,
                  as_of: AsOf = None) -> dict[str, Any]:  # fmt: skip
    names = handler_of(request).store.players(tournament)
    return read(request, tournament, caller, as_of, lambda s: views.standings_view(s, names))


@router.get("/pairings")
def get_pairings(
    request: Request, tournament: str, caller: Caller, as_of: AsOf = None,
    round: Annotated[int | None, Query(ge=1)] = None,
) -> dict[str, Any]:  # fmt: skip
    def view(state: TournamentState) -> dict[str, Any]:
        if round is not None and state.round(round) is None:
            raise WrongPhase(f"round {round} is not paired")
        return views.pairings_view(state, round)

    return read(request, tournament, caller, as_of, view)


@router.get("/bracket")
def get_bracket(request: Request, tournament: str, caller: Caller,
                as_of: AsOf = None) -> dict[str, Any]:  # fmt: skip
    return read(request, tournament, caller, as_of, views.bracket_view)


@router.get("/log")
def get_log(request: Request, tournament: str, caller: Caller,
            as_of: AsOf = None) -> dict[str, Any]:  # fmt: skip
    readable(caller, tournament)
    events = handler_of(request).store.load(tournament)
    if not events:
        raise UnknownTournament(tournament)
    return views.log_view(tournament, prefix(events, as_of))
