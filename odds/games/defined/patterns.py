"""The pattern vocabulary: a hand of cards → its category, its strength key and its features.

Everything a definition can ask of one hand is computed here from the cards
(:class:`odds.core.cards.Card`), by the definition's shoe rules (values, rank
order, which ace sequences count, suit order). The counting classifies each
distinct hand once; ``odds settle`` classifies the hands it is given the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import combinations
from typing import Any

from odds.core.cards import Card, Rank, Suit
from odds.core.errors import OddsError
from odds.games.defined import orders as card_orders
from odds.games.defined.colours import COLOUR, one_colour
from odds.games.defined.schema import (
    RANK_SYMBOLS,
    SUIT_LETTERS,
    Category,
    Definition,
    ShoeRules,
    cut_feature,
)

FACES = frozenset({Rank.JACK, Rank.QUEEN, Rank.KING})


def points(cards: Sequence[Card], shoe: ShoeRules) -> int:
    """Sum of the cards' values, mod 10 (baccarat, San Gong, Pok Deng points)."""
    return sum(shoe.values[c.rank] for c in cards) % 10


def subset_points(cards: Sequence[Card], size: int, shoe: ShoeRules) -> set[int]:
    """The points (values mod 10) of every ``size`` of the cards: a Bull Bull hand's three
    cards whose values sum to a multiple of 10 are a subset with 0 points."""
    values = sorted(shoe.values[c.rank] for c in cards)
    return {sum(sub) % 10 for sub in combinations(values, size)}


def sequence_high(cards: Sequence[Card], shoe: ShoeRules) -> int | None:
    """The top order of a sequence (consecutive ranks by the rank order), ``None`` if not one.

    An ace at one end of the rank order may also stand at the other end (A-2-3
    when aces are high, Q-K-A when they are low) when the definition allows that
    sequence; the ace-low sequence then ranks below every other.
    """
    ranks = [c.rank for c in cards]
    if len(cards) < 2 or len(set(ranks)) != len(ranks):
        return None
    top = len(shoe.rank_order) - 1
    orders = sorted(shoe.order(r) for r in ranks)
    ace = shoe.order(Rank.ACE) if Rank.ACE in ranks else None
    if orders == list(range(orders[0], orders[0] + len(orders))):
        if ace == 0 and orders[0] == 0 and not shoe.ace_low_sequence:
            return None
        if ace == top and orders[-1] == top and not shoe.ace_high_sequence:
            return None
        return orders[-1]
    if ace is not None:
        moved = sorted([o for o in orders if o != ace] + [-1 if ace == top else top + 1])
        if moved == list(range(moved[0], moved[0] + len(moved))):
            if moved[0] == -1 and shoe.ace_low_sequence:
                return moved[-1] - len(moved)  # below every natural sequence
            if moved[-1] == top + 1 and shoe.ace_high_sequence:
                return top + 1
    return None


def matches(
    cards: Sequence[Card], category: Category, shoe: ShoeRules, known: dict[Any, Any] | None = None
) -> bool:
    """Whether every key of the category's pattern holds for the hand.

    ``known``: what earlier categories' patterns read of this hand (its ranks, its
    sequence, its subsets' points), kept by :func:`category_of` across the categories it
    tries: Bull Bull's nine Bull categories each ask the same subsets' points.
    """
    return _matches(cards, category.pattern, shoe, {} if known is None else known)


_RANK_KEYS = frozenset({"same_rank", "ranks", "pair_rank", "rank_counts"})


