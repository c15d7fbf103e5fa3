"""A threshold draw (``draw_at_most``): a position draws one card on k points or fewer.

Every hand is counted as its first ``cards`` cards plus the one card it may draw, dealt
whether or not it is used (the deal extended by unseen cards, as a tableau's is), so the
hands have a fixed size and the engine's joint applies. A (size + 1)-card multiset ``M``
is dealt as "the first cards, then the card ``t``" in ``C(n, M) · m_t`` ways (``m_t``:
the copies of ``t`` in ``M``), so its class is a *mixture*: for each type ``t`` in it, the
finished hand — ``M`` when the first cards ``M − t`` have k points or fewer, else ``M − t``
— weighted ``m_t``. The joint counts mixtures exactly with card removal; each pair of
mixtures then expands into finished-hand classes by the product of the weights. Ways add
up to ``∏ C(·, size) · (·)``, one position after the other (asserted).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from math import comb, prod
from typing import TYPE_CHECKING, Any

from odds.core.caching import cached
from odds.core.cards import Card
from odds.core.errors import OddsError
from odds.engine import (
    DealPolynomial,
    check_total,
    class_distribution,
    deal_count,
    group_counts,
    joint_class_distribution,
    ordered_deal_polynomial,
)
from odds.games.defined import patterns
from odds.games.defined.rounds import RoundKey
from odds.games.defined.schema import Definition, pattern_keys

if TYPE_CHECKING:
    from odds.games.defined.counting import HandClassifier

#: The most mixture-pair corrections the joint takes (estimated before starting).
MAX_WORK = 40_000_000

#: What a feature, pattern key or tie-break reads of a card: 0 its value, 1 its rank, 2 the
#: card (its suit). The counting merges the card types as far as what is read allows.
_VALUE_READS = ("points", "cards", "any", "equal", "subset_points", "value_total", "value_max")
_RANK_READS = ("category", "pair", "faces", "faces_at_least", "rank", "same_rank", "sequence",
               "ranks", "pair_rank", "rank_counts", "high")  # fmt: skip
_READS: dict[str, int] = {**dict.fromkeys(_VALUE_READS, 0), **dict.fromkeys(_RANK_READS, 1)}


def detail(definition: Definition, winner: bool, reads: Mapping[str, set[str]]) -> int:
    """How much of a card the bet reads: 0 value, 1 rank, 2 the card (see :data:`_READS`)."""
    names = set().union(*reads.values())
    if winner:
        names |= set(definition.compare)
    if "category" in names:
        for category in definition.categories:
            names |= pattern_keys(category.pattern) | set(category.tiebreak)
    return max((_READS.get(name, 2) for name in names), default=0)  # anything else: suits


def merged_types(
    definition: Definition, types: Sequence[Card], counts: Sequence[int], level: int
) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """One representative card and its merged count per value (0), rank (1) or card (2).

    Tiles are never merged (a tile set has a few dozen types, each its own)."""
    if level >= 2 or definition.tiles is not None:
        return tuple(types), tuple(counts)

    def key(card: Card) -> Any:
        return definition.shoe.values[card.rank] % 10 if level == 0 else card.rank

    keys = [key(card) for card in types]
    index = {k: i for i, k in enumerate(dict.fromkeys(keys))}
    representative = tuple(dict((k, card) for k, card in zip(keys, types, strict=True)).values())
    return representative, group_counts(counts, [index[k] for k in keys], len(index))


def deal_total(definition: Definition, counts: Sequence[int]) -> int:
    """Every deal with each hand extended by its possible draw: ``∏ C(·, size) · (·)``."""
    positions = definition.deal.positions
    size = definition.deal.cards + 1
    return deal_count(counts, [size] * len(positions)) * prod([size] * len(positions))


def _mixture(
    classifier: HandClassifier, hand: tuple[int, ...], position: str, names: set[str], winner: bool
) -> frozenset[tuple[Any, int]]:
    """The finished-hand classes of an extended hand for ``position``, with their weights."""
    found: Counter[Any] = Counter()
    for finished, copies in _finished(classifier, hand, position):
        strength = classifier.strength(finished) if winner else None
        found[(strength, classifier.view(finished, names))] += copies
    return frozenset(found.items())


def _finished(
    classifier: HandClassifier, hand: tuple[int, ...], position: str
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each hand ``position`` finishes with from an extended hand, one per card that may be
    the drawn one, with that card's copies: the first cards, with the last if they draw."""
    definition = classifier.definition
    for t, copies in Counter(hand).items():
        first = list(hand)
        first.remove(t)
        points = patterns.points(classifier.cards(tuple(first)), definition.shoe)
        yield (hand if definition.deal.draws(position, points) else tuple(first)), copies


