"""Variants of a paytable: other rule readings, other values of one entry.

Verify and solve both re-run a game's exact analysis on a changed copy of
the paytable data. Changes go through the same strict loader as the file
itself (:func:`odds.games.paytable.from_data`), so a reading or a value the game
does not accept is refused exactly as it would be in a ``.toml`` file.
"""

from __future__ import annotations

import dataclasses
import itertools
import typing
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.core.overrides import Override, merged
from odds.games.paytable import Paytable, from_data

#: The config section whose options are the rule book's readings.
RULES_SECTION = "rules"


def variant(paytable: Paytable, changes: Mapping[str, Any]) -> Paytable:
    """The paytable with ``{"section.key": value}`` changes applied and re-validated."""
    if not changes:
        return paytable
    overrides = [Override(tuple(key.split(".")), value, key) for key, value in changes.items()]
    return from_data(merged(paytable.data, overrides), paytable.source)


def reading_options(config: Any) -> list[tuple[str, tuple[Any, ...]]]:
    """The rules section's options that are readings: bools, and strings with choices.

    Each comes with its possible values, the paytable's own value first.
    """
    rules = getattr(config, RULES_SECTION, None)
    if rules is None or not dataclasses.is_dataclass(rules):
        return []
    hints = typing.get_type_hints(type(rules))
    found = []
    for f in dataclasses.fields(rules):
        current = getattr(rules, f.name)
        if hints[f.name] is bool:
            values: tuple[Any, ...] = (current, not current)
        elif hints[f.name] is str and f.metadata.get("choices"):
            values = (current, *(c for c in f.metadata["choices"] if c != current))
        else:
            continue
        found.append((f"{RULES_SECTION}.{f.name}", values))
    return found


def readings(config: Any) -> Iterator[dict[str, Any]]:
    """Every combination of reading options; the paytable's own reading comes first."""
    options = reading_options(config)
    keys = [k for k, _ in options]
    for values in itertools.product(*(v for _, v in options)):
        yield dict(zip(keys, values, strict=True))


def reading_text(reading: Mapping[str, Any]) -> str:
    """``banker_zero_or_six=ordinary, eight_nine_override=yes``."""
    if not reading:
        return "(the rules have no alternative readings)"
    parts = []
    for key, value in reading.items():
        shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
        parts.append(f"{key.split('.', 1)[1]}={shown}")
    return ", ".join(parts)


def numeric_entries(config: Any, prefix: str = "") -> dict[str, Fraction]:
    """Every exact-number paytable entry (``payouts.pair``, ``rules.commission`` …).

    Fraction options, and the entries of ``dict[str, Fraction]`` options
    (``payouts.bonus.straight``); the ``[shoe]`` composition is not an entry.
    """
    found: dict[str, Fraction] = {}
    hints = typing.get_type_hints(type(config))
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        key = f"{prefix}{f.name}"
        if f.metadata.get("section"):
            if f.name != "shoe":
                found.update(numeric_entries(value, key + "."))
        elif hints[f.name] is Fraction:
            found[key] = value
        elif typing.get_origin(hints[f.name]) is dict and typing.get_args(hints[f.name])[1:] == (
            Fraction,
        ):
            for name, entry in value.items():
                found[f"{key}.{name}"] = entry
    return found


def check_entry(config: Any, key: str) -> Fraction:
    """The current value of a paytable entry; a one-line error naming an unknown key."""
    entries = numeric_entries(config)
    if key in entries:
        return entries[key]
    choices = _choices(config, key)
    if choices:
        raise OddsError(
            f"{key} is a choice ({', '.join(choices)}), not a number to solve for; compare the "
            f"choices with odds report --set {key}=…"
        )
    if not entries:
        raise OddsError(f"unknown payout key {key!r} (this paytable has no numeric entries)")
    raise OddsError(f"unknown payout key {key!r} (this paytable has: {', '.join(entries)})")


def _choices(config: Any, key: str) -> list[str]:
    """The choices of a string option ``section.key``, if it is one."""
    section, _, rest = key.partition(".")
    for f in dataclasses.fields(config):
        if f.name == section and f.metadata.get("section"):
            return _choices(getattr(config, f.name), rest)
        if f.name == key:
            return list(f.metadata.get("choices") or {})
    return []


def entry_bounds(config: Any, key: str) -> tuple[Fraction | int | None, Fraction | int | None]:
    """The declared minimum and maximum of a paytable entry (``None``: unbounded)."""
    section, _, rest = key.partition(".")
    for f in dataclasses.fields(config):
        if f.name != section:
            continue
        if f.metadata.get("section"):
            return entry_bounds(getattr(config, f.name), rest)
        return f.metadata.get("minimum"), f.metadata.get("maximum")
    return None, None
