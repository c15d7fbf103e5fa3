"""A seeded simulation of the whole Pok Deng table, for what exact counting cannot reach.

The distribution of the sum of the five Player bets is a six-hand problem
(the Banker and five positions, card removal between all of them): beyond the
engine (see :mod:`odds.games.pok_deng.positions`). This module deals rounds
from a fresh shuffle of the shoe (``random.Random(seed)``, as ``odds
simulate`` does: off the top, every round independent), one card at a time
to Player 1 … 5 and the Banker, twice, as the rule book deals, and tallies
each round's hands (the Banker's, and the positions' as a sorted tuple).

The result is approximate and labelled so. Its mean and SD are compared with
the exact ones (from the two-position joint): a z-score for each, with the
standard error of the sample variance taken from the sample's fourth moment.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from odds.core.cards import Card
from odds.core.sampling import Sampler
from odds.core.shoe import Shoe
from odds.games.pok_deng.options import PokDengRules
from odds.games.pok_deng.rules import settle_player
from odds.games.pok_deng.table_hands import (
    TABLE_POSITIONS,
    HandClass,
    TableHands,
    TableOutcome,
    hand_classifier,
)
from odds.runtime.progress import track
from odds.stats.bets import sqrt_decimal

#: Rounds dealt for a report; the seed is fixed so reports are reproducible.
DEFAULT_ROUNDS = 100_000
DEFAULT_SEED = 1
#: Rounds between two progress updates.
CHUNK = 1_000
#: Chunks of rows held before they are merged into the distinct rounds (memory stays bounded).
MERGE_CHUNKS = 200
#: |z| above this flags a simulated mean or SD as inconsistent with the exact one
#: (two-sided 99.9%: a correct simulation is flagged once in 1,000 seeds).
Z_LIMIT = Decimal("3.29")


@dataclass(frozen=True, eq=False)
class TableSimulation:
    """Rounds per whole-table hands, as indices into ``keys`` (the hand classes seen).

    ``rows[i]``: the Banker's hand then the positions' hands (sorted indices),
    one row per distinct round seen, ``counts[i]`` rounds of it (int64 arrays).
    Settling ~10^5 distinct rounds is then a few array operations
    (:meth:`outcomes`), not a Python loop per round.
    """

    rounds: int
    seed: int
    positions: int
    keys: tuple[HandClass, ...]
    rows: Any
    counts: Any

    @property
    def tally(self) -> dict[tuple[int, tuple[int, ...]], int]:
        """``tally[banker, positions]``: rounds per distinct round (indices into ``keys``)."""
        return {
            (row[0], tuple(row[1:])): n
            for row, n in zip(self.rows.tolist(), self.counts.tolist(), strict=True)
        }

    @property
    def hands(self) -> dict[TableHands, int]:
        """The tally with hand classes, the positions' sorted as the exact count sorts them."""
        found: dict[TableHands, int] = {}
        for (banker, seated), n in self.tally.items():
            entry = (self.keys[banker], tuple(sorted(self.keys[h] for h in seated)))
            found[entry] = found.get(entry, 0) + n
        return found

    def outcomes(self, rules: PokDengRules) -> dict[TableOutcome, int]:
        """Rounds per table outcome (Player events sorted, pairs) under ``rules``.

        Events are settled once per (player hand, Banker hand) pair and replaced
        by their rank in sorted order, so sorting the codes of a round sorts its
        events exactly as ``sorted`` sorts the events themselves.
        """
        import numpy as np

        kinds = len(self.keys)
        event = [settle_player(p[0], b[0], rules) for p in self.keys for b in self.keys]
        ordered = sorted(set(event))
        rank = {e: i for i, e in enumerate(ordered)}
        code = np.array([rank[e] for e in event], dtype=np.int64)
        pair = np.array([int(k[1]) for k in self.keys], dtype=np.int64)
        banker, seated = self.rows[:, :1], self.rows[:, 1:]
        events = np.sort(code[seated * kinds + banker], axis=1)
        settled = np.column_stack((events, pair[seated].sum(axis=1)))
        distinct, counts = _merge_rows(settled, self.counts)
        found = {
            (tuple(ordered[e] for e in row[:-1]), row[-1]): n
            for row, n in zip(distinct.tolist(), counts.tolist(), strict=True)
        }
        return dict(sorted(found.items()))


