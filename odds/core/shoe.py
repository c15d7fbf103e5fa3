"""Shoe compositions: a count per card (or tile) type.

Physical copies of one type are interchangeable, so a shoe is a vector of
counts over an ordered tuple of types. The engine works on the counts alone;
the types give them names. Cards and tiles share this module.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from odds.core.errors import OddsError

T = TypeVar("T")


@dataclass(frozen=True)
class Shoe(Generic[T]):
    """A composition: ``counts[i]`` copies of ``types[i]``.

    ``description`` says in words what the shoe is ("8 decks", "1 deck less
    K♥ 9♥"); reports print it.
    """

    types: tuple[T, ...]
    counts: tuple[int, ...]
    description: str
    _index: dict[T, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.types) != len(self.counts):
            raise OddsError("shoe: one count is needed per type")
        if len(set(self.types)) != len(self.types):
            raise OddsError("shoe: a type is listed twice")
        bad = [f"{t}={c}" for t, c in zip(self.types, self.counts, strict=True) if c < 0]
        if bad:
            raise OddsError(f"impossible composition: negative count {', '.join(bad)}")
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(self.types)})

    @classmethod
    def of_decks(cls, types: tuple[T, ...], decks: int, unit: str = "deck") -> Shoe[T]:
        """``decks`` copies of every type: ``Shoe.of_decks(STANDARD_DECK, 8)``."""
        if not isinstance(decks, int) or isinstance(decks, bool) or decks < 1:
            raise OddsError(f"impossible composition: {decks!r} {unit}s (need a whole number ≥ 1)")
        plural = unit if decks == 1 else unit + "s"
        return cls(types, (decks,) * len(types), f"{decks} {plural}")

    @property
    def size(self) -> int:
        """Number of physical cards or tiles."""
        return sum(self.counts)

    def index(self, item: T) -> int:
        """Position of a type in ``types``; an error if the shoe has no such type."""
        try:
            return self._index[item]
        except KeyError:
            raise OddsError(f"{item} is not used in this game's shoe") from None

    def count(self, item: T) -> int:
        """Copies of ``item`` in the shoe."""
        return self.counts[self.index(item)]

    def check_holds(self, items: Iterable[T], what: str = "these") -> None:
        """Raise a one-line error unless the shoe can deal all ``items`` at once."""
        wanted = Counter(items)
        for item, n in wanted.items():
            have = self.count(item)
            if n > have:
                listed = " ".join(str(i) for i in wanted.elements())
                raise OddsError(
                    f"the shoe ({self.description}) cannot hold {what} {listed}: "
                    f"it has {have} {item}, the deal needs {n}"
                )

    def without(self, items: Iterable[T], label: str | None = None) -> Shoe[T]:
        """The shoe after ``items`` have been dealt (card removal)."""
        items = list(items)
        self.check_holds(items, "the removed")
        counts = list(self.counts)
        for item in items:
            counts[self.index(item)] -= 1
        text = label or " ".join(str(i) for i in items)
        return Shoe(self.types, tuple(counts), f"{self.description} less {text}")

    def with_counts(self, changes: Mapping[T, int], label: str) -> Shoe[T]:
        """The shoe with some types' counts set explicitly (a custom composition)."""
        counts = list(self.counts)
        for item, n in changes.items():
            counts[self.index(item)] = n
        return Shoe(self.types, tuple(counts), label)

    def require(self, cards_needed: int) -> None:
        """An impossible composition error when a deal needs more than the shoe has."""
        if self.size < cards_needed:
            raise OddsError(
                f"impossible composition: the shoe ({self.description}) has {self.size} "
                f"cards, a deal needs {cards_needed}"
            )
