"""Every statistic of a bet, derived from one weighted outcome table.

An outcome table lists events with their net payout per unit staked and the
integer ways they occur (StakeEngine's math-sdk idea: one table, all figures).
Everything here is exact (``Fraction``) except the standard deviation, which
is a square root and is printed from a high-precision decimal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cached_property

from odds.errors import OddsError


@dataclass(frozen=True)
class Outcome:
    """One event of a bet: what happened, the net result per unit staked, and its ways."""

    event: str
    net: Fraction
    ways: int


@dataclass(frozen=True)
class Bet:
    """A bet with its complete outcome table.

    ``stake`` is what the bet risks as a unit (1); ``withholding`` is what is
    debited on top of it and returned unless lost (Pok Deng's Player bet
    withholds 1 more because a loss can cost 2). Nets are per unit staked.
    """

    name: str
    title: str
    description: str
    outcomes: tuple[Outcome, ...]
    withholding: Fraction = Fraction(0)

    def __post_init__(self) -> None:
        total = sum(o.ways for o in self.outcomes)
        if total <= 0:
            raise AssertionError(f"bet {self.name}: no outcomes")
        if any(o.ways < 0 for o in self.outcomes):
            raise AssertionError(f"bet {self.name}: negative ways")
        worst = min(o.net for o in self.outcomes if o.ways)
        if -worst > 1 + self.withholding:
            raise OddsError(
                f"bet {self.name}: a loss of {-worst} per unit exceeds the stake plus "
                f"withholding ({1 + self.withholding}); the paytable contradicts itself"
            )

    @property
    def sd_is_exact(self) -> bool:
        """Whether the outcome table is the bet's exact joint distribution.

        When it is, the variance is exact (its square root is printed to the
        digits shown). A bet whose table merges dependent parts (blackjack's
        split rounds) overrides this, and reports say its SD is approximate.
        """
        return True

    @property
    def debited(self) -> Fraction:
        """Amount debited per unit staked (stake plus withholding)."""
        return 1 + Fraction(self.withholding)

    @cached_property
    def stats(self) -> BetStats:
        """The bet's statistics."""
        return BetStats.of(self.outcomes, self.debited)

    @property
    def ev(self) -> Fraction:
        """Exact EV per unit staked."""
        return self.stats.ev

    @property
    def house_edge(self) -> Fraction:
        """Exact house edge per unit staked (−EV)."""
        return self.stats.house_edge

    @property
    def rtp(self) -> Fraction:
        """Exact return to player per unit staked (1 + EV)."""
        return self.stats.rtp

    def __repr__(self) -> str:
        return (
            f"Bet({self.name!r}, ev={self.ev} (house edge {float(self.house_edge):.4%}), "
            f"{len(self.outcomes)} outcomes)"
        )

    def distribution(self) -> dict[Fraction, int]:
        """``{net payout: ways}``, merged over events."""
        merged: Counter[Fraction] = Counter()
        for outcome in self.outcomes:
            merged[outcome.net] += outcome.ways
        return dict(sorted(merged.items()))


@dataclass(frozen=True)
class BetStats:
    """Exact statistics per unit staked.

    * ``ev`` = Σ net · ways / total; ``house_edge`` = −ev; ``rtp`` = 1 + ev.
    * ``rtp_debited`` = (debited + ev) / debited: the return per unit debited,
      equal to ``rtp`` when nothing is withheld.
    * ``hit_frequency`` = probability of a net win (pushes are not hits).
    * ``variance`` = Σ net² · p − ev².
    """

    total: int
    ev: Fraction
    variance: Fraction
    hit_frequency: Fraction
    push_probability: Fraction
    debited: Fraction

    @classmethod
    def of(cls, outcomes: Iterable[Outcome], debited: Fraction = Fraction(1)) -> BetStats:
        outcomes = list(outcomes)
        total = sum(o.ways for o in outcomes)
        ev = Fraction(sum(o.net * o.ways for o in outcomes), total)
        second = Fraction(sum(o.net * o.net * o.ways for o in outcomes), total)
        hits = Fraction(sum(o.ways for o in outcomes if o.net > 0), total)
        pushes = Fraction(sum(o.ways for o in outcomes if o.net == 0), total)
        return cls(total, ev, second - ev * ev, hits, pushes, Fraction(debited))

    @property
    def house_edge(self) -> Fraction:
        return -self.ev

    @property
    def rtp(self) -> Fraction:
        return 1 + self.ev

    @property
    def rtp_debited(self) -> Fraction:
        return (self.debited + self.ev) / self.debited

    @property
    def sd(self) -> Decimal:
        """Standard deviation per unit staked (a 50-digit decimal; not exact)."""
        return sqrt_decimal(self.variance)


def sqrt_decimal(value: Fraction, precision: int = 50) -> Decimal:
    """Square root of an exact non-negative value to ``precision`` digits."""
    with localcontext() as ctx:
        ctx.prec = precision
        return (Decimal(value.numerator) / Decimal(value.denominator)).sqrt()


# ---------------------------------------------------------------------------
# Confidence ranges: how far an observed return strays from the exact RTP

#: Round counts a report gives ranges for.
CONFIDENCE_ROUNDS: tuple[int, ...] = (1_000, 10_000, 100_000, 1_000_000)
#: Probabilities of the ranges.
CONFIDENCE_LEVELS: tuple[Fraction, ...] = (Fraction(90, 100), Fraction(95, 100), Fraction(99, 100))
#: The volatility index's confidence level (the PAR-sheet convention: 90%, z ≈ 1.645).
VOLATILITY_LEVEL = Fraction(90, 100)


def z_value(level: Fraction) -> Decimal:
    """The two-sided standard-normal quantile for ``level`` (1.959964 for 95%).

    ``statistics.NormalDist`` is pure Python, so the figure is the same everywhere.
    """
    from statistics import NormalDist

    return Decimal(repr(NormalDist().inv_cdf(float((1 + level) / 2))))


def volatility_index(stats: BetStats, level: Fraction = VOLATILITY_LEVEL) -> Decimal:
    """VI = z · SD: the observed return after n rounds is within RTP ± VI/√n at ``level``."""
    return z_value(level) * stats.sd


def return_range(stats: BetStats, rounds: int, level: Fraction) -> tuple[Decimal, Decimal]:
    """The range of the observed return per unit staked after ``rounds`` independent rounds.

    Normal approximation (central limit theorem) from the exact mean and SD:
    RTP ± z · SD / √rounds.
    """
    if rounds < 1:
        raise OddsError("a confidence range needs at least one round")
    half = z_value(level) * stats.sd / Decimal(rounds).sqrt()
    centre = Decimal(stats.rtp.numerator) / Decimal(stats.rtp.denominator)
    return centre - half, centre + half
