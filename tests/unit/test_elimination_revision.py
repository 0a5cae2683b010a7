"""A corrected final result re-pairs the next final round (swu-1.4 §5.8 case 2) with the
bracket's engine, sides included (lcg-2.1d "Finalrunden"), and verify re-derives it.

The event: eight players, two Swiss rounds, a top-4 double-elimination cut. In the
first final round the seeds' winners play light at one table and dark at the other,
so the second round's sides follow from the sides played ("each player plays the side
they have played least"). Correcting a first-round result (another winner, who played
the other side) changes both players and sides of the second round.
"""

from __future__ import annotations

from typing import Any

from ledger.chain import GENESIS, seal
from ledger.events import EventBase, PairingsRevised, ResultCorrected, RoundPaired, Table
from ledger.store import Recorded
from projections import elimination, pairing
from replay.verify import Verification, check_pairings, verify
from tests.builders import Given, create, pair, recorded, register, report, start

PLAYERS = [f"p{i}" for i in range(1, 9)]
SWISS = (
    [("p1", "p2"), ("p3", "p4"), ("p5", "p6"), ("p7", "p8")],
    [("p1", "p3"), ("p5", "p7"), ("p2", "p4"), ("p6", "p8")],
)


def pair_next() -> dict[str, Any]:
    return {"type": "pair_round", "tournament": "t1"}


def correct(rnd: int, a: str, b: str, **result: Any) -> dict[str, Any]:
    return {"type": "correct_result", "tournament": "t1", "round": rnd, "players": [a, b],
            "result": result, "reason": "slip filled in wrongly"}  # fmt: skip


def cut_of_four() -> Given:
    """Two Swiss rounds in which the first named player wins, then a top-4 cut."""
    given = Given(create(ruleset="lcg-2.1d", rounds=2), *register(*PLAYERS))
    for rnd, tables in enumerate(SWISS, start=1):
        given.apply(pair(*tables))
        given.apply(start())
        for a, b in tables:
            given.apply(report(rnd, a, b, game_results=[a, a]))
    given.apply({"type": "make_cut", "tournament": "t1", "size": 4})
    return given


def seeds(given: Given) -> list[str]:
    assert given.state.cut is not None
    return list(given.state.cut.seeds)


def first_final_round(top_winner: str | None = None, top_light: str | None = None) -> Given:
    """Round 3, the first final round: seed 1 v 4 (won by seed 1 unless ``top_winner``,
    who played light unless ``top_light``) and seed 2 v 3 (seed 2 wins playing dark)."""
    given = cut_of_four()
    s1, s2, s3, s4 = seeds(given)
    given.apply(pair_next())
    given.apply(start())
    given.apply(report(3, s1, s4, game_results=[top_winner or s1], light=top_light or s1))
    given.apply(report(3, s2, s3, game_results=[s2], light=s3))
    return given


def final_round_paired() -> Given:
    """Round 4 paired from round 3, not started: the correction re-pairs it."""
    given = first_final_round()
    given.apply(pair_next())
    return given


def revision_of(events: list[EventBase]) -> PairingsRevised:
    corrected, revised = events
    assert isinstance(corrected, ResultCorrected) and corrected.timing == "next_round_paired"
    assert isinstance(revised, PairingsRevised)
    return revised


def fresh_pairing(given: Given) -> tuple[Table, ...]:
    [paired] = given.apply(pair_next())
    assert isinstance(paired, RoundPaired)
    return paired.pairings


def test_revised_lcg_final_keeps_its_sides_lcg_2_1d_finalrunden() -> None:
    given = final_round_paired()
    s1, s2, s3, s4 = seeds(given)
    revision = revision_of(given.when(correct(3, s1, s4, game_results=[s4], light=s4)))
    # the same round paired from the corrected result in the first place
    fresh = fresh_pairing(first_final_round(top_winner=s4, top_light=s4))
    assert revision.tables == fresh
    assert [(t.slot, t.players, t.light, t.chooses_side) for t in revision.tables] == [
        ("U2-1", (s4, s2), s2, None),  # s4 played light, s2 dark: s2 light
        ("L1-1", (s1, s3), s1, None),  # s1 played dark, s3 light: s1 plays light
    ]


def test_revised_elimination_pairing_names_the_bracket_engine_swu14_5_8_2() -> None:
    given = final_round_paired()
    s1, _, _, s4 = seeds(given)
    revision = revision_of(given.when(correct(3, s1, s4, game_results=[s4], light=s4)))
    assert revision.engine == elimination.ENGINE != pairing.ENGINE


def test_revision_replaces_the_tables_as_they_were_published_lcg_2_1d_finalrunden() -> None:
    given = final_round_paired()
    s1, _, _, s4 = seeds(given)
    published = given.state.rounds[3].matches
    revision = revision_of(given.when(correct(3, s1, s4, game_results=[s4], light=s4)))
    assert [(t.players, t.light, t.chooses_side) for t in revision.replaced] == [
        (m.players, m.light, m.chooses_side) for m in published
    ]
    assert all(t.light for t in revision.replaced)


