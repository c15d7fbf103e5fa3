"""The truly optimal split by brute force: the whole game tree, card by card, in Fractions.

Independent of :mod:`odds.games.blackjack.optimal_split` (which merges states by
the multiset of cards dealt and counts in scaled integers): here every node is a
*history* — the cards in the order they came — and nothing is merged, so each
decision is the best one for everything the player has seen (a node met again, with the
same cards left, finished hands and current hand, is looked up rather than walked again:
its value is a function of those alone, so the sums are unchanged). With a peek and an
ace or ten up, the hole card is dealt first and known not to make a blackjack:
every draw is then weighted by ``P(card | seen, no blackjack)`` and the dealer
finishes from an enumerated hole card (the dealer and the stand values are
:mod:`tests.reference.blackjack_split`'s, which shares nothing with the engine).

Tiny shoes only: the tree is exponential in the cards dealt.
"""

from __future__ import annotations

from fractions import Fraction

from odds.games.blackjack.options import BlackjackRules
from tests.reference.blackjack_split import Brute

A, TEN = 0, 9


def _take(comp: tuple[int, ...], rank: int) -> tuple[int, ...]:
    taken = list(comp)
    taken[rank] -= 1
    return tuple(taken)


def _total(cards: tuple[int, ...]) -> int:
    hard = sum(c + 1 for c in cards)
    return hard + 10 if A in cards and hard + 10 <= 21 else hard


class OptimalBrute:
    """One pair against one up card from ``shoe`` (the shoe less the up card)."""

    def __init__(
        self,
        shoe: tuple[int, ...],
        up: int,
        pair: int,
        rules: BlackjackRules,
        forced_resplit: bool = False,
    ) -> None:
        self.ref = Brute(shoe, up, pair, rules)
        self.x, self.up, self.rules = pair, up, rules
        self.forced = forced_resplit
        self.limit = min(rules.split_limit(pair), shoe[pair])
        self.one_card = pair == A and rules.split_aces_one_card
        self.hole_blackjack = {A: TEN, TEN: A}.get(up) if rules.peek else None
        self.start = _take(_take(shoe, pair), pair)
        #: :meth:`_hand`'s values by its arguments: a pure function of them (what is left,
        #: the finished hands' totals and stakes in order, the current hand's cards in order),
        #: so a history reached again is looked up, not walked again; the walk is unchanged.
        self._values: dict[tuple[object, ...], Fraction] = {}

    def round(self) -> Fraction:
        """``E[split hands' results · 1(no dealer blackjack)]`` (as ``values_by_limit``)."""
        value = self._hand(self.start, (), (self.x,), 1, 2)
        bj = self.hole_blackjack
        if bj is None:
            return value
        return value * (1 - Fraction(self.start[bj], sum(self.start)))

    # -- what the player may see next ------------------------------------------------

    def _draws(self, comp: tuple[int, ...]) -> list[tuple[Fraction, int]]:
        """``(P(next card | seen, no dealer blackjack), rank)`` for each possible card."""
        left = sum(comp)
        bj = self.hole_blackjack
        out = []
        for r, c in enumerate(comp):
            if not c:
                continue
            p = Fraction(c, left)
            if bj is not None:  # the hole card (not a blackjack card) is one of the unseen
                rest = _take(comp, r)
                p *= (1 - Fraction(rest[bj], left - 1)) / (1 - Fraction(comp[bj], left))
            if p:
                out.append((p, r))
        return out

    def _settle(self, comp: tuple[int, ...], finished: tuple[tuple[int, int], ...]) -> Fraction:
        """``E[Σ stake · result | seen, no dealer blackjack]``."""
        bj = self.hole_blackjack
        if bj is None:
            return sum(
                (self.ref.stand(comp, total, stake, None) for total, stake in finished),
                Fraction(0),
            )
        holes = sum(comp) - comp[bj]
        value = Fraction(0)
        for h, c in enumerate(comp):
            if c and h != bj:
                rest = _take(comp, h)
                value += Fraction(c, holes) * sum(
                    (self.ref.stand(rest, total, stake, h) for total, stake in finished),
                    Fraction(0),
                )
        return value

    # -- the tree ----------------------------------------------------------------------

    def _next(self, comp, finished, waiting: int, hands: int) -> Fraction:
        if waiting == 0:
            return self._settle(comp, finished)
        return self._hand(comp, finished, (self.x,), waiting - 1, hands)

    def _hand(self, comp, finished, cards: tuple[int, ...], waiting: int, hands: int) -> Fraction:
        """The current hand holds ``cards``; ``waiting`` more hands wait their turn."""
        key = (comp, finished, cards, waiting, hands)
        value = self._values.get(key)
        if value is None:
            value = self._values[key] = self._walk(comp, finished, cards, waiting, hands)
        return value

    def _walk(self, comp, finished, cards: tuple[int, ...], waiting: int, hands: int) -> Fraction:
        if len(cards) == 1:
            return sum(
                (p * self._hand(_take(comp, r), finished, (*cards, r), waiting, hands))
                for p, r in self._draws(comp)
            )
        total = _total(cards)
        if total > 21:
            return self._next(comp, (*finished, (22, 1)), waiting, hands)
        options = []
        if cards == (self.x, self.x) and hands < self.limit:
            options.append(self._hand(comp, finished, (self.x,), waiting + 1, hands + 1))
            if self.forced:
                return options[0]
        options.append(self._next(comp, (*finished, (total, 1)), waiting, hands))
        if self.one_card:
            return max(options)
        if total < 21:
            options.append(
                sum(
                    p * self._hand(_take(comp, r), finished, (*cards, r), waiting, hands)
                    for p, r in self._draws(comp)
                )
            )
        if len(cards) == 2 and self.rules.may_double(total, after_split=True):
            options.append(
                sum(
                    p
                    * self._next(
                        _take(comp, r), (*finished, (_total((*cards, r)), 2)), waiting, hands
                    )
                    for p, r in self._draws(comp)
                )
            )
        return max(options)
