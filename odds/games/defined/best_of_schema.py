"""``[definition.deal] best = k``, read and checked: the hand is read by its best k cards.

The counting is :mod:`odds.games.defined.best_of`; this module is what the reader
(:mod:`odds.games.defined.schema`) asks, and refuses in one line what a best-of hand is not
counted by.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from odds.games.defined.schema import Definition, Locator

#: What a bet may read of a best-of hand.
READABLE = frozenset({"category", "cards"})


def read_best(
    table: Mapping[str, Any], positions: Sequence[str], cards: int, loc: Locator, after: int
) -> int:
    """``best = k`` in ``[definition.deal]`` (0 when absent), checked against the deal."""
    if "best" not in table:
        return 0
    line = loc.line("best", after)
    where = "definition.deal.best"
    value = table["best"]
    if isinstance(value, bool) or not isinstance(value, int) or value < 2:
        raise loc.error(where, f"expected a whole number of cards, 2 or more, got {value!r}", line)
    for key in ("tableau", "until_match", "draw_at_most", "seats"):
        if key in table:
            raise loc.error(where, f"a best-of hand is dealt by cards, not with {key}", line)
    if len(positions) != 1:
        raise loc.error(
            where,
            "best reads one hand: deal the cards read together to one position (the "
            "player's three and the dealer's three as one six-card hand: every split of six "
            "cards between two positions is equally likely)",
            line,
        )
    if value >= cards:
        raise loc.error(where, f"best = {value}: the hand holds {cards} cards; take fewer", line)
    if 2 * value <= cards:
        raise loc.error(
            where,
            f"best {value} of {cards} cards: two suits could each hold {value} of them; "
            f"counted only when one suit can (2·best > cards)",
            line,
        )
    return value


def check_definition(
    definition: Definition,
    loc: Locator,
    suit_tiebreaks: Collection[str],
    pattern_keys: Callable[[Any], set[str]],
) -> None:
    """Refuse, in one line, what a best-of hand is not counted by: colours or suits in the
    categories, exceptions, a decision or continuation, and bets reading more than its
    category and its number of cards."""
    for category in definition.categories:
        where = f"definition.categories.{category.name}"
        if "same_colour" in pattern_keys(category.pattern):
            raise loc.error(
                f"{where}.pattern",
                "same_colour: a best-of hand is counted by ranks and the one suit holding "
                "the best cards, not by colours",
                category.line,
            )
        suits = set(suit_tiebreaks) & set(category.tiebreak)
        if suits:
            raise loc.error(
                f"{where}.tiebreak",
                f"{sorted(suits)[0]}: a best-of hand's categories are counted without which "
                "suit a card has",
                category.line,
            )
        if category.beats:
            raise loc.error(
                f"{where}.beats", "a best-of hand's category is its strongest one", category.line
            )
    for key in ("decision", "continuation"):
        if getattr(definition, key) is not None:
            raise loc.error(
                f"definition.{key}", "a best-of hand is read by its category only", loc.line(key)
            )
    for bet in definition.bets:
        for outcome in bet.outcomes:
            if outcome.when is None:
                continue
            for position, name in _tests(outcome.when):
                if not position or name not in READABLE:
                    shown = f"{position}.{name.partition(':')[0]}" if position else name
                    raise loc.error(
                        f"definition.bets.{bet.name}",
                        f"{shown}: a best-of hand is read by its category (and cards)",
                        outcome.line,
                    )


def _tests(condition: Any) -> Iterator[tuple[str, str]]:
    if not hasattr(condition, "tests"):  # a constant (an option's test)
        return
    for position, name, _ in condition.every_test():
        yield position, name
