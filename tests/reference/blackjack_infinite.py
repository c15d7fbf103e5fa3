"""A chart player's round from an infinite shoe, by brute force: the reference for
:func:`odds.games.blackjack.infinite.analyse_infinite` with ``chart=``.

Written from the rules, not from :mod:`odds.games.blackjack.infinite`: cards are face
values (1 = ace … 10), drawn with replacement (1/13 each, 4/13 for a ten); the dealer's
hand is dealt card by card from the up card (its hole card first, so a blackjack is a
two-card 21); each player hand is played to the end by the chart's cells, a split pair
deals its hands one after another, resplitting whenever a hand's second card is the pair
card and the round has fewer hands than the rule allows; and every initial hand is
dealt as an *ordered* pair of cards (no factor of two for unequal cards). A dealer
blackjack takes the original stake under a peek (or OBO) and every stake the round
placed under the European no-hole-card rule; a player blackjack pays unless the dealer
has one too (a push).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from odds.games.blackjack.actions import Chart
from odds.games.blackjack.options import BlackjackRules

#: P(each face value) dealt with replacement.
P = {v: Fraction(4 if v == 10 else 1, 13) for v in range(1, 11)}
#: The dealer's final outcomes besides 17–21.
BUST, BLACKJACK = "bust", "blackjack"


def best_total(cards_sum: int, has_ace: bool) -> tuple[int, bool]:
    """(total, soft): an ace counts 11 when that does not bust the hand."""
    if has_ace and cards_sum + 10 <= 21:
        return cards_sum + 10, True
    return cards_sum, False


@cache
def dealer(up: int, hits_soft_17: bool) -> dict[object, Fraction]:
    """P(the dealer's final hand) with this up card (face value), the hole card included."""
    out: dict[object, Fraction] = {}

    def draw(cards_sum: int, has_ace: bool, cards: int, p: Fraction) -> None:
        total, soft = best_total(cards_sum, has_ace)
        if cards == 2 and total == 21:
            out[BLACKJACK] = out.get(BLACKJACK, Fraction(0)) + p
            return
        if cards_sum > 21:
            out[BUST] = out.get(BUST, Fraction(0)) + p
            return
        stands = total > 17 or (total == 17 and not (soft and hits_soft_17))
        if cards >= 2 and stands:
            out[total] = out.get(total, Fraction(0)) + p
            return
        for v, q in P.items():
            draw(cards_sum + v, has_ace or v == 1, cards + 1, p * q)

    draw(up, up == 1, 1, Fraction(1))
    assert sum(out.values()) == 1
    return out


def _cell_action(code: str, allowed: set[str]) -> str:
    """A chart cell played where only ``allowed`` letters are open: its action, else the
    fallback letter it carries (``Dh``: double, else hit), else stand."""
    for letter in (code[0], code[1:].upper()):
        if letter and letter in allowed:
            return letter
    return "S"


class ChartRound:
    """The chart's round against one up card: each initial hand's value, per initial stake."""

    def __init__(self, chart: Chart, rules: BlackjackRules, up: int) -> None:
        self.chart, self.rules, self.up = chart, rules, up
        self.u = up - 1  # the chart's up-card index
        self.final = dealer(up, rules.dealer_hits_soft_17)
        self.p_bj = self.final.get(BLACKJACK, Fraction(0))
        self._played: dict[tuple[int, bool], Fraction] = {}
        self._settled: dict[tuple[int, int], Fraction] = {}

    def settle(self, total: int, stake: int) -> Fraction:
        """One finished hand (``total`` over 21: bust) against the dealer's hands that are
        not a blackjack: E[net · 1(no dealer blackjack)] (summed once per total and stake)."""
        found = self._settled.get((total, stake))
        if found is None:
            found = self._settled[total, stake] = self._settle(total, stake)
        return found

    def _settle(self, total: int, stake: int) -> Fraction:
        value = Fraction(0)
        for outcome, p in self.final.items():
            if outcome == BLACKJACK:
                continue
            if total > 21:
                net = -stake
            elif outcome == BUST:
                net = stake
            else:
                assert isinstance(outcome, int)
                net = stake if total > outcome else (-stake if total < outcome else 0)
            value += p * net
        return value

    def played_on(self, cards_sum: int, has_ace: bool) -> Fraction:
        """A hand after its first decision, hit while the chart's hit table says so."""
        found = self._played.get((cards_sum, has_ace))
        if found is not None:
            return found
        total, soft = best_total(cards_sum, has_ace)
        if cards_sum > 21:
            found = self.settle(22, 1)
        elif total >= 21 or not self.chart.hit[self.u, total, soft]:
            found = self.settle(total, 1)
        else:
            found = sum(
                (q * self.played_on(cards_sum + v, has_ace or v == 1) for v, q in P.items()),
                Fraction(0),
            )
        self._played[cards_sum, has_ace] = found
        return found

    def one_hand(self, action: str, cards_sum: int, has_ace: bool) -> tuple[Fraction, int]:
        """A hand's E[net · 1(no dealer blackjack)] after ``action`` (stand, hit, double),
        and its stake."""
        if action == "S":
            return self.settle(best_total(cards_sum, has_ace)[0], 1), 1
        if action == "H":
            value = Fraction(0)
            for v, q in P.items():
                value += q * self.played_on(cards_sum + v, has_ace or v == 1)
            return value, 1
        assert action == "D"
        value = Fraction(0)
        for v, q in P.items():
            total, _ = best_total(cards_sum + v, has_ace or v == 1)
            value += q * self.settle(total if cards_sum + v <= 21 else 22, 2)
        return value, 2

    def split_hand(self, x: int, y: int) -> tuple[Fraction, int]:
        """A split hand of pair card ``x`` that drew ``y`` (no resplit): the chart's cell for
        it, its fallback where the cell's action is not open."""
        rules = self.rules
        total, _ = best_total(x + y, 1 in (x, y))
        allowed = {"S"}
        if not (x == 1 and rules.split_aces_one_card):
            if total < 21:
                allowed.add("H")
            if rules.may_double(total, after_split=True):
                allowed.add("D")
        code = str(self.chart.post_split[self.u, x - 1, y - 1])
        return self.one_hand(_cell_action(code, allowed), x + y, 1 in (x, y))

    def split(self, x: int) -> Fraction:
        """A split round: E[net] summed over the hands, however many the resplits make.

        ``pending`` hands still wait for their second card, ``hands`` are in the round;
        a hand that draws the pair card while ``hands`` is below the limit becomes two
        pending hands. Under the European rule each hand's stake is lost to a blackjack.
        """
        limit = self.rules.split_limit(x - 1)
        enhc = not self.rules.peek

        @cache
        def rest(pending: int, hands: int) -> Fraction:
            if pending == 0:
                return Fraction(0)
            value = Fraction(0)
            for y, q in P.items():
                if y == x and hands < limit:
                    value += q * rest(pending + 1, hands + 1)
                else:
                    hand, stake = self.split_hand(x, y)
                    lost = -stake * self.p_bj if enhc else Fraction(0)
                    value += q * (hand + lost + rest(pending - 1, hands))
            return value

        return rest(2, 2)

    def value(self, a: int, b: int) -> Fraction:
        """The initial hand ``a``, ``b`` (face values) played by the chart, per initial stake."""
        rules, p_bj = self.rules, self.p_bj
        total, _ = best_total(a + b, 1 in (a, b))
        if total == 21:
            return rules.blackjack_payout * (1 - p_bj)  # a push against a dealer blackjack
        action = str(self.chart.first[self.u, min(a, b) - 1, max(a, b) - 1])
        if action == "R":
            return -Fraction(1, 2) * (1 - p_bj) - p_bj
        if action == "P":
            value = self.split(a)
            return value - p_bj if rules.peek else value
        hand, stake = self.one_hand(action, a + b, 1 in (a, b))
        return hand - p_bj * (1 if rules.peek else stake)


def chart_round_ev(chart: Chart, rules: BlackjackRules) -> Fraction:
    """The chart's exact round EV per initial stake from an infinite shoe."""
    ev = Fraction(0)
    for up, p_up in P.items():
        round_ = ChartRound(chart, rules, up)
        for a, p_a in P.items():
            for b, p_b in P.items():
                ev += p_up * p_a * p_b * round_.value(a, b)
    return ev
