"""Rule options as documented, frozen dataclasses, bound strictly to TOML tables.

Each game declares its rules the way hhoppe's blackjack does: one frozen
(and hashable: tables are :class:`~odds.core.frozen.FrozenMap` s, lists tuples)
dataclass per paytable section (``[shoe]``, ``[rules]``, ``[payouts]`` …),
each field made with :func:`option`, which records the default, a sentence
saying what the option means, and its allowed values. From that single
declaration come the TOML loader (unknown keys, wrong types, out-of-range
values are one-line errors), the ``--set`` overrides of the CLI, and the
"rules and readings used" table of every report.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from odds.core.errors import OddsError
from odds.core.frozen import FrozenMap, frozen
from odds.core.numbers import fraction_text, parse_rational

T = TypeVar("T")

#: How an option declares a table (``[payouts.bonus]``); the loader stores it as a FrozenMap.
_TABLE_KINDS = (FrozenMap, Mapping, dict)


def option(
    default: Any,
    doc: str,
    *,
    choices: Mapping[str, str] | None = None,
    minimum: Fraction | int | None = None,
    maximum: Fraction | int | None = None,
) -> Any:
    """A rule option: its default, what it means, and what values it accepts.

    ``choices`` maps each allowed string to a sentence explaining that reading.
    """
    meta = {"doc": doc, "choices": dict(choices or {}), "minimum": minimum, "maximum": maximum}
    # Tables become FrozenMaps and lists tuples: immutable, so one default is shared safely,
    # and hashable, so the config is.
    return field(default=frozen(default), metadata=meta)


def section(cls: type[T], doc: str) -> Any:
    """A nested section (a TOML table) holding another options dataclass."""
    return field(default_factory=cls, metadata={"doc": doc, "section": True})


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _convert(value: Any, kind: Any, where: str, meta: Mapping[str, Any]) -> Any:
    origin = typing.get_origin(kind)
    if kind is bool:
        if not isinstance(value, bool):
            raise OddsError(f"{where}: expected true or false, got {value!r}")
        return value
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OddsError(f"{where}: expected a whole number, got {value!r}")
        result: Any = value
    elif kind is Fraction:
        result = parse_rational(value, where)
    elif kind is str:
        choices = meta.get("choices") or {}
        if not isinstance(value, str):
            if choices:
                listed = ", ".join(f'"{c}"' for c in choices)
                raise OddsError(f"{where}: expected one of {listed} (in quotes), got {value!r}")
            raise OddsError(f"{where}: expected a string, got {value!r}")
        if choices and value not in choices:
            raise OddsError(f"{where}: {value!r} is not one of {', '.join(map(repr, choices))}")
        return value
    elif origin in (tuple, list):
        (item_kind, *_) = typing.get_args(kind)
        if not isinstance(value, (list, tuple)):
            raise OddsError(f"{where}: expected a list, got {value!r}")
        items = [_convert(v, item_kind, f"{where}[{i}]", {}) for i, v in enumerate(value)]
        return tuple(items)
    elif origin in _TABLE_KINDS:
        key_kind, value_kind = typing.get_args(kind)
        if not isinstance(value, Mapping):
            raise OddsError(f"{where}: expected a table, got {value!r}")
        out = {}
        for k, v in value.items():
            out[_convert(k, key_kind, f"{where}.{k}", {})] = _convert(
                v, value_kind, f"{where}.{k}", meta
            )
        return FrozenMap(out)
    else:  # pragma: no cover - a declaration error, not user input
        raise TypeError(f"unsupported option type {kind!r}")
    low, high = meta.get("minimum"), meta.get("maximum")
    if low is not None and result < low:
        raise OddsError(f"{where}: {_show(result)} is below the minimum {_show(low)}")
    if high is not None and result > high:
        raise OddsError(f"{where}: {_show(result)} is above the maximum {_show(high)}")
    return result


def _show(value: Any) -> str:
    return fraction_text(value) if isinstance(value, (Fraction, int)) else repr(value)


def build(cls: type[T], data: Mapping[str, Any], where: str) -> T:
    """Make ``cls`` from a TOML table, refusing anything it does not declare."""
    if not isinstance(data, Mapping):
        raise OddsError(f"{where or 'paytable'}: expected a table, got {data!r}")
    hints = _hints(cls)
    fields = {f.name: f for f in dataclasses.fields(typing.cast(Any, cls)) if f.init}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        if where:
            raise OddsError(
                f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(fields))})"
            )
        raise OddsError(
            f"unknown key {unknown[0]!r} at the top of the paytable (known: game, title, "
            f"description and the sections {', '.join(sorted(fields))})"
        )
    values = {}
    for name, value in data.items():
        f = fields[name]
        inner = f"{where}.{name}" if where else name
        if f.metadata.get("section"):
            values[name] = build(hints[name], value, inner)
        else:
            values[name] = _convert(value, hints[name], inner, f.metadata)
    return cls(**values)


@dataclass(frozen=True)
class OptionLine:
    """One row of a report's rules table."""

    key: str
    value: Any
    meaning: str


