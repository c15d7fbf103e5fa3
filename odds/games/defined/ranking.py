"""The comparison between categories: their strength order and non-transitive exceptions.

Two constructs of the comparison part of the vocabulary live here
(docs/reference/definitions.md, "Strength order" and "Exceptions: `beats`"):

* ``[definition.compare] order = [...]`` — the categories' strength order,
  strongest first, where it differs from the list's order (the list's order
  is then only the order in which patterns are matched: Win Three Cards' unsuited
  2-3-5 must be matched before "all other" but ranks below it);
* a category's ``beats = [...]`` — hands of this category beat hands of those
  categories whatever the order (the unsuited 2-3-5 beats three of a kind and
  nothing else). Such an order is not transitive, so it cannot be one sort key.

The counting still sorts hands by the transitive order (the engine's showdown by
prefix sums) and then corrects the few hand pairs an exception decides:
:func:`correct_exceptions` moves each such pair's ways from the round the order
gives to the round the exception gives, with exact card removal. Every hand of
an excepting category is met with every hand of a category it beats, so the
correction is small (60 × 52 hand pairs for Win Three Cards) and exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from odds.core.cards import Card
from odds.core.errors import OddsError
from odds.engine import hand_weight
from odds.games.defined import patterns
from odds.games.defined.schema import Definition

if TYPE_CHECKING:
    from odds.games.defined.counting import HandClassifier


def has_exceptions(definition: Definition) -> bool:
    """Whether some category beats others outside the order (a ``beats`` list)."""
    return any(c.beats for c in definition.categories)


def exception_winner(
    definition: Definition, first: Sequence[Card], second: Sequence[Card]
) -> str | None:
    """The position an exception makes win, or ``None`` where the order decides."""
    if not has_exceptions(definition):
        return None
    a, b = patterns.category_of(first, definition), patterns.category_of(second, definition)
    if a is None or b is None:
        return None
    return _exception(definition, a, b)


def _exception(definition: Definition, a: int, b: int) -> str | None:
    categories = definition.categories
    first, second = definition.deal.positions
    if categories[b].name in categories[a].beats:
        return first
    if categories[a].name in categories[b].beats:
        return second
    return None


def winner(definition: Definition, first: Sequence[Card], second: Sequence[Card]) -> str:
    """Who wins two hands: an exception first, else the strength order (equal: ``ties``)."""
    found = exception_winner(definition, first, second)
    if found is not None:
        return found
    a, b = patterns.strength(first, definition), patterns.strength(second, definition)
    positions = definition.deal.positions
    return positions[0] if a > b else positions[1] if b > a else definition.ties


#: The most hand pairs :func:`correct_exceptions` may walk: about 8.5 µs a pair, so 1,000,000
#: is under 10 s. Win Three Cards' exception is 6,240; a ``beats`` against a catch-all points
#: category of six decks (Bài Cào's trips as categories, issue 35) was 17,792,320: 2.5 CPU
#: minutes with no word before this bound.
MAX_EXCEPTION_PAIRS = 1_000_000
#: Measured cost of one hand pair (seconds), for the estimate a refusal gives.
SECONDS_PER_PAIR = 8.5e-6


def check_exception_cost(
    definition: Definition, sizes: Mapping[int, int], limit: int | None = None
) -> None:
    """Refuse, before any pair is walked, exceptions that would meet too many hand pairs
    (``sizes``: the distinct hands of each category in the shoe counted; ``limit``: by
    default :data:`MAX_EXCEPTION_PAIRS`)."""
    limit = MAX_EXCEPTION_PAIRS if limit is None else limit
    names = [c.name for c in definition.categories]
    pairs = {
        (a, beaten): 2 * sizes.get(a, 0) * sizes.get(names.index(beaten), 0)
        for a, category in enumerate(definition.categories)
        for beaten in category.beats
    }
    total = sum(pairs.values())
    if total <= limit:
        return
    (a, beaten), most = max(pairs.items(), key=lambda item: item[1])
    category = definition.categories[a]
    at = f" (line {category.line})" if category.line else ""
    seconds = total * SECONDS_PER_PAIR
    raise OddsError(
        f"{definition.source}: definition.categories.{category.name}.beats{at}: the exceptions "
        f"meet {total:,} hand pairs (~{seconds:,.0f} s; {category.name} against {beaten}: "
        f"{most:,}), over the limit of {limit:,}; `beats` is for a few hands (Win Three Cards' "
        "2-3-5: 6,240 pairs): read a one-hand pattern with a position feature in the bet "
        "({ player = { same_rank = 3 } }) instead of a category that beats a large one"
    )


def correct_exceptions(
    classifier: HandClassifier,
    counts: Sequence[int],
    result: Mapping[Any, int],
    reads: Mapping[str, set[str]],
) -> dict[Any, int]:
    """Round ways with every exception pair moved to the round its exception gives.

    ``result`` was counted by the transitive order; for every hand of a category
    with ``beats`` against every hand of a category it beats (in both seats),
    the pair's ways (the first hand from ``counts``, the second from what is
    left) leave the round the order gave and join the one the exception gives.
    """
    from odds.engine import hands

    definition = classifier.definition
    first, second = definition.deal.positions
    size = definition.deal.cards
    by_category: dict[int, list[tuple[tuple[int, ...], int]]] = {}
    for hand, weight in hands(counts, size):
        index = classifier.category(hand)
        if index is not None:
            by_category.setdefault(index, []).append((hand, weight))
    check_exception_cost(definition, {k: len(v) for k, v in by_category.items()})
    names = [c.name for c in definition.categories]
    corrected: Counter[Any] = Counter(result)
    for a, category in enumerate(definition.categories):
        for beaten in category.beats:
            b = names.index(beaten)
            for special, _ in by_category.get(a, []):
                for other, _ in by_category.get(b, []):
                    for seats in ((special, other), (other, special)):
                        left = list(counts)
                        for kind in seats[0]:
                            left[kind] -= 1
                        ways = hand_weight(counts, seats[0]) * hand_weight(left, seats[1])
                        if not ways:
                            continue
                        views = tuple(
                            classifier.view(hand, reads[p])
                            for hand, p in zip(seats, (first, second), strict=True)
                        )
                        ordered = classifier.strength(seats[0]), classifier.strength(seats[1])
                        by_order = (
                            first
                            if ordered[0] > ordered[1]
                            else second
                            if ordered[1] > ordered[0]
                            else definition.ties
                        )
                        by_exception = first if seats[0] is special else second
                        if by_order == by_exception:
                            continue
                        corrected[(by_order, *views)] -= ways
                        corrected[(by_exception, *views)] += ways
    return {key: n for key, n in corrected.items() if n}
