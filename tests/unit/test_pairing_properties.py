"""Properties of the Swiss pairing engine (``projections/pairing.py``), judged on random
events (``tests/unit/random_events.py``) by an oracle that shares no code with the engine
(``tests/unit/pairing_oracle.py``).

Every automatic round: (a) has no rematch (nor an avoided pair) while a rematch-free
pairing exists, and is refused only when none does; (b) gives nobody a second bye while
that is avoidable; (c) gives the bye to the lowest-ranked eligible player without one
(drawn with the seed in round 1); (d) pairs every eligible player once, dropped players
never (RULES.md "Common to all five"), late entrants from the next round; (e) sends at
most one player down from a score group unless rematches force more (swu-1.4 and
swu-1.0 §4.1.1: pair the best group first, then the next); (f) is a pure function of
the log prefix and the seed, so a replay pairs the same tables; (g) numbers the tables
by their better player's rank.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ledger.events import RoundPaired
from projections.errors import NoValidPairing
from projections.pairing import ENGINE, pair_swiss
from projections.state import fold
from tests.unit.pairing_oracle import completable_sending_one_down, valid_byes
from tests.unit.random_events import Attempt, Shape, bye_of, pairs_of, play_random_event, shapes

#: The whole file takes about 15 s on one core; a failure's shrinking takes minutes.
PAIRING_PROPERTIES = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: Small fields are cheap and are where rematches bite: more of them.
SMALL_FIELD_PROPERTIES = settings(PAIRING_PROPERTIES, max_examples=500)
#: Largest field the pair-down check (e) searches exhaustively.
EXACT_FIELD = 16


# -- (a) to (d), (g): a valid Swiss round --------------------------------------------


def check_valid_swiss_round(a: Attempt) -> None:
    possible = valid_byes(a.ranked, a.had_bye, a.met)
    if a.paired is None:
        assert len(a.eligible) < 2 or not possible, (
            f"refused ({a.refused}) although a rematch-free pairing exists (bye {possible[0]})"
        )
        return
    assert possible, "paired although no rematch-free pairing exists"
    for x, y in pairs_of(a.paired):
        assert y not in a.met[x], f"{x} v {y} is a rematch or an avoided pair"
    listed = [p for t in a.paired.pairings for p in t.players]
    assert sorted(listed) == sorted(a.eligible), "every eligible player exactly once"
    if not a.first_round:
        bye = bye_of(a.paired)
        assert bye == possible[0], f"bye to {bye}, but {possible[0]} comes first"
    check_table_numbers(a, a.paired)


def check_table_numbers(a: Attempt, paired: RoundPaired) -> None:
    """Table 1 holds the top-ranked player, tables count up by their better player's rank,
    a bye has no table."""
    rank = {p: n for n, p in enumerate(a.ranked)}
    tables = [t for t in paired.pairings if len(t.players) == 2]
    assert [t.table for t in tables] == list(range(1, len(tables) + 1))
    assert all(t.table is None for t in paired.pairings if len(t.players) == 1)
    best = [min(rank[p] for p in t.players) for t in tables]
    assert best == sorted(best)
    if tables:
        top = next(p for p in a.ranked if p != bye_of(paired))
        assert top in tables[0].players


@PAIRING_PROPERTIES
@given(shape=shapes(40), data=st.data())
def test_every_automatic_round_avoids_rematches_and_second_byes_while_it_can(
    shape: Shape, data: st.DataObject
) -> None:
    """(a) no rematch while a rematch-free pairing exists, refused only when none does;
    (b), (c) the bye to the lowest-ranked player without one whenever the rest can be
    paired, a second bye only when unavoidable; (d) every eligible player once, dropped
    players never, late entrants from the next round; (g) table numbers."""
    play_random_event(shape, data, check_valid_swiss_round)


# -- (e): pair-downs -------------------------------------------------------------------


def check_pair_downs(a: Attempt) -> None:
    """A score group sends more than one player down only when rematches force it.

    Groups come from the standings before pairing (the bye left out). The
    rules pair top down (swu-1.4 and swu-1.0 §4.1.1: the group with the best
    record first, then the next), so the pairs of every player from a higher group,
    including the players moved down into this group or past it, are taken as
    decided; the group may send two or more down only if no rematch-free
    pairing of everyone else sends at most one. (That the group could pair
    itself is not enough: the players below it may have met each other, and
    then someone has to come down to them.)
    """
    if a.paired is None or a.first_round or len(a.eligible) > EXACT_FIELD:
        return
    score = a.score
    opponent = {x: y for p, q in pairs_of(a.paired) for x, y in ((p, q), (q, p))}
    for level in sorted({score[p] for p in opponent}, reverse=True):
        group = [p for p in a.ranked if p in opponent and score[p] == level]
        down = [p for p in group if score[opponent[p]] < level]
        if len(down) <= 1:
            continue
        decided = {p for p, q in opponent.items() if max(score[p], score[q]) > level}
        rest = [p for p in opponent if p not in decided]
        free = [p for p in group if p not in decided]
        lower = [p for p in rest if score[p] < level]
        assert not completable_sending_one_down(rest, free, lower, a.met), (
            f"score group {level} sends {down} down although a rematch-free pairing "
            "sends at most one"
        )


@SMALL_FIELD_PROPERTIES
@given(shape=shapes(EXACT_FIELD), data=st.data())
def test_score_groups_send_down_one_player_unless_rematches_force_more(
    shape: Shape, data: st.DataObject
) -> None:
    play_random_event(shape, data, check_pair_downs)


# -- (f): a pure function of the log prefix and the seed ------------------------------


def check_pure_function(a: Attempt) -> None:
    """``decide`` paired from the incremental state; a fresh fold of the same log prefix
    with the same seed gives the same tables (or the same refusal), again and again,
    without changing the state; a fresh fold of the whole log equals the incremental state.
    """
    fresh = fold(a.prefix)
    if a.paired is None:
        with pytest.raises(NoValidPairing) as again:
            pair_swiss(fresh, a.seed, a.avoid)
        assert str(again.value) == str(a.refused)
    else:
        assert (a.paired.seed, a.paired.engine, a.paired.avoid) == (a.seed, ENGINE, a.avoid)
        first = pair_swiss(fresh, a.seed, a.avoid)
        assert first == pair_swiss(fresh, a.seed, a.avoid) == a.paired.pairings
    assert fresh == fold(a.prefix)
    assert fold(a.event.log) == a.event.live


@PAIRING_PROPERTIES
@given(shape=shapes(40), data=st.data())
def test_pairing_is_a_pure_function_of_log_prefix_and_seed(
    shape: Shape, data: st.DataObject
) -> None:
    play_random_event(shape, data, check_pure_function)