def describe(config: Any, prefix: str = "") -> list[OptionLine]:
    """Every option of a config with its value and meaning, in declaration order.

    For a string option with choices, the meaning is the chosen reading's sentence.
    """
    lines: list[OptionLine] = []
    for f in dataclasses.fields(config):
        value = getattr(config, f.name)
        key = f"{prefix}{f.name}"
        if f.metadata.get("section"):
            lines.extend(describe(value, key + "."))
            continue
        meaning = f.metadata.get("doc", "")
        choices = f.metadata.get("choices") or {}
        if isinstance(value, str) and value in choices:
            meaning = f"{meaning} {choices[value]}".strip()
        lines.append(OptionLine(key, value, meaning))
    return lines


@dataclass(frozen=True)
class OptionSpec:
    """One declared option, as ``odds games`` lists it: key, default and what it accepts."""

    key: str
    default: Any
    kind: str
    accepts: str
    meaning: str
    #: For an option with choices: each choice and what it means (declaration order).
    choices: dict[str, str] = dataclasses.field(default_factory=dict)


def _choice_meanings(meta: Mapping[str, Any]) -> dict[str, str]:
    """The choices of an option with what each means ("" where none is declared)."""
    choices = meta.get("choices") or {}
    if isinstance(choices, Mapping):
        return {str(c): str(m or "") for c, m in choices.items()}
    return {str(c): "" for c in choices}


def full_meaning(doc: str, choices: Mapping[str, str]) -> str:
    """The option's sentence followed by every choice's meaning.

    A declaration such as "How a winning Banker bet is paid:" introduces its
    choices; listing them completes the sentence (``odds games`` printed the
    bare colon before).
    """
    parts = [doc.strip()] if doc.strip() else []
    parts += [f"{choice}: {meaning}".strip() for choice, meaning in choices.items()]
    return " ".join(parts)


def option_specs(cls: type[Any], prefix: str = "") -> list[OptionSpec]:
    """Every option a config class declares, in declaration order, with its default."""
    specs: list[OptionSpec] = []
    hints = _hints(cls)
    defaults = cls()
    for f in dataclasses.fields(cls):
        key = f"{prefix}{f.name}"
        if f.metadata.get("section"):
            specs.extend(option_specs(hints[f.name], key + "."))
            continue
        choices = _choice_meanings(f.metadata)
        specs.append(
            OptionSpec(
                key,
                getattr(defaults, f.name),
                "choice" if choices and hints[f.name] is str else _kind_name(hints[f.name]),
                _accepts(f.metadata),
                full_meaning(f.metadata.get("doc", ""), choices),
                choices,
            )
        )
    return specs


def _kind_name(kind: Any) -> str:
    names = {bool: "yes/no", int: "whole number", Fraction: "number", str: "text"}
    if kind in names:
        return names[kind]
    origin = typing.get_origin(kind)
    if origin in (tuple, list):
        return "list"
    if origin in _TABLE_KINDS:
        return "table"
    return str(kind)


def _accepts(meta: Mapping[str, Any]) -> str:
    choices = meta.get("choices") or {}
    if choices:
        return " | ".join(choices)
    low, high = meta.get("minimum"), meta.get("maximum")
    if low is not None and high is not None:
        return f"{_show(low)} to {_show(high)}"
    if low is not None:
        return f"at least {_show(low)}"
    if high is not None:
        return f"at most {_show(high)}"
    return ""


def to_plain(config: Any) -> Any:
    """A config as JSON-ready data: exact numbers as fraction strings."""
    if dataclasses.is_dataclass(config):
        return {f.name: to_plain(getattr(config, f.name)) for f in dataclasses.fields(config)}
    if isinstance(config, bool) or config is None:
        return config
    if isinstance(config, Fraction):
        return fraction_text(config)
    if isinstance(config, int):
        return config
    if isinstance(config, Mapping):
        return {str(k): to_plain(v) for k, v in config.items()}
    if isinstance(config, (list, tuple)):
        return [to_plain(v) for v in config]
    return config


def value_text(value: Any) -> str:
    """An option value as a report prints it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(v) for v in value) or "none"
    if isinstance(value, Mapping):
        if any(isinstance(v, (list, tuple)) for v in value.values()):
            # Rows of lists (a drawing tableau): "3: 0, 1, 2; 4: none".
            return "; ".join(f"{k}: {value_text(v)}" for k, v in value.items()) or "none"
        return ", ".join(f"{k} = {value_text(v)}" for k, v in value.items()) or "none"
    return str(value)
