"""Ranks and suits in a tableau deal: bets read from each position's first two cards.

A tableau deal is counted by card values (:func:`odds.games.defined.counting.tableau_rounds`),
which forgets ranks and suits. Baccarat's pair bets read only the first two cards of each
hand (cards 1 and 3 for the first position, 2 and 4 for the second) and nothing the
drawing decides, so they are a two-hand count instead: the engine's
:func:`~odds.engine.joint_class_distribution` of two two-card hands from the shoe, with
the card types merged as finely as the features need (by rank for ``pair``, by rank and
colour for ``colour_pair``, by the card for ``suited_pair``), each deal ordered within
its hands and extended by the next unseen cards to six, the tableau's convention.

A bet that reads these features *and* the coup (the winner, points, cards, naturals)
would need the drawing over ranks and suits; it is refused with one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from odds.core.caching import cached
from odds.core.cards import Card
from odds.core.errors import OddsError
from odds.engine import (
    check_total,
    falling,
    group_counts,
    joint_class_distribution,
    two_hand_pair_ways,
)
from odds.games.defined import patterns
from odds.games.defined.rounds import RoundKey, cut_key
from odds.games.defined.schema import FIRST_CARD_FEATURES, Definition

#: Cards a tableau round is extended to (the ordered-deal convention).
ROUND_CARDS = 6


def reads_first_cards(reads: Mapping[str, set[str]]) -> bool:
    """Whether a bet reads any position's first two cards by rank or suit."""
    return any(r & set(FIRST_CARD_FEATURES) for r in reads.values())


def check_reads(definition: Definition, winner: bool, reads: Mapping[str, set[str]]) -> None:
    """Refuse a bet that reads the first two cards and what the drawing decides together."""
    coup = sorted({n.lstrip("_") for r in reads.values() for n in r} - set(FIRST_CARD_FEATURES))
    if winner or coup:
        what = ", ".join((["winner"] if winner else []) + coup)
        raise OddsError(
            f"{definition.source}: a tableau bet reads the first two cards' ranks or suits "
            f"({', '.join(FIRST_CARD_FEATURES)}) and the coup ({what}) together: a tableau is "
            "counted by card values, so one bet may read one or the other, not both yet"
        )


def _group_key(card: Card, names: set[str]) -> Any:
    """What of a card the read features see: the card, its rank and colour, or its rank."""
    if "suited_pair" in names:
        return card
    if "colour_pair" in names:
        return (card.rank, patterns.colour(card))
    return card.rank


def _pair_joint(grouped: Sequence[int], names: set[str]) -> dict[tuple[Any, Any], int]:
    """One feature read (a pair of the merged groups): the engine's closed form.

    :func:`~odds.engine.two_hand_pair_ways` counts ordered two-card hands by which of
    them holds two cards of one group (a rank, a rank and colour, or one card), the
    same count the coded baccarat pair bets use; no hand is enumerated.
    """
    (name,) = names
    ways = two_hand_pair_ways(grouped)
    yes, no = ((name, True),), ((name, False),)
    return {
        (yes, yes): ways["both"],
        (yes, no): ways["first"],
        (no, yes): ways["second"],
        (no, no): ways["neither"],
    }


@cached(maxsize=64)
def grouping(
    types: tuple[Card, ...], names: frozenset[str]
) -> tuple[tuple[int, ...], dict[int, Card], int]:
    """The card types merged as finely as ``names`` read: each type's group, a card per group."""
    keys = [_group_key(card, set(names)) for card in types]
    index = {key: i for i, key in enumerate(dict.fromkeys(keys))}
    representative = {index[key]: card for key, card in zip(keys, types, strict=True)}
    return tuple(index[k] for k in keys), representative, len(index)


def first_card_joint(
    definition: Definition,
    types: Sequence[Card],
    counts: Sequence[int],
    names: set[str],
    merged: tuple[tuple[int, ...], dict[int, Card], int] | None = None,
) -> dict[tuple[Any, Any], int]:
    """Ordered ways (extended to six cards) per pair of first-two-card views (``names``).

    ``merged`` may pass :func:`grouping` of the types and names (a caller asking for
    many compositions of one shoe).
    """
    found = grouping(tuple(types), frozenset(names)) if merged is None else merged
    group_of, representative, groups = found
    grouped = group_counts(counts, group_of, groups)
    size = sum(counts)
    if size < ROUND_CARDS:
        raise OddsError(
            f"{definition.source}: a round deals up to {ROUND_CARDS} cards but the shoe "
            f"holds {size}"
        )

    if len(names) == 1:
        joint = _pair_joint(grouped, names)
        extend = falling(size - 4, ROUND_CARDS - 4)  # the pair ways are ordered already
    else:

        def classify(hand: tuple[int, ...]) -> tuple[Any, ...]:
            cards = [representative[g] for g in hand]
            return patterns.view(cards, names, definition)

        joint = joint_class_distribution(grouped, 2, classify)
        # Unordered within each hand → ordered (2!·2!), then the two further cards of six.
        extend = 4 * falling(size - 4, ROUND_CARDS - 4)
    return {views: ways * extend for views, ways in joint.items()}


def first_card_rounds(
    definition: Definition,
    types: Sequence[Card],
    counts: Sequence[int],
    reads: Mapping[str, set[str]],
    joint: Mapping[tuple[Any, Any], int] | None = None,
) -> dict[RoundKey, int]:
    """Ordered ways (extended to six cards) per round key of the first-two-card features.

    ``joint`` may pass :func:`first_card_joint` of the features read (bets reading the
    same features share it).
    """
    first, second = definition.deal.positions
    if joint is None:
        joint = first_card_joint(definition, types, counts, reads[first] | reads[second])
    result: dict[RoundKey, int] = {}
    for views, ways in joint.items():
        key = cut_key(None, (first, second), reads, views)
        result[key] = result.get(key, 0) + ways
    check_total(
        result, falling(sum(counts), ROUND_CARDS), f"{definition.source}: first-card rounds"
    )
    return result