def _merge_rows(rows: Any, counts: Any) -> tuple[Any, Any]:
    """Equal rows merged (their counts added): distinct rows in lexicographic order."""
    import numpy as np

    if not len(rows):
        return rows, counts
    order = np.lexsort(rows.T[::-1])  # the first column the primary key
    rows, counts = rows[order], counts[order]
    starts = np.flatnonzero(np.concatenate(([True], (rows[1:] != rows[:-1]).any(axis=1))))
    return rows[starts], np.add.reduceat(counts, starts)


@dataclass(frozen=True)
class SimulationCheck:
    """A simulated mean and SD next to the exact ones, with z-scores."""

    rounds: int
    mean: Fraction
    variance: Fraction
    exact_mean: Fraction
    exact_variance: Fraction
    z_mean: Decimal
    z_variance: Decimal

    @classmethod
    def of(cls, counts: dict[Fraction, int], mean: Fraction, variance: Fraction) -> SimulationCheck:
        n = sum(counts.values())
        sample_mean = Fraction(sum(v * c for v, c in counts.items()), n)
        central = {v - sample_mean: c for v, c in counts.items()}
        second = Fraction(sum(d * d * c for d, c in central.items()), n)
        fourth = Fraction(sum(d**4 * c for d, c in central.items()), n)
        sample_variance = second * n / (n - 1)
        z_mean = _ratio(sample_mean - mean, sqrt_decimal(variance / n)) if variance else Decimal(0)
        spread = (fourth - second * second) / n
        z_var = _ratio(sample_variance - variance, sqrt_decimal(spread)) if spread else Decimal(0)
        return cls(n, sample_mean, sample_variance, mean, variance, z_mean, z_var)

    @property
    def sd(self) -> Decimal:
        return sqrt_decimal(self.variance)

    @property
    def exact_sd(self) -> Decimal:
        return sqrt_decimal(self.exact_variance)

    @property
    def consistent(self) -> bool:
        """Both |z| within :data:`Z_LIMIT`."""
        return abs(self.z_mean) <= Z_LIMIT and abs(self.z_variance) <= Z_LIMIT


def _ratio(value: Fraction, scale: Decimal) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator) / scale


def simulate_table(
    shoe: Shoe[Card],
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SEED,
    positions: int = TABLE_POSITIONS,
) -> TableSimulation:
    """Deal ``rounds`` seeded rounds of the Banker and ``positions`` players; tally their hands.

    Hand keys (value class and pair), not results, are tallied: rule readings
    and payouts are applied afterwards, so one simulation serves every
    paytable of the same shoe.
    """
    seats = positions + 1  # the Banker is dealt after the players, in each pass
    key = hand_classifier(shoe)
    types = len(shoe.types)
    cards = [t for t, n in enumerate(shoe.counts) for _ in range(n)]
    # Hands as small integers: the loop runs ~10^6 times.
    keys: dict[HandClass, int] = {}
    hand_index = [
        keys.setdefault(key(tuple(sorted((a, b)))), len(keys))
        for a in range(types)
        for b in range(types)
    ]
    # The same rounds as rng.sample(range(len(cards)), 2 * seats) round after round, drawn in
    # bulk (odds.core.sampling); the chunk's hands are then looked up as arrays.
    import numpy as np

    sampler = Sampler(random.Random(seed), len(cards), 2 * seats)
    card_types = np.array(cards, dtype=np.int64)
    hand_of = np.array(hand_index, dtype=np.int64)
    rows = np.empty((0, seats), dtype=np.int64)
    counts = np.empty(0, dtype=np.int64)
    pending: list[Any] = []  # chunks' rows not yet merged
    chunks = range(0, rounds, CHUNK)
    for start in track(chunks, "Pok Deng whole table: simulated rounds (thousands)"):
        dealt = card_types[sampler.draw(min(CHUNK, rounds - start))]
        # Pass one deals Player 1 … positions then the Banker; pass two the same again.
        hands = hand_of[dealt[:, :seats] * types + dealt[:, seats:]]
        seated = np.sort(hands[:, :positions], axis=1)
        pending.append(np.column_stack((hands[:, positions], seated)))
        if len(pending) == MERGE_CHUNKS or start + CHUNK >= rounds:
            fresh = np.concatenate(pending)
            pending = []
            rows, counts = _merge_rows(
                np.concatenate((rows, fresh)),
                np.concatenate((counts, np.ones(len(fresh), dtype=np.int64))),
            )
    return TableSimulation(rounds, seed, positions, tuple(keys), rows, counts)
