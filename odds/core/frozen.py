"""An immutable, hashable mapping: how options hold tables (``[payouts.bonus]``, ``[shoe.counts]``).

Option dataclasses are frozen so that a config is a value: two paytables that
say the same thing are equal, and a config can key a cache
(:mod:`odds.core.caching`). A ``dict`` field would spoil that (dicts cannot be
hashed), so the loader stores every table option as a :class:`FrozenMap`.

It reads like the dict it replaces — declaration (insertion) order kept for
reports and JSON, equal to a dict with the same items — and adds what a dict
lacks: it cannot be changed and it hashes. Its hash, like its equality, does
not depend on order, so equal mappings hash equal.

>>> bonus = FrozenMap({"flush": 3, "triple": 5})
>>> bonus == {"triple": 5, "flush": 3}, hash(bonus) == hash(FrozenMap(triple=5, flush=3))
(True, True)
>>> list(bonus)
['flush', 'triple']
>>> bonus["flush"] = 4
Traceback (most recent call last):
...
TypeError: 'FrozenMap' object does not support item assignment
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """A read-only mapping in insertion order that hashes (its values must hash too)."""

    __slots__ = ("_hash", "_items")

    _items: dict[K, V]
    _hash: int | None

    def __init__(self, items: Mapping[K, V] | Iterable[tuple[K, V]] = (), /, **named: V) -> None:
        found: dict[Any, V] = dict(items, **named)
        object.__setattr__(self, "_items", found)
        object.__setattr__(self, "_hash", None)

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(frozenset(self._items.items())))
        assert self._hash is not None
        return self._hash

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other.items())
        return NotImplemented

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._items!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self._items,))

    def __or__(self, other: Mapping[K, V]) -> FrozenMap[K, V]:
        """A new map with ``other``'s entries added or replacing (like ``dict | dict``)."""
        return type(self)({**self._items, **other})


def frozen(value: Any) -> Any:
    """``value`` with every dict (at any depth, inside lists and tuples too) made a FrozenMap
    and every list a tuple, so that it hashes."""
    if isinstance(value, Mapping):
        return FrozenMap({k: frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    return value
