"""Rank and suit frequencies under a continuous shuffle, in a game whose rounds do not draw.

Under a continuous shuffling machine every round is dealt from the full shoe
(:mod:`odds.tools.audit.procedure`). In a game whose hands never grow card by card
(``Game.max_round_cards == 0``: Pok Deng, Dragon Tiger, the three-card games) which
cards a round shows never depends on their values, so the ``n`` cards of one round
are a uniform sample of the full shoe: a group ``g`` (a rank, a suit) holding ``K_g``
of the shoe's ``N`` cards shows ``x_g`` of them with the hypergeometric law
``H(N, K_g, n)``, and rounds are independent. The pooled count ``S_g = Σ_rounds x_g``
is then a sum of independent hypergeometric counts: its exact law is their
convolution (computed by FFT, in floating point: its rounding, about 1e-13, is far
below any threshold the audit uses), mean ``Σ n·K_g/N``.

The statistic is the most deviant group's ``|z_g|`` (``z_g``: ``S_g`` less its mean,
over its standard deviation), as the per-shoe pooled test's; its p-value is
Bonferroni over the groups, each group's tail from its exact law: ``Σ_g P(|z_g| ≥ t)``.

In a drawing game (baccarat's third cards) the cards of one round are not a uniform
sample: how many cards a coup takes depends on their values (a coup with a third card
holds more small cards), so the ranks' counts are not hypergeometric. The game gives the
exact per-round law of the cards it deals from the full shoe by its first two moments
(:meth:`odds.games.base.Game.dealt_moments`: baccarat's from its tableau's ordered-deal
polynomial, a threshold draw's from its own, the values' counts split into ranks and
suits hypergeometrically). Over
``R`` independent rounds the pooled count vector ``T`` of a grouping (ranks, suits) has
mean ``R·μ`` and covariance ``R·Σ`` exactly (``μ``, ``Σ``: one round's), and the test is
the quadratic form ``(T − Rμ)ᵀ (RΣ)⁻ (T − Rμ)`` (``⁻``: a generalised inverse, exact in
fractions) against χ² with ``rank(Σ)`` degrees of freedom, from :data:`MIN_ROUNDS`
rounds on (the multivariate central limit of a sum of independent rounds). A deviation
outside the covariance's span (a linear constraint every round keeps, broken) cannot
happen: p = 0. The detail names the most deviant group (``z_g = (T_g − Rμ_g)/√(RΣ_gg)``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.core.shoe import Shoe
from odds.engine import DealtMoments
from odds.stats.chisquare import chi2_sf
from odds.stats.significance import PValue
from odds.tools.audit.frequencies import MIN_CARDS, Grouping, groupings
from odds.tools.audit.shoes import DealtShoe, ShoeTest

#: The p-value method of these tests.
METHOD = "exact law per group (hypergeometric per round, convolved), Bonferroni over the groups"
#: The p-value method of the drawing game's test.
DRAWING_METHOD = (
    "quadratic form in the exact per-round mean and covariance of the cards a drawing round "
    "deals, χ² with rank(Σ) degrees of freedom"
)
#: Fewer rounds than this: the drawing game's test says "not enough rounds" (χ² is its
#: large-sample law).
MIN_ROUNDS = 100


def round_frequency_tests(
    shoe: Shoe[Any], shoes: Sequence[DealtShoe], what: str = "rounds"
) -> list[ShoeTest]:
    """The pooled test of every grouping (ranks, suits) over independent rounds (``what``:
    the cards read of each, "rounds" or "first deals", for the test's name)."""
    rounds = [r.cards for s in shoes for r in s.rounds]
    return [_test(shoe, grouping, rounds, what) for grouping in groupings(shoe)]


def _test(
    shoe: Shoe[Any], grouping: Grouping, rounds: Sequence[tuple[int, ...]], what: str
) -> ShoeTest:
    g = len(grouping.labels)
    holds = [0] * g
    for kind, count in enumerate(shoe.counts):
        holds[grouping.of_type[kind]] += count
    size = sum(holds)
    seen = [0] * g
    for cards in rounds:
        for card in cards:
            seen[grouping.of_type[card]] += 1
    sizes = Counter(len(cards) for cards in rounds)
    total = sum(n * k for n, k in sizes.items())
    name = f"{grouping.kind} frequencies, pooled over {what}"
    present = [k for k in range(g) if holds[k] > 0]
    if total < MIN_CARDS or len(present) < 2:
        why = f"not enough cards ({total:,}; at least {MIN_CARDS})"
        return ShoeTest(name, 0.0, None, None, why)
    laws: dict[int, tuple[Any, float, float]] = {}  # K_g → (law of S_g, mean, sd)
    for k in present:
        if holds[k] not in laws:
            laws[holds[k]] = _pooled_law(size, holds[k], sizes)
    z = [0.0] * g
    for k in present:
        _, mean, sd = laws[holds[k]]
        z[k] = (seen[k] - mean) / sd if sd > 0 else 0.0
    worst = max(present, key=lambda k: abs(z[k]))
    t = abs(z[worst])
    tail = sum(_two_sided(*laws[holds[k]], t) for k in present)
    p = PValue(min(1.0, tail), METHOD, 0.0)
    label = grouping.labels[worst]
    mean = laws[holds[worst]][1]
    detail = (
        f"most deviant {grouping.kind}: {label}, {seen[worst]:,} seen against {mean:,.1f} "
        f"expected over {len(rounds):,} rounds (z = {z[worst]:+.2f})"
    )
    finding = (
        f"{grouping.kind} {label} is {'more' if z[worst] > 0 else 'less'} common than the full "
        f"shoe holds it, round after round: {seen[worst]:,} seen against {mean:,.1f} expected "
        f"over {len(rounds):,} rounds, each dealt from the full shoe (z = {z[worst]:+.2f})"
    )
    return ShoeTest(name, t, None, p, detail, finding)


def _pooled_law(size: int, holds: int, sizes: Counter[int]) -> tuple[Any, float, float]:
    """The law of a group's pooled count over rounds of the given sizes, its mean and SD."""
    import numpy as np

    top = sum(n * k for n, k in sizes.items())
    length = 1 << max(1, top.bit_length())  # ≥ top + 1: no wrap-around
    spectrum = np.ones(length // 2 + 1, dtype=complex)
    mean = Fraction(0)
    variance = Fraction(0)
    for n, rounds in sizes.items():
        pmf = _hypergeometric(size, holds, n)
        spectrum *= np.fft.rfft(np.array([float(q) for q in pmf]), length) ** rounds
        p = Fraction(holds, size)
        mean += rounds * n * p
        if size > 1:
            variance += rounds * Fraction(n * (size - n), size - 1) * p * (1 - p)
    law = np.clip(np.fft.irfft(spectrum, length)[: top + 1], 0.0, None)
    return law, float(mean), math.sqrt(float(variance))


def _hypergeometric(size: int, holds: int, n: int) -> list[Fraction]:
    """P(x = k), k = 0…n, for n cards from ``size`` holding ``holds`` of a group (exact)."""
    whole = math.comb(size, n)
    return [
        Fraction(math.comb(holds, k) * math.comb(size - holds, n - k), whole) for k in range(n + 1)
    ]


def _two_sided(law: Any, mean: float, sd: float, t: float) -> float:
    """P(|S − mean| ≥ t·sd) under the law (near-ties counted as at least as far)."""
    import numpy as np

    if sd == 0:
        return 0.0
    reach = t * sd - 1e-9 * max(1.0, t * sd)
    far = np.abs(np.arange(len(law)) - mean) >= reach
    return float(law[far].sum())


def drawing_frequency_tests(
    shoe: Shoe[Any], moments: DealtMoments, shoes: Sequence[DealtShoe]
) -> list[ShoeTest]:
    """The pooled test of every grouping over independent drawing rounds, against the
    per-round law of the cards dealt (``moments``, over the shoe's types)."""
    rounds = [r.cards for s in shoes for r in s.rounds]
    return [_drawing_test(shoe, grouping, moments, rounds) for grouping in groupings(shoe)]


def _drawing_test(
    shoe: Shoe[Any],
    grouping: Grouping,
    moments: DealtMoments,
    rounds: Sequence[tuple[int, ...]],
) -> ShoeTest:
    g = len(grouping.labels)
    of = grouping.of_type
    holds = [0] * g
    for kind, count in enumerate(shoe.counts):
        holds[of[kind]] += count
    present = [k for k in range(g) if holds[k] > 0]
    mean = [Fraction(0)] * g
    covariance = [[Fraction(0)] * g for _ in range(g)]
    for j, row in enumerate(moments.covariance):
        mean[of[j]] += moments.mean[j]
        for k, value in enumerate(row):
            if value:
                covariance[of[j]][of[k]] += value
    seen = [0] * g
    for cards in rounds:
        for card in cards:
            seen[of[card]] += 1
    n = len(rounds)
    name = f"{grouping.kind} frequencies, pooled over drawing rounds"
    if n < MIN_ROUNDS or len(present) < 2:
        why = f"not enough rounds ({n:,}; at least {MIN_ROUNDS} for the χ² law)"
        return ShoeTest(name, 0.0, None, None, why)
    shown = [k for k in range(g) if seen[k] and not holds[k]]
    deviation = [seen[k] - n * mean[k] for k in present]
    form, rank, outside = quadratic_form(
        [[covariance[j][k] for k in present] for j in present], deviation
    )
    statistic = float(form / n)
    z = {
        k: float(d) / math.sqrt(n * float(covariance[k][k])) if covariance[k][k] else 0.0
        for k, d in zip(present, deviation, strict=True)
    }
    worst = max(present, key=lambda k: abs(z[k]))
    label = grouping.labels[worst]
    expected = float(n * mean[worst])
    where = (
        f"{seen[worst]:,} seen against {expected:,.1f} expected over {n:,} rounds "
        f"(z = {z[worst]:+.2f})"
    )
    if outside or shown:
        p = PValue(0.0, "impossible", 0.0)
        statistic = math.inf
    else:
        p = PValue(chi2_sf(statistic, rank), DRAWING_METHOD, 0.0)
    detail = (
        f"χ² = {statistic:,.2f} on {rank} df against the cards the drawing deals, round by "
        f"round from the full shoe; most deviant {grouping.kind}: {label}, {where}"
    )
    finding = (
        f"{grouping.kind} frequencies unlike the cards the drawing deals from the full shoe "
        f"(χ² = {statistic:,.2f} on {rank} df); most deviant: {grouping.kind} {label}, "
        f"{'more' if z[worst] > 0 else 'less'} common: {where}"
    )
    return ShoeTest(name, statistic, rank, p, detail, finding)


def quadratic_form(
    covariance: Sequence[Sequence[Fraction]], deviation: Sequence[Fraction]
) -> tuple[Fraction, int, bool]:
    """``dᵀ Σ⁻ d`` for a covariance matrix ``Σ`` (positive semi-definite), exactly: its
    value, ``rank(Σ)``, and whether ``d`` leaves the span of ``Σ`` (then no generalised
    inverse gives a finite form that the law can reach: the deviation is impossible).

    Symmetric elimination, each pivot the largest remaining diagonal; what is left when
    every remaining diagonal is 0 is the null space (of a PSD matrix: all 0).

    >>> two, nothing = Fraction(2), Fraction(0)
    >>> quadratic_form([[two, nothing], [nothing, nothing]], [two, nothing])
    (Fraction(2, 1), 1, False)
    >>> quadratic_form([[two, nothing], [nothing, nothing]], [two, two])[2]  # off the span
    True
    """
    a = [list(row) for row in covariance]
    d = list(deviation)
    left = list(range(len(d)))
    form = Fraction(0)
    rank = 0
    while left:
        i = max(left, key=lambda k: a[k][k])
        pivot = a[i][i]
        if pivot <= 0:
            break
        left.remove(i)
        rank += 1
        form += d[i] * d[i] / pivot
        for j in left:
            factor = a[j][i] / pivot
            if factor:
                d[j] -= factor * d[i]
                for k in left:
                    a[j][k] -= factor * a[i][k]
    return form, rank, any(d[k] for k in left)
