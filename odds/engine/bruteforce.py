"""An independent, deliberately plain enumerator: the reference for the engine.

It shares no code with :mod:`odds.engine`. It walks every *ordered* sequence
of card types for the hands, weights each by falling factorials of the counts
(``n_t · (n_t − 1) · …`` as copies of a type are used up), and settles it with
the rule function it is given. Ordered ways equal the engine's unordered ways
times ``∏ size!`` for the hand sizes, so probabilities agree exactly.

It is slow on purpose (``len(types) ** cards`` sequences); tests use it on
reduced shoes and ``odds bench`` times it on the full one.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from math import factorial

Settle = Callable[[tuple[tuple[int, ...], ...]], Mapping[str, Hashable]]


def ordered_deals(
    counts: Sequence[int], sizes: Sequence[int]
) -> dict[tuple[tuple[int, ...], ...], int]:
    """Ordered ways per tuple of hands (each hand's types in dealt order, then sorted).

    Returns ``{(sorted hand 1, sorted hand 2, …): ordered ways}``; every ordered
    sequence of types is visited once and weighted by falling factorials.
    """
    left = list(counts)
    total_cards = sum(sizes)
    found: dict[tuple[tuple[int, ...], ...], int] = defaultdict(int)
    sequence: list[int] = []

    def key(sequence: list[int]) -> tuple[tuple[int, ...], ...]:
        hands_, start = [], 0
        for size in sizes:
            hands_.append(tuple(sorted(sequence[start : start + size])))
            start += size
        return tuple(hands_)

    def walk(ways: int) -> None:
        if len(sequence) == total_cards - 1:
            # The last card: loop here instead of one call per leaf.
            for t, n in enumerate(left):
                if n:
                    sequence.append(t)
                    found[key(sequence)] += ways * n
                    sequence.pop()
            return
        for t, n in enumerate(left):
            if n:
                left[t] -= 1
                sequence.append(t)
                walk(ways * n)
                sequence.pop()
                left[t] += 1

    walk(1)
    return dict(found)


def brute_force(
    counts: Sequence[int], sizes: Sequence[int], settle: Settle
) -> dict[str, dict[Hashable, int]]:
    """Ordered ways per bet and event: ``{bet: {event: ways}}``.

    ``settle`` receives the hands (sorted type-index tuples, in deal order) and
    returns ``{bet name: event}``.
    """
    result: dict[str, dict[Hashable, int]] = defaultdict(lambda: defaultdict(int))
    for deal, ways in ordered_deals(counts, sizes).items():
        for bet, event in settle(deal).items():
            result[bet][event] += ways
    return {bet: dict(events) for bet, events in result.items()}


def ordering_factor(sizes: Sequence[int]) -> int:
    """How many ordered deals one unordered deal stands for: ``∏ size!``."""
    factor = 1
    for size in sizes:
        factor *= factorial(size)
    return factor


# ---------------------------------------------------------------------------
# Drawing games: the deal decides how many cards it takes


class MoreCards(Exception):
    """Raised by the brute force's card source when the game asks for a card not yet chosen."""


Play = Callable[[Callable[[], int]], Mapping[str, Hashable]]


def brute_force_drawing(
    counts: Sequence[int], play: Play, length: int
) -> dict[str, dict[Hashable, int]]:
    """Ordered ways per bet and event for a game whose deal decides how many cards it takes.

    ``play(draw)`` deals one round by the rules, calling ``draw()`` for each
    next card's type, and returns ``{bet: event}``. The enumeration replays
    ``play`` from the start for every sequence: when it asks for a card beyond
    the sequence, each type still in the shoe is tried in turn (weighted by
    its remaining count). So every ordered card sequence the rules can deal is
    visited once, and nothing but the rules decides when the deal stops.

    Ways are ordered; a round of ``k`` cards is extended by the next unseen
    cards to ``length`` (× (N − k)(N − k − 1)…), so every bet's ways add up to
    the ordered sequences of ``length`` cards.
    """
    left = list(counts)
    size = sum(counts)
    result: dict[str, dict[Hashable, int]] = defaultdict(lambda: defaultdict(int))
    prefix: list[int] = []

    def walk(ways: int) -> None:
        used = 0

        def draw() -> int:
            nonlocal used
            if used == len(prefix):
                raise MoreCards
            used += 1
            return prefix[used - 1]

        try:
            settled = play(draw)
        except MoreCards:
            for t, n in enumerate(left):
                if n:
                    left[t] -= 1
                    prefix.append(t)
                    walk(ways * n)
                    prefix.pop()
                    left[t] += 1
            return
        if len(prefix) > length:
            raise ValueError(f"a round took {len(prefix)} cards, more than length {length}")
        extend = 1
        for i in range(len(prefix), length):
            extend *= size - i
        for bet, event in settled.items():
            result[bet][event] += ways * extend

    walk(1)
    return {bet: dict(events) for bet, events in result.items()}
