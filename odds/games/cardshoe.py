"""The ``[shoe]`` section shared by the card games."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from odds.core.caching import cached
from odds.core.cards import Card, card_shoe
from odds.core.frozen import FrozenMap
from odds.core.options import option
from odds.core.shoe import Shoe


def decks_option(default: int) -> Any:
    """The ``decks`` option (1–8 standard decks); games differ only in the default."""
    return option(default, "Number of 52-card decks in the shoe.", minimum=1, maximum=8)


@dataclass(frozen=True)
class CardShoeOptions:
    """Which cards are in the shoe. Subclasses change the default number of decks."""

    decks: int = decks_option(8)
    removed: tuple[str, ...] = option(
        (), "Cards already dealt and out of the shoe (a partly dealt shoe)."
    )
    counts: FrozenMap[str, int] = option(
        {}, "Explicit copies of particular cards, overriding the decks (a custom composition)."
    )

    def build(self) -> Shoe[Card]:
        """The composition these options describe (built once per composition: shoes are
        immutable, and settling a round asks for it every time)."""
        return _card_shoe(self.decks, tuple(self.removed), FrozenMap(self.counts))


@cached(maxsize=64)
def _card_shoe(decks: int, removed: tuple[str, ...], counts: FrozenMap[str, int]) -> Shoe[Card]:
    return card_shoe(decks, removed, dict(counts))
