"""The exact exposure: every state a set can reach, with its probability.

When the number of cards seen before round ``k`` never depends on the cards
(a tile set dealt in fixed rounds, every tile shown), the state before round
``k`` is the full set ``C`` less a uniformly random ``m_k`` of its tiles: the
removed counts ``r`` (Σ r = m_k) have the multivariate-hypergeometric
probability ``∏_t C(C_t, r_t) / C(N, m_k)``. Every ``r`` is enumerated, every
bet's EV evaluated exactly, and the distribution of the EV summarised:
P(EV > 0), E[max(EV, 0)] (what a player who bets 1 unit only when the bet is
positive wins per round), quantiles, and the sum over the rounds of a set.

Types that every bet treats alike (a block; see
:meth:`odds.engine.polynomial.FallingPolynomial.invariant_blocks` — all ten tiles of
the standard set) are enumerated once per orbit: within a block only the
sorted counts matter, and the orbit's size multiplies the weight. The mean of
every round's EV is asserted to equal the off-the-top EV (exchangeability).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb, factorial, prod

from odds.core.errors import OddsError
from odds.games.shoe_state import StateEvaluator

#: Quantiles of the EV distribution each round reports.
QUANTILES: tuple[Fraction, ...] = (
    Fraction(1, 20),
    Fraction(1, 4),
    Fraction(1, 2),
    Fraction(3, 4),
    Fraction(19, 20),
)
#: More states than this per round is refused (the enumeration would not be quick).
MAX_STATES = 2_000_000


@dataclass(frozen=True)
class BetRound:
    """One bet's EV distribution before one round."""

    p_positive: Fraction
    gain: Fraction  # E[max(EV, 0)]
    mean: Fraction  # E[EV] (= the off-the-top EV)
    minimum: Fraction
    maximum: Fraction
    quantiles: tuple[Fraction, ...]

    @property
    def edge_when_positive(self) -> Fraction | None:
        """E[EV | EV > 0]: the watching player's average edge when betting."""
        return self.gain / self.p_positive if self.p_positive else None


@dataclass(frozen=True)
class RoundExposure:
    """Every state before one round: how many, and each bet's distribution."""

    number: int  # 1-based
    seen: int
    unseen: int
    compositions: int  # distinct unseen compositions
    orbits: int  # states actually evaluated
    bets: dict[str, BetRound]


@dataclass(frozen=True)
class ExactExposure:
    """The exact exposure of every bet over the rounds of one set."""

    rounds: tuple[RoundExposure, ...]
    off_the_top: dict[str, Fraction]

    def per_set_gain(self, bet: str) -> Fraction:
        """What a player betting 1 unit whenever the bet is positive wins per set."""
        return sum((r.bets[bet].gain for r in self.rounds), Fraction(0))


def exact_exposure(evaluator: StateEvaluator, seen_before: Sequence[int]) -> ExactExposure:
    """Enumerate every state before each round (``seen_before[k]`` cards seen before round k+1)."""
    batch = evaluator.batch()
    if batch is None:
        raise OddsError("this game's evaluator cannot enumerate states exactly")
    full = evaluator.full
    blocks = batch.invariant_blocks()
    top = evaluator.evs(full)
    rounds = []
    for number, seen in enumerate(seen_before, start=1):
        states = list(_removals(full, blocks, seen))
        if len(states) > MAX_STATES:
            raise OddsError(f"round {number}: {len(states):,} states are too many to enumerate")
        rounds.append(_round(evaluator, batch, number, seen, states, top))
    return ExactExposure(tuple(rounds), top)


def _round(
    evaluator: StateEvaluator,
    batch: object,
    number: int,
    seen: int,
    states: list[tuple[tuple[int, ...], int, int]],
    top: dict[str, Fraction],
) -> RoundExposure:
    import numpy as np

    full = evaluator.full
    size = sum(full) - seen
    total = comb(sum(full), seen)
    if sum(w for _, w, _ in states) != total:
        raise AssertionError(f"round {number}: state weights do not add up to C(N, m)")
    unseen = np.array(
        [tuple(f - r for f, r in zip(full, removed, strict=True)) for removed, _, _ in states]
    )
    numerators = batch.numerators(unseen).tolist()  # type: ignore[attr-defined]
    denominator = batch.denominator(size)  # type: ignore[attr-defined]
    weights = [w for _, w, _ in states]
    compositions = sum(orbit for _, _, orbit in states)
    bets = {}
    for b, bet in enumerate(evaluator.bets):
        values = [int(row[b]) for row in numerators]
        bets[bet.name] = _distribution(values, weights, total, denominator)
        if bets[bet.name].mean != top[bet.name]:
            raise AssertionError(
                f"round {number}, {bet.name}: mean EV {bets[bet.name].mean} differs from the "
                f"off-the-top EV {top[bet.name]}"
            )
    return RoundExposure(number, seen, size, compositions, len(states), bets)


def _distribution(values: list[int], weights: list[int], total: int, denominator: int) -> BetRound:
    """Summaries of ``EV = value / denominator`` with weights out of ``total``."""
    scale = total * denominator
    positive = sum(w for v, w in zip(values, weights, strict=True) if v > 0)
    gain = sum(w * v for v, w in zip(values, weights, strict=True) if v > 0)
    mean = sum(w * v for v, w in zip(values, weights, strict=True))
    order = sorted(range(len(values)), key=values.__getitem__)
    quantiles = []
    cumulative, i = 0, 0
    for q in QUANTILES:
        while cumulative + weights[order[i]] < q * total:
            cumulative += weights[order[i]]
            i += 1
        quantiles.append(Fraction(values[order[i]], denominator))
    return BetRound(
        p_positive=Fraction(positive, total),
        gain=Fraction(gain, scale),
        mean=Fraction(mean, scale),
        minimum=Fraction(values[order[0]], denominator),
        maximum=Fraction(values[order[-1]], denominator),
        quantiles=tuple(quantiles),
    )


def _removals(
    full: Sequence[int], blocks: Sequence[Sequence[int]], seen: int
) -> Iterator[tuple[tuple[int, ...], int, int]]:
    """``(removed counts, weight, orbit size)``: one representative per orbit.

    The orbit holds every arrangement of each block's counts over the block's
    types (all alike); the weight is ``∏_t C(C_t, r_t)`` times the orbit size.
    """
    removed = [0] * len(full)

    def walk(
        b: int, left: int, weight: int, orbit: int
    ) -> Iterator[tuple[tuple[int, ...], int, int]]:
        if b == len(blocks):
            if left == 0:
                yield tuple(removed), weight, orbit
            return
        block = blocks[b]
        capacity = full[block[0]]
        rest = sum(full[t] for blk in blocks[b + 1 :] for t in blk)
        for amount in range(max(0, left - rest), min(left, capacity * len(block)) + 1):
            for values in _partitions(amount, len(block), capacity):
                for t, v in zip(block, values, strict=True):
                    removed[t] = v
                arrangements = factorial(len(block)) // prod(
                    factorial(n) for n in Counter(values).values()
                )
                w = arrangements * prod(comb(capacity, v) for v in values)
                yield from walk(b + 1, left - amount, weight * w, orbit * arrangements)
        for t in block:
            removed[t] = 0

    yield from walk(0, seen, 1, 1)


def _partitions(total: int, parts: int, most: int) -> Iterator[tuple[int, ...]]:
    """Non-increasing ``parts``-tuples of integers in [0, most] adding up to ``total``."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    for first in range(min(total, most), -1, -1):
        if first * parts < total:
            break
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)
