"""Shuffle quality: is each shoe's order that of a random shuffle?

Given the cards a shoe showed, a fair shuffle makes every order of them
equally likely. Three statistics are compared with their exact mean and
variance over those orders (a permutation null, computed in integers from the
shoe's own cards), summed over shoes and standardised (normal p-values: each
is a sum over hundreds of card pairs per shoe; the false-alarm rate is
measured, :mod:`tests.measure.power`):

* **serial correlation** of ranks (A = 1 … K = 13; a tile's index):
  ``Σ x_i x_{i+1}`` over consecutive cards. A stacked slug (cards put together
  by rank) raises it. Two-sided.
* **runs** of high (8 … K) and low (A … 6) cards, sevens left out (the rest of
  a random order is still a random order): Wald and Wolfowitz's count; too
  few runs is clumping, too many alternation. Two-sided.
* **the previous shoe's order kept**: how many consecutive pairs of cards
  (by card, suits and all) a shoe shows that the shoe before it also showed
  one after the other. A shoe made by riffling the previous shoe's discards
  once or twice keeps most of them. One-sided (only too many is a fault).

A card's order is the log's: rounds in order, a round's hands in column
order, a hand's cards as written.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.stats.significance import NORMAL, PValue
from odds.tools.audit.shoes import DealtShoe, ShoeTest

#: Fewer consecutive pairs than this over the whole log: not tested.
MIN_PAIRS = 50


@dataclass(frozen=True)
class Moments:
    """A statistic's observed value and its exact permutation mean and variance."""

    observed: Fraction
    mean: Fraction
    variance: Fraction

    @property
    def z(self) -> float:
        if self.variance <= 0:
            return 0.0
        return float(self.observed - self.mean) / math.sqrt(self.variance)


def rank_values(shoe: Shoe[Any]) -> list[int]:
    """Each type's value for the serial correlation: a card's rank (A = 1), else its index."""
    types = shoe.types
    if types and all(isinstance(t, Card) for t in types):
        return [int(t.rank) for t in types]
    return list(range(1, len(types) + 1))


def serial_moments(values: Sequence[int]) -> Moments:
    """``S = Σ x_i x_{i+1}``, with its mean and variance over every order of ``values``.

    With power sums ``A_k = Σ x^k`` over the ``m`` values, falling factorials
    ``(m)_k``: ``E[x_i x_{i+1}] = (A1² − A2)/(m)_2``; the variance adds the
    ``m − 1`` squares, the ``2(m − 2)`` overlapping pairs and the
    ``(m − 2)(m − 3)`` disjoint ones.
    """
    m = len(values)
    observed = Fraction(sum(a * b for a, b in itertools.pairwise(values)))
    if m < 4:
        return Moments(observed, observed, Fraction(0))
    a1, a2, a3, a4 = (sum(x**k for x in values) for k in (1, 2, 3, 4))
    f2, f3, f4 = m * (m - 1), m * (m - 1) * (m - 2), m * (m - 1) * (m - 2) * (m - 3)
    pair = Fraction(a1 * a1 - a2, f2)
    square = Fraction(a2 * a2 - a4, f2)
    chain = Fraction(a1 * a1 * a2 - 2 * a1 * a3 - a2 * a2 + 2 * a4, f3)
    apart = Fraction(a1**4 - 6 * a1 * a1 * a2 + 3 * a2 * a2 + 8 * a1 * a3 - 6 * a4, f4)
    mean = (m - 1) * pair
    second = (m - 1) * square + 2 * (m - 2) * chain + (m - 2) * (m - 3) * apart
    return Moments(observed, mean, second - mean * mean)


def runs_moments(high: Sequence[bool]) -> Moments:
    """The number of runs of a two-kind sequence, with its exact mean and variance."""
    n = len(high)
    if n < 2:
        return Moments(Fraction(n), Fraction(n), Fraction(0))
    runs = 1 + sum(a != b for a, b in itertools.pairwise(high))
    n1 = sum(high)
    n2 = n - n1
    mean = 1 + Fraction(2 * n1 * n2, n)
    variance = Fraction(2 * n1 * n2 * (2 * n1 * n2 - n), n * n * (n - 1))
    return Moments(Fraction(runs), mean, variance)


def kept_pairs_moments(previous: Sequence[int], cards: Sequence[int]) -> Moments:
    """How many consecutive pairs of ``cards`` were consecutive in ``previous`` (by type).

    The mean and variance are over every order of ``cards``: with ``M`` the set of
    ordered pairs the previous shoe showed and ``c`` the counts of ``cards``,
    one position pair is in ``M`` with probability ``Σ_M c_a (c_b − [a=b]) / (m)_2``;
    the variance needs the same over overlapping chains (three cards) and
    disjoint pairs (four), counted as falling products of ``c``.
    """
    import numpy as np

    pairs = sorted(set(itertools.pairwise(previous)))
    m = len(cards)
    present = set(pairs)
    observed = Fraction(sum((a, b) in present for a, b in itertools.pairwise(cards)))
    if m < 4 or not pairs:
        return Moments(observed, observed, Fraction(0))
    counts = Counter(cards)
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    c = np.array([counts.get(t, 0) for t in range(max(max(cards), int(a.max()), int(b.max())) + 1)])
    f2, f3, f4 = m * (m - 1), m * (m - 1) * (m - 2), m * (m - 1) * (m - 2) * (m - 3)
    one = int((c[a] * (c[b] - (a == b))).sum())
    # chains (x, y, z) with (x, y) and (y, z) both in M
    by_first: dict[int, list[int]] = {}
    for x, y in pairs:
        by_first.setdefault(x, []).append(y)
    chain = 0
    for x, y in pairs:
        for z in by_first.get(y, ()):
            chain += int(c[x]) * int(c[y] - (x == y)) * int(c[z] - (x == z) - (y == z))
    apart = _disjoint_ways(pairs, c)
    mean = Fraction((m - 1) * one, f2)
    square = mean + Fraction(2 * (m - 2) * chain, f3) + Fraction((m - 2) * (m - 3) * apart, f4)
    return Moments(observed, mean, square - mean * mean)


