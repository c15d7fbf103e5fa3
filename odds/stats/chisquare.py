"""Chi-square goodness of fit against an exact distribution.

The expected counts come from exact probabilities (``Fraction``), so the
statistic Σ (O − E)² / E is itself exact; only its p-value, the upper tail of
the chi-square distribution, is a float. That tail is the regularized upper
incomplete gamma function Q(k/2, x/2), computed here by the classic series /
continued-fraction pair (Numerical Recipes §6.2) so that the project does not
depend on scipy; the tests compare it with mpmath and with printed tables.

Sparse cells are merged by a stated rule (:data:`MERGE_RULE`): the chi-square
approximation needs expected counts of about 5 or more per cell.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from odds.core.caching import cached

#: Expected count below which cells are merged.
MIN_EXPECTED = 5
MERGE_RULE = (
    f"cells with an expected count below {MIN_EXPECTED} are merged, the two smallest "
    f"first, until every cell expects at least {MIN_EXPECTED} (events of probability 0 "
    "are dropped; observing one fails the test outright)"
)

_EPS = 1e-16
_TINY = 1e-300
_ITERATIONS = 100_000


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a).

    >>> round(gamma_q(1.0, 2.0), 12) == round(math.exp(-2.0), 12)
    True
    """
    if a <= 0:
        raise ValueError("gamma_q needs a > 0")
    if x < 0:
        raise ValueError("gamma_q needs x >= 0")
    if x == 0:
        return 1.0
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def _prefactor(a: float, x: float) -> float:
    """x^a e^(−x) / Γ(a), in logs to avoid overflow."""
    return math.exp(a * math.log(x) - x - math.lgamma(a))


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    ap = a
    for _ in range(_ITERATIONS):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * _prefactor(a, x)


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by Legendre's continued fraction, modified Lentz (x ≥ a + 1)."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPS:
            break
    return _prefactor(a, x) * h


def chi2_sf(statistic: float, df: int) -> float:
    """P(χ²_df ≥ statistic): the p-value of a chi-square test.

    >>> round(chi2_sf(3.841458820694124, 1), 6)
    0.05
    """
    if df < 1:
        raise ValueError("a chi-square test needs at least 1 degree of freedom")
    return gamma_q(df / 2, max(0.0, float(statistic)) / 2)


@dataclass(frozen=True)
class Cell:
    """One cell of a test: its label(s), exact probability and observed count."""

    labels: tuple[str, ...]
    probability: Fraction
    observed: int

    @property
    def label(self) -> str:
        return " + ".join(self.labels)

    def expected(self, n: int) -> Fraction:
        return self.probability * n


@dataclass(frozen=True)
class GoodnessOfFit:
    """The result of one test: the cells as tested, the statistic and its p-value.

    ``impossible`` lists events of probability 0 that were observed anyway;
    such a log fails whatever the statistic says (``p_value`` is then 0).
    """

    n: int
    cells: tuple[Cell, ...]
    statistic: Fraction | None
    df: int
    p_value: float | None
    impossible: tuple[str, ...] = ()

    @property
    def testable(self) -> bool:
        return self.p_value is not None


def merge_sparse(cells: Sequence[Cell], n: int) -> list[Cell]:
    """Merge cells by :data:`MERGE_RULE`; the result keeps the original order."""
    plan = merge_plan(tuple(c.probability for c in cells), n)
    return [
        Cell(
            tuple(label for i in group for label in cells[i].labels),
            sum((cells[i].probability for i in group), Fraction(0)),
            sum(cells[i].observed for i in group),
        )
        for group in plan
    ]


@cached(maxsize=1024)
def merge_plan(probabilities: tuple[Fraction, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """Which cells :data:`MERGE_RULE` merges for ``n`` rounds, as groups of cell indices.

    The plan depends on the probabilities and ``n`` only, not on the counts, so
    it is worked out once and applied to any log (or many simulated ones).
    Cells of probability 0 are left out. Groups keep the cells' order.
    """
    # Each group: (probability, order key, member indices); order = first cell's rank.
    groups: list[tuple[Fraction, int, tuple[int, ...]]] = [
        (p, rank, (i,))
        for rank, (i, p) in enumerate((i, p) for i, p in enumerate(probabilities) if p > 0)
    ]
    while len(groups) > 1:
        ranked = sorted(groups, key=lambda g: (g[0], g[1]))
        if ranked[0][0] * n >= MIN_EXPECTED:
            break
        first, second = ranked[0], ranked[1]
        merged = (
            first[0] + second[0],
            min(first[1], second[1]),
            tuple(sorted(first[2] + second[2])),
        )
        groups = [g for g in groups if g is not first and g is not second]
        groups.append(merged)
        groups.sort(key=lambda g: g[1])
    return tuple(g[2] for g in groups)


def goodness_of_fit(cells: Sequence[Cell]) -> GoodnessOfFit:
    """Pearson's chi-square test of observed counts against exact probabilities."""
    total_p = sum((c.probability for c in cells), Fraction(0))
    if total_p != 1:
        raise AssertionError(f"cell probabilities add up to {total_p}, not 1")
    n = sum(c.observed for c in cells)
    impossible = tuple(c.label for c in cells if c.probability == 0 and c.observed)
    merged = merge_sparse(cells, n) if n else []
    if impossible:
        return GoodnessOfFit(n, tuple(merged), None, 0, 0.0, impossible)
    if len(merged) < 2:
        return GoodnessOfFit(n, tuple(merged), None, 0, None)
    statistic = sum(
        ((c.observed - c.expected(n)) ** 2 / c.expected(n) for c in merged), Fraction(0)
    )
    df = len(merged) - 1
    return GoodnessOfFit(n, tuple(merged), statistic, df, chi2_sf(float(statistic), df))
