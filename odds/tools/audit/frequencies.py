"""Rank and suit frequencies shoe by shoe, against the hypergeometric law.

A shoe of ``N`` cards holding ``N_g`` of a rank (or suit) ``g``, from which a
log shows ``n`` cards, shows ``x_g`` of them with the multivariate
hypergeometric law: mean ``n·p_g`` (``p_g = N_g/N``) and covariance
``w·(diag p − p pᵀ)`` with ``w = n(N − n)/(N − 1)`` — the cards a shoe
deals cannot be more than it holds, so the spread shrinks as a shoe is dealt
through. Shoes are shuffled independently, so over ``S`` shoes two statistics
follow, each with an exactly known null:

* **pooled** — ``D_g = Σ_shoes (x_g − n p_g)`` has covariance ``W (diag p − ppᵀ)``,
  ``W = Σ w``; the statistic is the largest ``|z_g| = |D_g| / √(W p_g (1 − p_g))``
  over the groups. A rank too common (or too rare) in *every* shoe — k extra
  9s, one 9 missing — adds up here, shoe after shoe; the largest ``|z|``
  finds one rank off far sooner than an omnibus χ² over all thirteen, and
  the dispersion test below is the omnibus one. For many cards its p-value is
  the normal tail times the number of groups (Bonferroni).
* **dispersion** — ``Σ_shoes Σ_g (x_g − n p_g)² / (w p_g)``: each shoe's own
  Pearson form (mean exactly ``G − 1``), summed; χ² with ``S(G − 1)`` degrees
  of freedom. A shoe unlike the others (a deck of 9s added to one shoe) shows here.

P-values: below :data:`~odds.stats.significance.ASYMPTOTIC_FROM` cards, never
an approximation: :data:`~odds.stats.significance.DRAWS` seeded logs of the
same shoes drawn from the exact hypergeometric law (numpy); from there on the
χ² approximations. A shoe that shows more of a rank than it holds is
impossible (shoe integrity names it too): the test's p-value is then 0.

When a test fails, its finding names what drives it: the rank or suit, its
count against the expected one, and the shoes contributing most, each with its
rounds and lines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.stats.chisquare import chi2_sf
from odds.stats.significance import (
    ASYMPTOTIC_FROM,
    CHI_SQUARE,
    DRAWS,
    MONTE_CARLO,
    PValue,
    draws_seed,
)
from odds.tools.audit.shoes import DealtShoe, ShoeTest

#: The p-value method of the pooled test for many cards.
BONFERRONI = "normal approximation, Bonferroni over the groups"
#: Shoes named in a finding.
NAMED = 3
#: Fewer cards than this in the whole log: the frequency tests say "not enough cards".
MIN_CARDS = 20


@dataclass(frozen=True)
class Grouping:
    """How types are grouped for one frequency test: ranks, suits (or each tile)."""

    kind: str  # "rank", "suit", "tile"
    labels: tuple[str, ...]
    of_type: tuple[int, ...]  # group index of each type of the shoe


def groupings(shoe: Shoe[Any]) -> list[Grouping]:
    """Ranks and suits for a shoe of cards; one group per type otherwise."""
    types = shoe.types
    if types and all(isinstance(t, Card) for t in types):
        found = []
        for kind, key in (("rank", lambda c: c.rank.symbol), ("suit", lambda c: c.suit.symbol)):
            labels = tuple(dict.fromkeys(key(t) for t in types))
            found.append(Grouping(kind, labels, tuple(labels.index(key(t)) for t in types)))
        return found
    labels = tuple(str(t) for t in types)
    return [Grouping("tile", labels, tuple(range(len(types))))]


def frequency_tests(
    shoe: Shoe[Any], shoes: Sequence[DealtShoe], unit: str, decide: float | None = None
) -> list[ShoeTest]:
    """The pooled and the dispersion test of every grouping (ranks, suits).

    ``decide`` (the power study's shortcut, never the audit's): below the exact
    Monte Carlo's range, a test whose large-sample p-value is ten times beyond
    this threshold either way keeps that p-value instead of the Monte Carlo's.
    """
    tests = []
    for grouping in groupings(shoe):
        tests += _tests(shoe, grouping, shoes, unit, decide)
    return tests


def _tests(
    shoe: Shoe[Any],
    grouping: Grouping,
    shoes: Sequence[DealtShoe],
    unit: str,
    decide: float | None = None,
) -> list[ShoeTest]:
    import numpy as np

    g = len(grouping.labels)
    holds = np.zeros(g, dtype=np.int64)
    for t, count in enumerate(shoe.counts):
        holds[grouping.of_type[t]] += count
    size = int(holds.sum())
    of_type = np.array(grouping.of_type)
    seen = np.array(
        [np.bincount(of_type[s.cards], minlength=g) if s.cards else np.zeros(g) for s in shoes],
        dtype=np.int64,
    ).reshape(len(shoes), g)
    n = seen.sum(axis=1)
    p = holds / size
    present = holds > 0
    w = n * (size - n) / (size - 1) if size > 1 else np.zeros(len(shoes))
    expected = np.outer(n, p)
    pooled_name = f"{grouping.kind} frequencies, pooled over shoes"
    spread_name = f"{grouping.kind} frequencies, shoe by shoe"
    total = int(n.sum())
    over = [(j, k) for j in range(len(shoes)) for k in range(g) if seen[j, k] > holds[k]]
    if over:
        j, k = over[0]
        text = (
            f"shoe {shoes[j].label} shows {seen[j, k]} of {grouping.kind} "
            f"{grouping.labels[k]}; a shoe holds {holds[k]} ({shoes[j].span(unit)})"
        )
        zero = PValue(0.0, "impossible", 0.0)
        return [
            ShoeTest(pooled_name, math.inf, g - 1, zero, text, text),
            ShoeTest(spread_name, math.inf, len(shoes) * (g - 1), zero, text, text),
        ]
    if total < MIN_CARDS or float(w.sum()) == 0 or present.sum() < 2:
        why = f"not enough cards ({total:,}; at least {MIN_CARDS} in shoes not dealt out)"
        return [
            ShoeTest(pooled_name, 0.0, None, None, why),
            ShoeTest(spread_name, 0.0, None, None, why),
        ]
    keep = present
    pooled, spread = _statistics(seen[:, keep], expected[:, keep], w, p[keep])
    df_pooled = int(keep.sum()) - 1
    used = w > 0
    df_spread = int(used.sum()) * df_pooled
    tail = math.erfc(pooled / math.sqrt(2)) * int(keep.sum())
    large = (
        PValue(min(1.0, tail), BONFERRONI, 0.0),
        PValue(chi2_sf(spread, df_spread), CHI_SQUARE, 0.0),
    )
    if total >= ASYMPTOTIC_FROM or (
        decide is not None and all(p.value > 10 * decide or p.value < decide / 10 for p in large)
    ):
        p_pooled, p_spread = large
    else:
        null_pooled, null_spread = _null(holds, n, w, p, keep, grouping.kind, total)
        p_pooled = _monte_carlo(null_pooled, pooled)
        p_spread = _monte_carlo(null_spread, spread)
    deviation = seen.sum(axis=0) - expected.sum(axis=0)
    scale = np.sqrt(np.maximum(w.sum() * p * (1 - p), 1e-300))
    z = np.where(keep, deviation / scale, 0.0)
    k = int(np.argmax(np.abs(z)))
    label = grouping.labels[k]
    pooled_detail = (
        f"most deviant {grouping.kind}: {label}, {int(seen[:, k].sum()):,} seen against "
        f"{expected[:, k].sum():,.1f} expected over {len(shoes):,} shoe(s) (z = {z[k]:+.2f})"
    )
    per_shoe = (seen[:, k] - expected[:, k]) / np.sqrt(np.maximum(w * p[k] * (1 - p[k]), 1e-300))
    order = np.argsort(-np.sign(z[k]) * per_shoe, kind="stable")[:NAMED]
    named = "; ".join(
        f"shoe {shoes[j].label} ({int(seen[j, k])} against {expected[j, k]:.1f}, "
        f"{shoes[j].span(unit)})"
        for j in order
    )
    pooled_finding = (
        f"{grouping.kind} {label} is {'more' if z[k] > 0 else 'less'} common than the shoe "
        f"holds it, shoe after shoe: {int(seen[:, k].sum()):,} seen against "
        f"{expected[:, k].sum():,.1f} expected (z = {z[k]:+.2f}); most: {named}"
    )
    each = _each_shoe(seen[:, keep], expected[:, keep], w, p[keep])
    worst = np.argsort(-each, kind="stable")[:NAMED]
    described = [
        f"shoe {shoes[j].label} (χ² = {each[j]:.1f}, df = {df_pooled}, "
        f"p = {chi2_sf(float(each[j]), df_pooled):.2g}; most deviant "
        f"{grouping.kind} {_deviant(seen[j], expected[j], grouping.labels)}; "
        f"{shoes[j].span(unit)})"
        for j in worst
    ]
    spread_finding = "shoes unlike a shuffled shoe: " + "; ".join(described)
    spread_detail = f"the most extreme shoe: {described[0]}"
    return [
        ShoeTest(pooled_name, pooled, None, p_pooled, pooled_detail, pooled_finding),
        ShoeTest(spread_name, spread, df_spread, p_spread, spread_detail, spread_finding),
    ]


def _deviant(seen: Any, expected: Any, labels: Sequence[str]) -> str:
    import numpy as np

    k = int(np.argmax(np.abs(seen - expected)))
    return f"{labels[k]}: {int(seen[k])} against {expected[k]:.1f}"


def _statistics(seen: Any, expected: Any, w: Any, p: Any) -> tuple[float, float]:
    """The pooled statistic (the largest |z|) and the summed per-shoe statistic."""
    deviation = (seen - expected).sum(axis=0)
    return float(_largest_z(deviation, w, p)), float(_each_shoe(seen, expected, w, p).sum())


def _largest_z(deviation: Any, w: Any, p: Any) -> Any:
    """max_g |D_g| / √(W p_g (1 − p_g)) of one deviation vector or a row of them per log."""
    import numpy as np

    scale = np.sqrt(np.maximum(w.sum() * p * (1 - p), 1e-300))
    return np.abs(deviation / scale).max(axis=-1)


def _each_shoe(seen: Any, expected: Any, w: Any, p: Any) -> Any:
    import numpy as np

    safe = np.where(w > 0, w, 1.0)
    values = (((seen - expected) ** 2) / (safe[:, None] * p[None, :])).sum(axis=1)
    return np.where(w > 0, values, 0.0)


def _null(holds: Any, n: Any, w: Any, p: Any, keep: Any, kind: str, total: int) -> tuple[Any, Any]:
    """Both statistics for :data:`DRAWS` logs of the same shoes, drawn exactly (sorted)."""
    import numpy as np

    rng = np.random.default_rng(draws_seed(f"{kind} frequencies", total))
    deviation = np.zeros((DRAWS, int(keep.sum())))
    spread = np.zeros(DRAWS)
    for j, count in enumerate(n):
        if w[j] == 0:
            continue
        drawn = rng.multivariate_hypergeometric(holds, int(count), size=DRAWS)[:, keep]
        off = drawn - count * p[keep]
        deviation += off
        spread += ((off**2) / (w[j] * p[keep])).sum(axis=1)
    pooled = _largest_z(deviation, w, p[keep])
    pooled.sort()
    spread.sort()
    return pooled, spread


def _monte_carlo(null: Any, observed: float) -> PValue:
    """(1 + #{simulated ≥ observed}) / (1 + draws), near-ties counted as at least as far."""
    import numpy as np

    threshold = observed - 1e-9 * max(1.0, abs(observed))
    at_least = len(null) - int(np.searchsorted(null, threshold, side="left"))
    return PValue((1 + at_least) / (DRAWS + 1), MONTE_CARLO, 1 / (DRAWS + 1))