def shuffle_tests(shoe: Shoe[Any], shoes: Sequence[DealtShoe], unit: str) -> list[ShoeTest]:
    """Serial correlation, runs, and the previous shoe's order kept, over every shoe."""
    values = rank_values(shoe)
    middle = sorted(set(values))[len(set(values)) // 2]  # 7 of A … K
    serial, runs, kept = [], [], []
    previous: DealtShoe | None = None
    for dealt in shoes:
        cards = dealt.cards
        sequence = [values[c] for c in cards]
        serial.append(serial_moments(sequence))
        runs.append(runs_moments([x > middle for x in sequence if x != middle]))
        if previous is not None:
            kept.append(kept_pairs_moments(previous.cards, cards))
        previous = dealt
    pairs = sum(max(0, len(s.cards) - 1) for s in shoes)
    return [
        _combined(
            "shuffle: serial correlation of ranks", serial, shoes, unit, pairs, two_sided=True
        ),
        _combined("shuffle: runs of high and low cards", runs, shoes, unit, pairs, two_sided=True),
        _combined(
            "shuffle: the previous shoe's order kept",
            kept,
            shoes[1:],
            unit,
            pairs,
            two_sided=False,
        ),
    ]


def _combined(
    name: str,
    moments: Sequence[Moments],
    shoes: Sequence[DealtShoe],
    unit: str,
    pairs: int,
    two_sided: bool,
) -> ShoeTest:
    variance = sum((m.variance for m in moments), Fraction(0))
    if pairs < MIN_PAIRS or variance <= 0:
        why = f"not enough cards in order ({pairs:,} consecutive pairs; at least {MIN_PAIRS})"
        return ShoeTest(name, 0.0, None, None, why)
    deviation = sum((m.observed - m.mean for m in moments), Fraction(0))
    z = float(deviation) / math.sqrt(variance)
    tail = math.erfc(abs(z) / math.sqrt(2)) if two_sided else 0.5 * math.erfc(z / math.sqrt(2))
    observed = float(sum((m.observed for m in moments), Fraction(0)))
    expected = float(sum((m.mean for m in moments), Fraction(0)))
    worst = max(range(len(moments)), key=lambda j: abs(moments[j].z) if two_sided else moments[j].z)
    m = moments[worst]
    shoe = shoes[worst]
    detail = (
        f"{observed:,.0f} against {expected:,.1f} expected (z = {z:+.2f}); most extreme: "
        f"shoe {shoe.label} (z = {m.z:+.2f}, {shoe.span(unit)})"
    )
    finding = f"{name}: {detail}"
    return ShoeTest(name, z, None, PValue(min(1.0, tail), NORMAL, 0.0), detail, finding)


def _disjoint_ways(pairs: Sequence[tuple[int, int]], c: Any) -> int:
    """Σ over ordered (x, y), (u, v) in M of the ways to give four distinct cards those types.

    The ways are ``c_x c_y c_u c_v`` corrected where types coincide, by Möbius inversion
    over the partitions of the four positions (a block of k positions of one type weighs
    ``(−1)^(k−1) (k − 1)!``): fifteen contractions of the 0/1 matrix ``M`` with ``c``.
    """
    import numpy as np

    size = len(c)
    matrix = np.zeros((size, size), dtype=np.int64)
    for x, y in pairs:
        matrix[x, y] = 1
    c = np.asarray(c, dtype=np.int64)
    out_c = matrix @ c  # (M c)_x = Σ_y M_xy c_y
    in_c = matrix.T @ c  # (Mᵀ c)_y
    diagonal = np.diag(matrix) * c  # M_xx c_x
    total = int(c @ out_c)  # cᵀ M c
    loops = int(diagonal.sum())
    ways = total * total
    ways -= 2 * loops * total  # {12}, {34}
    ways -= int((c * out_c * out_c).sum())  # {13}
    ways -= int((c * out_c * in_c).sum())  # {14}
    ways -= int((c * in_c * out_c).sum())  # {23}
    ways -= int((c * in_c * in_c).sum())  # {24}
    ways += loops * loops  # {12}{34}
    ways += int((matrix * np.outer(c, c)).sum())  # {13}{24}
    ways += int((matrix * matrix.T * np.outer(c, c)).sum())  # {14}{23}
    ways += 2 * int((diagonal * out_c).sum()) * 2  # {123}, {134}
    ways += 2 * int((diagonal * in_c).sum()) * 2  # {124}, {234}
    ways -= 6 * loops  # {1234}
    return ways
