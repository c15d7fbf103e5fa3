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

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from odds.core.cards import Card, hand_text
from odds.core.table import Column, Kind, Table
from odds.games.defined import patterns, ranking
from odds.games.defined.counting import HandClassifier, classifier_for, showdown_count
from odds.games.defined.schema import Category, Definition


def applies(definition: Definition) -> bool:
    """Two positions of fixed-size hands, compared by category first."""
    deal = definition.deal
    return (
        bool(definition.categories)
        and deal.tableau is None
        and not deal.draw_at_most
        and len(deal.positions) == 2
        and definition.compare[:1] == ("category",)
    )


@dataclass(frozen=True)
class HandRow:
    """One first hand: its cards, ways, class and the second hand's weaker/equal/stronger ways."""

    cards: tuple[Card, ...]
    ways: int
    rank: int
    category: int
    label: str
    weaker: int
    equal: int
    stronger: int

    @property
    def beat(self) -> Fraction:
        """The hand's exact chance of beating one hand from what it left."""
        return Fraction(self.weaker, self.weaker + self.equal + self.stronger)


def showdown_rows(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> list[HandRow]:
    """Every first hand's showdown, weakest first, exceptions applied, with its class."""
    classifier = classifier_for(definition, types)
    count = showdown_count(classifier, counts)
    weaker, equal, stronger = resolved_counts(classifier, counts, count)
    rows = []
    for i, (hand, ways, rank) in enumerate(
        zip(count.hands, count.ways.tolist(), count.rank.tolist(), strict=True)
    ):
        cards = tuple(classifier.cards(hand))
        index = classifier.category(hand)
        assert index is not None  # the category check ran first
        label = class_label(definition, index, cards)
        rows.append(HandRow(cards, ways, rank, index, label, weaker[i], equal[i], stronger[i]))
    return rows


def class_label(definition: Definition, index: int, cards: Sequence[Card]) -> str:
    """The hand's class: its category's label, or its points in a catch-all points category."""
    category = definition.categories[index]
    if split_by_points(category):
        return _points_label(patterns.points(cards, definition.shoe))
    return category.label


def hand_description(definition: Definition, index: int, cards: Sequence[Card]) -> str:
    """A hand as ``odds strength`` names it: its class, with its points where they rank it.

    ``Triple``, ``Flush, 9 points`` (a flush is ranked by points first), ``0 points``.
    """
    category = definition.categories[index]
    label = class_label(definition, index, cards)
    if "points" in category.tiebreak and not split_by_points(category):
        return f"{label}, {_points_label(patterns.points(cards, definition.shoe))}"
    return label


def split_by_points(category: Category) -> bool:
    """A catch-all category ranked by points first is shown per points total."""
    return category.pattern == (("any", True),) and category.tiebreak[:1] == ("points",)


def _points_label(points: int) -> str:
    return "1 point" if points == 1 else f"{points} points"


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
    by_category: dict[int, list[tuple[int, ...]]] = {}
    for hand in count.hands:
        index = classifier.category(hand)
        if index is not None:
            by_category.setdefault(index, []).append(hand)
    columns = {"weaker": weaker, "equal": equal, "stronger": stronger}
    names = [c.name for c in definition.categories]
    for a, category in enumerate(definition.categories):
        for beaten in category.beats:
            for special in by_category.get(a, []):
                for other in by_category.get(names.index(beaten), []):
                    for mine, theirs, wins in ((special, other, True), (other, special, False)):
                        left = list(counts)
                        for t in mine:
                            left[t] -= 1
                        ways = _weight(left, theirs)
                        if not ways:
                            continue
                        ours, rival = classifier.strength(mine), classifier.strength(theirs)
                        by_order = (
                            "weaker" if rival < ours else "stronger" if rival > ours else "equal"
                        )
                        by_exception = "weaker" if wins else "stronger"
                        if by_order != by_exception:
                            columns[by_order][at[mine]] -= ways
                            columns[by_exception][at[mine]] += ways
    return weaker, equal, stronger


def _weight(counts: Sequence[int], hand: Sequence[int]) -> int:
    ways = 1
    for t in set(hand):
        ways *= comb(counts[t], hand.count(t))
    return ways


def showdown_report_tables(definition: Definition, shoe: Any, game: str) -> tuple[Table, ...]:
    """The hand order, the showdown by category and the hand strength tables."""
    rows = showdown_rows(definition, shoe.types, shoe.counts)
    return (
        order_table(definition),
        showdown_table(definition, rows),
        strength_table(definition, rows, game),
    )


# ---------------------------------------------------------------------------
# The hand order, in words

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def _number(n: int) -> str:
    return _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)


def _listed(items: Sequence[str], last: str = "or") -> str:
    items = list(items)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def _symbol(rank: Any) -> str:
    return str(getattr(rank, "symbol", rank))


