"""Faults to plant in a simulated log, for the audit to find (``odds simulate``, the power study).

Each is a way a live table goes wrong:

* **a doctored shoe**: cards added to every shoe (``--extra-card 9h``, given k
  times for k extra) or taken out of it (``--missing-card 5s``);
* **a weak shuffle** (``--weak-shuffle``): each new shoe is the previous
  shoe's cards — its discards in the order dealt, then the cards left behind
  the cut card — riffled once (Gilbert–Shannon–Reeds), instead of shuffled;
* **a stacked slug** (``--slug N``): after the shuffle, N cards of the shoe
  are put together in order of rank at a random place (a clump of high cards
  a player could track);
* **Banker hands improved** (``--improve-banker 2%``, baccarat): that share of
  the coups the Player would win are dealt again, and the log shows the
  second coup (the first one's cards are discarded unseen).

The faults act on card sequences of any kind (type indices, the power
study's own card numbers); a function giving a card's rank orders a slug.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from odds.core.errors import OddsError

T = TypeVar("T")


@dataclass(frozen=True)
class Faults:
    """The faults planted in a simulated log (none by default: an honest log)."""

    extra: tuple[int, ...] = ()  # type indices added to every shoe
    missing: tuple[int, ...] = ()  # type indices taken out of every shoe
    weak_shuffle: bool = False
    slug: int = 0
    improve_banker: Fraction = Fraction(0)

    @property
    def any(self) -> bool:
        return bool(
            self.extra or self.missing or self.weak_shuffle or self.slug or self.improve_banker
        )

    @property
    def shoe_faults(self) -> bool:
        """Faults of the shoe itself (they need shoes dealt through: ``--penetration``)."""
        return bool(self.extra or self.missing or self.weak_shuffle or self.slug)

    def composition(self, cards: Sequence[int]) -> list[int]:
        """A shoe's cards (type indices) with the extra cards added and the missing removed."""
        result = [*cards, *self.extra]
        for card in self.missing:
            if card not in result:
                raise OddsError("--missing-card: the shoe has no more of that card to take out")
            result.remove(card)
        return result

    def new_order(
        self,
        rng: random.Random,
        cards: Sequence[T],
        previous: Sequence[T] | None,
        rank: Callable[[T], int],
    ) -> list[T]:
        """The order (first dealt first) of a new shoe of ``cards``.

        ``previous`` is the last shoe's cards in the order they left it (dealt, then
        the rest), or None for the first shoe.
        """
        if self.weak_shuffle and previous is not None:
            order = riffle(rng, list(previous))
        else:  # shuffled as odds simulate always has (dealt from the end of the list)
            order = list(cards)
            rng.shuffle(order)
            order.reverse()
        if self.slug:
            order = stack_slug(rng, order, self.slug, rank)
        return order


def riffle(rng: random.Random, cards: list[T]) -> list[T]:
    """One Gilbert–Shannon–Reeds riffle: cut binomially, drop from each half by its size."""
    cut = sum(rng.random() < 0.5 for _ in cards)
    left, right = cards[:cut], cards[cut:]
    out: list[T] = []
    i = j = 0
    while i < len(left) or j < len(right):
        a, b = len(left) - i, len(right) - j
        if rng.random() * (a + b) < a:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out


def stack_slug(rng: random.Random, order: list[T], size: int, rank: Callable[[T], int]) -> list[T]:
    """``size`` cards of the shoe taken out, sorted by rank, put back together at random."""
    size = min(size, len(order))
    picked = set(rng.sample(range(len(order)), size))
    slug = sorted((order[i] for i in picked), key=rank)
    rest = [c for i, c in enumerate(order) if i not in picked]
    at = rng.randrange(len(rest) + 1)
    return rest[:at] + slug + rest[at:]
