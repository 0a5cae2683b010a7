"""Draft pods: how the players of a draft split into pods and where each one sits
(swu-1.4 §2.3.2.1, swu-1.0 §2.3.2.1).

What the document says: the players of a draft sit around a table as a group; "8
Spieler pro Gruppe werden empfohlen. Der Event-Organisator kann die Gruppe je nach
Bedarf verkleinern oder vergrößern" (8 per group recommended, the organizer may make
the group smaller or larger). Cards pass to the left and to the right, so the seat
order within a pod matters.

Where it is silent, our choices (tested):
- The number of pods is ``N / pod_size`` rounded to the nearest whole number, a half
  rounded up, at least 1, and never so many that a pod would hold fewer than 2 players
  (a draft of one passes to nobody). 12 players at size 8: 2 pods of 6; 11: one of 11;
  20: 3 pods (7, 7, 6); 4 players at size 8: one pod of 4.
- Pod sizes are as even as possible: they differ by at most one, the larger pods first.
- Who sits where is random from the recorded seed: the active players in id order
  are shuffled once with ``random.Random(f"{seed}:pods")``, then pod 1 takes the first
  seats of the shuffled order, pod 2 the next, and so on. The same players and seed
  always give the same pods, so ``pods_assigned`` can be recomputed and compared.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ledger.limited_events import Pod

#: the draw below, named in every ``pods_assigned``; a change to it is a new version
ENGINE = "tledger-pods-1"
#: §2.3.2.1: "8 Spieler pro Gruppe werden empfohlen"
RECOMMENDED_POD_SIZE = 8
#: the fewest players a pod can draft with (cards pass to a neighbour)
SMALLEST_POD = 2


def pod_count(players: int, pod_size: int) -> int:
    """How many pods ``players`` make at about ``pod_size`` each (module docstring)."""
    if players < SMALLEST_POD:
        return 1
    nearest = (2 * players + pod_size) // (2 * pod_size)  # round half up, in integers
    return max(1, min(nearest, players // SMALLEST_POD))


def pod_sizes(players: int, pod_size: int) -> list[int]:
    """Each pod's size, larger pods first, differing by at most one."""
    count = pod_count(players, pod_size)
    each, extra = divmod(players, count)
    return [each + 1 if i < extra else each for i in range(count)]


def draw_pods(players: Sequence[str], pod_size: int, seed: int) -> tuple[Pod, ...]:
    """The pods of ``players`` (any order: they are sorted first) drawn from ``seed``."""
    seats = sorted(players)
    random.Random(f"{seed}:pods").shuffle(seats)
    pods: list[Pod] = []
    start = 0
    for number, size in enumerate(pod_sizes(len(seats), pod_size), start=1):
        pods.append(Pod(pod=number, players=tuple(seats[start : start + size])))
        start += size
    return tuple(pods)
