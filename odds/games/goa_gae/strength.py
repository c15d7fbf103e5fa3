"""``odds strength goa-gae``: one hand's chance against the dealer or several opponents.

The report's hand-strength table averages over classes; this answers for one
hand, from the rest of the shoe. One or two opponents are counted exactly;
three to five are estimated by a seeded simulation, and say so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from random import Random
from typing import Any

from more_itertools import chunked

from odds.core.cards import Card, hand_text
from odds.core.errors import ParameterError
from odds.core.shoe import Shoe
from odds.core.table import Column, Kind, Table, fields_table
from odds.engine import Hand, StrengthIndex, deal_count, hands
from odds.games.features import StrengthFeature
from odds.games.goa_gae.options import GoaGaeConfig
from odds.games.goa_gae.rules import HAND_SIZE, Ranking, StrengthKey

#: Opponents counted exactly; more are simulated, up to :data:`MAX_OPPONENTS`.
MAX_EXACT_OPPONENTS = 2
MAX_OPPONENTS = 5
#: The normal quantile of a two-sided 95% interval.
Z_95 = 1.959963984540054


@dataclass(frozen=True)
class StrengthResult:
    """A hand's chance of beating ``opponents`` hands dealt from the rest of the shoe.

    Exact results carry ways; estimates carry the simulation's counts, seed and
    95% intervals (Wilson score).
    """

    hand: str
    hand_class: str
    shoe: str
    opponents: int
    exact: bool
    win: int
    tie: int
    lose: int
    total: int
    trials: int = 0
    seed: int = 0

    def probability(self, ways: int) -> Fraction:
        """``ways`` as a share of every deal (or every simulated deal)."""
        return Fraction(ways, self.total)

    def interval(self, ways: int) -> tuple[float, float]:
        """The 95% Wilson score interval of an estimated probability."""
        n, z = self.total, Z_95
        p = ways / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return max(0.0, centre - half), min(1.0, centre + half)

    def tables(self) -> list[Table]:
        """``--format json``: exact shares as fractions, the ways or counts behind them.

        One table of facts; an estimate adds its trials, seed and 95% intervals.
        """
        outcomes = ("win", "tie", "lose")
        method = "exact" if self.exact else "seeded simulation (estimate)"
        fields: list[tuple[Column, Any]] = [
            (Column("game", "game"), "goa-gae"),
            (Column("hand", "hand"), self.hand),
            (Column("hand_class", "hand class"), self.hand_class),
            (Column("shoe", "shoe"), self.shoe),
            (Column("opponents", "opponents", Kind.WAYS), self.opponents),
            (Column("exact", "exact", Kind.FLAG), self.exact),
            (Column("method", "method"), method),
        ]
        fields += [
            (Column(name, name, Kind.PROBABILITY), self.probability(getattr(self, name)))
            for name in outcomes
        ]
        counted = "ways" if self.exact else "counts"
        fields += [
            (Column(f"{counted}.{name}", name, Kind.WAYS), getattr(self, name))
            for name in (*outcomes, "total")
        ]
        if not self.exact:
            fields += [
                (Column("trials", "trials", Kind.WAYS), self.trials),
                (Column("seed", "seed", Kind.WAYS), self.seed),
            ]
            fields += [
                (
                    Column(f"interval_95.{name}", name, Kind.DATA),
                    [round(x, 6) for x in self.interval(getattr(self, name))],
                )
                for name in outcomes
            ]
        return [fields_table("strength", "Hand strength", fields)]

    def text(self) -> str:
        """For a terminal: an estimate is labelled as one, with its intervals."""
        against = "one dealer hand" if self.opponents == 1 else f"{self.opponents} opponents"
        lines = [
            f"{self.hand}: {self.hand_class}, against {against} from the rest of the shoe "
            f"({self.shoe})",
        ]
        if self.exact:
            lines.append(f"exact, {self.total:,} equally likely deals:")
        else:
            lines.append(
                f"ESTIMATE from a seeded simulation ({self.trials:,} deals, seed {self.seed}); "
                "not exact:"
            )
        several = self.opponents > 1
        verbs = (
            ("win", "beats all" if several else "win"),
            ("tie", "ties the best" if several else "tie"),
            ("lose", "loses to one or more" if several else "lose"),
        )
        for name, verb in verbs:
            ways = getattr(self, name)
            p = self.probability(ways)
            if self.exact:
                lines.append(f"  {verb:<22} {float(p):.6f}  ({ways:,} ways, {p})")
            else:
                low, high = self.interval(ways)
                lines.append(f"  {verb:<22} {float(p):.4f}  (95% interval {low:.4f} – {high:.4f})")
        return "\n".join(lines) + "\n"


def check_request(opponents: int, trials: int) -> None:
    """Refuse an opponent count or a trial count the feature cannot serve."""
    if not 1 <= opponents <= MAX_OPPONENTS:
        raise ParameterError(
            "opponents", f"{{position}} must be 1 to {MAX_OPPONENTS}, got {opponents}"
        )
    if trials < 1:
        raise ParameterError("trials", f"{{position}} must be positive, got {trials}")


def hand_strength(
    config: GoaGaeConfig,
    cards: Sequence[Card],
    opponents: int = 1,
    trials: int = 100_000,
    seed: int = 1,
) -> StrengthResult:
    """Win/tie/lose of one hand against ``opponents`` hands from the rest of the shoe.

    One or two opponents: exact. Three to five: a seeded simulation. Against
    several opponents "win" is beating every one, "tie" is no one stronger but
    someone equal, "lose" is anyone stronger.
    """
    check_request(opponents, trials)
    shoe = config.shoe.build()
    rest = shoe.without(cards, hand_text(tuple(cards)))
    rest.require(HAND_SIZE * opponents)
    ranking = Ranking(config.rules)
    mine = ranking.rank(cards)
    types = shoe.types

    def strength(hand: Hand) -> StrengthKey:
        return ranking.strength([types[t] for t in hand])

    exact = opponents <= MAX_EXACT_OPPONENTS
    if opponents == 1:
        win, tie, total = against_one(rest, strength, mine.strength)
    else:
        index = StrengthIndex(rest.counts, HAND_SIZE, strength)
        if exact:
            win, tie, total = against_two(rest, index, mine.strength)
        else:
            win, tie, total = simulate(rest, index, mine.strength, opponents, trials, seed)
    return StrengthResult(
        hand=hand_text(tuple(cards)),
        hand_class=ranking.describe(mine),
        shoe=rest.description,
        opponents=opponents,
        exact=exact,
        win=win,
        tie=tie,
        lose=total - win - tie,
        total=total,
        trials=0 if exact else trials,
        seed=0 if exact else seed,
    )


def against_one(
    rest: Shoe[Card], strength: Callable[[Hand], StrengthKey], key: StrengthKey
) -> tuple[int, int, int]:
    """(win, tie, total) ways against one hand: every hand the rest of the shoe can deal."""
    win = tie = total = 0
    for hand, weight in hands(rest.counts, HAND_SIZE):
        other = strength(hand)
        total += weight
        if other < key:
            win += weight
        elif other == key:
            tie += weight
    return win, tie, total


def against_two(rest: Shoe[Card], index: StrengthIndex, key: StrengthKey) -> tuple[int, int, int]:
    """(win, tie, total) ways against two hands, exactly, without the all-pairs loop.

    For every first opponent hand below the threshold, the index counts the
    second's ways below it after the first's removal: "both below" the hand
    is a win, "both at most equal" less the wins is a tie.
    """
    below = index.threshold(key)
    not_above = index.threshold(key, inclusive=True)

    def both_below(threshold: int) -> int:
        ways = 0
        for hand, weight, r in zip(index.hands, index.weights, index.ranks, strict=True):
            if r >= threshold:
                break
            ways += weight * index.below(index.removal_terms(hand), threshold)
        return ways

    win = both_below(below)
    tie = both_below(not_above) - win
    return win, tie, deal_count(rest.counts, (HAND_SIZE, HAND_SIZE))


def simulate(
    rest: Shoe[Card],
    index: StrengthIndex,
    key: StrengthKey,
    opponents: int,
    trials: int,
    seed: int,
) -> tuple[int, int, int]:
    """(win, tie, trials): deal ``opponents`` hands ``trials`` times from ``rest`` (seeded)."""
    below = index.threshold(key)
    not_above = index.threshold(key, inclusive=True)
    cards = [t for t, n in enumerate(rest.counts) for _ in range(n)]
    rng = Random(seed)
    rank = index.rank
    win = tie = 0
    for _ in range(trials):
        dealt = rng.sample(cards, HAND_SIZE * opponents)
        best = max(rank[tuple(sorted(hand))] for hand in chunked(dealt, HAND_SIZE))
        if best < below:
            win += 1
        elif best < not_above:
            tie += 1
    return win, tie, trials


class GoaGaeStrength(StrengthFeature[GoaGaeConfig]):
    """``odds strength``: see :func:`hand_strength`; the hand is read as the game reads it."""

    def check(self, opponents: int, trials: int) -> None:
        check_request(opponents, trials)

    def strength(
        self, config: GoaGaeConfig, hand: tuple[Any, ...], opponents: int, trials: int, seed: int
    ) -> StrengthResult:
        return hand_strength(config, hand, opponents, trials, seed)
