"""A charted blackjack round as a polynomial in the rank counts.

With the strategy fixed (the report's chart), every decision depends only on
the cards the player holds and the up card, never on the composition. So a
round is a set of *complete card sequences* — the player's two cards, the up
card, the player's draws, the dealer's hole card and draws — each with a fixed
payoff, and an ordered sequence holding ``M_r`` cards of each rank has
probability ``FF_M(c) / (n)_{|M|}`` (falling factorials of the counts ``c``, ``n``
cards). Hence

    EV(c) = Σ_M Q_M · FF_M(c) / (n)_{|M|}

with integer coefficients ``Q_M`` (over one common scale) that do not depend on
the composition. They are built once per chart: per up card, the player's
terminal multisets (merged over their orderings) are paired with the dealer's
draw table (:func:`odds.games.blackjack.dealer.dealer_table`), keys added as
integers (6 bits per rank) and equal keys merged — about 700,000 monomials for
the 8-deck chart.

The definition is exactly :func:`odds.games.blackjack.rounds.analyse_round`'s
with a chart (one split per round, a split worth twice one split hand played
on its own cards and the pair; peek and no-hole-card rules; surrender), and the
tests check equality on random shoes. Evaluation is a gather-and-multiply per
monomial: in double precision with a rigorous error bound (fast: the
simulation), or in exact integers modulo several primes recombined by the
Chinese remainder theorem (exact: every per-state figure printed).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction
from math import prod
from typing import Any

from odds.games.blackjack.actions import ChartCode
from odds.games.blackjack.dealer import RANKS, dealer_table, total_of
from odds.games.blackjack.strategy import Chart

BITS = 6  # per rank in a monomial key (counts up to 63)
HALF = 5  # ranks 0–4 and 5–9 are multiplied separately
#: The hole card's rank that completes a dealer blackjack, by up card (A ↔ ten-value).
COMPLETES = {0: 9, 9: 0}
#: Primes below 2^31 for the exact modular evaluation (products fit in int64).
PRIMES = (
    2147483647,
    2147483629,
    2147483587,
    2147483579,
    2147483563,
    2147483549,
    2147483543,
    2147483497,
    2147483489,
    2147483477,
    2147483423,
    2147483399,
)


def _key(counts: Sequence[int]) -> int:
    return sum(c << (BITS * r) for r, c in enumerate(counts))


def _stand_weights(total: int, stake: int, peek: bool) -> tuple[int, ...]:
    """Payoff per dealer lane (17–21, bust, blackjack) of a hand standing on ``total``."""
    lanes = [stake * (-1 if total < d else 0 if total == d else 1) for d in range(17, 22)]
    lanes.append(stake)
    lanes.append(0 if peek else -stake)
    return tuple(lanes)


class _Terms:
    """Player terminals of one up card, grouped by how they are settled."""

    def __init__(self) -> None:
        # (standing total, stake) → {player multiset key: coefficient}
        self.full: dict[tuple[int, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        # (payoff if the hole card completes a blackjack, payoff otherwise) → {key: coef}
        self.hole: dict[tuple[int, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.const: dict[int, int] = defaultdict(int)  # key → coefficient (payoff folded in)


class RoundPolynomial:
    """The charted round's EV as a polynomial (see the module doc); build once per chart."""

    def __init__(self, chart: Chart, rules: Any) -> None:
        import numpy as np

        self.rules = rules
        self.peek = rules.peek
        bj = rules.blackjack_payout
        self.scale = 2 * bj.denominator  # surrender pays ½; blackjack pays p/q
        self._bj_units = int(bj * self.scale)
        parts = [self._pair(self._player_terms(chart, up), up) for up in range(RANKS)]
        self.keys, self.coefficients = _merge(
            np.concatenate([k for k, _ in parts]), np.concatenate([c for _, c in parts])
        )
        mults = np.stack([(self.keys >> (BITS * r)) & 63 for r in range(RANKS)], axis=1)
        self.lengths = mults.sum(axis=1).astype(np.intp)
        self.kmax = int(self.lengths.max())
        # FF_M = (product over ranks 0–4) · (product over ranks 5–9): each half takes few
        # distinct values, so an evaluation computes the halves once and gathers them.
        width = self.kmax + 1
        self._halves = []
        for ranks in (range(0, HALF), range(HALF, RANKS)):
            half_keys = (self.keys >> (BITS * ranks[0])) & ((1 << (BITS * len(ranks))) - 1)
            distinct, index = np.unique(half_keys, return_inverse=True)
            part = np.stack([(distinct >> (BITS * i)) & 63 for i in range(len(ranks))], axis=1)
            columns = part + np.arange(len(ranks)) * width + ranks[0] * width
            self._halves.append((columns.astype(np.intp), index.reshape(-1).astype(np.intp)))
        self._float_coefficients = self.coefficients.astype(float)
        self._residues: dict[int, Any] = {}  # coefficients modulo each prime used
        self._abs_coefficients = np.abs(self._float_coefficients)

    # -- building -------------------------------------------------------------

    def _player_terms(self, chart: Chart, up: int) -> _Terms:
        terms = _Terms()
        for a in range(RANKS):
            for b in range(a, RANKS):
                base = [0] * RANKS
                base[a] += 1
                base[b] += 1
                base[up] += 1
                mult = 1 if a == b else 2
                total, _ = total_of(a + b + 2, 0 in (a, b))
                if total == 21:
                    terms.hole[0, self._bj_units][_key(base)] += mult
                    continue
                action = chart.first.get((up, a, b))
                if action is None:  # the full shoe cannot deal this hand against this up card
                    continue
                if action == "R":
                    terms.hole[-self.scale, -self.scale // 2][_key(base)] += mult
                    continue
                if self.peek:  # a dealer blackjack costs the original stake only
                    terms.hole[-self.scale, 0][_key(base)] += mult
                if action == "P":
                    self._split(chart, terms, up, a, base, mult)
                else:
                    self._hand(chart, terms, up, base, a + b + 2, (a == 0) + (b == 0), action, mult)
        return terms

    def _hand(
        self,
        chart: Chart,
        terms: _Terms,
        up: int,
        base: list[int],
        hard: int,
        aces: int,
        action: str,
        mult: int,
    ) -> None:
        """Terminals of a hand from its first decision (S, H or D), ``mult`` orderings each."""
        if action == "S":
            self._stand(terms, base, total_of(hard, aces > 0)[0], 1, mult)
        elif action == "D":
            for r in range(RANKS):
                drawn = list(base)
                drawn[r] += 1
                new_hard = hard + r + 1
                if new_hard > 21:
                    self._bust(terms, drawn, 2, mult)
                else:
                    self._stand(terms, drawn, total_of(new_hard, aces + (r == 0) > 0)[0], 2, mult)
        else:
            self._hits(chart, terms, up, base, hard, aces, mult)

    def _hits(
        self,
        chart: Chart,
        terms: _Terms,
        up: int,
        base: list[int],
        hard: int,
        aces: int,
        mult: int,
    ) -> None:
        """Hit once, then by the chart: orderings merged by the multiset held."""
        hit = chart.hit
        layer: dict[tuple[int, ...], list[int]] = {tuple(base): [mult, hard, aces]}
        while layer:
            following: dict[tuple[int, ...], list[int]] = {}
            for held, (ways, held_hard, held_aces) in layer.items():
                for r in range(RANKS):
                    drawn = list(held)
                    drawn[r] += 1
                    new_hard = held_hard + r + 1
                    new_aces = held_aces + (r == 0)
                    if new_hard > 21:
                        self._bust(terms, drawn, 1, ways)
                        continue
                    total, soft = total_of(new_hard, new_aces > 0)
                    if total == 21 or not hit[up, total, soft]:
                        self._stand(terms, drawn, total, 1, ways)
                        continue
                    key = tuple(drawn)
                    entry = following.get(key)
                    if entry is None:
                        following[key] = [ways, new_hard, new_aces]
                    else:
                        entry[0] += ways
            layer = following

    def _split(
        self, chart: Chart, terms: _Terms, up: int, x: int, base: list[int], mult: int
    ) -> None:
        """One split hand per second card, counted twice (the split is worth two hands)."""
        rules = self.rules
        for y in range(RANKS):
            held = list(base)
            held[y] += 1
            hard, aces = x + y + 2, (x == 0) + (y == 0)
            total, _ = total_of(hard, aces > 0)
            options = {"S"}
            if not (x == 0 and rules.split_aces_one_card):
                if total < 21:
                    options.add("H")
                if rules.may_double(total, after_split=True):
                    options.add("D")
            action = ChartCode(chart.post_split[up, x, y]).choose(options)
            self._hand(chart, terms, up, held, hard, aces, action, 2 * mult)

    def _stand(self, terms: _Terms, held: list[int], total: int, stake: int, ways: int) -> None:
        terms.full[max(total, 4), stake][_key(held)] += ways

    def _bust(self, terms: _Terms, held: list[int], stake: int, ways: int) -> None:
        if self.peek:  # lost only when the dealer has no blackjack (else the adjust term)
            terms.hole[0, -stake * self.scale][_key(held)] += ways
        else:
            terms.const[_key(held)] += -stake * self.scale * ways

    def _pair(self, terms: _Terms, up: int) -> tuple[Any, Any]:
        """Monomial keys and coefficients of one up card (merged): player × dealer."""
        import numpy as np

        table = dealer_table(up, self.rules.dealer_hits_soft_17)
        dealer_keys = np.array([_key(m) for m in table], dtype=np.int64)
        lanes = np.array(list(table.values()), dtype=np.int64)
        # Every standing player multiset gets one coefficient per dealer lane.
        rows: dict[int, Any] = {}
        for (total, stake), players in terms.full.items():
            weights = self.scale * np.array(_stand_weights(total, stake, self.peek))
            for key, ways in players.items():
                row = rows.get(key)
                rows[key] = ways * weights if row is None else row + ways * weights
        parts = []
        if rows:
            player_keys = np.array(list(rows), dtype=np.int64)
            per_lane = np.array(list(rows.values()), dtype=np.int64)
            parts.append(self._outer(player_keys, per_lane @ lanes.T, dealer_keys, np))
        completes = COMPLETES.get(up)
        hole_keys = np.array([1 << (BITS * h) for h in range(RANKS)], dtype=np.int64)
        for (if_bj, otherwise), players in terms.hole.items():
            per_hole = np.array(
                [if_bj if h == completes else otherwise for h in range(RANKS)], dtype=np.int64
            )
            held = np.array(list(players), dtype=np.int64)
            counts = np.array(list(players.values()), dtype=np.int64)
            parts.append(self._outer(held, counts[:, None] * per_hole[None, :], hole_keys, np))
        if terms.const:
            parts.append(
                (
                    np.array(list(terms.const), dtype=np.int64),
                    np.array(list(terms.const.values()), dtype=np.int64),
                )
            )
        return _merge(np.concatenate([k for k, _ in parts]), np.concatenate([c for _, c in parts]))

    @staticmethod
    def _outer(player_keys: Any, coefficients: Any, other_keys: Any, np: Any) -> tuple[Any, Any]:
        """Keys ``player + other`` and their coefficients (a players × others matrix), nonzero."""
        keys = player_keys[:, None] + other_keys[None, :]
        mask = coefficients != 0
        return keys[mask], coefficients[mask]

    # -- evaluation -----------------------------------------------------------

    def _falling(self, counts: Sequence[int], np: Any, p: int | None = None) -> Any:
        """``(c_r)_k`` for every rank and k ≤ kmax, flattened (floats, or integers mod ``p``)."""
        width = self.kmax + 1
        if p is None:
            table = np.ones((RANKS, width))
            for k in range(1, width):
                table[:, k] = table[:, k - 1] * (np.asarray(counts, dtype=float) - (k - 1))
            return table.ravel()
        table = np.ones((RANKS, width), dtype=np.int64)
        c = np.asarray(counts, dtype=np.int64)
        for k in range(1, width):
            table[:, k] = table[:, k - 1] * ((c - (k - 1)) % p) % p
        return table.ravel()

    def _products(self, flat: Any, np: Any, p: int | None = None) -> Any:
        """FF_M(c) of every monomial, from the two halves' distinct products."""
        values = None
        for columns, index in self._halves:
            half = flat[columns[:, 0]]
            for j in range(1, columns.shape[1]):
                half = half * flat[columns[:, j]]
                if p is not None:
                    half %= p
            gathered = half[index]
            if values is None:
                values = gathered
            else:
                values = values * gathered
                if p is not None:
                    values %= p
        return values

    def approximate(self, counts: Sequence[int]) -> tuple[float, float]:
        """``(EV, bound)``: double precision, with |EV − exact| ≤ bound (rigorous)."""
        import numpy as np

        n = sum(counts)
        inverse = np.zeros(self.kmax + 1)
        falling = 1.0
        for k in range(self.kmax + 1):
            inverse[k] = 1.0 / falling if falling else 0.0
            falling *= n - k
        values = self._products(self._falling(counts, np), np) * inverse[self.lengths]
        # Elementwise products and a sum, not a BLAS dot: no thread start-up per call.
        ev = float(np.sum(values * self._float_coefficients)) / self.scale
        # A term's falling factorials, products and quotient take ≤ 3·kmax + RANKS + 2
        # roundings (each ≤ 2^-53 relative); a sum of m terms adds ≤ m·2^-53 of Σ|terms|.
        # Doubled for safety.
        steps = 3 * self.kmax + RANKS + 2 + len(self.coefficients)
        bound = steps * 2.0**-52 * float(np.sum(np.abs(values) * self._abs_coefficients))
        return ev, bound / self.scale

    def exact(self, counts: Sequence[int]) -> Fraction:
        """The exact EV: integers modulo primes, recombined (Chinese remainder theorem).

        Numerator = Σ_M Q_M · FF_M(c) · (n − |M|)_{kmax − |M|} over the common
        denominator (n)_{kmax}; its size is at most Σ|Q_M|·(n)_{kmax}, and enough
        primes are used to cover twice that.
        """
        import numpy as np

        n = sum(counts)
        if n < self.kmax:
            raise ValueError(f"a shoe of {n} cards may run out during a round")
        denominator = prod(range(n - self.kmax + 1, n + 1))
        limit = 2 * int(np.abs(self.coefficients).sum()) * denominator + 1
        residues, moduli, modulus = [], [], 1
        for p in PRIMES:
            if modulus > limit:
                break
            residues.append(self._residue(counts, n, p, np))
            moduli.append(p)
            modulus *= p
        if modulus <= limit:
            raise ValueError("not enough primes for an exact evaluation")
        value = _crt(residues, moduli)
        if value > modulus // 2:
            value -= modulus
        return Fraction(value, denominator * self.scale)

    def _residue(self, counts: Sequence[int], n: int, p: int, np: Any) -> int:
        rest = np.array(
            [prod(range(n - self.kmax + 1, n - k + 1)) % p for k in range(self.kmax + 1)],
            dtype=np.int64,
        )
        values = self._products(self._falling(counts, np, p), np, p)
        values = values * rest[self.lengths] % p
        coefficients = self._residues.get(p)
        if coefficients is None:
            coefficients = self._residues[p] = self.coefficients % p
        total = 0
        for i in range(0, len(values), 1 << 20):  # Σ < 2^20 · 2^31: no int64 overflow
            chunk = values[i : i + (1 << 20)] * coefficients[i : i + (1 << 20)] % p
            total = (total + int(chunk.sum())) % p
        return total


def _merge(keys: Any, coefficients: Any) -> tuple[Any, Any]:
    """Equal keys merged (coefficients added), zeros dropped, keys sorted."""
    import numpy as np

    order = np.argsort(keys)
    keys, coefficients = keys[order], coefficients[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    total = np.add.reduceat(coefficients, starts)
    keep = total != 0
    return keys[starts][keep], total[keep]


def _crt(residues: Sequence[int], moduli: Sequence[int]) -> int:
    value, modulus = 0, 1
    for r, m in zip(residues, moduli, strict=True):
        inverse = pow(modulus, -1, m)
        value += modulus * ((r - value) * inverse % m)
        modulus *= m
    return value % modulus
