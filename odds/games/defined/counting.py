"""How a definition asks the shared engine: rounds counted by classes, with card removal.

Three plans, chosen per bet from what its conditions read (the cheapest that is exact):

* **one hand** — a bet that reads one position only: the engine's
  :func:`~odds.engine.class_distribution` of that hand, times the ways to deal
  the other hand from what is left (the same for every first hand);
* **showdown** — a bet that reads the winner and, of one position, at most its
  category: :func:`~odds.engine.showdown.count_showdown` ranks every hand and gives, for each
  first hand, the second hand's weaker / equal / stronger ways after removal,
  split by category with the strength cuts at each category's start;
* **joint** — anything else on two hands: :func:`~odds.engine.joint_class_distribution`
  of the classes the bet reads (bounded and estimated before it starts).

A tableau deal (baccarat's drawing) is a state machine over the ten card values,
counted once by :func:`~odds.engine.ordered_deal_polynomial` (ordered deals extended
to six cards). Every distribution's total is asserted.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import comb
from typing import Any, cast

from odds.core.caching import cached
from odds.core.cards import Card, suit_symmetries
from odds.core.errors import OddsError
from odds.engine import (
    DealPolynomial,
    check_total,
    class_distribution,
    deal_count,
    falling,
    group_counts,
    hands,
    joint_class_distribution,
    ordered_deal_polynomial,
)
from odds.engine.showdown import Above, ShowdownCount, count_showdown
from odds.games.defined import first_cards, patterns, ranking, threshold
from odds.games.defined.colours import COLOUR, one_colour, reads_colour
from odds.games.defined.rounds import RoundKey, cut_key
from odds.games.defined.schema import (
    DRAWN_FEATURES,
    SUIT_TIEBREAKS,
    Definition,
    Tableau,
    cut_feature,
)

#: The most distinct hands the hand-by-hand plans take (estimated before starting).
MAX_HANDS = 400_000
#: The most hand-pair corrections the joint plan takes (estimated before starting).
MAX_JOINT_WORK = 40_000_000

# ---------------------------------------------------------------------------
# Tableau deals: a state machine over card values


#: Which position a card of each stage of the deal goes to, and which of its cards it is.
_RECIPIENT = {0: (0, 0), 1: (1, 0), 2: (0, 1), 3: (1, 1), 5: (0, 2), 6: (1, 2)}
#: The drawn-card feature of the whole coup: its highest card (read by the round condition
#: ``highest_value``, kept on every position's view).
COUP_HIGHEST = "_highest_value"
#: The most coup classes a tableau count may carry (its coups times the classes of the
#: drawn-card details read), estimated before the count starts: each class is a column of
#: the polynomial (~7,000 multisets of values by eight bytes).
MAX_COUP_CLASSES = 3_000

#: A drawn-card detail: ``(feature, position index (-1: the coup), classes)``; ``classes``
#: maps each value 0–9 and, at index 10, ``None`` (no third card) to its class's first value.
Detail = tuple[str, int, tuple[Any, ...]]


def _class(classes: tuple[Any, ...], value: int | None) -> Any:
    return classes[10 if value is None else value]


@dataclass(frozen=True)
class TableauProcedure:
    """A points deal with drawing, first position then second, two cards each, then draws.

    States ``(stage, first total, second total, first cards, details)``; a finished deal is
    ``("done", first points, second points, first cards, second cards, *details)``.
    ``details`` are the drawn-card features some bet reads (:func:`coup_details`):
    ``two_card_points``, ``third_value`` (``None`` when the position stood) and
    ``highest_value`` of a position or of the coup (of the cards dealt: the cards that
    extend a deal to six are not the coup's), each finished coup carrying the class of its
    value (the first value its bets do not tell apart from it).
    """

    tableau: Tableau
    details: tuple[Detail, ...] = ()

    @property
    def start(self) -> tuple[Any, ...]:
        return (0, 0, 0, 2, tuple(-1 if "highest" in name else None for name, _, _ in self.details))

    def _noted(self, state: tuple[Any, ...], value: int) -> tuple[Any, ...]:
        """The details after a card of ``value`` at this state (the highest card's value
        itself, the others already as their class)."""
        stage, ft, st, _, details = state
        position, index = _RECIPIENT[stage]
        noted = []
        for (name, p, classes), was in zip(self.details, details, strict=True):
            if p not in (position, -1):
                noted.append(was)
            elif "highest" in name:
                noted.append(max(was, value))
            elif name == "third_value":
                noted.append(_class(classes, value) if index == 2 else was)
            elif index == 1:  # two_card_points, known at the position's second card
                noted.append(_class(classes, ((ft if p == 0 else st) + value) % 10))
            else:
                noted.append(was)
        return tuple(noted)

    def _done(
        self, fp: int, sp: int, fc: int, sc: int, details: tuple[Any, ...]
    ) -> tuple[Any, ...]:
        classes = (  # the highest card's class (the others were noted as classes)
            _class(c, v) if "highest" in name else v
            for (name, _, c), v in zip(self.details, details, strict=True)
        )
        return ("done", fp, sp, fc, sc, *classes)

    def step(self, state: tuple[Any, ...], value: int) -> tuple[Any, ...]:
        stage, ft, st, fn, _ = state
        details = self._noted(state, value) if self.details else ()
        t = self.tableau
        if stage in (0, 2):
            return (stage + 1, (ft + value) % 10, st, fn, details)
        if stage == 1:
            return (2, ft, value, fn, details)
        if stage == 3:
            st = (st + value) % 10
            if ft in t.naturals or st in t.naturals:
                return self._done(ft, st, 2, 2, details)
            if ft in t.first_draws:
                return (5, ft, st, 2, details)
            if st in t.second_draws_first_stood:
                return (6, ft, st, 2, details)
            return self._done(ft, st, 2, 2, details)
        if stage == 5:
            total = (ft + value) % 10
            if t.second_draws_on(st, value):
                return (6, total, st, 3, details)
            return self._done(total, st, 3, 2, details)
        return self._done(ft, (st + value) % 10, fn, 3, details)

    def outcome(self, state: tuple[Any, ...]) -> tuple[Any, ...] | None:
        return state[1:] if state[0] == "done" else None


@cached(maxsize=16)
def tableau_polynomial(tableau: Tableau, details: tuple[Detail, ...] = ()) -> DealPolynomial[Any]:
    """Every finished deal's ordered ways as a polynomial in the ten value counts (cached),
    each coup carrying the classes of the drawn-card ``details`` read (:func:`coup_details`)."""
    return ordered_deal_polynomial(TableauProcedure(tableau, details), 10, 6)


def coup_details(definition: Definition, reads: Mapping[str, set[str]]) -> tuple[Detail, ...]:
    """The drawn-card features read, each with the classes of values the definition's
    conditions tell apart (every value set any outcome of any bet tests the feature with,
    so that a value's class holds exactly the tests the value holds)."""
    positions = definition.deal.positions
    wanted = detail_tests(definition)
    found: list[Detail] = []
    for i, p in enumerate(positions):
        for name in sorted(reads.get(p, set()) & {*DRAWN_FEATURES, COUP_HIGHEST}):
            index = -1 if name == COUP_HIGHEST else i
            if index == -1 and i:
                continue  # the coup's highest card: one detail, on every position's view
            tests = wanted.get((name, p if index >= 0 else ""), [])
            domain: list[int | None] = [*range(10), None]
            signature = [tuple(v in t for t in tests) for v in domain]
            classes = tuple(domain[signature.index(sig)] for sig in signature)
            found.append((name, index, classes))
    return tuple(found)


def detail_tests(definition: Definition) -> dict[tuple[str, str], list[frozenset[Any]]]:
    """Every value set the definition's conditions test a drawn-card feature with, by
    ``(feature, position)`` (the coup's highest card: ``(COUP_HIGHEST, "")``)."""
    found: dict[tuple[str, str], list[frozenset[Any]]] = {}

    for bet in definition.bets:
        for outcome in bet.outcomes:
            for position, name, accepted in outcome.when.every_test() if outcome.when else ():
                if name in DRAWN_FEATURES:
                    key = (name, position) if position else (COUP_HIGHEST, "")
                    if accepted not in found.setdefault(key, []):
                        found[key].append(accepted)
    return found


def check_details(definition: Definition, details: tuple[Detail, ...]) -> None:
    """Refuse, before it starts, a tableau count whose drawn-card details would give more
    coup classes than :data:`MAX_COUP_CLASSES` (estimated: the tableau's coups times the
    classes of each detail)."""
    tableau = definition.deal.tableau
    assert tableau is not None
    estimate = len(tableau_polynomial(tableau).keys)
    for name, _, classes in details:
        estimate *= len(set(classes if name == "third_value" else classes[:10]))
    if estimate > MAX_COUP_CLASSES:
        read = ", ".join(
            f"{definition.deal.positions[i]}.{name}" if i >= 0 else "highest_value"
            for name, i, _ in details
        )
        raise OddsError(
            f"{definition.source}: a tableau bet reading {read} needs ~{estimate:,} coup "
            f"classes (limit {MAX_COUP_CLASSES:,}); test fewer values of the drawn cards, or "
            "split the bet"
        )


def value_counts(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> tuple[int, ...]:
    """Card counts merged into counts per value mod 10 (the tableau's card types)."""
    group_of = [definition.shoe.values[card.rank] % 10 for card in types]
    return group_counts(counts, group_of, 10)


def tableau_rounds(
    definition: Definition,
    types: Sequence[Card],
    counts: Sequence[int],
    winner: bool,
    reads: Mapping[str, set[str]],
) -> dict[RoundKey, int]:
    """Ordered ways per round key of a tableau deal (each deal extended to six cards)."""
    tableau = definition.deal.tableau
    assert tableau is not None
    if first_cards.reads_first_cards(reads):
        first_cards.check_reads(definition, winner, reads)
        return first_cards.first_card_rounds(definition, types, counts, reads)
    details = coup_details(definition, reads)
    check_details(definition, details)
    ways = tableau_polynomial(tableau, details).ways(value_counts(definition, types, counts))
    result: Counter[RoundKey] = Counter()
    for coup, n in ways.items():
        if n:
            result[coup_round_key(definition, coup, winner, reads, details)] += n
    check_total(result, falling(sum(counts), 6), "tableau rounds")
    return dict(result)


def coup_round_key(
    definition: Definition,
    coup: tuple[Any, ...],
    winner: bool,
    reads: Mapping[str, set[str]],
    details: tuple[Detail, ...] = (),
) -> RoundKey:
    """A finished coup ``(first points, second points, first cards, second cards, *details)``
    as a bet reading ``winner`` and ``reads`` sees it (``details``: the coup's drawn-card
    features, in the order of :func:`tableau_polynomial`'s)."""
    tableau = definition.deal.tableau
    assert tableau is not None
    first, second = definition.deal.positions
    fp, sp, fc, sc = coup[:4]
    noted = {(name, i): v for (name, i, _), v in zip(details, coup[4:], strict=True)}
    who = winner_of(definition, fp, sp) if winner else None
    views = []
    for i, (position, p, c) in enumerate(((first, fp, fc), (second, sp, sc))):
        found = {"points": p, "cards": c, "natural": c == 2 and p in tableau.naturals}
        for name in reads[position] & set(DRAWN_FEATURES):
            found[name] = noted[name, i]
        if COUP_HIGHEST in reads[position]:
            found[COUP_HIGHEST] = noted[COUP_HIGHEST, -1]
        views.append(tuple((name, found[name]) for name in sorted(reads[position])))
    return (who, *views)


# ---------------------------------------------------------------------------
# Hands deals: one or two positions of fixed-size hands


class HandClassifier:
    """A hand's cards, strength and features, worked out once per distinct hand shape.

    A hand's category, points and ranks depend only on its ranks and on whether
    its cards share one suit, so those are cached by that *shape* (455 rank
    multisets and a flag for three cards, instead of 22,100 hands); what reads
    particular suits (a suit tie-break, ``suit``, ``suited_pair``, ``same_suit``)
    is cached by the hand itself. A tile hand is its own shape (a set has a few dozen
    hands), classified by the tile vocabulary (:mod:`odds.games.defined.tile_patterns`,
    through :mod:`~odds.games.defined.patterns`).
    """

    _SUIT_READS = frozenset({"suit", "_suits", "suited_pair", "colour_pair", "_hand"})

    def __init__(self, definition: Definition, types: Sequence[Card]) -> None:
        self.definition = definition
        self.types = tuple(types)
        self._suit_strength = reads_suits_in_strength(definition)
        self._colour = reads_colour(definition)
        self._cache: dict[Any, Any] = {}
        #: The last few showdowns counted with these hands (:func:`showdown_count`).
        self.showdowns: dict[tuple[Any, ...], ShowdownCount] = {}
        self._shapes: dict[tuple[int, ...], Any] = {}
        self._categories: dict[tuple[int, ...], int | None] = {}
        self._strengths: dict[tuple[int, ...], Any] = {}
        self._views: dict[frozenset[str], tuple[bool, dict[tuple[int, ...], Any]]] = {}
        self._by_category = "category" in definition.compare

    def cards(self, hand: tuple[int, ...]) -> list[Card]:
        return [self.types[t] for t in hand]

    def _shape(self, hand: tuple[int, ...]) -> Any:
        found = self._shapes.get(hand)
        if found is None and self.definition.tiles is not None:
            found = self._shapes[hand] = hand  # a tile set has a few dozen hands: each its own
        if found is None:
            cards = self.cards(hand)
            shape = (tuple(sorted(c.rank for c in cards)), len({c.suit for c in cards}) == 1)
            found = (*shape, one_colour(cards)) if self._colour else shape
            self._shapes[hand] = found
        return found

    def prime(self, hands: Sequence[tuple[int, ...]]) -> None:
        """Every hand's shape and category at once, by array work (one of each computed per
        distinct shape): a report asks the category of 22,100 three-card hands, 741 shapes."""
        import numpy as np

        fresh = [hand for hand in hands if hand not in self._shapes]
        if len(fresh) < 64:
            return
        ranks = sorted({card.rank for card in self.types})
        suits = sorted({card.suit for card in self.types})
        rank_of = np.array([ranks.index(card.rank) for card in self.types], dtype=np.int64)
        suit_of = np.array([suits.index(card.suit) for card in self.types], dtype=np.int64)
        colour_of = np.array([COLOUR[card.suit] == "red" for card in self.types])
        table = np.array(fresh, dtype=np.int64)
        if table.ndim != 2 or table.shape[1] < 1:
            return
        held = np.sort(rank_of[table], axis=1)
        code = held @ ((len(ranks) + 1) ** np.arange(table.shape[1], dtype=np.int64))
        suited, coloured = suit_of[table], colour_of[table]
        flags = (suited == suited[:, :1]).all(axis=1) * 2 + (coloured == coloured[:, :1]).all(
            axis=1
        )
        keys = (code * 4 + flags).tolist()
        shapes: dict[int, tuple[Any, int | None]] = {}
        for hand, key in zip(fresh, keys, strict=True):
            found = shapes.get(key)
            if found is None:  # the first hand of this shape: its shape and category
                found = shapes[key] = (self._shape(hand), self.category(hand))
            self._shapes[hand], self._categories[hand] = found

    def strength(self, hand: tuple[int, ...]) -> Any:
        found = self._strengths.get(hand)  # asked again and again: by the hand first
        if found is None:
            key = ("s", hand if self._suit_strength else self._shape(hand))
            found = self._cache.get(key)
            if found is None:
                index = self.category(hand) if self._by_category else None
                found = patterns.strength(self.cards(hand), self.definition, index)
                self._cache[key] = found
            self._strengths[hand] = found
        return found

    def category(self, hand: tuple[int, ...]) -> int | None:
        if hand in self._categories:  # asked again and again: by the hand first
            return self._categories[hand]
        key = ("c", self._shape(hand))
        found = self._cache.get(key, _MISSING)
        if found is _MISSING:
            found = self._cache[key] = patterns.category_of(self.cards(hand), self.definition)
        self._categories[hand] = cast("int | None", found)
        return self._categories[hand]

    def view(self, hand: tuple[int, ...], names: set[str]) -> tuple[Any, ...]:
        frozen = frozenset(names)
        kept = self._views.get(frozen)
        if kept is None:  # whether the view reads the suits, and the views by hand
            by_hand = bool(frozen & self._SUIT_READS) or (
                self._suit_strength and any(cut_feature(n) for n in frozen)
            )
            kept = self._views[frozen] = (by_hand, {})
        found = kept[1].get(hand)  # asked again and again: by the hand first
        if found is None:
            key = ("v", hand if kept[0] else self._shape(hand), frozen)
            found = self._cache.get(key)
            if found is None:
                found = self._cache[key] = patterns.view(self.cards(hand), names, self.definition)
            kept[1][hand] = found
        return found


_MISSING = object()


def reads_suits_in_strength(definition: Definition) -> bool:
    """Whether comparing two hands reads particular suits (a suit tie-break)."""
    return bool(SUIT_TIEBREAKS & set(definition.compare)) or any(
        SUIT_TIEBREAKS & set(c.tiebreak) for c in definition.categories
    )


def clear_caches(definition: Definition) -> None:
    """Forget the definition's classified hands and every tableau table (``odds bench``)."""
    definition.classifiers.clear()
    tableau_polynomial.cache_clear()


def classifier_for(definition: Definition, types: Sequence[Card]) -> HandClassifier:
    """One classifier per definition and card set, shared by every bet and composition."""
    key = tuple(types)
    found = definition.classifiers.get(key)
    if found is None:
        found = definition.classifiers[key] = HandClassifier(definition, types)
    assert isinstance(found, HandClassifier)
    return found


def estimate_hands(types: int, size: int) -> int:
    """Distinct hands (multisets of ``size`` from ``types`` types) the counting will visit."""
    return comb(types + size - 1, size)


def check_bounds(definition: Definition, types: int, shoe_size: int, joint: bool) -> None:
    """Refuse, before starting, a deal the shoe cannot hold or too large to enumerate."""
    cards = definition.round_cards
    if cards > shoe_size:
        raise OddsError(
            f"{definition.source}: a round deals {cards} cards but the shoe holds {shoe_size}"
        )
    if definition.deal.tableau is not None:
        return
    if definition.deal.until_match is not None:
        from odds.games.defined.until_match import check_work

        check_work(definition, types, shoe_size)
        return
    if definition.deal.best:  # counted by classes (odds.games.defined.best_of)
        return
    size = definition.deal.cards + bool(definition.deal.draw_at_most)
    hands_ = estimate_hands(types, size)
    if hands_ > MAX_HANDS:
        raise OddsError(
            f"{definition.source}: {size}-card hands from {types} card types are "
            f"~{hands_:,} distinct hands, over the limit of {MAX_HANDS:,} for exact counting"
        )
    if joint:
        work = hands_ * min(hands_, size * size * hands_ // max(types, 1))
        if work > MAX_JOINT_WORK:
            raise OddsError(
                f"{definition.source}: a bet reading both hands' features needs ~{work:,} "
                f"hand-pair corrections (limit {MAX_JOINT_WORK:,}); read at most the category "
                "of one of the two positions, or the winner only"
            )


def by_rank_where_large(
    definition: Definition,
    types: Sequence[Card],
    counts: Sequence[int],
    winner: bool,
    reads: Mapping[str, set[str]],
) -> tuple[Sequence[Card], Sequence[int]]:
    """The card types merged by rank (or by value) where the hands by card would be past
    :data:`MAX_HANDS` and nothing counted reads a suit (exact: a hand's ways are then a
    product of binomials over its ranks). Five cards from one deck are ~3.8 million hands
    by card, 6,188 by rank (Bull Bull). Smaller deals keep their card types."""
    held = [i for i, n in enumerate(counts) if n]
    if estimate_hands(len(held), definition.deal.cards) <= MAX_HANDS:
        return types, counts
    level = threshold.detail(definition, winner, reads)
    kept = [types[i] for i in held], [counts[i] for i in held]
    return threshold.merged_types(definition, *kept, max(level, 1))


def plan(definition: Definition, winner: bool, reads: Mapping[str, set[str]]) -> str:
    """The counting plan for a bet reading these features (see the module docstring)."""
    positions = definition.deal.positions
    if definition.deal.tableau is not None:
        return "tableau"
    if len(positions) == 1:
        return "one-hand"
    first, second = positions
    if not winner and not (reads[first] and reads[second]):
        return "one-hand"
    banded = not definition.categories or definition.compare[0] == "category"
    if winner and bandable(reads[second], banded):
        return "showdown"
    if winner and bandable(reads[first], banded):
        return "showdown-swapped"
    return "joint"


def bandable(reads: set[str], by_category: bool) -> bool:
    """Whether the showdown can band a position that reads these features: its category
    (when hands compare by category first) and comparisons with reference hands."""
    plain = {n for n in reads if cut_feature(n) is None}
    return plain <= {"category"} and (by_category or not plain)


def hand_rounds(
    definition: Definition,
    types: Sequence[Card],
    counts: Sequence[int],
    winner: bool,
    reads: Mapping[str, set[str]],
) -> dict[RoundKey, int]:
    """Unordered ways per round key (hands unordered inside, ordered between positions)."""
    if definition.deal.best:  # the best k of the hand's cards, counted by classes
        from odds.games.defined import best_of

        return best_of.rounds(definition, types, counts, reads)
    if definition.deal.draw_at_most:
        # Card types merged by value or rank where the bet reads no more (exact).
        level = threshold.detail(definition, winner, reads)
        merged, merged_counts = threshold.merged_types(definition, types, counts, level)
        check_bounds(definition, len(merged), sum(counts), False)
        classifier = classifier_for(definition, merged)
        names = set().union(*reads.values())
        symmetries = _symmetries(classifier, names) if level == 2 else []
        return threshold.threshold_rounds(classifier, merged_counts, winner, reads, symmetries)
    types, counts = by_rank_where_large(definition, types, counts, winner, reads)
    classifier = classifier_for(definition, types)
    how = plan(definition, winner, reads)
    check_bounds(definition, sum(1 for n in counts if n), sum(counts), how == "joint")
    positions = definition.deal.positions
    size = definition.deal.cards
    total = deal_count(counts, [size] * len(positions))
    if how == "one-hand":
        result = _one_hand(classifier, counts, positions, reads)
    elif how == "joint":
        result = _joint(classifier, counts, winner, reads)
    else:
        result = _showdown(classifier, counts, reads, swapped=how == "showdown-swapped")
    if winner and ranking.has_exceptions(definition):
        result = ranking.correct_exceptions(classifier, counts, result, reads)
    check_total(result, total, f"{definition.source}: rounds")
    return result


def _one_hand(
    classifier: HandClassifier,
    counts: Sequence[int],
    positions: Sequence[str],
    reads: Mapping[str, set[str]],
) -> dict[RoundKey, int]:
    """One position read: its hand's classes, each times the ways to deal the other hand."""
    size = classifier.definition.deal.cards
    read = next((i for i, p in enumerate(positions) if reads[p]), 0)
    names = reads[positions[read]]
    distribution = class_distribution(counts, size, lambda hand: classifier.view(hand, names))
    others = deal_count([sum(counts) - size], [size] * (len(positions) - 1))
    result: dict[RoundKey, int] = {}
    for view, ways in distribution.items():
        views: list[tuple[Any, ...]] = [()] * len(positions)
        views[read] = view
        result[(None, *views)] = ways * others
    return result


def winner_of(definition: Definition, first_key: Any, second_key: Any) -> str:
    """The position whose strength key is greater, or the definition's ``ties``."""
    first, second = definition.deal.positions
    if first_key > second_key:
        return first
    if second_key > first_key:
        return second
    return definition.ties


def _symmetries(classifier: HandClassifier, reads: set[str]) -> list[tuple[int, ...]]:
    """Suit permutations when nothing read depends on which suit a card has."""
    definition = classifier.definition
    if definition.tiles is not None:  # tiles have no suits
        return []
    if reads_suits_in_strength(definition) or reads & {"suit", "_suits", "colour_pair", "_hand"}:
        return []
    if reads_colour(definition):  # a permutation of the suits may change a colour
        return []
    return suit_symmetries(classifier.types)


def _joint(
    classifier: HandClassifier,
    counts: Sequence[int],
    winner: bool,
    reads: Mapping[str, set[str]],
) -> dict[RoundKey, int]:
    definition = classifier.definition
    first, second = definition.deal.positions
    names = reads[first] | reads[second]

    def classify(hand: tuple[int, ...]) -> Any:
        return (classifier.strength(hand) if winner else None, classifier.view(hand, names))

    joint = joint_class_distribution(
        counts, definition.deal.cards, classify, _symmetries(classifier, names)
    )
    result: Counter[RoundKey] = Counter()
    cuts: dict[tuple[Any, Any], RoundKey] = {}  # a pair of views recurs for many strengths
    for ((fs, fv), (ss, sv)), ways in joint.items():
        who = winner_of(definition, fs, ss) if winner else None
        views = cuts.get((fv, sv))
        if views is None:
            views = cuts[fv, sv] = cut_key(None, (first, second), reads, (fv, sv))[1:]
        result[(who, *views)] += ways
    return dict(result)


def showdown_count(
    classifier: HandClassifier,
    counts: Sequence[int],
    by_category: bool = False,
    extra: tuple[Any, ...] = (),
) -> ShowdownCount:
    """The engine's showdown of every hand against a second hand, counted once per composition.

    Every bet that reads the winner and at most one position's category, in either
    seat (the two hands are dealt alike, so the swapped bet is the same count), the
    report's showdown tables and ``odds strength`` share it: the classifier keeps the
    last few counts (a count with the category cuts also answers a plain request).
    Where hands are compared by category first, the cuts are counted even when not asked
    for: they cost a few array lookups, and a report asks first without them (its
    showdown tables), then with them (a bet on the winner against a category), which
    counted the showdown twice (~0.4 s of San Gong's report). ``extra`` cuts (a reference
    hand's key, or :class:`~odds.engine.showdown.Above` it: ``at_least``/``at_most``) come
    after the category cuts' columns.
    """
    definition = classifier.definition
    key = tuple(counts)
    kept: dict[tuple[Any, ...], ShowdownCount] = classifier.showdowns
    for wanted in ((key, True, extra), (key, False, extra))[: 1 if by_category else 2]:
        found = kept.get(wanted)
        if found is not None:
            return found
    by_category = by_category or bool(
        definition.categories and definition.compare and definition.compare[0] == "category"
    )
    levels = len(definition.categories)
    cuts: list[Any] = [((level,),) for level in range(1, levels + 1)] if by_category else []
    found = count_showdown(key, definition.deal.cards, classifier.strength, [*cuts, *extra])
    if len(kept) >= 4:
        kept.clear()
    kept[key, by_category, extra] = found
    return found


def reference_cut(definition: Definition, name: str) -> Any:
    """The showdown cut of a cut feature (``at_least:Q 3 2``): the reference hand's key, from
    which on ``at_least`` holds, or :class:`Above` it, from which on ``at_most`` fails."""
    cut = cut_feature(name)
    assert cut is not None
    key = patterns.reference_strength(definition, cut[1])
    return key if cut[0] == "at_least" else Above(key)


@dataclass
class ShowdownCells:
    """A showdown split into cells, per first hand, before any sum over hands.

    ``count`` is the engine's showdown (hands weakest first, ``count.ways`` dealing each);
    ``cells[i]`` is ``(winner, banded view)`` and ``columns[i]`` the second hand's ways in
    that cell after each first hand's removal (an array over ``count.hands``). Every
    bet on the showdown sums ``ways × column`` per full view; a decision first chooses
    each hand's action from the same columns (odds.games.defined.decisions).
    """

    count: ShowdownCount
    full: str
    banded: str
    cells: list[tuple[Any, tuple[Any, ...]]]
    columns: list[Any]


def showdown_cells(
    classifier: HandClassifier,
    counts: Sequence[int],
    winner: bool,
    banded_reads: set[str],
    swapped: bool,
) -> ShowdownCells:
    """Every first hand against the second hand after removal, the second banded by the
    strength cuts it reads: each category's start, and each reference hand
    (``at_least``/``at_most``). Between two consecutive cuts the banded view is one, so
    each band's ways come from two ``at_least`` columns, split at the full hand's own key."""
    import numpy as np

    definition = classifier.definition
    first, second = definition.deal.positions
    full, banded = (second, first) if swapped else (first, second)
    by_category = "category" in banded_reads
    names = sorted(n for n in banded_reads if cut_feature(n) is not None)
    extra = tuple(reference_cut(definition, n) for n in names)
    count = showdown_count(classifier, counts, by_category, extra)
    levels = len(definition.categories)
    name_of = {definition.level(i): c.name for i, c in enumerate(definition.categories)}
    keys = count.keys
    top = len(keys)
    # Boundary ranks and the at-least columns at them (rank 0: every second hand).
    after = count.weaker + count.equal + count.stronger
    columns: dict[int, Any] = {0: after, top: np.zeros_like(after)}
    first_extra = levels if count.at_least.shape[1] > len(extra) else 0
    wanted = []
    if by_category:
        wanted += [(bisect_left(keys, ((level,),)), level - 1) for level in range(1, levels + 1)]
    for k, cut in enumerate(extra):
        at = bisect_right(keys, cut.key) if isinstance(cut, Above) else bisect_left(keys, cut)
        wanted.append((at, first_extra + k))
    for at, index in wanted:
        columns.setdefault(at, count.at_least[:, index])
    bounds = sorted(columns)
    own = count.rank
    cells: list[tuple[Any, tuple[Any, ...]]] = []
    found: list[Any] = []
    for lo, hi in pairwise(bounds):
        if lo >= hi:
            continue
        key = keys[lo]
        view: dict[str, Any] = {}
        if by_category:
            view["category"] = name_of[key[0][0]]
        for name, cut in zip(names, extra, strict=True):
            view[name] = key >= cut if not isinstance(cut, Above) else key <= cut.key
        band = tuple(sorted(view.items()))
        in_band = columns[lo] - columns[hi]
        inside = (own >= lo) & (own < hi)
        stronger = np.where(inside, count.stronger - columns[hi], 0)
        equal = np.where(inside, count.equal, 0)
        weaker = np.where(inside, in_band - stronger - equal, 0)
        # The full hand's result against a banded hand of this band.
        full_wins = np.where(own >= hi, in_band, 0) + weaker
        banded_wins = np.where(own < lo, in_band, 0) + stronger
        if winner:
            for who, column in ((full, full_wins), (definition.ties, equal),
                                (banded, banded_wins)):  # fmt: skip
                cells.append((who, band))
                found.append(column)
        else:
            cells.append((None, band))
            found.append(in_band)
    return ShowdownCells(count, full, banded, cells, found)


def _showdown(
    classifier: HandClassifier,
    counts: Sequence[int],
    reads: Mapping[str, set[str]],
    swapped: bool,
) -> dict[RoundKey, int]:
    """Every first hand against the second hand after removal, the second banded by category
    and by the reference hands it reads (:func:`showdown_cells`), summed per full view.

    The joint of two hands dealt one after the other is symmetric, so a bet that
    reads the second position fully and the first by category only is counted
    with the positions' roles exchanged (``swapped``): the same count
    (:func:`showdown_count`), read the other way.
    """
    first, second = classifier.definition.deal.positions
    full, banded = (second, first) if swapped else (first, second)
    found = showdown_cells(classifier, counts, True, reads[banded], swapped)
    ids, views = full_views(classifier, found.count.hands, reads[full])
    result: Counter[RoundKey] = Counter()
    for (who, band), column in zip(found.cells, found.columns, strict=True):
        for view, n in enumerate(per_view(ids, len(views), found.count.ways * column)):
            if n:
                pair = (views[view], band) if not swapped else (band, views[view])
                result[(who, *pair)] += n
    return dict(result)


def full_views(
    classifier: HandClassifier, hands: Sequence[tuple[int, ...]], names: set[str]
) -> tuple[Any, list[tuple[Any, ...]]]:
    """Each hand's view numbered (an array of ids over ``hands``), and the views."""
    import numpy as np

    view_ids: dict[Any, int] = {}
    if names:
        ids = np.array(
            [view_ids.setdefault(classifier.view(h, names), len(view_ids)) for h in hands],
            dtype=np.int64,
        )
    else:  # nothing read of it: one view
        view_ids[()] = 0
        ids = np.zeros(len(hands), dtype=np.int64)
    return ids, list(view_ids)


def per_view(ids: Any, views: int, values: Any) -> list[int]:
    """``values`` (one per hand) summed per view id, as Python integers."""
    import numpy as np

    summed = np.zeros(views, dtype=values.dtype)
    np.add.at(summed, ids, values)
    return [int(v) for v in summed.tolist()]


def category_distribution(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> dict[int | None, int]:
    """Ways per category index of one hand (``None``: a hand no category describes)."""
    if definition.deal.best:
        from odds.games.defined import best_of

        return best_of.category_ways(definition, types, counts)
    if definition.deal.draw_at_most:
        level = threshold.detail(definition, False, {"": {"category"}})
        merged, merged_counts = threshold.merged_types(definition, types, counts, level)
        return threshold.category_distribution(classifier_for(definition, merged), merged_counts)
    types, counts = by_rank_where_large(definition, types, counts, False, {"": {"category"}})
    check_bounds(definition, sum(1 for n in counts if n), sum(counts), False)
    classifier = classifier_for(definition, types)
    dealt = hands(counts, definition.deal.cards)
    classifier.prime([hand for hand, _ in dealt])
    return class_distribution(counts, definition.deal.cards, classifier.category, dealt)
