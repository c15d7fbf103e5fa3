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
from collections.abc import Iterator, Mapping, Sequence
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


def exception_pairs(
    classifier: HandClassifier,
    counts: Sequence[int],
    hands: Sequence[tuple[int, ...]],
    check: bool = False,
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], int, int, int]]:
    """Every hand pair an exception decides otherwise than the order, in both seats:
    ``(first hand, second hand, the second's ways from what the first left, the order's
    verdict, the exception's)``, a verdict 1 where the first hand wins, 0 a tie, -1 where
    it loses. ``hands``: the hands dealt (``check``: refused first past the bound)."""
    definition = classifier.definition
    by_category: dict[int, list[tuple[int, ...]]] = {}
    for hand in hands:
        index = classifier.category(hand)
        if index is not None:
            by_category.setdefault(index, []).append(hand)
    if check:
        check_exception_cost(definition, {k: len(v) for k, v in by_category.items()})
    names = [c.name for c in definition.categories]
    for a, category in enumerate(definition.categories):
        for beaten in category.beats:
            for special in by_category.get(a, []):
                for other in by_category.get(names.index(beaten), []):
                    for mine, theirs, wins in ((special, other, 1), (other, special, -1)):
                        left = list(counts)
                        for t in mine:
                            left[t] -= 1
                        ways = hand_weight(left, theirs)
                        if not ways:
                            continue
                        ours, rival = classifier.strength(mine), classifier.strength(theirs)
                        by_order = (ours > rival) - (ours < rival)
                        if by_order != wins:
                            yield mine, theirs, ways, by_order, wins


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
    who = {1: first, 0: definition.ties, -1: second}
    dealt = [hand for hand, _ in hands(counts, definition.deal.cards)]
    corrected: Counter[Any] = Counter(result)
    for one, two, ways, by_order, by_exception in exception_pairs(classifier, counts, dealt, True):
        ways *= hand_weight(counts, one)
        views = (classifier.view(one, reads[first]), classifier.view(two, reads[second]))
        corrected[(who[by_order], *views)] -= ways
        corrected[(who[by_exception], *views)] += ways
    return {key: n for key, n in corrected.items() if n}
