"""Effects of removal, and the balanced count each bet's EORs give.

``EOR_t = EV(C − e_t) − EV(C)``: the exact change in a bet's EV when one card
of type ``t`` is out of the full shoe ``C``. A *group* (a rank, a tile) reports
the copies-weighted mean of its types' EORs: the effect of removing one card
of that rank, suit unknown.

Removing a uniformly random card and then dealing is dealing from the full
shoe, so ``Σ_t C_t · EOR_t = 0`` exactly — asserted, a check on every game's
evaluator.

The count
---------
Tags are the EORs scaled to small integers and *balanced*
(``Σ_g C_g · tag_g = 0``, so a whole shoe counts to 0). For each level ``L``
(largest tag 1, 2, 3, … 6) every rounding of ``L · EOR_g / max|EOR|`` down or up
is tried; among the balanced ones the tags with the highest betting
correlation win (ties: the lower level, then the first found). The *betting
correlation* is the Pearson correlation of tags and EORs weighted by copies.

A count predicts a state's EV linearly. With ``N`` cards in the full shoe,
``R`` unseen and running count ``RC = Σ seen tags``, the first-order estimate is
``EV ≈ EV₀ + (N − 1)/R · s · RC``, where ``s = Σ C τ EOR / Σ C τ²`` is the
least-squares slope of EORs on tags. Per true count ``TC = RC · U / R``
(``U`` = 52 cards per deck, or one tile set) that is ``(N − 1) · s / U`` per
unit, and the bet turns even at ``TC* = −EV₀ · U / ((N − 1) · s)``: the
*break-even index*. It is only a guide (the exact per-state EV is what the
tool reports); simulations test how well a player using it does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from itertools import product
from math import floor, lcm

from odds.games.shoe_state import CountGroup, StateBet, StateEvaluator

LEVELS = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class Count:
    """A balanced count for one bet and how well it tracks the bet's EV."""

    tags: tuple[int, ...]  # per group
    correlation_squared: Fraction
    slope: Fraction  # EV change per card of running count, times R/(N−1)
    per_true_count: Fraction  # EV change per unit of true count (linear estimate)
    index: Fraction | None  # break-even true count (None: the count cannot move the EV)

    @property
    def correlation(self) -> float:
        """Betting correlation (signed square root, for printing)."""
        with localcontext() as ctx:
            ctx.prec = 30
            q = self.correlation_squared
            root = (Decimal(q.numerator) / Decimal(q.denominator)).sqrt()
        return float(root) if self.slope >= 0 else -float(root)

    def bets_at_ratio(self, numerator: int, denominator: int) -> bool:
        """Whether a player using this count bets at the true count ``numerator / denominator``
        (``denominator`` > 0), by comparing integers: a shoe simulation asks at every state of
        every shoe, and building each true count as a Fraction cost more than the rest of the
        question."""
        test = self.ratio_test()
        if test is None:
            return False
        mine, theirs = numerator * test[0], test[1] * denominator
        return mine >= theirs if test[2] else mine <= theirs

    def ratio_test(self) -> tuple[int, int, bool] | None:
        """:meth:`bets_at_ratio` as integers: ``(index denominator, index numerator, bets
        above)``, ``None`` when the count never bets (a simulation hoists it out of its
        loop over states)."""
        if self.index is None or self.slope == 0:
            return None
        return self.index.denominator, self.index.numerator, self.slope > 0


@dataclass(frozen=True)
class BetEOR:
    """One bet: its off-the-top EV, EOR per group and per type, and its count."""

    bet: StateBet
    ev: Fraction
    eor: tuple[Fraction, ...]  # per group
    eor_by_type: tuple[Fraction | None, ...]  # per type (None: the shoe has none)
    count: Count


@dataclass(frozen=True)
class EORTable:
    """Effects of removal of every bet, with the groups they are reported by."""

    groups: tuple[CountGroup, ...]
    copies: tuple[int, ...]  # per group, in the full shoe
    type_count: int
    size: int
    unit: int
    bets: tuple[BetEOR, ...]

    def group_of(self) -> dict[int, int]:
        """Type index → group index."""
        return {t: g for g, group in enumerate(self.groups) for t in group.types}


