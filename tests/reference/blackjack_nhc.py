"""A literal European no-hole-card round, dealt card by card in Fractions (a second implementation).

The round is played in the order of the table: the player's two cards and the
dealer's up card are known; the player acts (stand, hit on by the best
composition-dependent hit/stand play, double, surrender) *without* knowing the
hole card; only then is the hole card drawn from what is left, and the dealer
draws to 17. A dealer blackjack settles by the reading:

* ``"none"`` (all bets lost): every stake on the hand is lost, a double's too;
* ``"obo"`` (original bets only): the original stake is lost and nothing more,
  whatever the player did (a busted double included); a natural pushes.

Nothing here comes from :mod:`odds.games.blackjack`: its own totals, its own
dealer, its own settlement, so that agreement with the kernel (which values
OBO as the peek game and "none" by a blackjack lane weighing every stake)
is evidence, not a re-computation.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from math import perm

Shoe = tuple[int, ...]  # ten rank counts: A, 2-9, ten-value
BJ = "blackjack"


def _total(hard: int, aces: int) -> tuple[int, bool]:
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _take(left: Shoe, r: int) -> Shoe:
    taken = list(left)
    taken[r] -= 1
    return tuple(taken)


def dealer_final(left: Shoe, up: int, hits_soft_17: bool) -> dict[object, Fraction]:
    """The dealer's final hand after ``up``: the hole card, then draws (17-21, 22 = bust, BJ).

    Counted in integers: every ordered draw is extended to ``depth`` cards, so all
    paths share the denominator ``n(n-1)…(n-depth+1)``.
    """
    depth = min(sum(left), 12)
    ways = _ways(left, up + 1, int(up == 0), 1, depth, hits_soft_17)
    denominator = perm(sum(left), depth)
    assert sum(ways) == denominator
    return {o: Fraction(w, denominator) for o, w in zip(_OUTCOMES, ways, strict=True)}


_OUTCOMES: tuple[object, ...] = (17, 18, 19, 20, 21, 22, BJ)
_NAMES = {17: "17", 18: "18", 19: "19", 20: "20", 21: "21", 22: "bust", BJ: "blackjack"}


def dealer_probabilities(left: Shoe, up: int, hits_soft_17: bool) -> dict[str, Fraction]:
    """:func:`dealer_final` by the kernel's outcome names."""
    return {_NAMES[o]: p for o, p in dealer_final(tuple(left), up, hits_soft_17).items()}


@cache
def _ways(shoe: Shoe, hard: int, aces: int, cards: int, depth: int, h17: bool) -> tuple[int, ...]:
    """Ordered draws of ``depth`` more cards, by the outcome the dealer's hand reaches."""
    total, soft = _total(hard, aces)
    outcome: object = None
    if cards == 2 and total == 21:
        outcome = BJ
    elif cards >= 2 and (total > 17 or (total == 17 and not (soft and h17))):
        outcome = min(total, 22)
    if outcome is not None:
        extended = perm(sum(shoe), depth)
        return tuple(extended if o == outcome else 0 for o in _OUTCOMES)
    assert depth > 0, "the dealer drew more cards than the depth allows"
    result = [0] * len(_OUTCOMES)
    for r, c in enumerate(shoe):
        if c:
            below = _ways(_take(shoe, r), hard + r + 1, aces + (r == 0), cards + 1, depth - 1, h17)
            for i, y in enumerate(below):  # in place: 420,000 draws on the tests' shoe
                if y:
                    result[i] += c * y
    return tuple(result)


class NoHoleCardRound:
    """Values of the first decisions of one hand against one up card, no hole card."""

    def __init__(self, shoe: Shoe, reading: str, hits_soft_17: bool = False) -> None:
        assert reading in ("none", "obo")
        self.shoe, self.reading, self.h17 = shoe, reading, hits_soft_17

    def settle(self, total: int, stake: int, dealer: object) -> int:
        """Net of one finished hand (``total`` > 21: bust) against the dealer's final hand."""
        if dealer == BJ:
            return -1 if self.reading == "obo" else -stake
        if total > 21:
            return -stake
        assert isinstance(dealer, int)
        if dealer > 21 or total > dealer:
            return stake
        return -stake if total < dealer else 0

    def finished(self, left: Shoe, up: int, total: int, stake: int) -> Fraction:
        """A finished hand (the dealer is still dealt: the hole card decides a blackjack)."""
        dealer = dealer_final(left, up, self.h17)
        return sum((p * self.settle(total, stake, d) for d, p in dealer.items()), Fraction(0))

    @cache  # noqa: B019 - one object per test, kept for its whole run
    def best(self, left: Shoe, up: int, hard: int, aces: int) -> Fraction:
        total, _ = _total(hard, aces)
        stand = self.finished(left, up, total, 1)
        if total >= 21:
            return stand
        return max(stand, self.hit(left, up, hard, aces))

    def hit(self, left: Shoe, up: int, hard: int, aces: int) -> Fraction:
        n = sum(left)
        value = Fraction(0)
        for r, c in enumerate(left):
            if not c:
                continue
            rest = _take(left, r)
            if hard + r + 1 > 21:
                value += Fraction(c, n) * self.finished(rest, up, 22, 1)
            else:
                value += Fraction(c, n) * self.best(rest, up, hard + r + 1, aces + (r == 0))
        return value

    def values(self, a: int, b: int, up: int, blackjack_pays: Fraction) -> dict[str, Fraction]:
        """``{"S", "H", "D", "R"}`` (or ``{"BJ"}`` for a natural) of the hand ``a``, ``b``."""
        left = _take(_take(_take(self.shoe, up), a), b)
        hard, aces = a + b + 2, (a == 0) + (b == 0)
        total, _ = _total(hard, aces)
        dealer = dealer_final(left, up, self.h17)
        p_bj = dealer.get(BJ, Fraction(0))
        if total == 21:
            return {"BJ": (1 - p_bj) * blackjack_pays}
        n = sum(left)
        double = Fraction(0)
        for r, c in enumerate(left):
            if c:
                final, _ = _total(hard + r + 1, aces + (r == 0))
                double += Fraction(c, n) * self.finished(_take(left, r), up, min(final, 22), 2)
        return {
            "S": self.finished(left, up, total, 1),
            "H": self.hit(left, up, hard, aces),
            "D": double,
            "R": -Fraction(1, 2) * (1 - p_bj) - p_bj,
        }