def pattern_text(definition: Definition, category: Category) -> str:
    """Who qualifies for a category, in words (its pattern's keys, every one must hold)."""
    parts = []
    for key, value in category.pattern:
        if key == "any":
            parts.append("any hand" if value else "no hand")
        elif key == "same_rank":
            whole = value == definition.deal.cards
            parts.append(f"{_number(value)} cards of one rank" + ("" if whole else ", no more"))
        elif key in ("sequence", "flush", "suited", "same_colour"):
            words = {
                "sequence": "consecutive ranks",
                "flush": "one suit",
                "suited": "one suit",
                "same_colour": "one colour",
            }[key]
            parts.append(words if value else f"not {words}")
        elif key == "faces":
            parts.append(f"{_number(value)} picture cards (J, Q, K)")
        elif key == "faces_at_least":
            parts.append(f"at least {_number(value)} picture cards (J, Q, K)")
        elif key == "points":
            parts.append(f"{_listed([str(p) for p in sorted(value)])} points")
        elif key == "ranks":
            parts.append(f"exactly {' '.join(_symbol(r) for r in value)}")
        elif key == "pair_rank":
            parts.append(f"a pair of {_listed([_symbol(r) for r in value])}")
        elif key == "cards":
            parts.append(f"{_number(value)} cards")
        else:  # pragma: no cover - the schema refuses other keys
            parts.append(f"{key} = {value}")
    return ", ".join(parts)


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


def strongest_first(definition: Definition) -> list[int]:
    """Category indices, strongest first (the strength order)."""
    return sorted(range(len(definition.categories)), key=lambda i: -definition.level(i))


def order_table(definition: Definition) -> Table:
    """The categories strongest first, each with who qualifies and its tie-break."""
    rows = []
    for i in strongest_first(definition):
        category = definition.categories[i]
        rule = f"{pattern_text(definition, category)}; {tiebreak_text(definition, category)}"
        if category.beats:
            beaten = ", ".join(_label(definition, b) for b in category.beats)
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


def _label(definition: Definition, name: str) -> str:
    return next(c.label for c in definition.categories if c.name == name)


# ---------------------------------------------------------------------------
# The showdown by category, and the hand strength by class


def showdown_table(definition: Definition, rows: Sequence[HandRow]) -> Table:
    """Win, tie and lose ways (and their shares) by the first position's category."""
    first, second = definition.deal.positions
    merged: dict[int, list[int]] = {}
    for row in rows:
        acc = merged.setdefault(row.category, [0, 0, 0])
        acc[0] += row.ways * row.weaker
        acc[1] += row.ways * row.equal
        acc[2] += row.ways * row.stronger
    table_rows = []
    totals = [0, 0, 0]
    for i in strongest_first(definition):
        win, tie, lose = merged.get(i, [0, 0, 0])
        totals = [totals[0] + win, totals[1] + tie, totals[2] + lose]
        table_rows.append(_showdown_row(definition.categories[i].label, win, tie, lose))
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


def strength_table(definition: Definition, rows: Sequence[HandRow], game: str) -> Table:
    """Per hand class: ways, exact P(beat one hand), the weakest and strongest hands."""
    groups: dict[str, list[HandRow]] = {}
    for row in rows:  # weakest first
        groups.setdefault(row.label, []).append(row)
    labels = sorted(groups, key=lambda label: groups[label][-1].rank, reverse=True)
    second = definition.deal.positions[1]
    example = " ".join(c.code for c in rows[-1].cards) if rows else ""
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
        rows=tuple(_strength_row(label, groups[label]) for label in labels),
        total={"name": "Total", "ways": sum(r.ways for r in rows)},
        note=(
            f"P(win) and P(tie) average over the class's hands, the {second}'s hand drawn "
            "from what the hand left. The weakest and strongest hands are the class's lowest "
            "and highest strength (when several share it: the first and the last in card order). "
            f'`odds strength {game} "{example}"` gives any one hand.'
        ),
    )


def _strength_row(label: str, rows: Sequence[HandRow]) -> dict[str, Any]:
    """One hand class's row of the hand-strength table (``rows`` weakest first)."""
    deals = sum(r.ways * (r.weaker + r.equal + r.stronger) for r in rows)
    win = sum(r.ways * r.weaker for r in rows)
    tie = sum(r.ways * r.equal for r in rows)
    weakest, strongest = rows[0], rows[-1]
    return {
        "name": label,
        "ways": sum(r.ways for r in rows),
        "win": Fraction(win, deals),
        "tie": Fraction(tie, deals),
        "lose": Fraction(deals - win - tie, deals),
        "weakest.hand": hand_text(weakest.cards),
        "weakest.win": weakest.beat,
        "strongest.hand": hand_text(strongest.cards),
        "strongest.win": strongest.beat,
    }
