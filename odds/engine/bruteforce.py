"""An independent, deliberately plain enumerator for drawing games: the reference for the engine.

It shares no code with :mod:`odds.engine`. :func:`brute_force_drawing` replays the
rules for every *ordered* sequence of card types, each weighted by falling
factorials of the counts (``n_t · (n_t − 1) · …`` as copies of a type are used
up). It is slow on purpose; ``odds bench`` times it on the full shoe. The
fixed-size enumerator the tests use is :mod:`tests.reference.ordered`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence

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
