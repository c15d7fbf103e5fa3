"""An independent split tree for blackjack: dealt card by card, every split convention.

Shares nothing with the engine: its own dealer recursion and single-hand recursion
(in Fractions), then the round the way a casino deals it, card by card from one
shoe: each split hand gets its second card in turn (a pair card is resplit while
the round has fewer hands than the limit) and is played to the end before the next
one; the dealer draws last (with a peek, the hole card comes first and the round
is played only without a dealer blackjack). The realizable conventions (CDZ-,
CDP1, CDPN) are played as a player would; CDP, which looks at pair cards later
hands receive, is checked through its base values (:meth:`Brute.best_hand`).
Small shoes of a few ranks keep it to a fraction of a second per case.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from odds.games.blackjack.options import BlackjackRules

A, TEN = 0, 9


def _total(hard: int, aces: bool) -> tuple[int, bool]:
    if aces and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


def _take(comp: tuple[int, ...], rank: int) -> tuple[int, ...]:
    taken = list(comp)
    taken[rank] -= 1
    return tuple(taken)


class Brute:
    """One up card, one pair, one shoe (after the up card): the split tree, enumerated.

    A split hand decides on the shoe less the up card, its own cards and ``out``
    further pair cards: CDP1 ``out = 1`` (the other pair card), CDZ- ``out = 0`` (the
    pre-split strategy for the same cards), CDPN ``out = 1 + c`` after ``c`` splits
    beyond the first (what the player has seen when the hand gets its second card).
    """

    def __init__(
        self,
        shoe: tuple[int, ...],
        up: int,
        pair: int,
        rules: BlackjackRules,
        convention: str = "CDP1",
    ) -> None:
        self.up, self.x, self.rules = up, pair, rules
        self.convention = convention
        self.peek = rules.peek
        self.h17 = rules.dealer_hits_soft_17
        self.after_up = tuple(shoe)
        self.after_pair = tuple(c - 2 * (i == pair) for i, c in enumerate(shoe))

    def out(self, hands: int) -> int:
        """Pair cards a hand's decisions take out beyond its own, with ``hands`` in the round."""
        if self.convention == "CDZ-":
            return 0
        if self.convention == "CDPN":
            return 1 + (hands - 2)
        return 1

    def _comp(self, drawn: tuple[int, ...], out: int) -> tuple[int, ...]:
        return tuple(
            c - d - (1 + out) * (i == self.x)
            for i, (c, d) in enumerate(zip(self.after_up, drawn, strict=True))
        )

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
    def single(self, drawn: tuple[int, ...], out: int = 1) -> tuple[Fraction, bool]:
        """(best value, hit?) of a hand holding x plus ``drawn`` (hit/stand only), ``out``
        further pair cards out of the shoe."""
        comp = self._comp(drawn, out)
        hard, aces = self._hand(drawn)
        total, _ = _total(hard, aces)
        stand = self.stand(comp, total, 1, None)
        if total >= 21:
            return stand, False
        hit = self._hit(drawn, out)
        return (hit, True) if hit > stand else (stand, False)

    def _hand(self, drawn) -> tuple[int, bool]:
        hard = self.x + 1 + sum((r + 1) * c for r, c in enumerate(drawn))
        return hard, self.x == A or drawn[A] > 0

    def _hit(self, drawn, out: int = 1) -> Fraction:
        comp = self._comp(drawn, out)
        left = sum(comp)
        value = Fraction(0)
        for r, c in enumerate(comp):
            if c:
                more = tuple(d + (i == r) for i, d in enumerate(drawn))
                hard, _ = self._hand(more)
                if hard > 21:
                    value += Fraction(c, left) * self.stand(_take(comp, r), 22, 1, None)
                else:
                    value += Fraction(c, left) * self.single(more, out)[0]
        return value

    def _double(self, drawn, out: int = 1) -> Fraction:
        comp = self._comp(drawn, out)
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
    def first_options(self, y: int, out: int = 1) -> dict[str, Fraction]:
        """Post-split values on second card ``y``: stand, hit, double (as the rules allow)."""
        drawn = tuple(int(i == y) for i in range(10))
        hard, aces = self._hand(drawn)
        total, _ = _total(hard, aces)
        comp = self._comp(drawn, out)
        options = {"S": self.stand(comp, total, 1, None)}
        if not (self.x == A and self.rules.split_aces_one_card):
            if total < 21:
                options["H"] = self._hit(drawn, out)
            if self.rules.may_double(total, after_split=True):
                options["D"] = self._double(drawn, out)
        return options

    def first_action(self, y: int, out: int = 1) -> str:
        """Post-split action on second card ``y``: stand, hit or double (ties: simplest)."""
        options = self.first_options(y, out)
        return max(options, key=lambda k: (options[k], -"SHD".index(k)))

    def best_hand(self, a: int) -> Fraction:
        """``EV[X; a, 0]`` played at its best: one split hand, ``a`` further pair cards out
        (CDP's base values), its second card drawn from that shoe."""
        comp = tuple(c - a * (i == self.x) for i, c in enumerate(self.after_pair))
        left = sum(comp)
        return sum(
            (
                Fraction(c, left) * max(self.first_options(y, 1 + a).values())
                for y, c in enumerate(comp)
                if c
            ),
            Fraction(0),
        )

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
        if waiting == 0:  # settled once per cards left and finished hands
            key = ("settle", comp, done, hole)
            if key not in self._memo:
                self._memo[key] = sum(
                    (self.stand(comp, total, stake, hole) for total, stake in done), Fraction(0)
                )
            return self._memo[key]
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
        out = self.out(hands)
        action = self.first_action(y, out)
        if action == "D":
            return self._draw(comp, drawn, waiting, hands, done, hole, 2, True, out)
        if action == "S":
            return self._finish(comp, drawn, 1, waiting, hands, done, hole)
        return self._draw(comp, drawn, waiting, hands, done, hole, 1, False, out)

    def _draw(self, comp, drawn, waiting, hands, done, hole, stake, once, out) -> Fraction:
        key = ("draw", comp, drawn, waiting, hands, done, hole, stake, once, out)
        if key not in self._memo:
            self._memo[key] = self._draw_card(
                comp, drawn, waiting, hands, done, hole, stake, once, out
            )
        return self._memo[key]

    def _draw_card(self, comp, drawn, waiting, hands, done, hole, stake, once, out) -> Fraction:
        """The hand ``x + drawn`` takes one more card, then plays on (or stops, ``once``)."""
        left = sum(comp)
        value = Fraction(0)
        for r, c in enumerate(comp):
            if not c:
                continue
            more = tuple(d + (i == r) for i, d in enumerate(drawn))
            rest = _take(comp, r)
            hard, _ = self._hand(more)
            if once or hard > 21 or not self.single(more, out)[1]:
                value += Fraction(c, left) * self._finish(
                    rest, more, stake, waiting, hands, done, hole
                )
            else:
                value += Fraction(c, left) * self._draw(
                    rest, more, waiting, hands, done, hole, 1, False, out
                )
        return value

    def _finish(self, comp, drawn, stake, waiting, hands, done, hole) -> Fraction:
        hard, aces = self._hand(drawn)
        total = 22 if hard > 21 else _total(hard, aces)[0]
        return self._next(comp, waiting, hands, tuple(sorted((*done, (total, stake)))), hole)
