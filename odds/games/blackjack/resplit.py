"""Exact values of splitting and resplitting a pair, for the post-split strategies.

The split strategy
------------------
Every split hand is played by a post-split strategy that looks at its own cards
only: the conventions of :mod:`.splits` (CDPN's hands by the splits made before
them: :func:`completions`, :func:`completion_value`). A pair card dealt to a split
hand as its second card is resplit while the round has fewer hands than its limit
(the player chooses, per up card and pair, the best limit up to the rule's; see
:func:`split_value`).

Why a handful of numbers suffice (the exchangeability argument)
---------------------------------------------------------------
Hands are dealt in turn from one shuffled shoe, each to the end before the
next one gets its second card, then the dealer draws. Each hand's play
depends on its own cards only, so the probability of any complete deal is a
product of falling factorials of the shoe that depends on the *multiset* of
cards dealt, not on who got them in which order. Consequently the cards a
finished hand drew after its second card may be moved behind the dealer's
(they are a stopping rule on the shoe: drawn or not, the law of everything
else is unchanged), and a hand's value depends on the rest of the round only
through the second cards of the other hands: ``a`` of them pair cards and
``b`` non-pair cards (of unknown rank). With

* ``p``, ``q``: pair and non-pair cards left after the up card and the pair,
* ``EV[X; a, b]``: a split hand whose second card may be anything (no split
  left), ``EV[N; a, b]``: one whose second card is a non-pair card,
* ``v(a, b) = (p − a) / (p + q − a − b)``: the chance that a random card of
  the shoe in state ``(a, b)`` is a pair card,

removing one random card changes nothing, so
``EV[X; a, b] = (EV[X; a, b−1] − v · EV[X; a+1, b−1]) / (1 − v)`` with
``v = v(a, b−1)``, and the same for ``N`` with ``v = v(a, b)`` (given that the
hand's own second card is a non-pair card, the random card is drawn from the
others); and ``EV[N; a, 0] = (EV[X; a, 0] − v(a, 0) · EV[P; a, 0]) / (1 − v(a, 0))``
where ``EV[P; a, 0]`` is the hand whose second card is a pair card it may not
resplit. Everything reduces to ``EV[X; a, 0]`` and ``EV[P; a, 0]`` for
``a = 0 … 2·(hands − 2)``: a split hand valued with ``a`` further pair cards
out of the shoe (:mod:`odds.games.blackjack.player` computes them exactly).

A round is a sequence of second cards, each a pair card (``P``: a resplit),
a non-pair card (``N``: the hand is complete) or, once the limit is reached,
any card (``X``). A sequence with ``A`` pair and ``B`` non-pair cards has
probability ``p^(A) · q^(B) / (p + q)^(A+B)`` (falling factorials), and its
hands are worth ``EV[N; A, B − 1]`` each (N-hands) and ``EV[X; A, B]`` each
(X-hands). The tests check all of this against a plain enumeration of the
split tree on small shoes (``tests/games/blackjack/test_blackjack_resplit.py``).

The same algebra applies to any linear quantity of a hand instead of its
value: the module works on :class:`Fraction` values or on outcome
distributions (``{net: probability}``) alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from odds.core.caching import cached
from odds.engine.polynomial import falling

V = TypeVar("V")


@dataclass(frozen=True)
class Pattern:
    """Second-card counts of one way a split round can unfold (see the module docstring)."""

    pairs: int  # A: pair cards dealt as second cards (each one a resplit)
    non_pairs: int  # B: non-pair second cards (each completes an N-hand)
    x_hands: int  # hands that got their second card once no split was left

    @property
    def hands(self) -> int:
        return self.non_pairs + self.x_hands


@cached
def patterns(limit: int) -> tuple[Pattern, ...]:
    """Every sequence of second cards for a pair split into at most ``limit`` hands, by its
    counts (:func:`completions` with the hands' kinds counted).

    One entry per sequence (sequences with equal counts repeat: each has the
    same probability). Always resplitting while fewer than ``limit`` hands:

    >>> [(p.pairs, p.non_pairs, p.x_hands) for p in patterns(2)]
    [(0, 0, 2)]
    >>> sorted((p.pairs, p.non_pairs, p.x_hands) for p in patterns(3))
    [(0, 2, 0), (1, 0, 3), (1, 1, 2)]
    """
    if limit < 2:
        raise ValueError("a split makes at least two hands")
    return tuple(
        Pattern(c.pairs, c.non_pairs, sum(kind == "X" for kind, _ in c.hands))
        for c in completions(limit)
    )


def max_pair_removals(limit: int) -> int:
    """Largest ``a`` for which ``EV[X; a, 0]`` and ``EV[P; a, 0]`` may be needed."""
    return 2 * (limit - 2)


class HandAlgebra(Generic[V]):
    """How to add and scale hand values (numbers or outcome distributions)."""

    def __init__(
        self,
        add: Callable[[V, V], V],
        scale: Callable[[V, Fraction], V],
        zero: V,
    ) -> None:
        self.add, self.scale, self.zero = add, scale, zero

    def combine(self, u: V, cu: Fraction, w: V, cw: Fraction) -> V:
        return self.add(self.scale(u, cu), self.scale(w, cw))


NUMBERS: HandAlgebra[Fraction] = HandAlgebra(lambda u, w: u + w, lambda u, c: u * c, Fraction(0))


def _add_dist(u: dict[Fraction, Fraction], w: dict[Fraction, Fraction]) -> dict[Fraction, Fraction]:
    out = dict(u)
    for net, p in w.items():
        out[net] = out.get(net, Fraction(0)) + p
    return out


DISTRIBUTIONS: HandAlgebra[dict[Fraction, Fraction]] = HandAlgebra(
    _add_dist, lambda u, c: {net: p * c for net, p in u.items()}, {}
)


class SplitHands(Generic[V]):
    """``EV[X; a, b]`` and ``EV[N; a, b]`` from the base values, lazily and exactly."""

    def __init__(
        self,
        pair_cards: int,
        other_cards: int,
        x_value: Callable[[int], V],
        p_value: Callable[[int], V],
        algebra: HandAlgebra[V],
    ) -> None:
        self.p, self.q = pair_cards, other_cards
        self.x_value, self.p_value, self.algebra = x_value, p_value, algebra
        self._memo: dict[tuple[str, int, int], V] = {}

    def chance_of_pair(self, a: int, b: int) -> Fraction:
        return Fraction(self.p - a, self.p + self.q - a - b)

    def value(self, kind: str, a: int, b: int) -> V:
        """``EV[kind; a, b]`` for kind ``"X"`` or ``"N"``."""
        key = (kind, a, b)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._value(kind, a, b)
        return found

    def in_round(self, kind: str, a: int, b: int) -> V:
        """A hand of ``kind`` (:class:`Completion`) in a round whose second cards are ``a``
        pair and ``b`` non-pair cards: an N-hand's own second card is one of the ``b``."""
        return self.value("N", a, b - 1) if kind == "N" else self.value("X", a, b)

    def _value(self, kind: str, a: int, b: int) -> V:
        alg = self.algebra
        if b == 0:
            if kind == "X":
                return self.x_value(a)
            v = self.chance_of_pair(a, 0)
            if v == 0:
                return self.x_value(a)
            return alg.combine(self.x_value(a), 1 / (1 - v), self.p_value(a), -v / (1 - v))
        # A random card removed in state (a, b − 1) is a pair card with chance v; an
        # N-hand's own (non-pair) second card is not among the cards it can be.
        v = self.chance_of_pair(a, b if kind == "N" else b - 1)
        if v == 0:  # no pair card left: removing a random card removes a non-pair card
            return self.value(kind, a, b - 1)
        return alg.combine(
            self.value(kind, a, b - 1), 1 / (1 - v), self.value(kind, a + 1, b - 1), -v / (1 - v)
        )


def split_value(value_of: Callable[[int], Fraction], limit: int) -> tuple[Fraction, int]:
    """The split's value and the number of hands it is best to stop at (2 … ``limit``).

    ``value_of(m)`` is the value always resplitting up to ``m`` hands. Splitting into
    at most ``m`` hands is available whenever ``m ≤ limit``, so the value never
    decreases as the limit rises (ties keep the smaller ``m``).
    """
    best, best_m = value_of(2), 2
    for m in range(3, limit + 1):
        value = value_of(m)
        if value > best:
            best, best_m = value, m
    return best, best_m


@dataclass(frozen=True)
class Completion:
    """One sequence of second cards, with the hands in the order they are completed.

    Each hand is ``(kind, c)``: ``"N"`` (a non-pair second card while a split was
    left) or ``"X"`` (any card, the limit reached), and ``c`` the splits beyond the
    first made when it got that card (what a CDPN player knows when playing it).
    """

    pairs: int
    non_pairs: int
    hands: tuple[tuple[str, int], ...]


@cached
def completions(limit: int) -> tuple[Completion, ...]:
    """Every sequence of second cards for a pair split into at most ``limit`` hands, each
    hand with its ``c`` (:func:`patterns` counts the same sequences, in the same order).

    >>> for c in completions(3):
    ...     print(c.pairs, c.non_pairs, c.hands)
    1 0 (('X', 1), ('X', 1), ('X', 1))
    1 1 (('N', 0), ('X', 1), ('X', 1))
    0 2 (('N', 0), ('N', 0))
    """
    found: list[Completion] = []

    def deal(hands: int, waiting: int, a: int, b: int, done: tuple[tuple[str, int], ...]) -> None:
        if hands < limit:
            deal(hands + 1, waiting + 1, a + 1, b, done)
            finish(hands, waiting, a, b + 1, (*done, ("N", hands - 2)))
        else:
            finish(hands, waiting, a, b, (*done, ("X", hands - 2)))

    def finish(hands: int, waiting: int, a: int, b: int, done: tuple[tuple[str, int], ...]) -> None:
        if waiting == 0:
            found.append(Completion(a, b, done))
        else:
            deal(hands, waiting - 1, a, b, done)

    deal(2, 1, 0, 0, ())
    return tuple(found)


def weighted_completions(
    pair_cards: int, other_cards: int, limit: int
) -> Iterator[tuple[Completion, Fraction]]:
    """Each sequence of second cards the shoe can deal (:func:`completions`) with its chance,
    ``p^(A) · q^(B) / (p + q)^(A+B)`` (see the module docstring)."""
    size = pair_cards + other_cards
    for completion in completions(limit):
        a, b = completion.pairs, completion.non_pairs
        ways = falling(pair_cards, a) * falling(other_cards, b)
        if ways:
            yield completion, Fraction(ways, falling(size, a + b))


def completion_value(
    pair_cards: int,
    other_cards: int,
    hands_for: Callable[[int], SplitHands[V]],
    limit: int,
    algebra: HandAlgebra[V],
) -> V:
    """Expected total of the split hands, resplitting up to ``limit`` hands; a hand's values
    are ``hands_for(c)``, ``c`` the splits made before it (CDPN's strategy depends on it, the
    other conventions' does not).

    Given the sequence of second cards, each hand plays by its own cards and a strategy
    fixed by the sequence, so the exchangeability argument holds hand by hand.
    """
    total = algebra.zero
    for completion, weight in weighted_completions(pair_cards, other_cards, limit):
        a, b = completion.pairs, completion.non_pairs
        for kind, c in completion.hands:
            total = algebra.add(total, algebra.scale(hands_for(c).in_round(kind, a, b), weight))
    return total
