"""Rule readings as data: the paytable options a definition declares, and one reading of them.

A coded game's paytable has sections of documented options (``[rules]``,
``[payouts]``, ``[bets]``, ``[tableau]`` …) that switch what is counted. A
definition declares the same, as data (``[definition.options.<section>.<key>]``:
a default, a meaning, its kind and what it accepts), and its parts read them:

* a **condition** may test an option (``{ rules = { banker_zero_or_six = "raw-total" } }``);
  the test is decided once per paytable, so an outcome whose condition is then
  false is absent under that reading (an ``optional`` one stays, with no ways),
  and a category or bet with ``if = { … }`` is present only where it holds;
* a **patch** (``[[definition.patches]]``, ``when = { … }``) merges, under the
  readings where its ``when`` holds, into the definition by name: categories,
  bets and their outcomes, the shoe, the deal, the comparison (an order);
* a **bound** option (``binds = "deal.tableau.naturals"``) puts its value at a
  path of the definition;
* a **table** of payouts (``payouts.dragon_bonus = { natural = 1, 9 = 30 }``) is
  named entry by entry (``pays = "dragon_bonus.9"``: present when the table has
  the entry), and its keys or a list's items are a set a test may read
  (``margin = { min = 1, max = 9, except_keys_of = "payouts.dragon_bonus" }``).

Nothing here counts or knows a game: :mod:`odds.games.defined.schema` reads a
definition under one :class:`Reading`, :mod:`odds.games.defined.options` makes
the paytable's option sections from the declarations.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.core.frozen import FrozenMap
from odds.core.numbers import parse_rational

if TYPE_CHECKING:
    from odds.games.defined.schema import Locator

#: Option kinds, as ``odds games`` names them.
KINDS = ("choice", "yes/no", "number", "whole number", "list", "table")
#: What a list's items or a table's values may be.
ITEM_KINDS = ("name", "number", "whole number")
VALUE_KINDS = ("number", "whole number", "list", "yes/no")
#: Paytable sections a definition cannot declare: the shared ones and the top-level keys.
RESERVED_SECTIONS = ("shoe", "dealing", "definition_sha256", "game", "title", "description",
                     "definition")  # fmt: skip
#: Definition tables a bound option may write into.
BINDABLE = ("shoe", "deal", "compare")
_NAME = re.compile(r"[a-z][a-z0-9_]*")
_DECLARATION_KEYS = ("default", "meaning", "choices", "kind", "minimum", "maximum", "items",
                     "values", "keys", "required", "binds")  # fmt: skip


@dataclass(frozen=True)
class OptionDeclaration:
    """One declared paytable option: ``section.key``, its default, kind and meaning."""

    section: str
    key: str
    kind: str
    default: Any
    meaning: str
    #: A choice's values (or a list's items) and what each means, in declaration order.
    choices: Mapping[str, str] = field(default_factory=dict)
    minimum: Fraction | None = None
    maximum: Fraction | None = None
    #: A list's items: ``name``, ``number`` or ``whole number``.
    items: str = ""
    #: A table's values: ``number``, ``whole number``, ``list`` (of whole numbers), ``yes/no``.
    values: str = ""
    #: A table's accepted keys (empty: any name), and the keys it must hold.
    keys: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    #: The definition path this option's value is put at (``deal.tableau.naturals``).
    binds: str = ""
    line: int = field(default=0, compare=False)

    @property
    def name(self) -> str:
        return f"{self.section}.{self.key}"

    @property
    def structural(self) -> bool:
        """Whether its value may change the definition (not only a number an outcome pays)."""
        return bool(self.binds) or self.kind not in ("number", "whole number")

    def python_type(self) -> Any:
        """The type the paytable loader converts a value to (odds.core.options)."""
        scalar: dict[str, Any] = {"number": Fraction, "whole number": int, "yes/no": bool,
                                  "name": str, "choice": str}  # fmt: skip
        if self.kind == "list":
            item = scalar[self.items]
            return tuple.__class_getitem__((item, ...))
        if self.kind == "table":
            value = tuple[int, ...] if self.values == "list" else scalar[self.values]
            return dict.__class_getitem__((str, value))
        return scalar[self.kind]


def _plain_number(value: Fraction) -> Any:
    return int(value) if value.denominator == 1 else value


# ---------------------------------------------------------------------------
# Declarations


def read_declarations(raw: Any, loc: Locator) -> tuple[OptionDeclaration, ...]:
    """``[definition.options]``: ``<section>.<key> = { default = …, meaning = … }``."""
    if raw is None:
        return ()
    after = loc.line("[definition.options")
    if not isinstance(raw, Mapping):
        raise loc.error("definition.options", "expected tables of options by section", after)
    found = []
    for section, table in raw.items():
        where = f"definition.options.{section}"
        line = loc.line(f"definition.options.{section}") or after
        if not _NAME.fullmatch(str(section)) or section in RESERVED_SECTIONS:
            raise loc.error(
                where,
                f"{section!r} cannot be a paytable section here (lower-case words; not "
                f"{', '.join(RESERVED_SECTIONS)})",
                line,
            )
        if not isinstance(table, Mapping) or not table:
            raise loc.error(where, "expected options: key = { default = …, meaning = … }", line)
        for key, spec in table.items():
            found.append(_declaration(str(section), key, spec, loc, line))
    return tuple(found)


def _declaration(section: str, key: Any, spec: Any, loc: Locator, after: int) -> OptionDeclaration:
    where = f"definition.options.{section}.{key}"
    line = loc.line(f"{section}.{key}", max(after - 1, 0)) or loc.line(str(key), after) or after
    if not isinstance(key, str) or not _NAME.fullmatch(key):
        raise loc.error(where, "an option's key is a lower-case word (letters, digits, _)", line)
    if not isinstance(spec, Mapping):
        raise loc.error(where, 'expected { default = …, meaning = "…" }', line)
    loc.known(spec, _DECLARATION_KEYS, where, line, by_key=False)
    if "default" not in spec:
        raise loc.error(where, "missing default (the value when the paytable gives none)", line)
    meaning = spec.get("meaning")
    if not isinstance(meaning, str) or not meaning.strip():
        raise loc.error(where, 'missing meaning = "…" (what the option means, for reports)', line)
    default = spec["default"]
    choices = _choices(spec.get("choices"), where, loc, line)
    kind = spec.get("kind") or _kind_of(default, choices)
    if kind not in KINDS:
        raise loc.error(where, f"kind: expected one of {', '.join(KINDS)}, got {kind!r}", line)
    if kind == "choice" and (not choices or not all(m.strip() for m in choices.values())):
        raise loc.error(
            where,
            'a choice lists its values, each with its meaning: choices = { name = "…" }',
            line,
        )
    if choices and kind not in ("choice", "list"):
        raise loc.error(where, f"choices: a {kind} option has no choices", line)
    bounds = [
        None if spec.get(b) is None else parse_rational(spec[b], f"{where}.{b}")
        for b in ("minimum", "maximum")
    ]
    items = str(spec.get("items") or "")
    values = str(spec.get("values") or "")
    if kind == "list":
        items = items or _item_kind(default, choices)
        if items not in ITEM_KINDS:
            raise loc.error(where, f"items: expected one of {', '.join(ITEM_KINDS)}", line)
    if kind == "table":
        values = values or _value_kind(default)
        if values not in VALUE_KINDS:
            raise loc.error(where, f"values: expected one of {', '.join(VALUE_KINDS)}", line)
    keys = _names(spec.get("keys", []), f"{where}.keys", loc, line)
    required = _names(spec.get("required", []), f"{where}.required", loc, line)
    if (keys or required) and kind != "table":
        raise loc.error(where, "keys and required are a table's", line)
    if keys and not set(required) <= set(keys):
        raise loc.error(where, "required: every required key must be one of keys", line)
    binds = spec.get("binds", "")
    if binds and (
        not isinstance(binds, str)
        or binds.split(".")[0] not in BINDABLE
        or len(binds.split(".")) < 2
    ):
        raise loc.error(
            where,
            f"binds: a definition path under {', '.join(BINDABLE)} "
            f'(e.g. "deal.tableau.naturals"), got {binds!r}',
            line,
        )
    declared = OptionDeclaration(
        section, key, kind, None, meaning.strip(), choices, bounds[0], bounds[1], items, values,
        keys, required, str(binds), line,
    )  # fmt: skip
    return replace(declared, default=convert(declared, default, f"{where}.default", loc, line))


def _choices(raw: Any, where: str, loc: Locator, line: int) -> dict[str, str]:
    if raw is None:
        return {}
    if isinstance(raw, list) and all(isinstance(c, str) for c in raw):
        return {c: "" for c in raw}
    if isinstance(raw, Mapping) and all(isinstance(m, str) for m in raw.values()):
        return {str(c): m for c, m in raw.items()}
    raise loc.error(
        where, f'choices: a table of name = "meaning" (or a list of names), got {raw!r}', line
    )


def _names(raw: Any, where: str, loc: Locator, line: int) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(k, str) for k in raw):
        raise loc.error(where, f"expected a list of names, got {raw!r}", line)
    return tuple(raw)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, Decimal, float)) and not isinstance(value, bool)


def _kind_of(default: Any, choices: Mapping[str, str]) -> str:
    if isinstance(default, bool):
        return "yes/no"
    if isinstance(default, str):
        return "choice" if choices else "number"
    if _is_number(default):
        return "number"
    if isinstance(default, list):
        return "list"
    if isinstance(default, Mapping):
        return "table"
    return "?"


def _item_kind(default: Any, choices: Mapping[str, str]) -> str:
    if choices or not isinstance(default, list) or not default:
        return "name"
    first = default[0]
    return (
        "whole number"
        if isinstance(first, int) and not isinstance(first, bool)
        else ("number" if _is_number(first) else "name")
    )


def _value_kind(default: Any) -> str:
    if not isinstance(default, Mapping) or not default:
        return "number"
    first = next(iter(default.values()))
    if isinstance(first, bool):
        return "yes/no"
    if isinstance(first, list):
        return "list"
    return "number"


def convert(option: OptionDeclaration, value: Any, where: str, loc: Locator | None,
            line: int = 0) -> Any:  # fmt: skip
    """A value of the option as the paytable loader holds it, checked (one-line errors)."""

    def fail(message: str) -> OddsError:
        return (
            loc.error(where, message, line) if loc is not None else OddsError(f"{where}: {message}")
        )

    if option.kind == "list":
        if not isinstance(value, (list, tuple)):
            raise fail(f"expected a list, got {value!r}")
        items = [_scalar(option, option.items, v, f"{where}[{i}]", fail) for i, v in
                 enumerate(value)]  # fmt: skip
        if len(set(items)) != len(items):
            raise fail("an item is listed twice")
        return tuple(items)
    if option.kind == "table":
        if not isinstance(value, Mapping):
            raise fail(f"expected a table, got {value!r}")
        table = {}
        for k, v in value.items():
            k = str(k)
            if option.keys and k not in option.keys:
                raise fail(f"unknown key {k!r} (keys: {', '.join(option.keys)})")
            if option.values == "list":
                if not isinstance(v, (list, tuple)):
                    raise fail(f"{k}: expected a list of whole numbers, got {v!r}")
                entries = [_scalar(option, "whole number", x, f"{where}.{k}", fail) for x in v]
                if len(set(entries)) != len(entries):
                    raise fail(f"{k}: a value is listed twice")
                table[k] = tuple(entries)
            else:
                table[k] = _scalar(option, option.values, v, f"{where}.{k}", fail)
        missing = [k for k in option.required if k not in table]
        if missing:
            raise fail(f"the {missing[0]!r} entry is missing (required: "
                       f"{', '.join(option.required)})")  # fmt: skip
        return FrozenMap(table)
    return _scalar(option, option.kind, value, where, fail)


def _scalar(option: OptionDeclaration, kind: str, value: Any, where: str, fail: Any) -> Any:
    if kind == "yes/no":
        if not isinstance(value, bool):
            raise fail(f"expected true or false, got {value!r}")
        return value
    if kind in ("choice", "name"):
        if not isinstance(value, str):
            raise fail(f"expected a name in quotes, got {value!r}")
        if option.choices and value not in option.choices:
            raise fail(f"{value!r} is not one of {', '.join(map(repr, option.choices))}")
        return value
    if kind == "whole number":
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"expected a whole number, got {value!r}")
        if abs(value) > 10**12:  # before any arithmetic: the documented limit
            raise fail("a whole number beyond 10^12 is out of range")
        number = Fraction(value)
    elif isinstance(value, Fraction):  # a paytable's value, read already
        number = value
    else:
        try:
            number = parse_rational(value, where)
        except OddsError as exc:
            raise fail(str(exc).removeprefix(f"{where}: ")) from None
    if option.minimum is not None and number < option.minimum:
        raise fail(f"{_text(number)} is below the minimum {_text(option.minimum)}")
    if option.maximum is not None and number > option.maximum:
        raise fail(f"{_text(number)} is above the maximum {_text(option.maximum)}")
    return int(number) if kind == "whole number" else number


def _text(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value}"


# ---------------------------------------------------------------------------
# One reading


@dataclass(frozen=True)
class Reading:
    """The declared options and the values of one paytable (by ``section.key``)."""

    declarations: tuple[OptionDeclaration, ...] = ()
    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def defaults(cls, declarations: Sequence[OptionDeclaration]) -> Reading:
        return cls(tuple(declarations), {d.name: d.default for d in declarations})

    @property
    def sections(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(d.section for d in self.declarations))

    @property
    def declares_payouts(self) -> bool:
        return "payouts" in self.sections

    def declared(self, name: str) -> OptionDeclaration | None:
        return next((d for d in self.declarations if d.name == name), None)

    def key(self) -> tuple[tuple[str, Any], ...]:
        """What decides the definition under this reading (numbers paid are not part of it)."""
        return tuple((d.name, self.values[d.name]) for d in self.declarations if d.structural)

    # -- tests in conditions ------------------------------------------------

    def holds(self, section: str, table: Any, where: str, loc: Locator, line: int) -> bool:
        """``{ rules = { key = wanted } }``: every listed option has a wanted value."""
        if not isinstance(table, Mapping) or not table:
            raise loc.error(where, f'expected options of [{section}], e.g. {{ key = "value" }}',
                            line)  # fmt: skip
        result = True
        for key, wanted in table.items():
            option = self.declared(f"{section}.{key}")
            if option is None:
                known = [d.key for d in self.declarations if d.section == section]
                raise loc.error(
                    f"{where}.{key}", f"unknown option (known: {', '.join(known)})", line
                )
            result = self._test(option, wanted, f"{where}.{key}", loc, line) and result
        return result

    def _test(self, option: OptionDeclaration, wanted: Any, where: str, loc: Locator,
              line: int) -> bool:  # fmt: skip
        value = self.values[option.name]
        if option.kind == "yes/no":
            if not isinstance(wanted, bool):
                raise loc.error(where, f"expected true or false, got {wanted!r}", line)
            return bool(value == wanted)
        accepted = wanted if isinstance(wanted, list) else [wanted]
        if not accepted:
            raise loc.error(where, "expected a value or a list of values", line)
        if option.kind == "table":
            for name in accepted:
                if not isinstance(name, str) or (option.keys and name not in option.keys):
                    raise loc.error(
                        where,
                        f"{name!r} is not a key of {option.name} (keys: "
                        f"{', '.join(option.keys) or 'names'})",
                        line,
                    )
            return any(name in value for name in accepted)
        kind = option.items if option.kind == "list" else option.kind
        checked = [convert(_scalar_of(option, kind), a, where, loc, line) for a in accepted]
        if option.kind == "list":
            return any(item in value for item in checked)
        return value in checked

    def keys_of(self, ref: Any, where: str, loc: Locator, line: int) -> tuple[str, ...]:
        """The keys of a table option, or the items of a list option (``"payouts.bonus"``)."""
        option = self.declared(str(ref)) if isinstance(ref, str) else None
        if option is None or option.kind not in ("table", "list"):
            tables = [d.name for d in self.declarations if d.kind in ("table", "list")]
            raise loc.error(
                where,
                f"{ref!r} names no table or list option (declared: {', '.join(tables) or 'none'})",
                line,
            )
        return tuple(str(k) for k in self.values[option.name])

    def payout(self, name: str, where: str, loc: Locator, line: int) -> bool:
        """Whether a declared payout ``name`` (``dragon_bonus.9``: a table's entry) is paid
        under this reading; an undeclared name, or one that is not a number, is refused."""
        table, _, entry = name.partition(".")
        option = self.declared(f"payouts.{table}")
        numbers = [d.key for d in self.declarations if d.section == "payouts"
                   and d.kind in ("number", "table")]  # fmt: skip
        if (
            option is None
            or (option.kind == "table") != bool(entry)
            or option.kind not in ("number", "table")
        ):
            raise loc.error(
                where,
                f"{name!r} is not a declared payout (payouts: {', '.join(numbers)}; a table's "
                'entry is named "table.key")',
                line,
            )
        if entry:
            if option.keys and entry not in option.keys:
                raise loc.error(
                    where, f"{entry!r} is not a key of payouts.{table} ({', '.join(option.keys)})",
                    line,
                )  # fmt: skip
            return entry in self.values[option.name]
        return True

    # -- option-only conditions: patches, ``if`` ---------------------------

    def condition(self, raw: Any, where: str, loc: Locator, line: int) -> bool:
        """A condition on options alone (``when`` of a patch, ``if`` of a category or bet)."""
        if not isinstance(raw, Mapping) or not raw:
            raise loc.error(where, 'expected options, e.g. { rules = { kqj_mixed = "jqk" } }',
                            line)  # fmt: skip
        result = True
        for key, value in raw.items():
            if key in ("all", "any"):
                if not isinstance(value, list) or not value:
                    raise loc.error(f"{where}.{key}", "expected a list of conditions", line)
                parts = [self.condition(v, f"{where}.{key}", loc, line) for v in value]
                result = (all(parts) if key == "all" else any(parts)) and result
            elif key == "not":
                result = not self.condition(value, f"{where}.not", loc, line) and result
            elif key in self.sections:
                result = self.holds(key, value, f"{where}.{key}", loc, line) and result
            else:
                known = (*self.sections, "all", "any", "not")
                raise loc.error(
                    where,
                    f"unknown key {key!r}: a condition here reads options only "
                    f"(known: {', '.join(known) or 'none: the definition declares no options'})",
                    line,
                )
        return result


def _scalar_of(option: OptionDeclaration, kind: str) -> OptionDeclaration:
    """The option as one value of ``kind`` (a list's item), its choices and bounds kept."""
    return OptionDeclaration(option.section, option.key, kind, None, option.meaning,
                             option.choices, option.minimum, option.maximum)  # fmt: skip


def check_values(reading: Reading) -> None:
    """Every value of a paytable (lists' items, tables' keys and entries) as declared."""
    for option in reading.declarations:
        convert(option, reading.values[option.name], option.name, None)


def reading_of(config: Any, declarations: Sequence[OptionDeclaration]) -> Reading:
    """The paytable's values of the declared options (its config's sections)."""
    values = {}
    for option in declarations:
        values[option.name] = getattr(getattr(config, option.section), option.key)
    return Reading(tuple(declarations), values)


# ---------------------------------------------------------------------------
# Patches and bound options


_PATCH_KEYS = ("when", "title", "shoe", "deal", "compare", "categories", "bets")


def apply_patches(
    data: Mapping[str, Any], reading: Reading, loc: Locator, force: Collection[int] = ()
) -> dict[str, Any]:
    """The definition with every patch whose ``when`` holds merged in, in order; the patches
    numbered in ``force`` (0-based) are merged whatever their ``when`` (the check of every
    patch when a definition is read: :func:`odds.games.defined.schema.check_readings`)."""
    patches = data.get("patches")
    result = dict(data)
    if patches is None:
        return result
    if not isinstance(patches, list):
        raise loc.error("definition.patches", "expected [[definition.patches]] tables",
                        loc.line("patches"))  # fmt: skip
    result.pop("patches")
    for i, patch in enumerate(patches):
        line = loc.nth("[[definition.patches", i)
        where = f"definition.patches[{i + 1}]"
        if not isinstance(patch, Mapping):
            raise loc.error(where, "expected a table", line)
        loc.known(patch, _PATCH_KEYS, where, line, by_key=False)
        if "when" not in patch:
            raise loc.error(where, "missing when = { … } (the readings it applies to)", line)
        applies = reading.condition(patch["when"], f"{where}.when", loc, line) or i in force
        for key, value in patch.items():
            if key == "when":
                continue
            merged = _merge(result.get(key), value, f"{where}.{key}", loc, line)
            if applies:
                result[key] = merged
    return result


def patches_applying(data: Mapping[str, Any], reading: Reading, loc: Locator) -> tuple[int, ...]:
    """The patches (0-based) whose ``when`` holds under ``reading`` (after
    :func:`apply_patches` has read them once: nothing is checked again here)."""
    patches = data.get("patches")
    if not isinstance(patches, list):
        return ()
    return tuple(
        i
        for i, patch in enumerate(patches)
        if reading.condition(patch["when"], f"definition.patches[{i + 1}].when", loc, 0)
    )


def _merge(old: Any, new: Any, where: str, loc: Locator, line: int) -> Any:
    """``new`` merged into ``old``: tables key by key, named lists item by item (by name)."""
    if (
        isinstance(new, list)
        and isinstance(old, list)
        and all(isinstance(x, Mapping) and "name" in x for x in new)
    ):
        items = [dict(x) if isinstance(x, Mapping) else x for x in old]
        names = [x.get("name") if isinstance(x, Mapping) else None for x in items]
        for change in new:
            name = change["name"]
            if name not in names:
                raise loc.error(
                    where,
                    f"names no {name!r} (known: {', '.join(str(n) for n in names if n)})",
                    line,
                )
            target = items[names.index(name)]
            for key, value in change.items():
                target[key] = (
                    _merge(target.get(key), value, f"{where}.{name}.{key}", loc, line)
                    if key == "outcomes"
                    else copy.deepcopy(value)
                )
        return items
    if isinstance(new, Mapping) and isinstance(old, Mapping):
        merged = dict(old)
        merged.update(copy.deepcopy(dict(new)))
        return merged
    if old is not None and isinstance(old, (Mapping, list)) != isinstance(new, (Mapping, list)):
        raise loc.error(where, f"expected {'a table' if isinstance(old, Mapping) else 'a list'}",
                        line)  # fmt: skip
    return copy.deepcopy(new)


def bind(data: Mapping[str, Any], reading: Reading) -> dict[str, Any]:
    """The definition with every bound option's value put at its path."""
    result = dict(data)
    for option in reading.declarations:
        if not option.binds:
            continue
        *parents, last = option.binds.split(".")
        node = result
        for part in parents:
            child = node.get(part)
            child = dict(child) if isinstance(child, Mapping) else {}
            node[part] = child
            node = child
        node[last] = plain(reading.values[option.name])
    return result


def plain(value: Any) -> Any:
    """An option value as TOML data (lists, tables, whole numbers), for a bound path."""
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, Fraction):
        return _plain_number(value)
    return value


def bound_names(reading: Reading) -> dict[str, str]:
    """Definition paths written by bound options → the paytable key that wrote them."""
    return {f"definition.{d.binds}": d.name for d in reading.declarations if d.binds}
