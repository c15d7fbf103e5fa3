"""``[definition.deal] best = k``: a hand read by the best k of its cards, counted by classes.

Three Card Poker's 6-Card Bonus pays on the best five-card poker hand of the player's three
cards and the dealer's three. Every way of splitting six cards off one deck between two
positions is equally likely, so the six are one six-card hand (21+3 reads the player's two
cards and the dealer's up card so); ``best = 5`` makes its categories the best five's::

    [definition.deal]
    positions = ["hand"]
    cards = 6
    best = 5

A hand's category is the strongest category (by the definition's order) of any ``best`` of
its cards (:func:`odds.games.defined.patterns.category_of`); ``odds settle`` and the
simulations read it so.

**Counted by classes, not by hands.** With 2k > n at most one suit holds k of the n cards.
A category reads ranks and whether k cards share a suit, so a hand's category is a
function of its *class*: its rank multiset R and the cards F of the one suit holding k or
more of them (``None`` when no suit does). For a composition with ``c[r][s]`` cards of rank
r and suit s (``n_r`` of rank r), the hands of class (R, F) in suit s number

    prod_r C(c[r][s], f_r) * C(n_r - c[r][s], R_r - f_r)

(exactly F in suit s, the rest of each rank from the other suits), and the class (R, None)
takes what is left of ``prod_r C(n_r, R_r)``. Suits holding the same cards of every rank
are counted once (a full deck: one suit, times four). One deck, six cards: 18,564 rank
multisets and ~130,000 terms, instead of 20,358,520 hands. The terms are estimated before
the count starts and refused past :data:`MAX_TERMS` in one line naming the cost. Reading
and checking the key: :mod:`odds.games.defined.best_of_schema`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from math import comb
from typing import Any

from odds.core.cards import Card, Suit
from odds.core.errors import OddsError
from odds.games.defined.schema import Definition

#: The most (class, suit) terms a best-of count takes (estimated before it starts; one
#: deck, six cards: ~130,000 terms, well under a second).
MAX_TERMS = 3_000_000


# ---------------------------------------------------------------------------
# Counting


def estimate(definition: Definition, types: Sequence[Card], counts: Sequence[int]) -> int:
    """The (class, suit) terms of the count, an upper bound found before it starts: rank
    multisets × suited parts per multiset × suit groups."""
    size, best = definition.deal.cards, definition.deal.best
    grid = _grid(types, counts)
    ranks = sum(1 for column in grid.values() if sum(column.values()))
    groups = len(_suit_groups(grid))
    parts = sum(comb(size, j) for j in range(size - best + 1))
    return comb(ranks + size - 1, size) * parts * groups


def check_work(definition: Definition, types: Sequence[Card], counts: Sequence[int]) -> None:
    """Refuse, in one line naming the cost, a count past :data:`MAX_TERMS`."""
    terms = estimate(definition, types, counts)
    if terms > MAX_TERMS:
        deal = definition.deal
        raise OddsError(
            f"{definition.source}: the best {deal.best} of {deal.cards} cards needs "
            f"~{terms:,} class terms (limit {MAX_TERMS:,}); deal fewer cards or fewer ranks"
        )


def _grid(types: Sequence[Card], counts: Sequence[int]) -> dict[Any, dict[Suit, int]]:
    """Cards per rank and suit."""
    grid: dict[Any, dict[Suit, int]] = {}
    for card, n in zip(types, counts, strict=True):
        column = grid.setdefault(card.rank, {})
        column[card.suit] = column.get(card.suit, 0) + n
    return grid


def _suit_groups(grid: Mapping[Any, Mapping[Suit, int]]) -> list[tuple[Suit, int]]:
    """One suit per set of suits holding the same cards of every rank, and the set's size."""
    suits = sorted({s for column in grid.values() for s in column}, key=lambda s: s.value)
    groups: dict[tuple[int, ...], list[Suit]] = {}
    for suit in suits:
        key = tuple(grid[r].get(suit, 0) for r in sorted(grid, key=lambda r: r.value))
        if any(key):
            groups.setdefault(key, []).append(suit)
    return [(found[0], len(found)) for found in groups.values()]