def effects_of_removal(evaluator: StateEvaluator) -> EORTable:
    """Exact EORs of every bet and the count derived from them."""
    full = evaluator.full
    base = evaluator.evs(full)
    by_type: list[dict[str, Fraction] | None] = []
    for t, n in enumerate(full):
        if n == 0:
            by_type.append(None)
            continue
        after = list(full)
        after[t] -= 1
        by_type.append(evaluator.evs(after))
    groups = tuple(g for g in evaluator.groups() if sum(full[t] for t in g.types))
    copies = tuple(sum(full[t] for t in g.types) for g in groups)
    size = sum(full)
    bets = []
    for bet in evaluator.bets:
        per_type = tuple(None if evs is None else evs[bet.name] - base[bet.name] for evs in by_type)
        total = sum((full[t] * e for t, e in enumerate(per_type) if e is not None), Fraction(0))
        if total != 0 and evaluator.checks_exchangeability:
            raise AssertionError(
                f"{bet.name}: Σ copies · EOR = {total}, not 0 (removing a random card "
                "must change nothing on average)"
            )
        eor = tuple(
            sum((full[t] * e for t in g.types if (e := per_type[t]) is not None), Fraction(0)) / c
            for g, c in zip(groups, copies, strict=True)
        )
        count = derive_count(eor, copies, base[bet.name], size, evaluator.unit)
        bets.append(BetEOR(bet, base[bet.name], eor, per_type, count))
    return EORTable(groups, copies, len(full), size, evaluator.unit, tuple(bets))


def derive_count(
    eor: Sequence[Fraction], copies: Sequence[int], ev: Fraction, size: int, unit: int
) -> Count:
    """The balanced integer tags closest in direction to ``eor`` (see the module doc).

    Each candidate's squared correlation is ``(Σ c·t·E)² / (Σ c·t² · Σ c·E²)`` with ``E`` the
    EORs as integers over their common denominator (it cancels): integer arithmetic, compared
    by cross-multiplying, where Fractions cost a report check about 9 s of CPU (907,646 sums
    over the candidates of every bet). The same rational, so the same tags.
    """
    top = max((abs(e) for e in eor), default=Fraction(0))
    scale = lcm(1, *(e.denominator for e in eor))
    whole = [int(e * scale) for e in eor]
    spread_eor = sum(c * e * e for c, e in zip(copies, whole, strict=True))
    best: tuple[int, int, int, tuple[int, ...]] | None = None  # (q's numerator, denominator, …)
    if top:
        for level in LEVELS:
            options = []
            for e in eor:
                x = e / top * level
                low = floor(x)
                options.append((low,) if x == low else (low, low + 1))
            for tags in product(*options):
                if sum(c * t for c, t in zip(copies, tags, strict=True)) or not any(tags):
                    continue
                covariance = sum(c * t * e for c, t, e in zip(copies, tags, whole, strict=True))
                if covariance <= 0:  # the tags point against the EORs
                    continue
                spread_tags = sum(c * t * t for c, t in zip(copies, tags, strict=True))
                numerator, denominator = covariance * covariance, spread_tags * spread_eor
                if best is None or numerator * best[1] > best[0] * denominator:
                    best = (numerator, denominator, level, tags)
            if best is not None and level >= 3:
                break
    if best is None:
        zero = (0,) * len(eor)
        return Count(zero, Fraction(0), Fraction(0), Fraction(0), None)
    q, tags = Fraction(best[0], best[1]), best[3]
    covariance_q = sum((c * t * e for c, t, e in zip(copies, tags, eor, strict=True)), Fraction(0))
    spread = sum(c * t * t for c, t in zip(copies, tags, strict=True))
    slope = covariance_q / spread
    per_true_count = (size - 1) * slope / unit
    index = -ev / per_true_count if per_true_count else None
    return Count(tuple(tags), q, slope, per_true_count, index)


def tags_by_type(table: EORTable, bet: BetEOR) -> tuple[int, ...]:
    """A bet's tags spread to every type of its group."""
    tags = [0] * table.type_count
    for g, group in enumerate(table.groups):
        for t in group.types:
            tags[t] = bet.count.tags[g]
    return tuple(tags)
