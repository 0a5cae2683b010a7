"""A ruleset's options: the defaults filled in and every name and value checked, once,
when the tournament is created (``tournament_created`` records the result).

Every ruleset takes the shared options (``rounds``, ``cut``, ``seed``,
``elimination``) and declares its own with their choices, ranges and defaults
(``Ruleset.option_choices``, ``option_ranges``, ``defaults``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from projections.errors import InvalidOptions

#: the options every ruleset takes
COMMON_OPTIONS: tuple[str, ...] = ("rounds", "cut", "seed", "elimination")


@dataclass(frozen=True, slots=True)
class OptionRules:
    """One ruleset's options: name -> allowed values (None: any value of the default's
    type), name -> (lowest, highest, section) for a bounded whole number, and defaults."""

    ruleset: str
    choices: Mapping[str, tuple[Any, ...] | None]
    ranges: Mapping[str, tuple[int, int, str]]
    defaults: Mapping[str, Any]

    def normalized(self, options: dict[str, Any]) -> dict[str, Any]:
        """Fill defaults and reject unknown options or values."""
        merged = {**self.defaults, **options}
        for key, value in merged.items():
            if key in ("rounds", "cut"):
                if value is not None and (not isinstance(value, int) or value < 0):
                    raise InvalidOptions(f"option {key!r} must be a whole number >= 0")
            elif key == "seed":
                if not isinstance(value, int):
                    raise InvalidOptions("option 'seed' must be a whole number")
            elif key == "elimination":
                if value not in ("single", "double"):
                    raise InvalidOptions("option 'elimination' must be 'single' or 'double'")
            elif key == "team" and key not in self.choices:
                raise InvalidOptions(
                    f"{self.ruleset} has no team tournaments: option 'team' (2 vs 2) is "
                    'lcg-2.1d\'s ("Team-Turniere")'
                )
            elif key not in self.choices:
                known = ", ".join(sorted({*self.choices, *COMMON_OPTIONS}))
                raise InvalidOptions(f"{self.ruleset} has no option {key!r} (known: {known})")
            else:
                self.check_choice(key, value)
        return merged

    def check_choice(self, key: str, value: Any) -> None:
        choices = self.choices[key]
        if choices is None:
            expected = type(self.defaults[key])
            if not isinstance(value, expected) or isinstance(value, bool):
                raise InvalidOptions(f"option {key!r} must be a {expected.__name__}")
            if key in self.ranges:
                low, high, section = self.ranges[key]
                if not low <= value <= high:
                    raise InvalidOptions(
                        f"option {key!r} must be from {low} to {high} ({section}), not {value!r}"
                    )
        elif value not in choices:
            allowed = ", ".join(repr(c) for c in choices)
            raise InvalidOptions(f"option {key!r} must be one of {allowed}, not {value!r}")