def threshold_rounds(
    classifier: HandClassifier,
    counts: Sequence[int],
    winner: bool,
    reads: Mapping[str, set[str]],
    symmetries: list[tuple[int, ...]],
) -> dict[RoundKey, int]:
    """Ways per round key of a threshold deal (each hand extended by its possible draw)."""
    definition = classifier.definition
    positions = definition.deal.positions
    size = definition.deal.cards + 1
    _check_work(definition, sum(1 for n in counts if n), size, winner, reads, symmetries)
    read = [p for p in positions if reads[p]]
    result: Counter[RoundKey] = Counter()
    if not winner and len(read) <= 1:
        # One position read: its mixtures, times the other hands from what is left.
        index = positions.index(read[0]) if read else 0
        position = positions[index]

        def one(hand: tuple[int, ...]) -> frozenset[tuple[Any, int]]:
            return _mixture(classifier, hand, position, reads[position], False)

        others = deal_count([sum(counts) - size], [size] * (len(positions) - 1))
        others *= prod([size] * (len(positions) - 1))
        for mixture, ways in class_distribution(counts, size, one).items():
            for (_, view), weight in mixture:
                views: list[Any] = [()] * len(positions)
                views[index] = view
                result[(None, *views)] += ways * weight * others
    else:
        first, second = positions

        def both(hand: tuple[int, ...]) -> tuple[Any, Any]:
            return (
                _mixture(classifier, hand, first, reads[first], winner),
                _mixture(classifier, hand, second, reads[second], winner),
            )

        joint = joint_class_distribution(counts, size, both, symmetries)
        for (a, b), ways in joint.items():
            for (fs, fv), fw in a[0]:
                for (ss, sv), sw in b[1]:
                    who = None
                    if winner:
                        who = first if fs > ss else second if ss > fs else definition.ties
                    result[(who, fv, sv)] += ways * fw * sw
    found = dict(result)
    check_total(found, deal_total(definition, counts), f"{definition.source}: threshold rounds")
    return found


def _check_work(
    definition: Definition,
    types: int,
    size: int,
    winner: bool,
    reads: Mapping[str, set[str]],
    symmetries: list[tuple[int, ...]],
) -> None:
    """Refuse, before starting, a joint of extended hands too large to correct pair by pair."""
    if not winner and sum(bool(r) for r in reads.values()) <= 1:
        return
    hands = comb(types + size - 1, size)
    work = hands * min(hands, size * size * hands // max(types, 1))
    if work > MAX_WORK:  # suit symmetries help less than their number: not counted
        raise OddsError(
            f"{definition.source}: a threshold draw read on both hands needs ~{work:,} "
            f"hand-pair corrections of {size}-card extended hands (limit {MAX_WORK:,}); "
            "read one position, or fewer card types (features that read card values only)"
        )


def category_distribution(
    classifier: HandClassifier, counts: Sequence[int]
) -> dict[int | None, int]:
    """Ways per category index of the first position's finished hand (after its draw)."""
    definition = classifier.definition
    position = definition.deal.positions[0]
    size = definition.deal.cards + 1

    def mixture(hand: tuple[int, ...]) -> frozenset[tuple[Any, int]]:
        found: Counter[int | None] = Counter()
        for finished, copies in _finished(classifier, hand, position):
            found[classifier.category(finished)] += copies
        return frozenset(found.items())

    result: Counter[int | None] = Counter()
    for found, ways in class_distribution(counts, size, mixture).items():
        for category, weight in found:
            result[category] += ways * weight
    check_total(result, deal_count(counts, [size]) * size, "threshold categories")
    return dict(result)


def finished_hand(definition: Definition, position: str, cards: Sequence[Card]) -> int:
    """How many cards a position holds after the draw, from its first cards' points."""
    size = definition.deal.cards
    points = patterns.points(cards[:size], definition.shoe)
    return size + definition.deal.draws(position, points)


@dataclass(frozen=True)
class ThresholdProcedure:
    """A threshold deal card by card over the ten values (mod 10), for the law of the cards
    one round takes (:meth:`odds.games.defined.game.DefinedGame.dealt_moments`): each
    position's first ``cards`` cards, then one more when they have ``limits[i]`` points
    or fewer (``None``: never), position after position. The table deals the first cards
    of every position before the draws, but the order changes which card goes where, not
    the law of the hands: every sequence of distinct cards is equally likely at any
    places of the shoe, and each draw reads only its own position's first cards.

    States ``(position, its cards so far, its points)``; a finished round is ``"dealt"``.
    """

    cards: int
    limits: tuple[int | None, ...]

    @property
    def start(self) -> tuple[int, int, int]:
        return (0, 0, 0)

    def step(self, state: tuple[int, int, int], value: int) -> tuple[int, int, int]:
        position, held, points = state
        held, points = held + 1, (points + value) % 10
        limit = self.limits[position]
        if held < self.cards or (held == self.cards and limit is not None and points <= limit):
            return (position, held, points)
        return (position + 1, 0, 0)

    def outcome(self, state: tuple[int, int, int]) -> str | None:
        return "dealt" if state[0] == len(self.limits) else None


@cached(maxsize=16)
def threshold_polynomial(cards: int, limits: tuple[int | None, ...]) -> DealPolynomial[Any]:
    """Every threshold round's ordered ways as a polynomial in the ten value counts (cached):
    what :func:`odds.engine.dealt_moments` reads for the law of the cards a round takes."""
    procedure = ThresholdProcedure(cards, limits)
    return ordered_deal_polynomial(procedure, 10, (cards + 1) * len(limits))


def deal_polynomial(definition: Definition) -> DealPolynomial[Any]:
    """A threshold definition's :func:`threshold_polynomial`."""
    deal = definition.deal
    limits = tuple(dict(deal.draw_at_most).get(p) for p in deal.positions)
    return threshold_polynomial(deal.cards, limits)
