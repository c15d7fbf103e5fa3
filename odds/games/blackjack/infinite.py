"""Blackjack from an infinite shoe: every card drawn with the same probabilities.

Sampling with replacement, each rank has a fixed chance (1/13 for A–9, 4/13
for the ten-values), so nothing a hand or the dealer draws changes what comes
next: the dealer's outcome depends on the up card only, a hand's value on its
total and softness only, and split hands do not interact (``EV[X; a, b]`` of
:mod:`.splits` does not depend on ``a`` or ``b``). Everything is an exact
rational; this is the limit the finite shoe tends to as decks are added
(analysts extrapolate to it), computed directly by small recursions instead
of the composition engine.

The strategy is the same definition as the finite shoe's, which here is
simply total-dependent: the best action for the hand's total (the pair for a
split), resplitting pair cards up to the best number of hands. A basic strategy
chart (:class:`~.actions.Chart`) can be played instead, as the finite shoe's
``analyse_round(..., chart=chart)`` plays it: its first action per two-card hand,
its hit/stand per total after that, a split hand's cell (or its fallback where the
cell's action is not allowed), resplitting whenever the rules allow. Since the
chart is derived from these very values, it differs from the optimal play only
where a chart cell cannot say what the optimum does: a split hand whose total has no
row of its own (a split ace that draws an ace is soft 12, which only A-A reaches, so
it takes the hit/stand fallback where doubling can be better), or a resplit limit.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from math import inf

from odds.core.caching import cached
from odds.games.blackjack.actions import (
    DOUBLE,
    HIT,
    NATURAL,
    SPLIT,
    STAND,
    SURRENDER,
    Action,
    Chart,
    ChartCode,
    best_action,
)
from odds.games.blackjack.dealer import BLACKJACK, BUST, P_RANK, RANKS, total_of
from odds.games.blackjack.dealer_batches import dealer_outcomes
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.results import HandResult, RoundAnalysis
from odds.games.blackjack.splits import (
    Distribution,
    SplitResult,
    add_distributions,
    completions,
    convolve,
    scaled,
)

#: The rank counts :func:`analyse_infinite` reports as its shoe (one deck's proportions).
INFINITE_COUNTS = (4,) * 9 + (16,)


def _dealer(up: int, hits_soft_17: bool) -> tuple[Fraction, ...]:
    """P(each dealer outcome, in :data:`.dealer.OUTCOMES` order) dealt with replacement."""
    found = dealer_outcomes(inf, up, hits_soft_17)
    return tuple(Fraction(n, found.denominator) for n in found.numerators)


#: A chart's decisions against one up card, as hashable values: the (total, soft) it hits
#: on after the first decision, and each split hand's cell per (pair card, second card).
ChartPlay = tuple[frozenset[tuple[int, bool]], tuple[tuple[tuple[int, int], ChartCode], ...]]


def chart_play(chart: Chart, up: int) -> ChartPlay:
    """The part of ``chart`` that plays against ``up`` (a :class:`InfinitePlay` keys by it)."""
    hits = frozenset((t, soft) for (u, t, soft), hit in chart.hit.items() if u == up and hit)
    cells = tuple(
        sorted(((x, y), ChartCode(c)) for (u, x, y), c in chart.post_split.items() if u == up)
    )
    return hits, cells


class InfinitePlay:
    """Hand values against one up card (per unit staked; ENHC or peek as the rules say).

    As in :mod:`.player`, values under a peek are ``E[result · 1(no blackjack)]``.
    ``chart`` (None: optimal play) fixes every decision after the first two cards and a
    split hand's, as :func:`chart_play` gives them for this up card.
    """

    def __init__(self, up: int, rules: BlackjackRules, chart: ChartPlay | None = None) -> None:
        self.up, self.rules, self.chart = up, rules, chart
        self.dealer = _dealer(up, rules.dealer_hits_soft_17)
        self.p_blackjack = self.dealer[BLACKJACK]
        self.no_blackjack = 1 - self.p_blackjack if rules.peek else Fraction(1)
        self._hash = hash((up, rules, chart))  # the cached methods hash it at every call

    # A value of its up card, rules and chart (everything else derives from them), so the
    # cached methods below key by value: two plays of one up card and rule set share answers.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InfinitePlay):
            return NotImplemented
        return (self.up, self.rules, self.chart) == (other.up, other.rules, other.chart)

    def __hash__(self) -> int:
        return self._hash

    @cached  # a dozen totals, asked for by every hand that may stand or double
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
        """The hand's value played on (later cards): the best of hit and stand, or the chart's."""
        total, _ = total_of(hard, aces)
        if self.chart is not None:
            return self.hit(hard, aces) if self.takes_hit(hard, aces) else self.stand(total)
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

    @cached
    def double(self, hard: int, aces: bool) -> Fraction:
        value = Fraction(0)
        for r, p in enumerate(P_RANK):
            if hard + r + 1 > 21:
                value += p * self.bust()
            else:
                value += p * self.stand(total_of(hard + r + 1, aces or r == 0)[0])
        return 2 * value

    def takes_hit(self, hard: int, aces: bool) -> bool:
        """Whether the hand is hit (after its first decision): by value, or as the chart says."""
        total, soft = total_of(hard, aces)
        if total >= 21:
            return False
        if self.chart is not None:
            return (total, soft) in self.chart[0]
        return self.hit(hard, aces) > self.stand(total)

    # -- net payout distributions (the report's outcome table) --------------------------

    @cached
    def final(self, hard: int, aces: bool) -> dict[int, Fraction]:
        """The final total (22: bust) of a hand hit while :meth:`takes_hit` says so."""
        if not self.takes_hit(hard, aces):
            return {total_of(hard, aces)[0]: Fraction(1)}
        return self.drawn(hard, aces, True)

    def drawn(self, hard: int, aces: bool, hit_on: bool) -> dict[int, Fraction]:
        """The final total after one more card, then hitting on (or standing: a double)."""
        out: dict[int, Fraction] = defaultdict(Fraction)
        for r, p in enumerate(P_RANK):
            after, ace = hard + r + 1, aces or r == 0
            if after > 21:
                out[22] += p
                continue
            then = self.final(after, ace) if hit_on else {total_of(after, ace)[0]: Fraction(1)}
            for total, q in then.items():
                out[total] += p * q
        return out

    def nets(self, totals: dict[int, Fraction], stake: int) -> dict[Fraction, Fraction]:
        """P(net, and a dealer hand that is not a blackjack) for these final totals."""
        out: dict[Fraction, Fraction] = defaultdict(Fraction)
        for total, q in totals.items():
            for net, p in self.total_nets(total, stake):
                out[net] += q * p
        return out

    @cached
    def total_nets(self, total: int, stake: int) -> tuple[tuple[Fraction, Fraction], ...]:
        """P(net, and a dealer hand that is not a blackjack) for one final total: the dealer's
        outcomes summed by the net they give (in the order the nets first come)."""
        out: dict[Fraction, Fraction] = defaultdict(Fraction)
        for o in range(BLACKJACK):
            if total > 21 or o == BUST:
                net = -stake if total > 21 else stake
            else:
                net = stake * ((total > 17 + o) - (total < 17 + o))
            out[Fraction(net)] += self.dealer[o]
        return tuple(out.items())

    @cached  # asked by every initial hand and every split hand (ten per split) of a total
    def action_nets(self, action: Action, hard: int, aces: bool) -> tuple[Distribution, int]:
        """P(net, and no dealer blackjack) of a hand after its first action (stand, hit or
        double), and its stake (shared: read, never changed)."""
        if action == STAND:
            totals, stake = {total_of(hard, aces)[0]: Fraction(1)}, 1
        else:
            totals, stake = self.drawn(hard, aces, action == HIT), 2 if action == DOUBLE else 1
        return self.nets(totals, stake), stake

    def distribution(self, action: Action, a: int, b: int) -> dict[Fraction, Fraction]:
        """Net payout probabilities of an initial hand's action (a split's: see :meth:`split`)."""
        p_bj, peek = self.p_blackjack, self.rules.peek
        if action == NATURAL:
            return add_distributions({self.rules.blackjack_payout: 1 - p_bj}, {Fraction(0): p_bj})
        if action == SURRENDER:
            return add_distributions({Fraction(-1, 2): 1 - p_bj}, {Fraction(-1): p_bj})
        if action == SPLIT:
            return self.split_distribution(a)
        nets, stake = self.action_nets(action, a + b + 2, a == 0 or b == 0)
        return add_distributions(nets, {Fraction(-1 if peek else -stake): p_bj})

    def split_distribution(self, x: int) -> dict[Fraction, Fraction]:
        """A split round's net, its hands convolved as if independent given the dealer's
        blackjack or not (they share the dealer's hand: the spread is approximate, the mean
        exact)."""
        split, p, p_bj = self.split(x), P_RANK[x], self.p_blackjack
        other: dict[str, list[tuple[Fraction, dict[Fraction, Fraction]]]] = {"X": [], "N": []}
        lost: dict[str, list[tuple[Fraction, dict[Fraction, Fraction]]]] = {"X": [], "N": []}
        for y in range(RANKS):
            nets, stake = self.action_nets(split.actions[y], x + y + 2, x == 0 or y == 0)
            given = {net: q / (1 - p_bj) for net, q in nets.items()}
            for kind, weight in (("X", P_RANK[y]), ("N", P_RANK[y] / (1 - p))):
                if kind == "X" or y != x:
                    other[kind].append((weight, given))
                    lost[kind].append((weight, {Fraction(-stake): Fraction(1)}))
        rounds: dict[Fraction, Fraction] = {}
        blackjack: dict[Fraction, Fraction] = {}
        # Each kind's hand is mixed once (not once per hand of every completion), and the
        # dealer's blackjack under a peek takes the original stake whatever the hands hold.
        ways = [(other, rounds)] if self.rules.peek else [(other, rounds), (lost, blackjack)]
        mixed = [({kind: _mix(hands) for kind, hands in kinds.items()}, out) for kinds, out in ways]
        for completion in completions(split.hands):
            weight = p**completion.pairs * (1 - p) ** completion.non_pairs
            for mixes, out in mixed:
                hands = [mixes[kind] for kind, _ in completion.hands]
                out.update(add_distributions(out, scaled(convolve(hands), weight)))
        if self.rules.peek:
            blackjack = {Fraction(-1): Fraction(1)}
        return add_distributions(scaled(rounds, 1 - p_bj), scaled(blackjack, p_bj))

    def split(self, x: int) -> SplitResult:
        """Split a pair of rank ``x``: each hand alone, resplitting up to the best limit (a
        chart: each hand by its cell, resplitting whenever the rules allow)."""
        rules = self.rules
        cells = None if self.chart is None else dict(self.chart[1])
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
            action = cells[x, y].choose(options) if cells is not None else best_action(options)
            actions[y], values[y] = action, options[action]
        p = P_RANK[x]
        ev_x = sum((P_RANK[y] * v for y, v in values.items()), Fraction(0))
        ev_n = (ev_x - p * values[x]) / (1 - p)
        best, best_m = Fraction(0), 0
        limit = rules.split_limit(x)
        for m in range(2 if cells is None else limit, limit + 1):
            value = Fraction(0)
            for completion in completions(m):
                weight = p**completion.pairs * (1 - p) ** completion.non_pairs
                value += weight * sum(ev_n if kind == "N" else ev_x for kind, _ in completion.hands)
            if not best_m or value > best:
                best, best_m = value, m
        return SplitResult(best, actions, best_m)


def _mix(weighted: list[tuple[Fraction, Distribution]]) -> Distribution:
    out: Distribution = {}
    for weight, distribution in weighted:
        out = add_distributions(out, scaled(distribution, weight))
    return out


def _mean(distribution: Distribution) -> Fraction:
    return sum((net * q for net, q in distribution.items()), Fraction(0))


def analyse_infinite(
    rules: BlackjackRules, distributions: bool = False, chart: Chart | None = None
) -> RoundAnalysis:
    """Every initial hand against every up card from an infinite shoe (exact rationals);
    ``distributions``: each hand's net payout probabilities too (the report's outcomes);
    ``chart``: played as printed instead of optimising (the finite shoe's
    ``analyse_round(..., chart=chart)``; every action is still valued, the chart's taken)."""
    hands: list[HandResult] = []
    for u in range(RANKS):
        play = InfinitePlay(u, rules, None if chart is None else chart_play(chart, u))
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
                if chart is not None and total != 21:
                    best = Action(chart.first[u, a, b])
                    if best not in values:
                        raise AssertionError(f"chart action {best} not allowed for {a},{b} v {u}")
                else:
                    best = best_action(values)
                result = HandResult(
                    (a, b), u, probability, values, best, p_bj, rules.peek, split=split
                )
                if distributions:
                    found = play.distribution(best, a, b)
                    result.distribution = {net: q for net, q in sorted(found.items()) if q}
                    if sum(found.values()) != 1 or _mean(found) != values[best]:
                        raise AssertionError(f"{a},{b} v {u}: the distribution is not the value")
                hands.append(result)
    assert sum(h.probability for h in hands) == 1
    dealer = {u: _dealer(u, rules.dealer_hits_soft_17) for u in range(RANKS)}
    return RoundAnalysis(rules, INFINITE_COUNTS, hands, dealer=dealer)