def _matches(
    cards: Sequence[Card],
    pattern: tuple[tuple[str, Any], ...],
    shoe: ShoeRules,
    known: dict[Any, Any],
) -> bool:
    for key, value in pattern:
        if key in _RANK_KEYS:
            if "ranks" not in known:
                known["ranks"] = Counter(c.rank for c in cards)
            ranks: Counter[Any] = known["ranks"]
        if key == "not":
            ok = not _matches(cards, value, shoe, known)
        elif key == "any":
            ok = value
        elif key == "same_rank":
            ok = max(ranks.values()) == value
        elif key == "sequence":
            if "sequence" not in known:
                known["sequence"] = sequence_high(cards, shoe)
            ok = (known["sequence"] is not None) == value
        elif key == "flush":
            ok = (len(cards) > 1 and len({c.suit for c in cards}) == 1) == value
        elif key == "suited":
            ok = (len({c.suit for c in cards}) == 1) == value
        elif key == "same_colour":
            ok = one_colour(cards) == value
        elif key == "faces":
            ok = sum(c.rank in FACES for c in cards) == value
        elif key == "faces_at_least":
            ok = sum(c.rank in FACES for c in cards) >= value
        elif key == "points":
            ok = points(cards, shoe) in value
        elif key == "ranks":
            ok = Counter(value) == ranks
        elif key == "pair_rank":
            ok = any(n >= 2 and r in value for r, n in ranks.items())
        elif key == "rank_counts":
            ok = tuple(sorted(ranks.values(), reverse=True)) == value
        elif key == "cards":
            ok = len(cards) == value
        elif key == "value_total":
            ok = sum(shoe.values[c.rank] for c in cards) in value
        elif key == "value_max":
            ok = max(shoe.values[c.rank] for c in cards) <= value
        elif key == "subset_points":
            size, wanted = value
            found = known.get(size)  # the points of every ``size`` of the cards
            if found is None:
                found = known[size] = subset_points(cards, size, shoe)
            ok = found & wanted != set()
        else:  # pragma: no cover - the schema refuses other keys
            raise AssertionError(key)
        if not ok:
            return False
    return True


def category_of(cards: Sequence[Card], definition: Definition) -> int | None:
    """Index of the first (strongest) category the hand matches, or ``None``."""
    if definition.tiles is not None:
        found: int | None = _tiles().category_of(cards, definition)
        return found
    # A log's hands are settled several times (counts, payouts, shoe-aware tests) and
    # repeat: the category of each hand is kept on the definition (measured: three fifths
    # of a 1,500-round Pok Deng audit's settling went to matching patterns again).
    cache = definition.__dict__.setdefault("_categories_of_hands", {})
    key = tuple(cards)
    found = cache.get(key, _UNKNOWN)
    if found is _UNKNOWN and 0 < definition.deal.best < len(cards):
        found = _best_category(cards, definition)
    if found is _UNKNOWN:
        known: dict[Any, Any] = {}  # what one category's pattern read, the next reuses
        found = next(
            (
                i
                for i, c in enumerate(definition.categories)
                if matches(cards, c, definition.shoe, known)
            ),
            None,
        )
        if len(cache) < _HANDS_KEPT:
            cache[key] = found
    return found


def _best_category(cards: Sequence[Card], definition: Definition) -> int | None:
    """A best-of hand's category (``[definition.deal] best = k``): the strongest category,
    by the definition's order, of any k of its cards (odds.games.defined.best_of)."""
    best: int | None = None
    for sub in combinations(cards, definition.deal.best):
        index = category_of(sub, definition)
        if index is not None and (best is None or definition.level(index) > definition.level(best)):
            best = index
    return best


#: Hands whose category one definition keeps (a bound on memory, not a cache policy).
_HANDS_KEPT = 200_000
_UNKNOWN = object()


def tiebreak_key(cards: Sequence[Card], key: str, shoe: ShoeRules) -> tuple[Any, ...]:
    """One tie-break as a comparable tuple (greater is stronger)."""
    if key == "points":
        return (points(cards, shoe),)
    if key == "equal":
        return ()
    if key == "faces":
        return (sum(c.rank in FACES for c in cards),)
    if key == "cards":
        return (len(cards),)
    if key in card_orders.KEYS:
        return card_orders.tiebreak(cards, key, shoe)
    high = sequence_high(cards, shoe)
    if key in ("ranks", "high"):
        if high is not None:
            return (high,)
        counts = Counter(c.rank for c in cards)
        ordered = sorted(counts, key=lambda r: (counts[r], shoe.order(r)), reverse=True)
        orders = tuple(shoe.order(r) for r in ordered)
        return orders[:1] if key == "high" else orders
    if key == "top_card":
        # The highest card by rank, then by suit (San Gong: the highest card, then its suit).
        top = max(cards, key=lambda c: (shoe.order(c.rank), shoe.suit_order.index(c.suit)))
        return (shoe.order(top.rank), shoe.suit_order.index(top.suit))
    if key == "suits":
        by_rank = sorted(cards, key=lambda c: (shoe.order(c.rank), shoe.suit_order.index(c.suit)))
        return tuple(shoe.suit_order.index(c.suit) for c in reversed(by_rank))
    raise AssertionError(key)  # pragma: no cover


