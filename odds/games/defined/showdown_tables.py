"""Showdown tables of any definition that ranks two hands by categories (Goa Gae, San Gong …).

Three report tables, all from the one showdown the bets count
(:func:`odds.games.defined.counting.showdown_count`: every first hand against the
second hand dealt from what it left, card removal exact):

* the hand order used: the categories strongest first, who qualifies (the pattern in
  words) and the tie-break within each;
* the showdown by the first position's category: win, tie and lose ways;
* the hand strength: each hand class's exact chance of beating one hand, with its
  weakest and strongest hands.

A hand class is its category, except that a last, catch-all category ranked by points
first (``pattern = { any = true }``, ``tiebreak = ["points", …]``: Goa Gae's "Points")
is shown per points total ("9 points" … "0 points"). Categories that beat others
whatever the order (``beats``) are applied hand pair by hand pair
(:func:`resolved_counts`), as the bets apply them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.cards import Card, hand_text
from odds.core.table import Column, Kind, Table
from odds.games.defined import patterns, ranking
from odds.games.defined.counting import (
    HandClassifier,
    by_rank_where_large,
    classifier_for,
    showdown_count,
)
from odds.games.defined.schema import Category, Definition
from odds.games.defined.words import in_words, points_text


def applies(definition: Definition) -> bool:
    """Two positions of fixed-size card hands, compared by category first.

    A tile game ranks its few dozen hands one by one instead (its hierarchy table,
    :mod:`odds.games.defined.tile_game`)."""
    deal = definition.deal
    return (
        bool(definition.categories)
        and definition.tiles is None
        and deal.tableau is None
        and not deal.draw_at_most
        and len(deal.positions) == 2
        and definition.compare[:1] == ("category",)
    )


@dataclass(frozen=True)
class ShowdownClasses:
    """Every first hand's showdown (weakest first, exceptions applied) and its class.

    Arrays over the hands of :func:`~odds.games.defined.counting.showdown_count`:
    ``ways``, the second hand's ``weaker`` / ``equal`` / ``stronger`` ways, the hand's
    ``category`` (index in the definition's list) and ``label`` (an index into ``labels``).
    """

    hands: list[tuple[int, ...]]
    cards: Any  # hand → its cards
    ways: Any
    rank: Any
    weaker: Any
    equal: Any
    stronger: Any
    category: Any
    label: Any
    labels: list[str]


def showdown_classes(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> ShowdownClasses:
    """The showdown of every first hand, with its category and class (see the module doc)."""
    import numpy as np

    dealt = [card for card, n in zip(types, counts, strict=True) for _ in range(n)]
    types, counts = by_rank_where_large(definition, types, counts, True, {"": {"category"}})
    classifier = classifier_for(definition, types)
    cards = classifier.cards
    if len(types) < len(dealt) and len(set(dealt)) > len(types):  # merged by rank: real cards

        def cards(hand: tuple[int, ...]) -> list[Card]:
            left = list(dealt)  # each copy of a rank its next card of the shoe, in card order
            found = []
            for t in hand:
                card = next(c for c in left if c.rank == types[t].rank)
                left.remove(card)
                found.append(card)
            return found

    count = showdown_count(classifier, counts)
    resolved = resolved_counts(classifier, counts, count)
    labels: dict[str, int] = {}
    classes: dict[tuple[int, int], tuple[int, int]] = {}  # (category, points) → ids
    category, label = [], []
    value = [definition.shoe.values[card.rank] for card in types]
    for hand in count.hands:
        index = classifier.category(hand)
        assert index is not None  # the category check ran first
        points = sum(value[t] for t in hand) % 10
        found = classes.get((index, points))
        if found is None:
            text = _class_text(definition, index, points)
            found = classes[index, points] = (index, labels.setdefault(text, len(labels)))
        category.append(found[0])
        label.append(found[1])
    weaker, equal, stronger = (np.array(column, dtype=count.ways.dtype) for column in resolved)
    return ShowdownClasses(
        count.hands,
        cards,
        count.ways,
        count.rank,
        weaker,
        equal,
        stronger,
        np.array(category, dtype=np.int64),
        np.array(label, dtype=np.int64),
        list(labels),
    )


def _class_text(definition: Definition, index: int, points: int) -> str:
    category = definition.categories[index]
    return points_text(points) if split_by_points(category) else category.label


def class_label(definition: Definition, index: int, cards: Sequence[Card]) -> str:
    """The hand's class: its category's label, or its points in a catch-all points category."""
    return _class_text(definition, index, patterns.points(cards, definition.shoe))


def hand_description(definition: Definition, index: int, cards: Sequence[Card]) -> str:
    """A hand as ``odds strength`` names it: its class, with its points where they rank it.

    ``Triple``, ``Flush, 9 points`` (a flush is ranked by points first), ``0 points``.
    """
    category = definition.categories[index]
    label = class_label(definition, index, cards)
    if "points" in category.tiebreak and not split_by_points(category):
        return f"{label}, {points_text(patterns.points(cards, definition.shoe))}"
    return label


def split_by_points(category: Category) -> bool:
    """A catch-all category ranked by points first is shown per points total."""
    return category.pattern == (("any", True),) and category.tiebreak[:1] == ("points",)


def resolved_counts(
    classifier: HandClassifier, counts: Sequence[int], count: Any
) -> tuple[list[int], list[int], list[int]]:
    """Per first hand: the second hand's weaker, equal and stronger ways, exceptions applied.

    The count ranks by the transitive order; a category that ``beats`` another whatever
    the order turns the pairs of their hands around: each hand of the one against each
    hand of the other, in both seats, its ways (the second from what the first left)
    moved to the column the exception gives (:mod:`odds.games.defined.ranking`).
    """
    weaker, equal, stronger = (c.tolist() for c in (count.weaker, count.equal, count.stronger))
    definition = classifier.definition
    if not ranking.has_exceptions(definition):
        return weaker, equal, stronger
    at = {hand: i for i, hand in enumerate(count.hands)}
    columns = {1: weaker, 0: equal, -1: stronger}  # by the first hand's verdict
    for mine, _, ways, by_order, by_exception in ranking.exception_pairs(
        classifier, counts, count.hands
    ):
        columns[by_order][at[mine]] -= ways
        columns[by_exception][at[mine]] += ways
    return weaker, equal, stronger


def showdown_report_tables(definition: Definition, shoe: Any, game: str) -> tuple[Table, ...]:
    """The hand order, the showdown by category and the hand strength tables."""
    found = showdown_classes(definition, shoe.types, shoe.counts)
    return (
        order_table(definition),
        showdown_table(definition, found),
        strength_table(definition, found, game),
    )


# ---------------------------------------------------------------------------
# The hand order, in words


def _listed(items: Sequence[str], last: str = "or") -> str:
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _symbol(rank: Any) -> str:
    return str(getattr(rank, "symbol", rank))


def _value_total(value: Any) -> str:
    totals = sorted(value)
    text = _listed([str(p) for p in totals])
    if len(totals) > 2 and totals == list(range(totals[0], totals[-1] + 1)):
        text = f"at most {totals[-1]}" if totals[0] == 0 else f"{totals[0]}–{totals[-1]}"
    return f"card values adding up to {text}"


def _faces(value: int) -> str:
    return f"{in_words(value, 7)} picture card{'s' * (value != 1)} (J, Q, K)"


#: Each pattern key in words, from its value and the hand size.
_PATTERN_WORDS: dict[str, Callable[[Any, int], str]] = {
    "any": lambda v, _: "any hand" if v else "no hand",
    "same_rank": lambda v, size: (
        f"{in_words(v, 7)} cards of one rank" + ("" if v == size else ", no more")
    ),
    "sequence": lambda v, _: "consecutive ranks" if v else "not consecutive ranks",
    "flush": lambda v, _: "one suit" if v else "not one suit",
    "suited": lambda v, _: "one suit" if v else "not one suit",
    "same_colour": lambda v, _: "one colour" if v else "not one colour",
    "faces": lambda v, _: _faces(v),
    "faces_at_least": lambda v, _: f"at least {_faces(v)}",
    "points": lambda v, _: (
        f"{_listed([str(p) for p in sorted(v)])} point" + "s" * (sorted(v) != [1])
    ),
    "ranks": lambda v, _: f"exactly {' '.join(_symbol(r) for r in v)}",
    "pair_rank": lambda v, _: f"a pair of {_listed([_symbol(r) for r in v])}",
    "cards": lambda v, _: f"{in_words(v, 7)} cards",
    "rank_counts": lambda v, _: f"cards per rank {'-'.join(str(n) for n in v)}",
    "subset_points": lambda v, _: (
        f"some {in_words(v[0], 7)} cards with {_listed([str(p) for p in sorted(v[1])])} points"
    ),
    "value_total": lambda v, _: _value_total(v),
    "value_max": lambda v, _: f"every card's value at most {v}",
}


def pattern_text(definition: Definition, category: Category) -> str:
    """Who qualifies for a category, in words (its pattern's keys, every one must hold)."""
    size = definition.deal.cards
    return ", ".join(
        _PATTERN_WORDS[key](value, size) if key in _PATTERN_WORDS else f"{key} = {value}"
        for key, value in category.pattern
    )


_TIEBREAKS = {
    "points": "more points",
    "ranks": "the higher ranks (the most of one rank first)",
    "high": "the higher top rank",
    "suits": "the higher suits, from the highest card down",
    "top_card": "the higher top card, then its suit",
    "top_cards": "the higher cards from the top down, each by rank then suit",
    "sequence_suits": "the suits from the sequence's top card down",
    "faces": "more picture cards",
    "cards": "more cards",
    "equal": "equal hands tie",
}


def tiebreak_text(definition: Definition, category: Category) -> str:
    """The tie-break within a category, in words, with the category's own rank order."""
    words = [_TIEBREAKS.get(t, t) for t in category.tiebreak] or ["equal hands tie"]
    text = ", then ".join(words)
    if category.rank_order:
        order = ", ".join(_symbol(r) for r in reversed(category.rank_order))
        text += f" (ranks highest first: {order})"
    return text


#: The hand-order table's columns; their keys are the JSON keys reports have always had.
_ORDER_CATEGORY = "category"
_ORDER_RULE = "qualifies, and the tie-break within it"


def order_table(definition: Definition) -> Table:
    """The categories strongest first, each with who qualifies and its tie-break."""
    rows = []
    for i in definition.strongest_first():
        category = definition.categories[i]
        rule = f"{pattern_text(definition, category)}; {tiebreak_text(definition, category)}"
        if category.beats:
            beaten = ", ".join(definition.label_of(b) for b in category.beats)
            rule += f"; beats {beaten} whatever the order"
        rows.append({_ORDER_CATEGORY: category.label, _ORDER_RULE: rule})
    listed = ", ".join(c.label for c in definition.categories)
    return Table(
        key="hand_order",
        title="Hand order used (strongest first)",
        columns=(Column(_ORDER_CATEGORY, "category"), Column(_ORDER_RULE, _ORDER_RULE)),
        rows=tuple(rows),
        note=(
            "A hand belongs to the first category of the definition's list whose pattern it "
            f"matches ({listed}); hands of one category compare by its tie-breaks, and hands "
            "equal by every tie-break tie."
        ),
    )


# ---------------------------------------------------------------------------
# The showdown by category, and the hand strength by class


def _sums(values: Any, groups: Any, size: int) -> list[int]:
    """``values`` summed per group index (exact: integer arrays)."""
    import numpy as np

    found = np.zeros(size, dtype=values.dtype)
    np.add.at(found, groups, values)
    return [int(v) for v in found.tolist()]


def showdown_table(definition: Definition, found: ShowdownClasses) -> Table:
    """Win, tie and lose ways (and their shares) by the first position's category."""
    first, second = definition.deal.positions
    size = len(definition.categories)
    win, tie, lose = (
        _sums(found.ways * column, found.category, size)
        for column in (found.weaker, found.equal, found.stronger)
    )
    table_rows = []
    for i in definition.strongest_first():
        table_rows.append(_showdown_row(definition.categories[i].label, win[i], tie[i], lose[i]))
    totals = (sum(win), sum(tie), sum(lose))
    return Table(
        key="showdown",
        title=f"Showdown: one position against the {second}, by the {first}'s category",
        columns=(
            Column("name", f"{first}'s category"),
            Column("win_ways", "win ways", Kind.WAYS),
            Column("tie_ways", "tie ways", Kind.WAYS),
            Column("lose_ways", "lose ways", Kind.WAYS),
            Column("win", "win", Kind.PROBABILITY),
            Column("tie", "tie", Kind.PROBABILITY),
            Column("lose", "lose", Kind.PROBABILITY),
        ),
        rows=tuple(table_rows),
        total=_showdown_row("Total", *totals),
        json_total=True,
        note=(
            f"Ways count ({first} hand, {second} hand) deals; win, tie and lose are "
            f"conditional on the {first} holding that category (the Total row: over all "
            f"deals). The {first} wins exactly as often as the {second} does: the two hands "
            "are dealt alike."
        ),
    )


def _showdown_row(name: str, win: int, tie: int, lose: int) -> dict[str, Any]:
    """One category's ways; its shares only when it occurs (no 0/0)."""
    row: dict[str, Any] = {"name": name, "win_ways": win, "tie_ways": tie, "lose_ways": lose}
    total = win + tie + lose
    if total:
        for key, n in (("win", win), ("tie", tie), ("lose", lose)):
            row[key] = Fraction(n, total)
    return row


def strength_table(definition: Definition, found: ShowdownClasses, game: str) -> Table:
    """Per hand class: ways, exact P(beat one hand), the weakest and strongest hands."""
    size = len(found.labels)
    ways = _sums(found.ways, found.label, size)
    deals = _sums(found.ways * (found.weaker + found.equal + found.stronger), found.label, size)
    win = _sums(found.ways * found.weaker, found.label, size)
    tie = _sums(found.ways * found.equal, found.label, size)
    labels = found.label.tolist()
    weakest = {label: i for i, label in reversed(list(enumerate(labels)))}
    strongest = {label: i for i, label in enumerate(labels)}  # hands are weakest first
    order = sorted(range(size), key=lambda label: int(found.rank[strongest[label]]), reverse=True)
    second = definition.deal.positions[1]
    top = found.hands[-1] if found.hands else ()
    example = " ".join(c.code for c in found.cards(top))

    def hand(i: int) -> tuple[str, Fraction]:
        total = int(found.weaker[i] + found.equal[i] + found.stronger[i])
        return hand_text(tuple(found.cards(found.hands[i]))), Fraction(int(found.weaker[i]), total)

    rows = []
    for label in order:
        low, high = hand(weakest[label]), hand(strongest[label])
        rows.append(
            {
                "name": found.labels[label],
                "ways": ways[label],
                "win": Fraction(win[label], deals[label]),
                "tie": Fraction(tie[label], deals[label]),
                "lose": Fraction(deals[label] - win[label] - tie[label], deals[label]),
                "weakest.hand": low[0],
                "weakest.win": low[1],
                "strongest.hand": high[0],
                "strongest.win": high[1],
            }
        )
    return Table(
        key="hand_strength",
        title=f"Hand strength: the exact chance of beating one {second} hand",
        columns=(
            Column("name", "hand class"),
            Column("ways", "ways", Kind.WAYS),
            Column("win", "P(win)", Kind.PROBABILITY),
            Column("tie", "P(tie)", Kind.PROBABILITY),
            Column("lose", "P(lose)", Kind.PROBABILITY, markdown=False),
            Column("weakest.hand", "weakest hand"),
            Column("weakest.win", "its P(win)", Kind.PROBABILITY),
            Column("strongest.hand", "strongest hand"),
            Column("strongest.win", "its P(win)", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"name": "Total", "ways": sum(ways)},
        note=(
            f"P(win) and P(tie) average over the class's hands, the {second}'s hand drawn "
            "from what the hand left. The weakest and strongest hands are the class's lowest "
            "and highest strength (when several share it: the first and the last in card "
            f'order). `odds strength {game} "{example}"` gives any one hand.'
        ),
    )