def test_a_correction_of_the_side_alone_re_pairs_the_sides_lcg_2_1d_finalrunden() -> None:
    """Same winners, but seed 1 played dark: both finals now let the better placed choose."""
    given = final_round_paired()
    s1, s2, s3, s4 = seeds(given)
    revision = revision_of(given.when(correct(3, s1, s4, game_results=[s1], light=s4)))
    assert [(t.players, t.light, t.chooses_side) for t in revision.tables] == [
        ((s1, s2), None, s1),  # both played dark once
        ((s4, s3), None, s3),  # both played light once
    ]
    assert revision.tables == fresh_pairing(first_final_round(top_light=s4))


def test_the_revised_round_is_published_with_its_sides_lcg_2_1d_finalrunden() -> None:
    given = final_round_paired()
    s1, _, _, s4 = seeds(given)
    [*_, revision] = given.apply(correct(3, s1, s4, game_results=[s4], light=s4))
    assert isinstance(revision, PairingsRevised)
    current = given.state.current
    assert current is not None
    assert {(m.players, m.light, m.chooses_side) for m in current.matches} == {
        (t.players, t.light, t.chooses_side) for t in revision.tables
    }


def corrected_log() -> list[EventBase]:
    """The events of an event whose second final round was revised by a correction."""
    given = final_round_paired()
    s1, _, _, s4 = seeds(given)
    given.apply(correct(3, s1, s4, game_results=[s4], light=s4))
    return [r.event for r in given.log]


def verified(events: list[EventBase]) -> Verification:
    """Verify ``events`` sealed into a fresh chain, as a rewrite that re-hashes would be:
    the chain holds, so only the pairing check can find what was changed."""
    sealed = seal(events, GENESIS)
    stored = [(seq, seq, s.data) for seq, s in enumerate(sealed, start=1)]
    log = [Recorded(seq, seq, s.event) for seq, s in enumerate(sealed, start=1)]
    return verify("t1", stored, log)


def forged(events: list[EventBase], kind: type[EventBase], **update: Any) -> list[EventBase]:
    """``events`` with the last event of ``kind`` changed by ``update``."""
    at = max(i for i, e in enumerate(events) if isinstance(e, kind))
    return [*events[:at], events[at].model_copy(update=update), *events[at + 1 :]]


def with_light(tables: tuple[Table, ...], light: str | None, chooses: str | None = None,
               ) -> tuple[Table, ...]:  # fmt: skip
    first, *rest = tables
    return (first.model_copy(update={"light": light, "chooses_side": chooses}), *rest)


def test_verify_re_derives_the_revised_final_with_its_sides_swu14_5_8_2() -> None:
    events = corrected_log()
    report = verified(events)
    assert report.ok and report.broken_at is None
    kinds = [(c.kind, c.round, c.ok) for c in report.pairings if c.round >= 3]
    assert kinds == [("auto", 3, True), ("auto", 4, True), ("revision", 4, True)]


def test_verify_fails_a_revision_whose_light_side_is_forged_lcg_2_1d_finalrunden() -> None:
    events = corrected_log()
    revision = next(e for e in reversed(events) if isinstance(e, PairingsRevised))
    other = next(p for p in revision.tables[0].players if p != revision.tables[0].light)
    report = verified(forged(events, PairingsRevised, tables=with_light(revision.tables, other)))
    assert report.broken_at is None and not report.ok
    [bad] = [c for c in report.pairings if not c.ok]
    assert bad.kind == "revision" and "engine would re-pair" in bad.detail


def test_verify_fails_a_revision_that_hides_who_plays_light_lcg_2_1d_finalrunden() -> None:
    events = corrected_log()
    revision = next(e for e in reversed(events) if isinstance(e, PairingsRevised))
    chooser = revision.tables[0].players[0]
    hidden = with_light(revision.tables, None, chooser)
    report = verified(forged(events, PairingsRevised, tables=hidden))
    assert [c.kind for c in report.pairings if not c.ok] == ["revision"]


def test_verify_fails_an_elimination_round_whose_light_side_is_forged_lcg_2_1d_finalrunden(
) -> None:  # fmt: skip
    events = corrected_log()
    paired = next(e for e in reversed(events) if isinstance(e, RoundPaired))
    assert paired.stage == "elimination" and paired.pairings[0].light
    other = next(p for p in paired.pairings[0].players if p != paired.pairings[0].light)
    report = verified(forged(events, RoundPaired, pairings=with_light(paired.pairings, other)))
    assert report.broken_at is None and not report.ok
    bad = [c for c in report.pairings if not c.ok]
    assert (bad[0].kind, bad[0].round) == ("auto", 4) and "engine would pair" in bad[0].detail


def test_verify_fails_a_revision_of_a_final_that_names_the_swiss_engine_swu14_5_8_2() -> None:
    report = verified(forged(corrected_log(), PairingsRevised, engine=pairing.ENGINE))
    [bad] = [c for c in report.pairings if not c.ok]
    assert bad.kind == "revision" and elimination.ENGINE in bad.detail


def test_verify_names_a_revision_made_by_another_bracket_engine_version_swu14_5_8_2() -> None:
    report = verified(forged(corrected_log(), PairingsRevised, engine="tledger-bracket-0"))
    [check] = [c for c in report.pairings if c.kind == "revision"]
    assert check.ok and "another engine version" in check.detail


def test_check_pairings_passes_the_recorded_log_of_a_revised_final_swu14_5_8_2() -> None:
    checks = check_pairings(recorded(corrected_log()))
    assert checks and all(c.ok for c in checks)
    assert [c.kind for c in checks].count("revision") == 1
