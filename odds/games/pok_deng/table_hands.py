"""What the whole table's counts are made of: a hand's class, a position's events, a round.

The vocabulary shared by the exact counts (:mod:`odds.games.pok_deng.table_counts`) and
the simulation they fall back on (:mod:`odds.games.pok_deng.simulate`).
"""

from __future__ import annotations

from collections.abc import Callable

from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.engine import Hand
from odds.games.pok_deng.rules import PokDengHand, classify

#: Player positions at the table (the rule book's Player 1 … Player 5).
TABLE_POSITIONS = 5
#: Cards one whole-table round deals: the Banker's two and every position's two.
TABLE_CARDS = 2 * (TABLE_POSITIONS + 1)

#: A two-card hand as the whole table needs it: its value, and whether it is a pair.
HandClass = tuple[PokDengHand, bool]
#: Events of one position: (Player bet event, Player Pair bet event).
PositionEvents = tuple[str, str]
#: A round of the whole table: every position's Player event (sorted) and the number of pairs.
TableOutcome = tuple[tuple[str, ...], int]
#: A round of the whole table as hands: the Banker's hand class and the positions' (sorted).
TableHands = tuple[HandClass, tuple[HandClass, ...]]


def hand_classifier(shoe: Shoe[Card]) -> Callable[[Hand], HandClass]:
    """The classifier of the whole-table counts: value class and pair, per hand of type indices."""
    types = shoe.types
    cache: dict[Hand, HandClass] = {}

    def key(hand: Hand) -> HandClass:
        found = cache.get(hand)
        if found is None:
            a, b = types[hand[0]], types[hand[1]]
            found = cache[hand] = (classify(a, b), a.rank == b.rank)
        return found

    return key
