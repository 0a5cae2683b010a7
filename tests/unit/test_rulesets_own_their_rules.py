"""Rulesets own their rules: every registered ruleset (and variant) declares each member
a ruleset must declare, and no product module outside ``projections/rulesets/`` names a
ruleset's id or imports a ruleset's class (it asks the ruleset object instead)."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest

from ledger.events import MatchResult, Stage
from projections.rulesets import RULESETS, VARIANTS, registered, ruleset, ruleset_class
from projections.rulesets.base import Outcome, ResultForm, Ruleset, Scores
from projections.rulesets.decklists import DeckList
from projections.rulesets.round_time import RoundTime

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("ledger", "projections", "replay", "commands")
RULESETS_DIR = ROOT / "projections" / "rulesets"
STAGES: tuple[Stage, ...] = get_args(Stage)


def required() -> list[str]:
    """The class attributes ``Ruleset`` and its bases declare without a value: each
    ruleset sets them."""
    bases = [c for c in reversed(Ruleset.__mro__) if c is not object]
    declared = [name for c in bases for name, kind in vars(c).get("__annotations__", {}).items()
                if str(kind).startswith("ClassVar")]  # fmt: skip
    return [n for n in dict.fromkeys(declared) if not any(n in vars(c) for c in bases)]


def missing_members(cls: type[Ruleset]) -> list[str]:
    """What ``cls`` leaves out: abstract methods, and attributes it must set."""
    abstract = sorted(getattr(cls, "__abstractmethods__", ()))
    return abstract + [name for name in required() if not hasattr(cls, name)]


def test_the_required_attributes_are_those_a_regulation_decides() -> None:
    assert set(required()) == {
        "id", "tiebreakers", "tiebreaker_keys", "result_shapes", "list_shape",
        "list_schedule", "deck_check",
    }  # fmt: skip


@pytest.mark.parametrize("cls", registered(), ids=lambda c: c.__name__)
def test_every_registered_ruleset_declares_every_member(cls: type[Ruleset]) -> None:
    assert missing_members(cls) == []
    assert not inspect.isabstract(cls)


def test_a_ruleset_that_leaves_a_member_out_is_found() -> None:
    class Partial(Ruleset):
        id = "partial-1.0"
        result_shapes = (frozenset({"points"}),)

        def check_result(self, players: tuple[str, str], result: MatchResult, stage: Stage) -> None:
            pass

        def outcomes(
            self, players: tuple[str, str], result: MatchResult
        ) -> tuple[Outcome, Outcome]:
            raise NotImplementedError

        def bye(self) -> Outcome:
            raise NotImplementedError

        def result_form(self, stage: Stage) -> ResultForm:
            return ResultForm("points")

        def scores(self, records: Any) -> dict[str, Scores]:
            return {}

        def round_time(self) -> RoundTime:
            return RoundTime(50, 50, 50, "partial-1.0 §1")

        def table_rounds(self, players: int) -> int:
            return 3

    assert set(missing_members(Partial)) == {
        "list_violations", "tiebreakers", "tiebreaker_keys", "list_shape", "list_schedule",
        "deck_check",
    }  # fmt: skip


@pytest.mark.parametrize("cls", registered(), ids=lambda c: c.__name__)
def test_the_declarations_fit_together(cls: type[Ruleset]) -> None:
    """A slip that asks who took a level match names how (``tie_procedure``); the deck
    formats are the option's choices, the default first; the tiebreakers declared are
    the ones the standings compute; the list shape is one game's list."""
    rules = ruleset_of_class(cls)
    if any(rules.result_form(stage).tie_winner for stage in STAGES):
        assert rules.tie_procedure is not None
    if rules.deck_formats:
        names = tuple(f.name for f in rules.deck_formats)
        assert rules.option_choices["deck_format"] == names
        assert rules.deck_format == rules.deck_formats[0]
    assert set(rules.scores({"p1": []})["p1"].tiebreakers) == set(rules.tiebreaker_keys)
    assert issubclass(rules.list_shape, DeckList) and rules.list_shape is not DeckList


def ruleset_of_class(cls: type[Ruleset]) -> Ruleset:
    """The ruleset object of a registered class, with the option that selects a variant."""
    options = {option: True for (_, option), variant in VARIANTS.items() if variant is cls}
    return ruleset(cls.id, options)


def test_the_registry_maps_each_id_to_its_class_and_a_variant_to_its_own() -> None:
    assert all(cls.id == rid for rid, cls in RULESETS.items())
    for (rid, option), variant in VARIANTS.items():
        assert ruleset_class(rid, {option: True}) is variant and variant.id == rid
        assert type(ruleset(rid, {option: True})) is variant


# Nothing outside projections/rulesets/ names a ruleset ------------------------------------


def product_files() -> Iterator[Path]:
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            if RULESETS_DIR not in path.parents:
                yield path


def ruleset_words() -> set[str]:
    """Every registered id, and each game's prefix (``swu``, ``swu-``) a check by
    ``startswith`` would use."""
    ids = {cls.id for cls in registered()}
    games = {rid.split("-")[0] for rid in ids}
    return ids | games | {f"{game}-" for game in games}


def ruleset_classes() -> set[str]:
    """The classes a registered ruleset is made of (itself, its bases and mixins) but
    ``Ruleset``, which everyone may name."""
    return {
        f"{base.__module__}.{base.__name__}"
        for cls in registered()
        for base in cls.__mro__
        if base.__module__.startswith("projections.rulesets") and base is not Ruleset
    }


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the string nodes that are docstrings (documentation may cite ids)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


def ruleset_ids_named(tree: ast.AST) -> list[str]:
    words, skip = ruleset_words(), docstrings(tree)
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in skip
        and node.value in words
    ]


def ruleset_classes_imported(tree: ast.AST) -> list[str]:
    classes = ruleset_classes()
    named = [
        f"{node.module}.{alias.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
    ]
    from_package = {f"projections.rulesets.{c.__name__}": f"{c.__module__}.{c.__name__}"
                    for c in registered()}  # fmt: skip
    return [name for name in named if from_package.get(name, name) in classes]


@pytest.mark.parametrize("path", list(product_files()), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_product_module_outside_the_rulesets_names_a_ruleset(path: Path) -> None:
    tree = ast.parse(path.read_text())
    assert ruleset_ids_named(tree) == []
    assert ruleset_classes_imported(tree) == []


def test_the_check_finds_an_id_compared_and_a_class_imported() -> None:
    tree = ast.parse(
        "from projections.rulesets.swu_1_4 import Swu14\n"
        "from projections.rulesets.games import BestOfGames\n"
        "def f(state):\n"
        '    """Cites swu-1.4 §4.5, as documentation may."""\n'
        '    return state.ruleset == "lcg-2.1d" or state.ruleset.startswith("swu")\n'
    )
    assert ruleset_ids_named(tree) == ["lcg-2.1d", "swu"]
    assert ruleset_classes_imported(tree) == [
        "projections.rulesets.swu_1_4.Swu14", "projections.rulesets.games.BestOfGames"]  # fmt: skip
