"""P-values an auditor can rely on at any number of rounds, and the audit-wide threshold.

Each test of an audit has a statistic computed from exact expected counts;
what changes with the number of rounds ``n`` is how its p-value is found:

* ``n`` ≥ :data:`ASYMPTOTIC_FROM`: the large-sample approximations (the
  chi-square distribution for Pearson's statistic, the normal distribution for
  an observed return), which are accurate there;
* below that, never an approximation: a two-outcome test (a bet that wins or
  loses one amount, a chi-square over two cells) gets the **exact binomial**
  p-value, and every other test a **Monte Carlo p-value** from the exact
  multinomial distribution: :data:`DRAWS` seeded simulated logs of ``n``
  rounds, p = (1 + #{simulated statistic ≥ observed}) / (1 + draws), which is
  a valid p-value (P(p ≤ u) ≤ u) whatever ``n`` is.

Each test also knows its *floor*: the smallest p-value it can give with ``n``
rounds (the most extreme possible log's). The audit uses Tarone's modified
Bonferroni: with m tests at level α, find the smallest K such that at most K
tests have a floor ≤ α/K; those are judged at α/K and the others say "not
enough rounds to test" (they could not reject at any useful level). An honest
log is then flagged with probability at most α: at most K tests, each wrong
with probability at most α/K. The tests check this over many seeded honest
logs of 1 to 10,000 rounds for every game.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.caching import cached
from odds.stats.chisquare import chi2_sf

#: From this many rounds on, the large-sample approximations are used ...
ASYMPTOTIC_FROM = 10_000
#: ... for a bet's return, only where each of its results is expected this many times: a
#: long-shot payout (1000 to 1 once in 100,000 rounds) leaves the total far from normal at
#: 10,000 rounds, and an honest 6-Card Bonus log was flagged three times too often.
NORMAL_FROM_EXPECTED = 5
#: Simulated logs per Monte Carlo p-value (p-values come in steps of 1/20,000).
DRAWS = 19_999
#: The base seed of every Monte Carlo p-value: the same log always gets the same p-values.
SEED = 20_240_601
#: Relative slack when comparing a simulated statistic with the observed one, so that
#: floating-point noise on a tie counts the tie as "at least as extreme" (conservative).
_TIE = 1e-9

EXACT = "exact binomial"
EXACT_SUM = "exact distribution of the total"
MONTE_CARLO = f"Monte Carlo, {DRAWS:,} exact draws"
CHI_SQUARE = "chi-square approximation"
NORMAL = "normal approximation"


@dataclass(frozen=True)
class PValue:
    """A p-value, how it was found, and the smallest value the test could have given."""

    value: float
    method: str
    floor: float


@dataclass(frozen=True)
class PValues:
    """The p-values of many logs (one per row of their counts) under one test."""

    values: Any  # numpy array
    method: str
    floor: float

    def first(self) -> PValue:
        return PValue(float(self.values[0]), self.method, self.floor)


def draws_seed(name: str, n: int) -> int:
    """The seed of one test's simulation: fixed by the test's name and the number of rounds."""
    return SEED + zlib.crc32(f"{name}|{n}".encode())


# ---------------------------------------------------------------------------
# Pearson chi-square over (merged) cells


def chi_square_p(
    name: str, probabilities: Sequence[Fraction], observed: Sequence[int], statistic: Fraction
) -> PValue:
    """The p-value of one log's Pearson statistic (exact, as a Fraction) over these cells."""
    if sum(observed) >= ASYMPTOTIC_FROM:
        return PValue(chi2_sf(float(statistic), len(observed) - 1), CHI_SQUARE, 0.0)
    return chi_square_ps(name, probabilities, [list(observed)]).first()


