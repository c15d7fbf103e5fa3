"""95% intervals over simulated shoes that keep their coverage on rare events.

What a watching player wins per shoe is zero in most shoes and a skewed
positive amount in a few: the normal approximation (mean ± 1.96 standard
errors) then misses the true value far more often than 5% of the time (Pok
Deng Pair, 200 shoes: [−3.3e-5, 4.21e-4] against an exact 5.13e-4), and so does
the percentile bootstrap, which inherits the sample's skew. The **studentized
bootstrap** (bootstrap-t: resample the shoes, studentize each resample's mean
by its own standard error, read the 2.5% and 97.5% points of that t) corrects
for the skew; ``tests/stats/test_intervals.py`` measures its coverage by seeded
simulation (and the normal approximation's, which fails there).

Every interval is seeded from the study's seed and the figure's tag, so the
same shoes give byte-identical tables whatever ran them. Where no interval is
honest (fewer than :data:`MIN_DISTINCT` shoes differ from the rest, or every
shoe gave the same value), none is given and the label says why.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The method labels a table prints beside each interval.
BOOTSTRAP_T = "bootstrap-t"
NO_INTERVAL = "none"
#: Resamples per interval (an odd number: the quantiles fall on resamples).
RESAMPLES = 1999
#: Fewer shoes than this away from the most common value: no interval is honest.
MIN_DISTINCT = 5
_BLOCK = 200  # resamples drawn at a time (bounds the memory: block × shoes indices)


@dataclass(frozen=True)
class Estimate:
    """A mean over independent shoes with its 95% interval and how it was made.

    ``low``/``high`` are ``None`` when no interval is given (``method`` is
    :data:`NO_INTERVAL`; ``reason`` says why).
    """

    mean: float
    low: float | None
    high: float | None
    method: str = BOOTSTRAP_T
    reason: str = ""

    @property
    def interval(self) -> tuple[float, float]:
        """(low, high); an estimate without an interval spans everything."""
        low = -math.inf if self.low is None else self.low
        high = math.inf if self.high is None else self.high
        return low, high

    @property
    def half_width(self) -> float:
        """The larger distance from the mean to an end (the interval may be asymmetric)."""
        low, high = self.interval
        return max(self.mean - low, high - self.mean)

    def contains(self, value: float) -> bool:
        low, high = self.interval
        return low <= value <= high

    def scaled(self, factor: float) -> Estimate:
        """The same estimate in other units (× 100 for a percentage)."""
        return Estimate(
            self.mean * factor,
            None if self.low is None else self.low * factor,
            None if self.high is None else self.high * factor,
            self.method,
            self.reason,
        )


def _no_interval(mean: float, reason: str) -> Estimate:
    return Estimate(mean, None, None, NO_INTERVAL, reason)


def _undecided(values: Sequence[float]) -> str:
    """Why no interval is honest for these values, or ``""``."""
    n = len(values)
    if n < 2:
        return "one shoe"
    most = _mode_count(values)
    if most == n:
        return "every shoe alike"
    if n - most < MIN_DISTINCT:
        return f"only {n - most} of {n:,} shoes differ"
    return ""


def _mode_count(values: Sequence[float]) -> int:
    from collections import Counter

    return Counter(values).most_common(1)[0][1]


def _rng(seed: int, tag: int) -> object:
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(tag,)))


def mean_interval(values: Sequence[float], seed: int, tag: int) -> Estimate:
    """The mean of independent ``values`` with its studentized-bootstrap 95% interval."""
    import numpy as np

    data = [float(v) for v in values]
    n = len(data)
    mean = sum(data) / n
    why = _undecided(data)
    if why:
        return _no_interval(mean, why)
    x = np.asarray(data)
    se = x.std(ddof=1) / math.sqrt(n)
    rng = _rng(seed, tag)
    ts = []
    for start in range(0, RESAMPLES, _BLOCK):
        picks = x[rng.integers(0, n, size=(min(_BLOCK, RESAMPLES - start), n))]  # type: ignore[attr-defined]
        spread = picks.std(axis=1, ddof=1) / math.sqrt(n)
        keep = spread > 0
        ts.append((picks.mean(axis=1)[keep] - mean) / spread[keep])
    t = np.concatenate(ts)
    upper_t, lower_t = np.quantile(t, 0.975), np.quantile(t, 0.025)
    return Estimate(mean, float(mean - upper_t * se), float(mean - lower_t * se))


def ratio_interval(
    numerators: Sequence[float], denominators: Sequence[float], seed: int, tag: int
) -> Estimate:
    """Σ x / Σ y over independent shoes (a per-round mean) with its studentized-bootstrap
    95% interval (each resample's ratio studentized by its delta-method standard error)."""
    import numpy as np

    x = np.asarray([float(v) for v in numerators])
    y = np.asarray([float(v) for v in denominators])
    n = len(x)
    ratio = float(x.sum() / y.sum())
    why = _undecided([float(v) for v in x - ratio * y]) if n >= 2 else "one shoe"
    if why:
        return _no_interval(ratio, why)

    def errors(xs: np.ndarray, ys: np.ndarray, rs: np.ndarray) -> np.ndarray:
        residual = ((xs - rs[..., None] * ys) ** 2).sum(axis=-1)
        standard_errors: np.ndarray = np.sqrt(residual / (n * (n - 1))) / ys.mean(axis=-1)
        return standard_errors

    se = float(errors(x, y, np.asarray(ratio)))
    rng = _rng(seed, tag)
    ts = []
    for start in range(0, RESAMPLES, _BLOCK):
        rows = rng.integers(0, n, size=(min(_BLOCK, RESAMPLES - start), n))  # type: ignore[attr-defined]
        xs, ys = x[rows], y[rows]
        rs = xs.sum(axis=1) / ys.sum(axis=1)
        spread = errors(xs, ys, rs)
        keep = spread > 0
        ts.append((rs[keep] - ratio) / spread[keep])
    t = np.concatenate(ts)
    upper_t, lower_t = np.quantile(t, 0.975), np.quantile(t, 0.025)
    return Estimate(ratio, float(ratio - upper_t * se), float(ratio - lower_t * se))


def normal_interval(values: Sequence[float]) -> Estimate:
    """Mean ± 1.96 standard errors: what the tables gave before (kept to show, in tests,
    that it misses on rare events)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return _no_interval(mean, "one shoe")
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = 1.959963984540054 * math.sqrt(variance / n)
    return Estimate(mean, mean - half, mean + half, "normal")


def interval_text(estimate: Estimate, digits: int = 4, suffix: str = "") -> str:
    """``0.0123 [0.0100, 0.0150]`` or ``0.0000 (no interval: every shoe alike)``."""
    mean = f"{estimate.mean:.{digits}f}{suffix}"
    if estimate.low is None or estimate.high is None:
        return f"{mean} (no interval: {estimate.reason})"
    return f"{mean} [{estimate.low:.{digits}f}, {estimate.high:.{digits}f}]{suffix}"
