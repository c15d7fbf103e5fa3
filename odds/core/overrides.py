"""Changes to a paytable's options, typed: a path of keys, a value, and who asked.

``--set payouts.pair=12``, ``--decks 6`` and the Python API's
``odds.load("pok-deng", decks=6, payouts={"pair": 12})`` all become
:class:`Override` values. They are merged into the paytable's data once, and
the result is validated once by the same strict loader as a ``.toml`` file, so
an override can never reach a game that the file format would refuse. Two
overrides that set one option to different values are refused, naming both.

>>> Override.parse("payouts.pair=12")
Override(path=('payouts', 'pair'), value=12, source='--set payouts.pair=12')
>>> merged({"game": "pok-deng"}, [Override(("shoe", "decks"), 6, "--decks 6")])
{'game': 'pok-deng', 'shoe': {'decks': 6}}
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from odds.core.errors import OddsError, shortened


@dataclass(frozen=True)
class Override:
    """Set the option at ``path`` (``("shoe", "decks")``) to ``value``.

    ``source`` is how the user wrote it (``--set shoe.decks=6``, ``--decks 6``,
    ``decks=6``), for messages.
    """

    path: tuple[str, ...]
    value: Any
    source: str = ""

    @property
    def key(self) -> str:
        """The dotted option name: ``shoe.decks``."""
        return ".".join(self.path)

    @classmethod
    def parse(cls, text: str) -> Override:
        """Read ``section.key=value``; the value is TOML (``true``, ``2``, ``"x"``, ``[…]``).

        A bare word that is not TOML is taken as a string, so
        ``rules.banker_zero_or_six=raw-total`` works.
        """
        source = f"--set {shortened(text)}"
        if "=" not in text:
            raise OddsError(f"{source}: write section.key=value, e.g. payouts.pair=12")
        path, raw = text.split("=", 1)
        keys = tuple(k.strip() for k in path.split("."))
        if not keys or not all(keys):
            raise OddsError(f"{source}: the key {path.strip()!r} has an empty part")
        import tomllib

        from odds.core.numbers import read_toml

        try:
            tomllib.loads(f"v = {raw}")
        except tomllib.TOMLDecodeError:
            return cls(keys, raw.strip(), source)  # a bare word: a string
        except (RecursionError, ValueError):
            pass  # read_toml names the problem
        value = read_toml(f"v = {raw}", source)["v"]
        return cls(keys, value, source)

    @classmethod
    def of(cls, section: str, values: Mapping[str, Any], source: str = "") -> list[Override]:
        """One override per entry of an API keyword: ``payouts={"pair": 12}``."""
        return [
            cls((section, key), value, source or f"{section}.{key}={value!r}")
            for key, value in values.items()
        ]


def merged(data: Mapping[str, Any], overrides: Iterable[Override]) -> dict[str, Any]:
    """A copy of paytable ``data`` with every override applied.

    Two overrides of the same option with different values contradict each
    other: refused, naming both (no silent "last one wins").
    """
    result = copy.deepcopy(dict(data))
    seen: dict[tuple[str, ...], Override] = {}
    for override in overrides:
        earlier = seen.get(override.path)
        if earlier is not None and earlier.value != override.value:
            raise OddsError(
                f"{earlier.source} and {override.source} both set {override.key}: give it once"
            )
        seen[override.path] = override
        target = result
        for key in override.path[:-1]:
            nested = target.setdefault(key, {})
            if not isinstance(nested, dict):
                raise OddsError(f"{override.source}: {key!r} is an option, not a section")
            target = nested
        target[override.path[-1]] = override.value
    return result


def decks_override(decks: int, label: str) -> Override:
    """Every card game's shoe size, as the override ``label`` names it (``--decks 6``)."""
    return Override(("decks",), decks, label)


def keyword_overrides(
    decks: int | None = None,
    overrides: Iterable[Override | str] = (),
    sections: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Override | str]:
    """Keyword options as typed overrides (``decks`` first, then sections, then the rest).

    What :func:`odds.api.load` and :meth:`odds.games.paytable.Paytable.replace` take.
    """
    result: list[Override | str] = []
    if decks is not None:
        result.append(decks_override(decks, f"decks={decks!r}"))
    for section, values in (sections or {}).items():
        if not isinstance(values, Mapping):
            raise TypeError(f"{section}= takes a mapping of options, e.g. {section}={{...}}")
        result += Override.of(section, values)
    return result + list(overrides)