def category_shoe(shoe: ShoeRules, category: Category) -> ShoeRules:
    """The shoe rules a category's tie-breaks use: its own rank order, when it has one."""
    if not category.rank_order:
        return shoe
    return replace(shoe, rank_order=category.rank_order)


def strength(
    cards: Sequence[Card], definition: Definition, index: int | None = None
) -> tuple[Any, ...]:
    """The comparison key: greater beats smaller, equal keys are equal hands.

    ``index`` is the hand's category when the caller knows it already (the counting
    caches categories by the hand's shape, the tie-breaks by the hand).
    """
    if definition.tiles is not None:
        found: tuple[Any, ...] = _tiles().strength(cards, definition, index)
        return found
    if index is not None:  # the counting, which keeps its own strengths by shape
        return _strength(cards, definition, index)
    # A pure function of the cards in their order (and the definition): kept per hand, as
    # categories are (a log's rounds compare the same hands again and again).
    cache = definition.__dict__.setdefault("_strengths_of_hands", {})
    hand = tuple(cards)
    found = cache.get(hand)
    if found is None:
        found = _strength(hand, definition, None)
        if len(cache) < _HANDS_KEPT:
            cache[hand] = found
    return found


def _strength(cards: Sequence[Card], definition: Definition, index: int | None) -> tuple[Any, ...]:
    if 0 < definition.deal.best < len(cards):  # the strongest of its best-k hands
        return max(strength(sub, definition) for sub in combinations(cards, definition.deal.best))
    key: list[Any] = []
    for part in definition.compare:
        if part == "category":
            if index is None:
                index = category_of(cards, definition)
            assert index is not None  # the counting checks every hand has a category
            level = definition.level(index)
            category = definition.categories[index]
            shoe = category_shoe(definition.shoe, category)
            key.append((level, *(tiebreak_key(cards, t, shoe)
                                 for t in category.tiebreak)))  # fmt: skip
        else:
            key.append(tiebreak_key(cards, part, definition.shoe))
    return tuple(key)


def reference_hand(definition: Definition, reference: str) -> tuple[Card, ...]:
    """The hand ``at_least``/``at_most`` compares with: its cards as written when each has a
    suit, else the weakest hand of those ranks by the definition's order (``"Q 3 2"``: Q-3-2
    in three suits, a high card, not the flush). Kept on the definition."""
    from itertools import product

    cache = definition.__dict__.setdefault("_reference_hands", {})
    found: tuple[Card, ...] | None = cache.get(reference)
    if found is not None:
        return found
    if definition.tiles is not None:
        raise OddsError(f"{definition.source}: at_least and at_most compare cards, not tiles")
    written = []
    for token in reference.split():
        suit = SUIT_LETTERS.get(token[-1]) if token[:-1] in RANK_SYMBOLS else None
        written.append((RANK_SYMBOLS[token[:-1]] if suit else RANK_SYMBOLS[token], suit))
    choices = [[suit] if suit is not None else list(Suit) for _, suit in written]
    best: tuple[Any, tuple[Card, ...]] | None = None
    for suits in product(*choices):
        cards = tuple(Card(rank, suit) for (rank, _), suit in zip(written, suits, strict=True))
        if any(cards.count(c) > definition.shoe.decks for c in cards):
            continue
        if definition.categories and category_of(cards, definition) is None:
            continue
        key = strength(cards, definition)
        if best is None or key < best[0]:
            best = (key, cards)
    if best is None:
        raise OddsError(
            f"{definition.source}: the reference hand {reference!r} of at_least/at_most is "
            f"not a hand of this game (no category describes it, or it cannot be dealt)"
        )
    cache[reference] = best[1]
    return best[1]


