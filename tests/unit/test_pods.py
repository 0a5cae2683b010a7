"""How a draft's players split into pods and where they sit (swu-1.4 §2.3.2.1, our rule
where the document is silent: projections.pods)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from projections.pods import draw_pods, pod_count, pod_sizes


def test_pod_counts_round_players_per_pod_size_to_the_nearest_half_up() -> None:
    assert [pod_sizes(n, 8) for n in (4, 8, 11, 12, 16, 20)] == [
        [4], [8], [11], [6, 6], [8, 8], [7, 7, 6]]  # fmt: skip


def test_no_pod_is_left_with_one_player() -> None:
    assert pod_sizes(3, 2) == [3] and pod_sizes(5, 2) == [3, 2] and pod_sizes(1, 8) == [1]


players = st.lists(st.text(min_size=1, max_size=6), min_size=2, max_size=300, unique=True)


@given(players=players, pod_size=st.integers(min_value=2, max_value=40), seed=st.integers())
def test_every_player_sits_once_in_pods_that_differ_by_at_most_one(
    players: list[str], pod_size: int, seed: int
) -> None:
    pods = draw_pods(players, pod_size, seed)
    seated = [p for pod in pods for p in pod.players]
    assert sorted(seated) == sorted(players)
    sizes = [len(pod.players) for pod in pods]
    assert max(sizes) - min(sizes) <= 1 and min(sizes) >= 2
    assert sizes == sorted(sizes, reverse=True) and len(pods) == pod_count(len(players), pod_size)
    assert [pod.pod for pod in pods] == list(range(1, len(pods) + 1))
    nearest = len(players) / pod_size
    assert len(pods) == max(1, min(int(nearest + 0.5), len(players) // 2))


@given(players=players, pod_size=st.integers(min_value=2, max_value=40), seed=st.integers())
def test_the_same_players_and_seed_always_give_the_same_pods_whatever_the_order(
    players: list[str], pod_size: int, seed: int
) -> None:
    assert draw_pods(players, pod_size, seed) == draw_pods(players[::-1], pod_size, seed)
