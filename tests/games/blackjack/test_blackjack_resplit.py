"""Exact resplits: the fast split values against a plain enumeration of the split tree.

The enumeration below shares nothing with the engine: it has its own dealer
recursion and its own single-hand recursion (which fixes the post-split
strategy, CDP1: the best play for the shoe less the up card, the pair and the
hand's own cards), and then deals the round the way a casino does, card by
card from one shoe: each split hand gets its second card in turn (a pair card
is resplit while the round has fewer hands than the limit) and is played to
the end before the next one; the dealer draws last (with a peek, the hole
card comes first and the round is played only without a dealer blackjack).
Small shoes of a few ranks keep it to a fraction of a second per case.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import pairwise

import pytest

from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.player import family
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.splits import values_by_limit

A, TEN = 0, 9


def _total(hard: int, aces: bool) -> tuple[int, bool]:
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _take(comp: tuple[int, ...], rank: int) -> tuple[int, ...]:
    return tuple(c - (i == rank) for i, c in enumerate(comp))


class Brute:
    """One up card, one pair, one shoe (after the up card): the split tree, enumerated."""

    def __init__(self, shoe: tuple[int, ...], up: int, pair: int, rules: BlackjackRules) -> None:
        self.up, self.x, self.rules = up, pair, rules
        self.peek = rules.peek
        self.h17 = rules.dealer_hits_soft_17
        self.after_pair = tuple(c - 2 * (i == pair) for i, c in enumerate(shoe))

    # -- the dealer ------------------------------------------------------------

    @cache  # noqa: B019 (a few small instances per test)
    def dealer(self, comp: tuple[int, ...], hole: int | None) -> dict[object, Fraction]:
        """Final dealer hand from ``comp`` (the hole card drawn first unless given)."""
        out: dict[object, Fraction] = {}

        def walk(comp, hard, aces, cards, p):
            total, soft = _total(hard, aces)
            if cards >= 2:
                if total > 21:
                    out["bust"] = out.get("bust", 0) + p
                    return
                if total == 21 and cards == 2:
                    out["bj"] = out.get("bj", 0) + p
                    return
                if total > 17 or (total == 17 and not (soft and self.h17)):
                    out[total] = out.get(total, 0) + p
                    return
            left = sum(comp)
            assert left, "the shoe ran out"
            for r, c in enumerate(comp):
                if c:
                    walk(
                        _take(comp, r),
                        hard + r + 1,
                        aces or r == 0,
                        cards + 1,
                        p * Fraction(c, left),
                    )

        if hole is None:
            walk(comp, self.up + 1, self.up == A, 1, Fraction(1))
        else:
            walk(comp, self.up + hole + 2, A in (self.up, hole), 2, Fraction(1))
        return out

    def stand(self, comp, total: int, stake: int, hole: int | None) -> Fraction:
        """A standing hand against the dealer from ``comp`` (bust: ``total`` > 21).

        With a peek this is ``E[result · 1(no dealer blackjack)]``.
        """
        return stake * self._stand_one(comp, total, hole)

    @cache  # noqa: B019
    def _stand_one(self, comp, total: int, hole: int | None) -> Fraction:
        value = Fraction(0)
        for outcome, p in self.dealer(comp, hole).items():
            if outcome == "bj":  # with a peek the round does not happen
                value -= 0 if self.peek else p
            elif total > 21 or (outcome != "bust" and total < outcome):
                value -= p
            elif outcome == "bust" or total > outcome:
                value += p
        return value

    # -- the post-split strategy (one hand against the dealer) -----------------

    @cache  # noqa: B019
    def single(self, drawn: tuple[int, ...]) -> tuple[Fraction, bool]:
        """(best value, hit?) of a split hand holding x plus ``drawn`` (hit/stand only)."""
        comp = tuple(c - d for c, d in zip(self.after_pair, drawn, strict=True))
        hard, aces = self._hand(drawn)
        total, _ = _total(hard, aces)
        stand = self.stand(comp, total, 1, None)
        if total >= 21:
            return stand, False
        hit = self._hit(drawn)
        return (hit, True) if hit > stand else (stand, False)

    def _hand(self, drawn) -> tuple[int, bool]:
        hard = self.x + 1 + sum((r + 1) * c for r, c in enumerate(drawn))
        return hard, self.x == A or drawn[A] > 0

    def _hit(self, drawn) -> Fraction:
        comp = tuple(c - d for c, d in zip(self.after_pair, drawn, strict=True))
        left = sum(comp)
        value = Fraction(0)
        for r, c in enumerate(comp):
            if c:
                more = tuple(d + (i == r) for i, d in enumerate(drawn))
                hard, _ = self._hand(more)
                if hard > 21:
                    value += Fraction(c, left) * self.stand(_take(comp, r), 22, 1, None)
                else:
                    value += Fraction(c, left) * self.single(more)[0]
        return value

    def _double(self, drawn) -> Fraction:
        comp = tuple(c - d for c, d in zip(self.after_pair, drawn, strict=True))
        left = sum(comp)
        value = Fraction(0)
        for r, c in enumerate(comp):
            if c:
                hard, aces = self._hand(tuple(d + (i == r) for i, d in enumerate(drawn)))
                value += Fraction(c, left) * self.stand(
                    _take(comp, r), _total(hard, aces)[0], 2, None
                )
        return value

    @cache  # noqa: B019
    def first_action(self, y: int) -> str:
        """Post-split action on second card ``y``: stand, hit or double (ties: simplest)."""
        drawn = tuple(int(i == y) for i in range(10))
        hard, aces = self._hand(drawn)
        total, _ = _total(hard, aces)
        comp = tuple(c - d for c, d in zip(self.after_pair, drawn, strict=True))
        options = {"S": self.stand(comp, total, 1, None)}
        if not (self.x == A and self.rules.split_aces_one_card):
            if total < 21:
                options["H"] = self._hit(drawn)
            if self.rules.may_double(total, after_split=True):
                options["D"] = self._double(drawn)
        return max(options, key=lambda k: (options[k], -"SHD".index(k)))

    # -- the round, card by card -------------------------------------------------

    def round(self, limit: int) -> Fraction:
        """E[sum of the split hands' results] (with a peek: times 1(no dealer blackjack))."""
        self.limit = limit
        self._memo: dict = {}
        comp = self.after_pair
        if not (self.peek and self.up in (A, TEN)):
            return self._next(comp, 2, 2, (), None)
        left = sum(comp)
        value = Fraction(0)
        for r, c in enumerate(comp):
            if c and _total(self.up + r + 2, A in (self.up, r))[0] != 21:
                value += Fraction(c, left) * self._next(_take(comp, r), 2, 2, (), r)
        return value

    def _next(self, comp, waiting: int, hands: int, done: tuple, hole) -> Fraction:
        """Deal the next waiting hand its second card, or settle with the dealer."""
        if waiting == 0:
            return sum((self.stand(comp, total, stake, hole) for total, stake in done), Fraction(0))
        return self._second(comp, waiting - 1, hands, done, hole)

    def _second(self, comp, waiting: int, hands: int, done: tuple, hole) -> Fraction:
        key = (comp, waiting, hands, done, hole)
        if key in self._memo:
            return self._memo[key]
        left = sum(comp)
        value = Fraction(0)
        for r, c in enumerate(comp):
            if not c:
                continue
            p, rest = Fraction(c, left), _take(comp, r)
            if r == self.x and hands < self.limit:  # resplit: this hand draws again
                value += p * self._second(rest, waiting + 1, hands + 1, done, hole)
            else:
                value += p * self._play(rest, r, waiting, hands, done, hole)
        self._memo[key] = value
        return value

    def _play(self, comp, y: int, waiting: int, hands: int, done: tuple, hole) -> Fraction:
        drawn = tuple(int(i == y) for i in range(10))
        action = self.first_action(y)
        if action == "D":
            return self._draw(comp, drawn, waiting, hands, done, hole, stake=2, once=True)
        if action == "S":
            return self._finish(comp, drawn, 1, waiting, hands, done, hole)
        return self._draw(comp, drawn, waiting, hands, done, hole, stake=1, once=False)

    def _draw(self, comp, drawn, waiting, hands, done, hole, stake: int, once: bool) -> Fraction:
        key = ("draw", comp, drawn, waiting, hands, done, hole, stake, once)
        if key not in self._memo:
            self._memo[key] = self._draw_card(comp, drawn, waiting, hands, done, hole, stake, once)
        return self._memo[key]

    def _draw_card(self, comp, drawn, waiting, hands, done, hole, stake, once) -> Fraction:
        """The hand ``x + drawn`` takes one more card, then plays on (or stops, ``once``)."""
        left = sum(comp)
        value = Fraction(0)
        for r, c in enumerate(comp):
            if not c:
                continue
            more = tuple(d + (i == r) for i, d in enumerate(drawn))
            rest = _take(comp, r)
            hard, _ = self._hand(more)
            if once or hard > 21 or not self.single(more)[1]:
                value += Fraction(c, left) * self._finish(
                    rest, more, stake, waiting, hands, done, hole
                )
            else:
                value += Fraction(c, left) * self._draw(
                    rest, more, waiting, hands, done, hole, 1, False
                )
        return value

    def _finish(self, comp, drawn, stake, waiting, hands, done, hole) -> Fraction:
        hard, aces = self._hand(drawn)
        total = 22 if hard > 21 else _total(hard, aces)[0]
        return self._next(comp, waiting, hands, tuple(sorted((*done, (total, stake)))), hole)


SMALL = (2, 2, 2, 0, 0, 0, 0, 6, 0, 12)  # A, 2, 3, eights and tens: 24 cards


@pytest.mark.parametrize(
    ("shoe", "up", "pair", "rules"),
    [
        (SMALL, 9, 7, BlackjackRules(split_hands=4, double_after_split=True)),
        (SMALL, 9, 7, BlackjackRules(split_hands=4, hole_card="peek")),
        (SMALL, 2, 7, BlackjackRules(split_hands=3, double_after_split=True, hole_card="peek")),
        ((4, 2, 0, 0, 0, 1, 0, 3, 0, 12), 0, 0, BlackjackRules(split_hands=4, resplit_aces=True)),
        (
            (4, 2, 0, 0, 0, 1, 0, 3, 0, 12),
            9,
            0,
            BlackjackRules(
                split_hands=4,
                resplit_aces=True,
                split_aces_one_card=False,
                hole_card="peek",
                dealer_hits_soft_17=True,
            ),
        ),
    ],
)
def test_resplits_equal_the_enumerated_split_tree(shoe, up, pair, rules) -> None:
    fam = family(shoe, rules.dealer_hits_soft_17)
    fam.check_round(rules)
    analysis = analyse_round(shoe, rules)
    play = analysis.plays[up]
    fast = values_by_limit(play, rules, pair)
    after_up = tuple(c - (i == up) for i, c in enumerate(shoe))
    brute = Brute(after_up, up, pair, rules)
    for limit, value in fast.items():
        assert value == brute.round(limit), limit
    assert len(fast) == rules.split_limit(pair) - 1


def test_resplitting_never_lowers_a_value() -> None:
    """Split once ≤ three hands ≤ four hands ≤ four hands resplitting aces, hand by hand."""
    shoe = (4,) * 9 + (16,)
    limits = (
        BlackjackRules(hole_card="peek", double_after_split=True),
        BlackjackRules(hole_card="peek", double_after_split=True, split_hands=3),
        BlackjackRules(hole_card="peek", double_after_split=True, split_hands=4),
        BlackjackRules(hole_card="peek", double_after_split=True, split_hands=4, resplit_aces=True),
    )
    analyses = [analyse_round(shoe, rules) for rules in limits]
    for fewer, more in pairwise(analyses):
        assert fewer.ev <= more.ev
        for h in fewer.hands:
            if h.split is not None:
                assert h.values["P"] <= more.hand(*h.cards, h.up).values["P"]
    assert analyses[0].ev < analyses[2].ev < analyses[3].ev  # and resplits are worth something


def test_split_rounds_keep_the_exact_mean() -> None:
    """The outcome table's split rounds: probabilities add up to 1, the mean is the exact value."""
    for peek in ("none", "peek"):
        rules = BlackjackRules(
            split_hands=4, resplit_aces=True, double_after_split=True, hole_card=peek
        )
        analysis = analyse_round(SMALL, rules, distributions=True)
        for h in analysis.hands:
            assert sum(h.distribution.values()) == 1
            assert sum(net * p for net, p in h.distribution.items()) == h.ev