def chi_square_ps(name: str, probabilities: Sequence[Fraction], observed: Any) -> PValues:
    """Pearson's p-values of many logs of ``n`` rounds each: ``observed`` has a row per log."""
    import numpy as np

    counts = np.asarray(observed, dtype=np.int64)
    n = int(counts[0].sum())
    if n >= ASYMPTOTIC_FROM:
        df = counts.shape[1] - 1
        values = np.array([chi2_sf(s, df) for s in _pearson(counts, probabilities, n)])
        return PValues(values, CHI_SQUARE, 0.0)
    if counts.shape[1] == 2:
        table, floor = _binomial_table(probabilities[0], n)
        return PValues(table[counts[:, 0]], EXACT, floor)
    smallest = min(probabilities)
    floor = sum(float(p) ** n for p in probabilities if p == smallest)
    simulated = _null_chi_square(name, n, tuple(probabilities))
    values = _exceeding(simulated, _pearson(counts, probabilities, n))
    return PValues(values, MONTE_CARLO, max(floor, 1 / (DRAWS + 1)))


def _pearson(counts: Any, probabilities: Sequence[Fraction], n: int) -> Any:
    expected = [float(p) * n for p in probabilities]
    return (((counts - expected) ** 2) / expected).sum(axis=1)


# ---------------------------------------------------------------------------
# An observed return against the exact RTP


def return_p(
    name: str, distribution: Sequence[tuple[Fraction, Fraction]], observed: Sequence[int]
) -> PValue:
    """The p-value of one log's total net being this far from ``n`` times the bet's EV.

    ``distribution`` lists (net per unit staked, exact probability), nets
    distinct; ``observed`` counts the rounds of each net. Two-sided.
    """
    return return_ps(name, distribution, [list(observed)]).first()


def return_ps(
    name: str, distribution: Sequence[tuple[Fraction, Fraction]], observed: Any
) -> PValues:
    """The same for many logs: ``observed`` has a row of counts per log."""
    import numpy as np

    counts = np.asarray(observed, dtype=np.int64)
    n = int(counts[0].sum())
    mean = sum((net * p for net, p in distribution), Fraction(0))
    centred = np.array([float(net - mean) for net, _ in distribution])
    deviation = np.abs(counts @ centred)
    if _normal_holds(distribution, n):
        variance = float(sum((p * (net - mean) ** 2 for net, p in distribution), Fraction(0)))
        if variance == 0:
            return PValues(np.where(deviation == 0, 1.0, 0.0), NORMAL, 0.0)
        z = deviation / math.sqrt(variance * n)
        return PValues(np.array([math.erfc(x / math.sqrt(2)) for x in z]), NORMAL, 0.0)
    possible = [i for i, (_, p) in enumerate(distribution) if p > 0]
    if len(possible) == 1:
        return PValues(np.ones(len(counts)), EXACT, 1.0)
    if len(possible) == 2:
        high = max(possible, key=lambda i: distribution[i][0])
        table, floor = _binomial_table(distribution[high][1], n)
        return PValues(table[counts[:, high]], EXACT, floor)
    exact = _sum_table(tuple(distribution[i] for i in possible), n)
    if exact is not None:
        grid, scale = exact
        return PValues(grid(deviation * scale), EXACT_SUM, grid.floor)
    far = max(abs(centred[i]) for i in possible)
    floor = sum(float(distribution[i][1]) ** n for i in possible if abs(centred[i]) == far)
    probabilities = tuple(distribution[i][1] for i in possible)
    simulated = _null_return(name, n, probabilities, tuple(centred[i] for i in possible))
    values = _exceeding(simulated, deviation)
    return PValues(values, MONTE_CARLO, max(floor, 1 / (DRAWS + 1)))


def _normal_holds(distribution: Sequence[tuple[Fraction, Fraction]], n: int) -> bool:
    """Whether the normal approximation is used for the total of ``n`` rounds: from
    :data:`ASYMPTOTIC_FROM` rounds on, where every possible result is expected at least
    :data:`NORMAL_FROM_EXPECTED` times."""
    rarest = min((p for _, p in distribution if p > 0), default=Fraction(1))
    return n >= ASYMPTOTIC_FROM and n * rarest >= NORMAL_FROM_EXPECTED


