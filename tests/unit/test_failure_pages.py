"""The failure pages' own decisions: the kind of failure a status is, the last good seq
before a damaged one, and each players' page whole in both languages (a missing German
label is an error, never an English word on a German page)."""

from __future__ import annotations

import pytest

from commands.pages.failures import Failure, Kind, failure_page, kind_of


@pytest.mark.parametrize(("status", "damaged", "kind"), [
    (503, True, "damaged"), (503, False, "unavailable"), (404, False, "not_found"),
    (429, False, "too_many"), (403, False, "forbidden"), (401, False, "forbidden"),
    (422, False, "bad_request"), (409, False, "bad_request"), (400, False, "bad_request"),
])  # fmt: skip
def test_a_status_is_a_kind_of_failure(status: int, damaged: bool, kind: Kind) -> None:
    assert kind_of(status, damaged) == kind


def test_the_last_good_seq_is_the_one_before_the_damage() -> None:
    assert Failure(503, "damaged", "integrity: seq 12: ...", "t1", 12).last_good == 11
    assert Failure(503, "damaged", "integrity: seq 1: ...", "t1", 1).last_good == 0


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("kind", ["damaged", "not_found", "too_many", "unavailable",
                                  "forbidden", "bad_request"])  # fmt: skip
def test_every_players_page_renders_in_both_languages(lang: str, kind: Kind) -> None:
    seq = 12 if kind == "damaged" else None
    failure = Failure(503, kind, "one line", "t1" if seq else None, seq, "7")
    page = failure_page(failure, lang)
    assert f'<html lang="{lang}">' in page and "<script" not in page and "style=" not in page
    assert ('http-equiv="refresh" content="7"' in page) == (kind in ("damaged", "too_many",
                                                                      "unavailable"))  # fmt: skip
    if kind == "damaged":
        assert "12" in page and "--until 11" in page and "/console/t/t1/audit#verify" in page