def reference_strength(definition: Definition, reference: str) -> tuple[Any, ...]:
    """The strength key of :func:`reference_hand` (the cut the showdown counts at)."""
    return strength(reference_hand(definition, reference), definition)


def feature(cards: Sequence[Card], name: str, definition: Definition) -> Any:
    """One feature a bet's condition reads (schema.POSITION_FEATURES, ``_suits``, and the
    comparisons with a reference hand, ``at_least:Q 3 2``)."""
    shoe = definition.shoe
    cut = cut_feature(name)
    if cut is not None:
        key = strength(cards, definition)
        reference = reference_strength(definition, cut[1])
        return key >= reference if cut[0] == "at_least" else key <= reference
    if name == "category":
        index = category_of(cards, definition)
        return None if index is None else definition.categories[index].name
    if name == "points":
        return points(cards, shoe)
    if name == "cards":
        return len(cards)
    if name == "faces":
        return sum(c.rank in FACES for c in cards)
    if name == "pair":  # two cards or more of one rank: three of a kind is a pair too
        return max(Counter(c.rank for c in cards).values()) >= 2
    if name == "same_rank":  # the most cards sharing one rank (3: three of a kind)
        return max(Counter(c.rank for c in cards).values())
    if name == "suited_pair":
        return max(Counter(cards).values()) >= 2
    if name == "colour_pair":
        return max(Counter((c.rank, colour(c)) for c in cards).values()) >= 2
    if name == "flush":
        return len({c.suit for c in cards}) == 1
    if name == "rank":
        return cards[0].rank
    if name == "suit":
        return cards[0].suit
    if name == "_suits":
        return frozenset(c.suit for c in cards)
    if name == "_hand":  # the cards themselves (a round's ``identical``)
        return tuple(sorted(str(c) for c in cards))
    raise AssertionError(name)  # pragma: no cover


def _tiles() -> Any:
    """The tile vocabulary (:mod:`odds.games.defined.tile_patterns`), for a tile definition's
    hands: imported on first use (it builds on the counting, which imports this module)."""
    from odds.games.defined import tile_patterns

    return tile_patterns


def colour(card: Card) -> str:
    """A card's colour: diamonds and hearts are red, clubs and spades black."""
    return COLOUR[card.suit]


def view(cards: Sequence[Card], names: Iterable[str], definition: Definition) -> tuple[Any, ...]:
    """The features ``names`` of a hand, as ``((name, value), …)`` in name order."""
    if definition.tiles is not None:
        found: tuple[Any, ...] = _tiles().view(cards, names, definition)
        return found
    # Each feature is a pure function of the cards in their order (``rank`` and ``suit``
    # read the first card) and the definition: a hand's view is kept per hand and names
    # (an audit reads the same hands' views for every bet of every round that holds them).
    ordered = tuple(sorted(names))
    cache = definition.__dict__.setdefault("_views_of_hands", {})
    key = (tuple(cards), ordered)
    found = cache.get(key)
    if found is None:
        found = tuple((name, feature(cards, name, definition)) for name in ordered)
        if len(cache) < _HANDS_KEPT:
            cache[key] = found
    return found


def drawn_features(
    hands: Mapping[str, Sequence[Card]], position: str, definition: Definition
) -> dict[str, Any]:
    """A tableau position's features read from the cards its drawing dealt, by card value:
    ``two_card_points``, ``third_value`` (``None`` when it stood), ``highest_value``, and the
    coup's highest card (``_highest_value``, the round condition ``highest_value``)."""
    values = definition.shoe.values

    def value(card: Card) -> int:
        return values[card.rank] % 10

    cards = hands[position]
    return {
        "two_card_points": points(cards[:2], definition.shoe),
        "third_value": value(cards[2]) if len(cards) > 2 else None,
        "highest_value": max(value(c) for c in cards),
        "_highest_value": max(value(c) for hand in hands.values() for c in hand),
    }
