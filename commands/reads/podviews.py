"""The read model of a draft's pods (swu-1.4 §2.3.2.1): typed like every read
model (:mod:`commands.reads.models`), built here from the fold, so that the CLI, the HTTP
API and the printout only render it."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field

from commands.reads.models import ReadModel
from commands.reads.views import names_in
from projections.state import TournamentState


class PodSeat(ReadModel):
    """One seat: its number round the table (seat 1 first) and who sits there."""

    seat: int
    player: str


class PodTable(ReadModel):
    pod: int
    seats: list[PodSeat]


class Pods(ReadModel):
    """The pods in force: the last ``pods_assigned`` (its seq, the size asked for and the
    seed it was drawn from), as recorded; none yet: ``pods`` is empty and the rest null.
    A player who withdrew or dropped since keeps the seat here: the organizer assigns
    again (until deck building starts)."""

    tournament: str
    seq: int
    head: str
    assigned_seq: int | None
    pod_size: int | None
    seed: int | None
    pods: list[PodTable]
    names: dict[str, str] = Field(default_factory=dict, exclude=True)


def pods(state: TournamentState, names: Mapping[str, str]) -> Pods:
    assigned = state.pods
    tables = [
        PodTable(pod=p.pod, seats=[PodSeat(seat=n, player=player)
                                   for n, player in enumerate(p.players, start=1)])
        for p in (assigned.pods if assigned else ())
    ]  # fmt: skip
    seated = [s.player for t in tables for s in t.seats]
    return Pods(
        tournament=state.id, seq=state.seq, head=state.head,
        assigned_seq=state.pods_seq if assigned else None,
        pod_size=assigned.pod_size if assigned else None,
        seed=assigned.seed if assigned else None,
        pods=tables, names=names_in(names, seated),
    )  # fmt: skip
