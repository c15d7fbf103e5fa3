"""A seeded simulation of a whole table, for the totals exact counting cannot reach.

The total of every seat's bet against one dealer is an (n + 1)-hand count with card
removal (:mod:`odds.games.defined.seats`): beyond the engine on a full shoe. This
module deals rounds from a fresh shuffle of the shoe each (``random.Random(seed)``'s
words in bulk, :class:`RoundSampler`: off the top, every round independent, as ``odds
simulate`` deals), one card at a time to seat 1 … n and then the dealer, as many times
as a hand has cards (the rule book's order), and tallies each round's hand *classes*
(the dealer's, and the seats' as a sorted tuple), never outcomes: payouts and stakes
are applied afterwards, in bulk.

The result is approximate and labelled so. Its mean and SD are compared with the
exact ones (from the two-seat joint): a z-score for each, with the standard error of
the sample variance taken from the sample's fourth moment (:class:`SimulationCheck`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import permutations
from typing import Any

from odds.engine import hands
from odds.games.defined.seats import HandClass, SeatClasses
from odds.runtime.progress import track
from odds.stats.bets import sqrt_decimal

#: Rounds dealt for a report; the seed is fixed so reports are reproducible.
DEFAULT_ROUNDS = 100_000
DEFAULT_SEED = 1
#: Rounds dealt at a time (between two progress updates).
CHUNK = 5_000
#: Rounds held as rows before equal rows are merged (memory stays bounded: a report's
#: 100,000 rounds are never merged, a long simulation is, now and then).
MERGE_ROWS = 1_000_000
#: Hands looked up in one array when their codes (sorted types in base ``types``) are
#: at most this many (two cards from 52 types: 2,704); else class by class per chunk.
LOOKUP_CODES = 1 << 20
#: |z| above this flags a simulated mean or SD as inconsistent with the exact one
#: (two-sided 99.9%: a correct simulation is flagged once in 1,000 seeds).
Z_LIMIT = Decimal("3.29")


@dataclass(frozen=True, eq=False)
class TableSimulation:
    """Rounds per whole-table hands, as class numbers (the exact counts' numbering).

    ``rows[i]``: the dealer's class, then the seats', ``counts[i]`` rounds of it (int64
    arrays; rounds alike but for the seats' order are merged now and then, so memory stays
    bounded). Settling them is a few array operations per stake setting (:meth:`totals`).
    """

    rounds: int
    seed: int
    seats: int
    rows: Any
    counts: Any

    def totals(self, nets: Any, scale: int) -> dict[Fraction, int]:
        """Rounds per total net, ``nets[seat class, dealer class]`` one seat's net × ``scale``."""
        import numpy as np

        dealer, seated = self.rows[:, :1], self.rows[:, 1:]
        total = np.asarray(nets)[seated, dealer].sum(axis=1)  # int64, or Python's when wide
        return {Fraction(v, scale): n for v, n in _tally(total, self.counts).items()}

    def tallies(self, outcome: Any, kinds: int) -> dict[tuple[int, ...], int]:
        """Rounds per sorted tuple of the seats' outcome numbers (``outcome[seat class]``)."""
        import numpy as np

        seated = np.asarray(outcome, dtype=np.int64)[self.rows[:, 1:]]
        base = self.seats + 1
        code = np.zeros(len(seated), dtype=np.int64)
        for k in range(kinds):
            code = code * base + (seated == k).sum(axis=1)
        found: dict[tuple[int, ...], int] = {}
        for value, n in _tally(code, self.counts).items():
            each = []
            for _ in range(kinds):
                value, many = divmod(value, base)
                each.append(many)
            each.reverse()
            found[tuple(k for k in range(kinds) for _ in range(each[k]))] = int(n)
        return found


def _tally(values: Any, counts: Any) -> dict[int, int]:
    """Rounds per value: ``counts`` added up by ``values`` (integers), nonzero ones only."""
    import numpy as np

    low = int(values.min()) if len(values) else 0
    span = int(values.max()) - low + 1 if len(values) else 0
    if (
        values.dtype != object and span <= 4 * len(values) + 1024
    ):  # a few values close together: count them directly
        rounds = np.bincount(values - low, weights=counts, minlength=span)
        return {low + i: int(n) for i, n in enumerate(rounds.tolist()) if n}
    distinct, inverse = np.unique(values, return_inverse=True)
    rounds = np.bincount(inverse.reshape(-1), weights=counts, minlength=len(distinct))
    return {int(v): int(n) for v, n in zip(distinct.tolist(), rounds.tolist(), strict=True) if n}


def simulate_table(
    classes: SeatClasses,
    counts: Sequence[int],
    index: dict[HandClass, int],
    rounds: int = DEFAULT_ROUNDS,
    seed: int = DEFAULT_SEED,
) -> TableSimulation:
    """Deal ``rounds`` seeded rounds of every seat and the dealer; tally their hand classes.

    ``index`` numbers the classes (as the exact counts do; a class first seen here is
    added). Each round is a fresh shuffle's first cards (:class:`RoundSampler`, from
    ``random.Random(seed)``), dealt one card at a time to seat 1 … n and the dealer,
    ``cards`` times.
    """
    import numpy as np

    deal = classes.definition.deal
    seats, size = deal.seats, deal.cards
    hands_dealt = seats + 1
    types = len(counts)
    cards = [t for t, n in enumerate(counts) for _ in range(n)]
    sampler = RoundSampler(random.Random(seed), len(cards), size * hands_dealt)
    card_types = np.array(cards, dtype=np.int64)
    known: dict[int, int] = {}  # a hand's code (its sorted types in base ``types``) → class

    def class_of(code: int) -> int:
        found = known.get(code)
        if found is None:
            hand, rest = [], code
            for _ in range(size):  # the smallest type is the lowest digit
                rest, t = divmod(rest, types)
                hand.append(t)
            found = known[code] = index.setdefault(classes(tuple(hand)), len(index))
        return found

    lookup = None  # every hand's class by its code in any order, when the codes are few
    if types**size <= LOOKUP_CODES:
        lookup = np.full(types**size, -1, dtype=np.int64)
        for hand, _ in hands(counts, size):
            number = 0
            for t in reversed(hand):
                number = number * types + t
            cls = class_of(number)
            for order in set(permutations(hand)):
                code = 0
                for t in reversed(order):
                    code = code * types + t
                lookup[code] = cls
    rows = np.empty((0, hands_dealt), dtype=np.int64)
    tally = np.empty(0, dtype=np.int64)
    pending: list[Any] = []
    unmerged = 0  # rounds since the rows were last merged
    chunks = range(0, rounds, CHUNK)
    for start in track(chunks, f"whole table: simulated rounds, {CHUNK:,} at a time"):
        dealt = card_types[sampler.draw(min(CHUNK, rounds - start))]
        # Card p · (n + 1) + j goes to hand j (seat 1 … n, then the dealer) in pass p.
        held = dealt.reshape(len(dealt), size, hands_dealt)
        if lookup is None:  # codes of sorted hands (the lookup knows every order)
            held = np.sort(held, axis=1)
        codes = np.zeros((len(dealt), hands_dealt), dtype=np.int64)
        for step in range(size - 1, -1, -1):
            codes = codes * types + held[:, step, :]
        if lookup is not None:
            hand_class = lookup[codes]
        else:
            distinct, inverse = np.unique(codes, return_inverse=True)
            numbers = np.array([class_of(int(c)) for c in distinct.tolist()], dtype=np.int64)
            hand_class = numbers[inverse.reshape(codes.shape)]
        pending.append(np.column_stack((hand_class[:, seats], hand_class[:, :seats])))
        unmerged += len(dealt)
        if unmerged >= MERGE_ROWS:
            rows, tally = _merge_rows(*_joined(rows, tally, pending))
            pending, unmerged = [], 0
    rows, tally = _joined(rows, tally, pending)
    return TableSimulation(rounds, seed, seats, rows, tally)


#: Below this share of blocks kept (a round takes most of a small shoe), rounds are dealt
#: one by one (:meth:`random.Random.sample`) instead.
MIN_KEPT = 0.2


class RoundSampler:
    """Seeded rounds of ``k`` distinct cards out of ``n``, as whole blocks of the generator.

    The generator's 32-bit words (``random.Random.getrandbits``, read in bulk: the same
    words on every platform) give values below ``n`` by their top bits, a value ``≥ n``
    skipped; each ``k`` consecutive values are a round, and a round holding a card twice
    is dropped. Before the drop every sequence of ``k`` values is equally likely, so
    every sequence of ``k`` distinct cards stays equally likely after it: each round is
    a fresh shuffle's first ``k`` cards, as :meth:`random.Random.sample` deals them, at a
    few array operations per thousand rounds (no card-by-card walk).
    """

    def __init__(self, rng: random.Random, n: int, k: int) -> None:
        if not 0 < k <= n or n > 1 << 31:
            raise ValueError(f"rounds of {k} cards from {n}")
        self.rng, self.n, self.k = rng, n, k
        self.shift = 32 - n.bit_length()
        # the share of blocks kept: values below n, then k of them distinct
        distinct = 1.0
        for i in range(k):
            distinct *= (n - i) / n
        self.kept = distinct

    def draw(self, count: int) -> Any:
        """The next ``count`` rounds: an int64 array of ``count`` rows of ``k`` distinct cards."""
        import numpy as np

        n, k = self.n, self.k
        if self.kept < MIN_KEPT:  # a round takes most of a small shoe: shuffle it each time
            rows = [self.rng.sample(range(n), k) for _ in range(count)]
            return np.array(rows, dtype=np.int64).reshape(count, k)
        found: list[Any] = []
        have = 0
        while have < count:
            blocks = int((count - have) / self.kept * 1.1) + 8
            words = int(blocks * k * (1 << (32 - self.shift)) / n) + k
            raw = self.rng.getrandbits(32 * words).to_bytes(4 * words, "little")
            values = np.frombuffer(raw, dtype="<u4").astype(np.int64) >> self.shift
            values = values[values < n]
            rounds = values[: len(values) // k * k].reshape(-1, k)
            ordered = np.sort(rounds, axis=1)
            clean = rounds[(ordered[:, 1:] != ordered[:, :-1]).all(axis=1)]
            found.append(clean[: count - have])
            have += len(found[-1])
        return np.concatenate(found)


def _joined(rows: Any, tally: Any, pending: list[Any]) -> tuple[Any, Any]:
    """The rows so far and the pending ones (one round each) in one array."""
    import numpy as np

    fresh = np.concatenate(pending) if pending else rows[:0]
    return (
        np.concatenate((rows, fresh)),
        np.concatenate((tally, np.ones(len(fresh), dtype=np.int64))),
    )


def _merge_rows(rows: Any, counts: Any) -> tuple[Any, Any]:
    """Rounds with the same dealer's class and seats' classes (in any order) merged, their
    counts added: distinct rows, the seats sorted, in lexicographic order."""
    import numpy as np

    if not len(rows):
        return rows, counts
    rows = np.column_stack((rows[:, :1], np.sort(rows[:, 1:], axis=1)))
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
