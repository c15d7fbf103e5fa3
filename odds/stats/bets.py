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
from decimal import ROUND_HALF_EVEN, Context, Decimal, localcontext
from fractions import Fraction
from functools import cached_property

from odds.core.errors import OddsError


@dataclass(frozen=True)
class Outcome:
    """One event of a bet: what happened, the net result per unit staked, and its ways.

    ``wagered`` is the total stake at risk in this event, in units of the initial stake:
    more than 1 where a decision adds a stake (Three Card Poker's Play); ``net`` is then per
    initial unit, and may lose up to ``wagered``.
    """

    event: str
    net: Fraction
    ways: int
    wagered: Fraction = Fraction(1)


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
    #: The title of the bet it is paid on, with no stake of its own (a bonus riding on
    #: another bet's stake: Three Card Poker's Ante Bonus): its figures are per unit of that
    #: stake, and that bet's own figures include it.
    rides_on: str | None = None

    def __post_init__(self) -> None:
        total = sum(o.ways for o in self.outcomes)
        if total <= 0:
            raise AssertionError(f"bet {self.name}: no outcomes")
        if any(o.ways < 0 for o in self.outcomes):
            raise AssertionError(f"bet {self.name}: negative ways")
        for outcome in self.outcomes:
            if outcome.ways and -outcome.net > outcome.wagered + self.withholding:
                raise OddsError(
                    f"bet {self.name}: a loss of {-outcome.net} per unit exceeds the stake "
                    f"plus withholding ({outcome.wagered + self.withholding}); the paytable "
                    "contradicts itself"
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
    def average_wager(self) -> Fraction:
        """The total stake at risk per round, on average, in initial units (1 unless a
        decision adds a stake)."""
        total = sum(o.ways for o in self.outcomes)
        return Fraction(sum(o.wagered * o.ways for o in self.outcomes), total)

    @property
    def element_of_risk(self) -> Fraction:
        """EV per unit of the total stake at risk (the house edge per initial unit when no
        stake is added), negated: the house's advantage per unit wagered in all."""
        return -self.ev / self.average_wager

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

    @property
    def top_award(self) -> Fraction:
        """The largest net win per unit staked that some outcome with ways pays."""
        return max(o.net for o in self.outcomes if o.ways)

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


def rounds_to_clear(stats: BetStats, level: Fraction, target: Fraction = Fraction(1)) -> int | None:
    """The fewest rounds after which the range at ``level`` no longer holds ``target``.

    With ``target`` = 1 (break-even), how long until the observed return of a
    bet with a house edge is, at ``level``, surely a loss (or, with a player
    edge, surely a gain): the smallest n with z · SD / √n < |RTP − target|.
    ``None`` when the RTP is the target (the range always holds it).
    """
    gap = abs(stats.rtp - target)
    if gap == 0:
        return None
    with localcontext(Context(prec=50, rounding=ROUND_HALF_EVEN)):
        gap_decimal = Decimal(gap.numerator) / Decimal(gap.denominator)
        bound = (z_value(level) * stats.sd / gap_decimal) ** 2
    return int(bound) + 1


# ---------------------------------------------------------------------------
# Several positions against one banker: moments from the two-position joint

#: Two positions' net results: one tuple per position, one net per bet (per unit staked).
PairOutcome = tuple[tuple[Fraction, ...], tuple[Fraction, ...]]


@dataclass(frozen=True)
class PositionMoments:
    """Exact first and second moments of bets placed on exchangeable positions.

    Positions that share a banker and a shoe are not independent, but they are
    exchangeable (docs/reference/counting.md §Exchangeability): every pair of
    positions has the joint of "position 1 and position 2". So the EV and
    variance of any set of bets on any set of positions need only that joint,
    through

    * ``mean[a]`` = E[A] on one position;
    * ``same[a, b]`` = E[A·B] for bets ``a`` and ``b`` on the same position
      (one hand: Player N and Player N Pair);
    * ``cross[a, b]`` = E[A₁·B₂] for ``a`` on one position and ``b`` on another.

    Built by :meth:`of` from ways per pair of positions' nets. Both positions'
    views are averaged (a joint keyed by *sorted* results is fine), and the
    averages equal each position's own figures exactly when the joint is
    exchangeable (tests check that on the engines' joints).
    """

    bets: tuple[str, ...]
    total: int
    mean: dict[str, Fraction]
    same: dict[tuple[str, str], Fraction]
    cross: dict[tuple[str, str], Fraction]

    @classmethod
    def of(cls, bets: tuple[str, ...], joint: dict[PairOutcome, int]) -> PositionMoments:
        total = sum(joint.values())
        if total <= 0:
            raise AssertionError("positions: an empty joint distribution")
        index = range(len(bets))
        first = [Fraction(0)] * len(bets)
        same = {(a, b): Fraction(0) for a in index for b in index}
        cross = dict(same)
        for (one, two), ways in joint.items():
            for a in index:
                first[a] += ways * (one[a] + two[a])
                for b in index:
                    same[a, b] += ways * (one[a] * one[b] + two[a] * two[b])
                    cross[a, b] += ways * (one[a] * two[b] + two[a] * one[b])
        return cls(
            bets,
            total,
            {bets[a]: first[a] / (2 * total) for a in index},
            {(bets[a], bets[b]): v / (2 * total) for (a, b), v in same.items()},
            {(bets[a], bets[b]): v / (2 * total) for (a, b), v in cross.items()},
        )

    def variance(self, bet: str) -> Fraction:
        """Var(A) for one bet on one position."""
        return self.same[bet, bet] - self.mean[bet] ** 2

    def covariance(self, a: str, b: str, same_position: bool) -> Fraction:
        """Cov(A, B): on one position's hand, or on two different positions."""
        product = (self.same if same_position else self.cross)[a, b]
        return product - self.mean[a] * self.mean[b]

    def correlation(self, a: str, b: str, same_position: bool) -> Decimal:
        """Pearson correlation (a square root: a decimal, not exact)."""
        denominator = self.variance(a) * self.variance(b)
        if not denominator:
            return Decimal(0)
        covariance = self.covariance(a, b, same_position)
        root = sqrt_decimal(denominator)
        with localcontext() as ctx:
            ctx.prec = 50
            return Decimal(covariance.numerator) / Decimal(covariance.denominator) / root

    def selection(self, stakes: Iterable[dict[str, Fraction]]) -> tuple[Fraction, Fraction]:
        """Exact EV and variance of the total net when position ``i`` stakes ``stakes[i]``.

        ``stakes`` lists one ``{bet: stake}`` per position played (at most as
        many positions as the table has). Var(Σ) = Σ Var + 2 Σ Cov over every
        pair of bets, on one hand or on two positions.
        """
        played = [dict(s) for s in stakes]
        ev = sum(
            (s * self.mean[bet] for position in played for bet, s in position.items()),
            Fraction(0),
        )
        variance = Fraction(0)
        for i, one in enumerate(played):
            for j, two in enumerate(played):
                for a, s in one.items():
                    for b, t in two.items():
                        variance += s * t * self.covariance(a, b, same_position=i == j)
        return ev, variance
