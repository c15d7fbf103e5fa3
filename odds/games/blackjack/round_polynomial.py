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
tests check equality on random shoes. The result is the engine's one
polynomial type, :class:`odds.engine.polynomial.FallingPolynomial` (every
sequence extended to the longest round), so its evaluations are the
engine's: in double precision with a rigorous error bound (fast: the
simulation), or exact, in integers modulo several primes recombined by the
Chinese remainder theorem (every per-state figure printed).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from odds.engine.polynomial import FallingPolynomial
from odds.games.blackjack.actions import Chart, ChartCode
from odds.games.blackjack.dealer import RANKS, dealer_table, stand_weights, total_of

BITS = 6  # per rank in a monomial key while building (counts up to 63)
#: The hole card's rank that completes a dealer blackjack, by up card (A ↔ ten-value).
COMPLETES = {0: 9, 9: 0}
#: The polynomial's one key: the round's EV per unit of the original stake.
KEY = "main"


def _key(counts: Sequence[int]) -> int:
    return sum(c << (BITS * r) for r, c in enumerate(counts))


class _Terms:
    """Player terminals of one up card, grouped by how they are settled."""

    def __init__(self) -> None:
        # (standing total, stake) → {player multiset key: coefficient}
        self.full: dict[tuple[int, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        # (payoff if the hole card completes a blackjack, payoff otherwise) → {key: coef}
        self.hole: dict[tuple[int, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))
        self.const: dict[int, int] = defaultdict(int)  # key → coefficient (payoff folded in)


def round_polynomial(chart: Chart, rules: Any) -> FallingPolynomial[str]:
    """The charted round's EV as a polynomial in the ten rank counts (key :data:`KEY`).

    ``fractions(counts)[KEY]`` is the exact EV; ``approximate(counts)[KEY]``
    the double-precision EV and its bound. Built once per chart (seconds).
    """
    import numpy as np

    builder = _RoundBuilder(chart, rules)
    parts = [builder.pair(builder.player_terms(up), up) for up in range(RANKS)]
    keys, coefficients = _merge(
        np.concatenate([k for k, _ in parts]), np.concatenate([c for _, c in parts])
    )
    exponents = np.stack([(keys >> (BITS * r)) & 63 for r in range(RANKS)], axis=1)
    return FallingPolynomial(
        RANKS, (KEY,), exponents, coefficients[:, None], extended=True, scale=builder.scale
    )


class _RoundBuilder:
    """The round's terms: the player's terminal multisets by up card, paired with the dealer's."""

    def __init__(self, chart: Chart, rules: Any) -> None:
        self.chart, self.rules = chart, rules
        self.peek = rules.peek
        bj = rules.blackjack_payout
        self.scale = 2 * bj.denominator  # surrender pays ½; blackjack pays p/q
        self._bj_units = int(bj * self.scale)

    # -- building -------------------------------------------------------------

    def player_terms(self, up: int) -> _Terms:
        chart, terms = self.chart, _Terms()
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
                    self._split(terms, up, a, base, mult)
                else:
                    self._hand(terms, up, base, a + b + 2, (a == 0) + (b == 0), action, mult)
        return terms

    def _hand(
        self,
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
            self._hits(terms, up, base, hard, aces, mult)

    def _hits(
        self, terms: _Terms, up: int, base: list[int], hard: int, aces: int, mult: int
    ) -> None:
        """Hit once, then by the chart: orderings merged by the multiset held."""
        hit = self.chart.hit
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

    def _split(self, terms: _Terms, up: int, x: int, base: list[int], mult: int) -> None:
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
            action = ChartCode(self.chart.post_split[up, x, y]).choose(options)
            self._hand(terms, up, held, hard, aces, action, 2 * mult)

    def _stand(self, terms: _Terms, held: list[int], total: int, stake: int, ways: int) -> None:
        terms.full[max(total, 4), stake][_key(held)] += ways

    def _bust(self, terms: _Terms, held: list[int], stake: int, ways: int) -> None:
        if self.peek:  # lost only when the dealer has no blackjack (else the adjust term)
            terms.hole[0, -stake * self.scale][_key(held)] += ways
        else:
            terms.const[_key(held)] += -stake * self.scale * ways

    def pair(self, terms: _Terms, up: int) -> tuple[Any, Any]:
        """Monomial keys and coefficients of one up card (merged): player × dealer."""
        import numpy as np

        table = dealer_table(up, self.rules.dealer_hits_soft_17)
        dealer_keys = np.array([_key(m) for m in table], dtype=np.int64)
        lanes = np.array(list(table.values()), dtype=np.int64)
        # Every standing player multiset gets one coefficient per dealer lane.
        rows: dict[int, Any] = {}
        for (total, stake), players in terms.full.items():
            weights = self.scale * stake * np.array(stand_weights(total, self.peek))
            for key, ways in players.items():
                row = rows.get(key)
                rows[key] = ways * weights if row is None else row + ways * weights
        parts = []
        if rows:
            player_keys = np.array(list(rows), dtype=np.int64)
            per_lane = np.array(list(rows.values()), dtype=np.int64)
            parts.append(self._outer(player_keys, per_lane @ lanes.T, dealer_keys))
        completes = COMPLETES.get(up)
        hole_keys = np.array([1 << (BITS * h) for h in range(RANKS)], dtype=np.int64)
        for (if_bj, otherwise), players in terms.hole.items():
            per_hole = np.array(
                [if_bj if h == completes else otherwise for h in range(RANKS)], dtype=np.int64
            )
            held = np.array(list(players), dtype=np.int64)
            counts = np.array(list(players.values()), dtype=np.int64)
            parts.append(self._outer(held, counts[:, None] * per_hole[None, :], hole_keys))
        if terms.const:
            parts.append(
                (
                    np.array(list(terms.const), dtype=np.int64),
                    np.array(list(terms.const.values()), dtype=np.int64),
                )
            )
        return _merge(np.concatenate([k for k, _ in parts]), np.concatenate([c for _, c in parts]))

    @staticmethod
    def _outer(player_keys: Any, coefficients: Any, other_keys: Any) -> tuple[Any, Any]:
        """Keys ``player + other`` and their coefficients (a players × others matrix), nonzero."""
        keys = player_keys[:, None] + other_keys[None, :]
        mask = coefficients != 0
        return keys[mask], coefficients[mask]


def _merge(keys: Any, coefficients: Any) -> tuple[Any, Any]:
    """Equal keys merged (coefficients added), zeros dropped, keys sorted."""
    import numpy as np

    order = np.argsort(keys)
    keys, coefficients = keys[order], coefficients[order]
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    total = np.add.reduceat(coefficients, starts)
    keep = total != 0
    return keys[starts][keep], total[keep]
