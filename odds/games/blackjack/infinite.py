"""Blackjack from an infinite shoe: every card drawn with the same probabilities.

Sampling with replacement, each rank has a fixed chance (1/13 for A–9, 4/13
for the ten-values), so nothing a hand or the dealer draws changes what comes
next: the dealer's outcome depends on the up card only, a hand's value on its
total and softness only, and split hands do not interact (``EV[X; a, b]`` of
:mod:`.resplit` does not depend on ``a`` or ``b``). Everything is an exact
rational; this is the limit the finite shoe tends to as decks are added
(analysts extrapolate to it), computed directly by small recursions instead
of the composition engine.

The strategy is the same definition as the finite shoe's, which here is
simply total-dependent: the best action for the hand's total (the pair for a
split), resplitting pair cards up to the best number of hands.
"""

from __future__ import annotations

from fractions import Fraction
from math import inf

from odds.core.caching import cached
from odds.games.blackjack.actions import DOUBLE, HIT, NATURAL, SPLIT, STAND, SURRENDER, Action
from odds.games.blackjack.dealer import BLACKJACK, BUST, P_RANK, RANKS, dealer_outcomes, total_of
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.resplit import patterns
from odds.games.blackjack.results import PREFERENCE, HandResult, RoundAnalysis
from odds.games.blackjack.splits import SplitResult

#: The rank counts :func:`analyse_infinite` reports as its shoe (one deck's proportions).
INFINITE_COUNTS = (4,) * 9 + (16,)


def _dealer(up: int, hits_soft_17: bool) -> tuple[Fraction, ...]:
    """P(each dealer outcome, in :data:`.dealer.OUTCOMES` order) dealt with replacement."""
    found = dealer_outcomes(inf, up, hits_soft_17)
    return tuple(Fraction(n, found.denominator) for n in found.numerators)


class InfinitePlay:
    """Hand values against one up card (per unit staked; ENHC or peek as the rules say).

    As in :mod:`.player`, values under a peek are ``E[result · 1(no blackjack)]``.
    """

    def __init__(self, up: int, rules: BlackjackRules) -> None:
        self.up, self.rules = up, rules
        self.dealer = _dealer(up, rules.dealer_hits_soft_17)
        self.p_blackjack = self.dealer[BLACKJACK]
        self.no_blackjack = 1 - self.p_blackjack if rules.peek else Fraction(1)
        self._hash = hash((up, rules))  # the cached methods hash it at every call

    # A value of its up card and rules (everything else derives from them), so the cached
    # methods below key by value: two plays of one up card and rule set share their answers.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InfinitePlay):
            return NotImplemented
        return (self.up, self.rules) == (other.up, other.rules)

    def __hash__(self) -> int:
        return self._hash

    def stand(self, total: int) -> Fraction:
        d = self.dealer
        value = d[BUST] - (0 if self.rules.peek else d[BLACKJACK])
        for o in range(5):
            value += d[o] * ((total > 17 + o) - (total < 17 + o))
        return value

    def bust(self) -> Fraction:
        return -self.no_blackjack

    @cached
    def best(self, hard: int, aces: bool) -> Fraction:
        """Best of hit and stand for a hand of this hard total (later cards)."""
        total, _ = total_of(hard, aces)
        stand = self.stand(total)
        return stand if total >= 21 else max(stand, self.hit(hard, aces))

    @cached
    def hit(self, hard: int, aces: bool) -> Fraction:
        value = Fraction(0)
        for r, p in enumerate(P_RANK):
            if hard + r + 1 > 21:
                value += p * self.bust()
            else:
                value += p * self.best(hard + r + 1, aces or r == 0)
        return value

    def double(self, hard: int, aces: bool) -> Fraction:
        value = Fraction(0)
        for r, p in enumerate(P_RANK):
            if hard + r + 1 > 21:
                value += p * self.bust()
            else:
                value += p * self.stand(total_of(hard + r + 1, aces or r == 0)[0])
        return 2 * value

    def takes_hit(self, hard: int, aces: bool) -> bool:
        total, _ = total_of(hard, aces)
        return total < 21 and self.hit(hard, aces) > self.stand(total)

    def split(self, x: int) -> SplitResult:
        """Split a pair of rank ``x``: each hand alone, resplitting up to the best limit."""
        rules = self.rules
        actions: dict[int, Action] = {}
        values: dict[int, Fraction] = {}
        for y in range(RANKS):
            hard, aces = x + y + 2, x == 0 or y == 0
            total, _ = total_of(hard, aces)
            options = {STAND: self.stand(total)}
            if not (x == 0 and rules.split_aces_one_card):
                if total < 21:
                    options[HIT] = self.hit(hard, aces)
                if rules.may_double(total, after_split=True):
                    options[DOUBLE] = self.double(hard, aces)
            action = max(options, key=lambda k: (options[k], -PREFERENCE.index(k)))
            actions[y], values[y] = action, options[action]
        p = P_RANK[x]
        ev_x = sum((P_RANK[y] * v for y, v in values.items()), Fraction(0))
        ev_n = (ev_x - p * values[x]) / (1 - p)
        best, best_m = Fraction(0), 0
        for m in range(2, rules.split_limit(x) + 1):
            value = Fraction(0)
            for pattern in patterns(m):
                weight = p**pattern.pairs * (1 - p) ** pattern.non_pairs
                value += weight * (pattern.non_pairs * ev_n + pattern.x_hands * ev_x)
            if not best_m or value > best:
                best, best_m = value, m
        counts: dict[int, Fraction] = {}
        for pattern in patterns(best_m):
            weight = p**pattern.pairs * (1 - p) ** pattern.non_pairs
            counts[pattern.hands] = counts.get(pattern.hands, Fraction(0)) + weight
        return SplitResult(best, actions, best_m, dict(sorted(counts.items())))


def analyse_infinite(rules: BlackjackRules) -> RoundAnalysis:
    """Every initial hand against every up card from an infinite shoe (exact rationals)."""
    hands: list[HandResult] = []
    for u in range(RANKS):
        play = InfinitePlay(u, rules)
        p_bj = play.p_blackjack
        adjust = -p_bj if rules.peek else Fraction(0)
        for a in range(RANKS):
            for b in range(a, RANKS):
                probability = P_RANK[a] * P_RANK[b] * P_RANK[u] * (1 if a == b else 2)
                hard, aces = a + b + 2, a == 0 or b == 0
                total, _ = total_of(hard, aces)
                values: dict[Action, Fraction] = {}
                split = None
                if total == 21:
                    values[NATURAL] = rules.blackjack_payout * (1 - p_bj)
                else:
                    values[STAND] = play.stand(total) + adjust
                    values[HIT] = play.hit(hard, aces) + adjust
                    if rules.may_double(total):
                        values[DOUBLE] = play.double(hard, aces) + adjust
                    if rules.surrender:
                        values[SURRENDER] = -Fraction(1, 2) * (1 - p_bj) - p_bj
                    if a == b:
                        split = play.split(a)
                        values[SPLIT] = split.value + adjust
                best = max(values, key=lambda k: (values[k], -PREFERENCE.index(k)))
                hands.append(
                    HandResult((a, b), u, probability, values, best, p_bj, rules.peek, split=split)
                )
    assert sum(h.probability for h in hands) == 1
    dealer = {u: _dealer(u, rules.dealer_hits_soft_17) for u in range(RANKS)}
    return RoundAnalysis(rules, INFINITE_COUNTS, hands, dealer=dealer)