#: The exact distribution of a sum of nets is computed when it has at most this many values.
MAX_SUPPORT = 4_000_000
#: Below this, an FFT-computed tail is rounding noise: such p-values are reported as "< 1e-12".
SUM_PRECISION = 1e-12


class _DistanceTable:
    """P(|S − E[S]| ≥ d) for the exact distribution of a sum S on an integer grid."""

    def __init__(self, pmf: Any, centre: float) -> None:
        import numpy as np

        distance = np.abs(np.arange(len(pmf)) - centre)
        order = np.argsort(-distance, kind="stable")
        self.distances = distance[order]  # descending
        self.tails = np.minimum(1.0, np.cumsum(pmf[order]))
        # The floor: the most extreme sums (those at the largest distance).
        self.floor = float(
            self.tails[np.searchsorted(-self.distances, -self.distances[0], "right") - 1]
        )

    def __call__(self, deviation: Any) -> Any:
        """Tail probability at each observed distance (near-ties count as at least as far)."""
        import numpy as np

        threshold = deviation - _TIE * np.maximum(1.0, deviation)
        # The number of grid sums at least this far: distances are sorted descending.
        count = np.searchsorted(-self.distances, -threshold, side="right")
        return np.maximum(self.tails[np.maximum(count, 1) - 1], SUM_PRECISION)


@cached(maxsize=256)
def _sum_table(
    distribution: tuple[tuple[Fraction, Fraction], ...], n: int
) -> tuple[_DistanceTable, float] | None:
    """The exact distribution of a sum of ``n`` nets, or None when it is too large.

    Nets are put on an integer grid (scaled by their common denominator); the
    n-fold convolution is one FFT raised to the n-th power. Returns the table
    and the scale from nets to grid steps.
    """
    import numpy as np

    scale = math.lcm(*(net.denominator for net, _ in distribution))
    low = min(net for net, _ in distribution)
    steps = [int((net - low) * scale) for net, _ in distribution]
    support = n * max(steps) + 1
    if support > MAX_SUPPORT:
        return None
    one = np.zeros(max(steps) + 1)
    for step, (_, p) in zip(steps, distribution, strict=True):
        one[step] += float(p)
    size = 1 << (support - 1).bit_length()
    pmf = np.fft.irfft(np.fft.rfft(one, size) ** n, size)[:support]
    pmf = np.clip(pmf, 0.0, None)
    pmf /= pmf.sum()
    mean = sum((net * p for net, p in distribution), Fraction(0))
    centre = float(n * (mean - low) * scale)
    return _DistanceTable(pmf, centre), float(scale)


# ---------------------------------------------------------------------------
# The exact binomial test


@cached(maxsize=256)
def _binomial_table(p: Fraction, n: int) -> tuple[Any, float]:
    """The two-sided p-value of every count 0 … n, and the smallest of them.

    Distances from n·p are compared exactly (integers); the probabilities are
    summed in logs, from the farthest counts in.
    """
    import numpy as np

    num, den = p.numerator, p.denominator
    distance = [abs(k * den - n * num) for k in range(n + 1)]
    pmf = np.array([_binomial_pmf(p, n, k) for k in range(n + 1)])
    order = sorted(range(n + 1), key=lambda k: -distance[k])
    values = np.empty(n + 1)
    total, i = 0.0, 0
    while i <= n:  # counts at the same distance share one p-value
        j = i
        while j <= n and distance[order[j]] == distance[order[i]]:
            total += pmf[order[j]]
            j += 1
        for k in order[i:j]:
            values[k] = min(1.0, total)
        i = j
    values.flags.writeable = False
    return values, float(values.min())


