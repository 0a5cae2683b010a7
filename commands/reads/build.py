"""What a read query asks of the fold: the one exhaustive dispatch from a query's view to
the read model the read side caches (``commands.reads.cache``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import assert_never

from commands.reads import clockviews, podviews, roster, views
from commands.reads.audit import explained
from commands.reads.history import player_history
from commands.reads.judgequeue import judge_queue
from commands.reads.models import ReadModel
from commands.reads.next_step import next_steps
from commands.reads.query import Query
from commands.reads.slipmatch import match_slip
from ledger.store import ListEntry
from projections.state import TournamentState


def build(
    state: TournamentState, query: Query, names: Mapping[str, str],
    lists: Sequence[ListEntry] = (),
) -> ReadModel:  # fmt: skip
    """The read model a query asks of the fold (exhaustive over the views); ``lists``:
    the list rows pairings read for who chooses initiative (never their points)."""
    match query.view:
        case "status":
            return views.status(state, names, late=query.late)
        case "standings":
            return views.standings(state, names)
        case "pairings":
            return views.pairings(state, query.round, names, query.search, lists)
        case "bracket":
            return views.bracket(state, names)
        case "outstanding":
            return views.outstanding(state)
        case "player":
            return player_history(state, query.player or "", names)
        case "players":
            return roster.players(state, names, query.search)
        case "slip":
            return match_slip(state, query.round or 0, query.players or ("", ""), names)
        case "queue":
            return judge_queue(state, names)
        case "explain":
            return explained(state, query.player or "", names)
        case "pods":
            return podviews.pods(state, names)
        case "clock":
            return clockviews.clock(state, query.round, names)
        case "lifecycle":
            return next_steps(state)
        case _:
            assert_never(query.view)
