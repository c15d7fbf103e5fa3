"""An independent, deliberately plain enumerator of fixed-size deals: the reference for the engine.

It shares no code with :mod:`odds.engine`. It walks every *ordered* sequence
of card types for the hands, weights each by falling factorials of the counts
(``n_t · (n_t − 1) · …`` as copies of a type are used up), and settles it with
the rule function it is given. Ordered ways equal the engine's unordered ways
times ``∏ size!`` for the hand sizes, so probabilities agree exactly.

It is slow on purpose (``len(types) ** cards`` sequences); tests use it on
reduced shoes.
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