def _binomial_pmf(p: Fraction, n: int, k: int) -> float:
    if p == 0 or p == 1:
        return float(k == (0 if p == 0 else n))
    return math.exp(
        math.lgamma(n + 1)
        - math.lgamma(k + 1)
        - math.lgamma(n - k + 1)
        + k * math.log(p)
        + (n - k) * math.log(1 - p)
    )


# ---------------------------------------------------------------------------
# Monte Carlo


@cached(maxsize=256)
def _null_chi_square(name: str, n: int, probabilities: tuple[Fraction, ...]) -> Any:
    """Pearson's statistic of :data:`DRAWS` honest logs, sorted (it does not depend on the log)."""
    return _sorted(_pearson(_multinomial(name, n, probabilities), probabilities, n))


@cached(maxsize=256)
def _null_return(
    name: str, n: int, probabilities: tuple[Fraction, ...], centred: tuple[float, ...]
) -> Any:
    """|total net − n·EV| of :data:`DRAWS` honest logs, sorted."""
    return _sorted(abs(_multinomial(name, n, probabilities) @ centred))


def _multinomial(name: str, n: int, probabilities: Sequence[Fraction]) -> Any:
    import numpy as np

    rng = np.random.default_rng(draws_seed(name, n))
    p = np.array([float(x) for x in probabilities])
    return rng.multinomial(n, p / p.sum(), size=DRAWS)


def _sorted(values: Any) -> Any:
    values.sort()
    values.flags.writeable = False
    return values


def _exceeding(simulated: Any, observed: Any) -> Any:
    """(1 + #{simulated ≥ observed}) / (1 + draws) per observed value, near-ties counted."""
    import numpy as np

    threshold = observed - _TIE * np.maximum(1.0, np.abs(observed))
    at_least = len(simulated) - np.searchsorted(simulated, threshold, side="left")
    return (1 + at_least) / (DRAWS + 1)


# ---------------------------------------------------------------------------
# The audit-wide threshold


def tarone(floors: Sequence[float], alpha: float) -> tuple[int, list[bool]]:
    """Tarone's modified Bonferroni: K, and which tests are judged (at α/K).

    >>> tarone([0.0, 0.0, 0.5], 0.01)  # the third test cannot reach any useful level
    (2, [True, True, False])
    """
    for k in range(1, len(floors) + 1):
        judged = [f <= alpha / k for f in floors]
        if sum(judged) <= k:
            return k, judged
    return max(1, len(floors)), [True] * len(floors)


# ---------------------------------------------------------------------------
# The range an honest game's observed return falls in


def return_range(
    distribution: Sequence[tuple[Fraction, Fraction]], n: int, level: float = 0.95
) -> tuple[float, str]:
    """The half-width (per unit staked) of the range around the RTP holding ``level`` of logs.

    The observed return of ``n`` honest rounds is within ``RTP ± d`` with
    probability at least ``level``, ``d`` the smallest such distance: from the
    exact distribution of the total below :data:`ASYMPTOTIC_FROM` rounds (when
    its support is small enough), else the normal approximation. The same
    two-sided distance the return test uses, so an observed return outside
    the range has p below ``1 − level``. A float: a bound printed for people.
    """
    import numpy as np

    mean = sum((net * p for net, p in distribution), Fraction(0))
    possible = tuple((net, p) for net, p in distribution if p > 0)
    if len(possible) < 2:
        return 0.0, EXACT
    if not _normal_holds(possible, n):
        exact = _sum_table(possible, n)
        if exact is not None:
            table, scale = exact
            j = int(np.searchsorted(table.tails, 1 - level, side="right"))
            d = float(table.distances[min(j, len(table.distances) - 1)])
            return d / (scale * n), EXACT_SUM
    variance = float(sum((p * (net - mean) ** 2 for net, p in possible), Fraction(0)))
    z = 1.959963984540054 if level == 0.95 else _normal_quantile(level)
    return z * math.sqrt(variance / n), NORMAL


def _normal_quantile(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf((1 + level) / 2)