def _multisets(caps: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of ``size`` with at most ``caps[i]`` of index i, as counts."""
    room = [sum(caps[i:]) for i in range(len(caps) + 1)]  # what the later indices can hold

    def walk(start: int, left: int) -> Iterator[tuple[int, ...]]:
        if start == len(caps):
            yield ()
            return
        for k in range(max(0, left - room[start + 1]), min(caps[start], left) + 1):
            for rest in walk(start + 1, left - k):
                yield (k, *rest)

    if size <= room[0]:
        yield from walk(0, size)


def class_ways(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> dict[tuple[Any, Any], int]:
    """Hands per class ``(R, F)``: R the rank multiset (counts per rank, in the order of
    :func:`_ranks`), F the cards of the suit holding ``best`` or more (``None``: no suit
    does). Their total is asserted: C(cards in the shoe, hand size)."""
    check_work(definition, types, counts)
    size, best = definition.deal.cards, definition.deal.best
    grid = _grid(types, counts)
    ranks = _ranks(grid)
    totals = [sum(grid[r].values()) for r in ranks]
    groups = [([grid[r].get(suit, 0) for r in ranks], n) for suit, n in _suit_groups(grid)]
    found: dict[tuple[Any, Any], int] = {}
    for held in _multisets(totals, size):
        whole = 1
        for n, r in zip(totals, held, strict=True):
            if r:
                whole *= comb(n, r)
        suited_ways = 0
        for column, many in groups:
            caps = [min(r, c) for r, c in zip(held, column, strict=True)]
            for kept in range(best, min(size, sum(caps)) + 1):
                for part in _multisets(caps, kept):
                    ways = many
                    for n, c, r, f in zip(totals, column, held, part, strict=True):
                        if r:
                            ways *= comb(c, f) * comb(n - c, r - f)
                    if ways:
                        found[held, part] = found.get((held, part), 0) + ways
                        suited_ways += ways
        if whole - suited_ways:
            found[held, None] = whole - suited_ways
    assert sum(found.values()) == comb(sum(totals), size), "best-of classes"
    return found


def _ranks(grid: Mapping[Any, Any]) -> list[Any]:
    return sorted(grid, key=lambda r: r.value)


def category_ways(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> dict[int | None, int]:
    """Hands per category index (the strongest category of any ``best`` of the cards).

    The last few compositions' answers are kept on the definition: a report asks the
    full shoe's twice (the categories' check, then the bet's rounds), seconds each.
    """
    kept = definition.__dict__.setdefault("_best_of", {}).setdefault("category_ways", {})
    key = (tuple(types), tuple(counts))
    found = kept.get(key)
    if found is None:
        ranks = _ranks(_grid(types, counts))
        classes = _ClassCategories(definition)
        found = {}
        for (held, part), ways in class_ways(definition, types, counts).items():
            index = classes.category(ranks, held, part)
            found[index] = found.get(index, 0) + ways
        if len(kept) >= 8:
            kept.clear()
        kept[key] = found
    return dict(found)


class _ClassCategories:
    """Each class's category, the strongest of its ``best``-card parts.

    A class's cards are placed in rank order; each ``best``-card part is a bit mask of
    places. A part inside the suited cards is suited; any other part holds a card of
    another suit. A part's category depends on its ranks and on that alone (its *shape*),
    classified once per shape by the definition's patterns; a rank multiset's unsuited
    parts are classified once for all its suited parts. Kept on the definition (every
    composition of ``odds shoe``/``eor`` asks the same classes again).
    """

    def __init__(self, definition: Definition) -> None:
        self.definition = definition
        self.size, self.best = definition.deal.cards, definition.deal.best
        self.parts = [
            (sum(1 << i for i in places), places)
            for places in combinations(range(self.size), self.best)
        ]
        kept = definition.__dict__.setdefault("_best_of", {})
        self.classes: dict[Any, int | None] = kept.setdefault("classes", {})
        self.shapes: dict[Any, int] = kept.setdefault("shapes", {})
        self.unsuited: dict[Any, list[tuple[int, int]]] = kept.setdefault("unsuited", {})

    def level(self, ranks: tuple[Any, ...], suited: bool) -> int:
        """The strength of a part's category (0: no category describes it)."""
        key = (ranks, suited)
        found = self.shapes.get(key)
        if found is None:
            from odds.games.defined import patterns

            cards = [Card(r, _SUITS[0 if suited else i % 4]) for i, r in enumerate(ranks)]
            index = patterns.category_of(cards, self.definition)
            found = self.shapes[key] = 0 if index is None else self.definition.level(index)
        return found

    def category(
        self, ranks: Sequence[Any], held: tuple[int, ...], part: tuple[int, ...] | None
    ) -> int | None:
        placed = tuple(r for r, n in zip(ranks, held, strict=True) for _ in range(n))
        key = (placed, None if part is None else tuple(zip(ranks, part, strict=True)))
        if key in self.classes:
            return self.classes[key]
        unsuited = self.unsuited.get(placed)
        if unsuited is None:  # every part's unsuited strength, strongest first
            unsuited = self.unsuited[placed] = sorted(
                ((self.level(tuple(placed[i] for i in places), False), mask)
                 for mask, places in self.parts),
                reverse=True,
            )  # fmt: skip
        suited_mask = 0
        if part is not None:  # the suited cards: the first of each rank's places
            start = 0
            for n, f in zip(held, part, strict=True):
                suited_mask |= ((1 << f) - 1) << start
                start += n
        best = next((lv for lv, mask in unsuited if mask & ~suited_mask), 0)
        for mask, places in self.parts:
            if not mask & ~suited_mask:  # inside the suited cards
                best = max(best, self.level(tuple(placed[i] for i in places), True))
        found = self.classes[key] = self._index(best)
        return found

    def _index(self, level: int) -> int | None:
        if not level:
            return None
        categories = self.definition.categories
        return next(i for i in range(len(categories)) if self.definition.level(i) == level)


_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def rounds(
    definition: Definition,
    types: Sequence[Card],
    counts: Sequence[int],
    reads: Mapping[str, set[str]],
) -> dict[Any, int]:
    """Ways per round key of a bet on the best-of hand (its category, its cards)."""
    (position,) = definition.deal.positions
    names = sorted(reads.get(position, set()))
    result: dict[Any, int] = {}
    for index, ways in category_ways(definition, types, counts).items():
        values = {
            "category": None if index is None else definition.categories[index].name,
            "cards": definition.deal.cards,
        }
        key = (None, tuple((name, values[name]) for name in names))
        result[key] = result.get(key, 0) + ways
    return result
