"""The truly optimal split: every decision made on all the cards the round has shown.

The conventions of :mod:`.splits` (CDZ-, CDP1, CDP, CDPN) fix what a split hand's
decisions may look at, so that its value is quick to count. A player with a
computer at the table would do better: decide every split hand's every card on
*all* the cards the round has dealt so far — the earlier split hands' cards
included — and resplit only when that pays. That value is the most any split
strategy can earn, so it bounds every convention from above (the "upper bound
test" of Eric Farmer's ``blackjack_split`` program, possibly-wrong/blackjack,
2024–25: a convention valued above it is wrong whatever it assumes).

How it is counted (Farmer's idea, our arithmetic): what the rest of the round can
bring depends only on

* the multiset of cards dealt to the split hands (the unseen shoe is the shoe less
  those cards: the order they came in does not matter),
* the finished hands' totals and stakes (every total of 16 or less loses unless the
  dealer busts, so they are one; every bust is one),
* the hand being played (hard total, whether it holds an ace, one card, two or
  more) and how many hands still wait for their second card.

So the split game is a finite graph over those states, and the best value of each
is the best of its legal moves (stand, hit, double, resplit), children first. The
dealer's outcomes for every multiset the round can end on come in one batch from
:func:`odds.games.blackjack.dealer_batches.up_card_numerators`.

Exactness: with ``N`` cards after the up card and ``s`` dealt to the split hands, a
state's value times ``(N − s)!`` is an integer, and a hit is then the plain sum
``Σ_r n_r · W(child)``: no division anywhere, and the best move is an integer
comparison. With a peek the round is counted times 1(no dealer blackjack), the
hole card drawn last (exchangeable with the unseen cards); a strategy that does
not see the hole card pays the original stake to a blackjack whatever it does, so
the optimum is the same (values then add ``−P(blackjack)`` per initial stake, as
:class:`~odds.games.blackjack.results.HandResult` does).

Tractable: small shoes and one deck split to two hands (seconds); every
resplit multiplies the states. :func:`estimate_multisets` bounds the work before
it starts and :func:`optimal_split` refuses past ``max_states`` with one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import factorial
from operator import mul
from typing import TYPE_CHECKING

from odds.core.errors import OddsError
from odds.games.blackjack.actions import SPLIT
from odds.games.blackjack.dealer import (
    RANK_NAMES,
    RANKS,
    Counts,
    DealerPlan,
    plan,
    stand_weights,
    total_of,
)
from odds.games.blackjack.dealer_batches import up_card_numerators
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.shoes import family
from odds.runtime.progress import phase

if TYPE_CHECKING:
    from odds.core.table import Table

A, TEN = 0, 9

#: States :func:`optimal_split` values at most by default (about two minutes of CPU).
MAX_STATES = 3_000_000
#: Card multisets (:func:`estimate_multisets`) past which it refuses before starting.
MAX_MULTISETS = 500_000

#: A finished hand: ``(total, stake)``, total 16 for every total of 16 or less, 22 bust.
Finished = tuple[int, int]


@dataclass(frozen=True)
class OptimalSplit:
    """The best split's value for one pair against one up card.

    ``value`` is per initial stake, the whole round, dealer blackjack included (as
    ``HandResult.values[Action.SPLIT]``); ``round_value`` the split hands' sum as
    :func:`odds.games.blackjack.splits.values_by_limit` counts it (times 1(no dealer
    blackjack) with a peek). ``hands`` is the most hands the rules allow;
    ``forced_resplit``: a pair card dealt to a split hand is always resplit (as the
    conventions' values per hand limit) rather than resplit only when that pays.
    """

    pair: int
    up: int
    hands: int
    forced_resplit: bool
    value: Fraction
    round_value: Fraction
    states: int

    @property
    def label(self) -> str:
        return f"{RANK_NAMES[self.pair]}-{RANK_NAMES[self.pair]} v {RANK_NAMES[self.up]}"


def estimate_multisets(counts: Counts, pair: int, up: int, rules: BlackjackRules) -> int:
    """An upper estimate of the multisets of cards the split hands can end with.

    Every split hand draws only below 21, so its cards add up to at most 30 (aces
    counted 1); the multisets of the shoe (after the up card) within the hands' budget
    bound the dealer evaluations. The states are a multiple of them (measured: 4–11
    splitting once, about 190 resplitting to four hands on 24 cards). A
    generating-function count, instant.
    """
    left = _after_up(counts, up)
    limit = _limit(left, pair, rules)
    budget = 30 * limit
    # ways[v] = multisets of the other cards worth v pips (aces 1)
    ways = [0] * (budget + 1)
    ways[0] = 1
    for rank in range(RANKS):
        available = left[rank] - (2 if rank == pair else 0)
        value = rank + 1
        grown = [0] * (budget + 1)
        for v, w in enumerate(ways):
            if w:
                for k in range(available + 1):
                    if v + k * value > budget - 2 * (pair + 1):
                        break
                    grown[v + k * value] += w
        ways = grown
    return sum(ways)


def optimal_split(
    counts: Counts,
    pair: int,
    up: int,
    rules: BlackjackRules,
    *,
    forced_resplit: bool = False,
    max_states: int = MAX_STATES,
    max_multisets: int = MAX_MULTISETS,
) -> OptimalSplit:
    """The truly optimal value of splitting a pair of rank ``pair`` against ``up``.

    ``counts`` is the whole shoe (ten rank counts, A … ten-value) before the deal,
    as :func:`odds.games.blackjack.rounds.analyse_round` takes it. Refused with one
    line: a shoe that may run out during the round, a pair or up card the shoe cannot
    deal, work estimated beyond ``max_multisets`` before it starts
    (:func:`estimate_multisets`), and beyond ``max_states`` states as it counts.
    """
    counts = tuple(counts)
    if len(counts) != RANKS or min(counts) < 0:
        raise OddsError("a shoe is ten non-negative rank counts (A, 2–9, ten-value)")
    if not (0 <= pair < RANKS and 0 <= up < RANKS):
        raise OddsError("pair and up card are rank indices 0 (ace) … 9 (ten-value)")
    need = [0] * RANKS
    need[pair] += 2
    need[up] += 1
    if any(n > c for n, c in zip(need, counts, strict=True)):
        raise OddsError(
            f"the shoe cannot deal {RANK_NAMES[pair]}-{RANK_NAMES[pair]} against {RANK_NAMES[up]}"
        )
    family(counts, rules.dealer_hits_soft_17).check_round(rules)
    estimate = estimate_multisets(counts, pair, up, rules)
    if estimate > max_multisets:
        raise OddsError(
            f"optimal split: up to {estimate:,} card multisets to value, above the limit of "
            f"{max_multisets:,} (a smaller shoe, or split_hands=2)"
        )
    solver = _Solver(counts, pair, up, rules, forced_resplit, max_states)
    return solver.solve()


def parse_rank(text: str, what: str) -> int:
    """A rank as people write it (``A``, ``2`` … ``10``, ``T``/``J``/``Q``/``K``) → its index."""
    spelled = text.strip().upper()
    spelled = "10" if spelled in ("T", "J", "Q", "K") else ("A" if spelled == "1" else spelled)
    if spelled not in RANK_NAMES:
        raise OddsError(f"{what} {text!r} is not a rank (A, 2 … 10, T, J, Q, K)")
    return RANK_NAMES.index(spelled)


#: The conventions in the order of the information they use (:mod:`.splits`).
SHOWN_CONVENTIONS = ("CDZ-", "CDP1", "CDP", "CDPN")


def split_values_table(
    counts: Counts, pair: int, up: int, rules: BlackjackRules, forced_resplit: bool = False
) -> Table:
    """Every convention's split value beside the optimum (``odds split blackjack``).

    A convention's value is the round analysis' (``HandResult.values[SPLIT]``, the
    best number of hands for it); the last row is :func:`optimal_split`, the most any
    split strategy earns: exact, and an upper bound on every row above it.
    """
    from dataclasses import replace

    from odds.core.table import Column, Kind, Table
    from odds.games.blackjack.rounds import analyse_round

    best = optimal_split(counts, pair, up, rules, forced_resplit=forced_resplit)
    rows = []
    blackjack = best.round_value - best.value  # P(dealer blackjack) with a peek, else 0
    for name in SHOWN_CONVENTIONS:
        hand = analyse_round(counts, replace(rules, split_strategy=name)).hand(pair, pair, up)
        rows.append(_split_row(name, hand.values[SPLIT], blackjack, rules.peek))
    optimum = "optimal split, upper bound" + (" (always resplitting)" if forced_resplit else "")
    rows.append(_split_row(optimum, best.value, blackjack, rules.peek))
    columns = [
        Column("strategy", "split strategy"),
        Column("ev", "EV per initial stake", Kind.PERCENT, places=6, signed=True),
    ]
    if rules.peek:
        columns.append(
            Column("given", "given no dealer blackjack", Kind.PERCENT, places=6, signed=True)
        )
    note = (
        f"Splitting {best.label} to at most {best.hands} hands from {sum(counts)} cards. "
        "Each convention plays the split hands as its rule says (docs/rules/blackjack.md "
        "§Splitting conventions); the optimal split decides every card on all the cards "
        f"the round has shown ({best.states:,} states, exact): no strategy earns more."
    )
    return Table("split", f"Splitting {best.label}", tuple(columns), tuple(rows), note=note)


def _split_row(name: str, value: Fraction, blackjack: Fraction, peek: bool) -> dict[str, object]:
    row: dict[str, object] = {"strategy": name, "ev": value}
    if peek and blackjack != 1:
        row["given"] = (value + blackjack) / (1 - blackjack)
    return row


def _after_up(counts: Counts, up: int) -> Counts:
    return tuple(c - (r == up) for r, c in enumerate(counts))


def _limit(after_up: Counts, pair: int, rules: BlackjackRules) -> int:
    """Most hands: the rule's limit, and no more than the pair cards the shoe holds."""
    return min(rules.split_limit(pair), after_up[pair])


#: Bits per rank in a packed multiset of dealt cards (up to 255 of a rank).
_BITS = 8
_MASK = (1 << _BITS) - 1
_ONE = tuple(1 << (_BITS * r) for r in range(RANKS))

#: A decision point of the split round (see the module's docstring), as a plain tuple
#: (hashed and compared in C: millions of them): ``(dealt, finished, hard, ace, cards,
#: pair, waiting, hands)`` — the cards dealt to the split hands (pair cards included)
#: packed :data:`_BITS` per rank; the finished hands, sorted; the current hand's hard
#: total (aces 1), whether it holds an ace, its cards (1, 2, or 3 for three or more;
#: 0 once every hand is finished), whether it is exactly the two pair cards; the hands
#: besides it still waiting for their second card; the hands in the round so far.
_State = tuple[int, tuple[Finished, ...], int, bool, int, bool, int, int]


class _Solver:
    """One pair against one up card: the best value of every state, children first.

    One memoised pass: a state's value is the best of its legal moves; a finished
    round's is its hands against the dealer's outcomes for the cards left (counted
    once per multiset, kept for every state that ends on it).
    """

    def __init__(
        self,
        counts: Counts,
        pair: int,
        up: int,
        rules: BlackjackRules,
        forced_resplit: bool,
        max_states: int,
    ) -> None:
        self.pair, self.up, self.rules = pair, up, rules
        self.forced = forced_resplit
        self.max_states = max_states
        self.left = _after_up(counts, up)
        self.size = sum(self.left)
        self.limit = _limit(self.left, pair, rules)
        self.one_card_aces = pair == A and rules.split_aces_one_card
        self.peek = rules.peek
        #: A finished hand's result per dealer outcome, by its shown total (16: any total of
        #: 16 or less, 22: bust).
        self.stand_weights = [(t, stand_weights(t, self.peek)) for t in range(16, 23)]
        self.dealer = plan(self.left, up, rules.dealer_hits_soft_17)
        self.memo: dict[_State, int] = {}
        self.worth: dict[int, tuple[dict[int, int], int]] = {}
        self.listing: set[int] | None = None  # the multisets rounds end on, while listed
        self.fresh = (pair + 1, pair == A)  # a split hand's first card

    def solve(self) -> OptimalSplit:
        start: _State = (2 * _ONE[self.pair], (), *self.fresh, 1, False, 1, 2)
        label = f"optimal split {RANK_NAMES[self.pair]}-{RANK_NAMES[self.pair]}"
        self._batch_dealer(start)
        with phase(f"{label} v {RANK_NAMES[self.up]}: values"):
            scaled = self.value(start)
        round_value = Fraction(scaled, factorial(self.size - 2))
        adjust = -self._p_blackjack() if self.peek else Fraction(0)
        return OptimalSplit(
            self.pair,
            self.up,
            self.limit,
            self.forced,
            round_value + adjust,
            round_value,
            len(self.memo),
        )

    def _batch_dealer(self, start: _State) -> None:
        """The dealer's outcomes for every multiset a round can end on, in one batch.

        The same walk with the finished hands forgotten (what can be dealt next does not
        depend on them: far fewer states) lists those multisets; one
        :func:`~odds.games.blackjack.dealer_batches.up_card_numerators` call then values
        them together (the shoe's tables made once, not once per multiset)."""
        label = f"optimal split {RANK_NAMES[self.pair]}-{RANK_NAMES[self.pair]}"
        with phase(f"{label} v {RANK_NAMES[self.up]}: dealer outcomes"):
            self.listing = set()
            self.value(start)
            ends, self.listing = self.listing, None
            self.memo.clear()
            removed = {dealt: self._removed(dealt) for dealt in ends}
            dp = self.dealer
            usual = {d: r for d, r in removed.items() if self.size - sum(r) >= dp.kmax}
            packed = up_card_numerators(dp, usual.values())
            for dealt, r in usual.items():
                self.worth[dealt] = self._worth(dp, dp.unpack(packed[r]), sum(r))

    def value(self, s: _State) -> int:
        """The state's best value times ``(N − s)!`` (an integer: see the module)."""
        found = self.memo.get(s)
        if found is not None:
            return found
        dealt, finished, hard, ace, cards, pair, waiting, hands = s
        if cards == 0:
            found = self._settle(dealt, finished)
        elif cards == 1:  # a split hand's second card: no choice
            found = self._draw(s, doubled=False)
        else:
            total, _ = total_of(hard, ace)
            options = []
            if cards == 2 and pair and hands < self.limit:
                resplit = (dealt, finished, *self.fresh, 1, False, waiting + 1, hands + 1)
                options.append(self.value(resplit))
            if not (options and self.forced):
                options.append(self.value(self._finish(s, total, 1)))
                if not (self.one_card_aces and cards == 2):
                    if total < 21:
                        options.append(self._draw(s, doubled=False))
                    if cards == 2 and self.rules.may_double(total, after_split=True):
                        options.append(self._draw(s, doubled=True))
            found = max(options)
        self.memo[s] = found
        if len(self.memo) > self.max_states:
            raise OddsError(
                f"optimal split: more than {self.max_states:,} states, above the limit "
                "(a smaller shoe, or split_hands=2)"
            )
        return found

    def _draw(self, s: _State, doubled: bool) -> int:
        """Hit (or double): each unseen rank, weighted by its count."""
        dealt, finished, hard, ace, cards, _, waiting, hands = s
        more = min(cards + 1, 3)
        total = 0
        for r in range(RANKS):
            unseen = self.left[r] - ((dealt >> (_BITS * r)) & _MASK)
            if unseen <= 0:
                continue
            new_hard, new_ace = hard + r + 1, ace or r == A
            child: _State = (
                dealt + _ONE[r],
                finished,
                new_hard,
                new_ace,
                more,
                cards == 1 and r == self.pair,
                waiting,
                hands,
            )
            best, _ = total_of(new_hard, new_ace)
            if doubled or new_hard > 21:
                child = self._finish(child, best, 2 if doubled else 1)
            elif (best == 21 and more == 3) or (self.one_card_aces and not child[5]):
                child = self._finish(child, best, 1)  # nothing left to decide
            total += unseen * self.value(child)
        return total

    def _finish(self, s: _State, total: int, stake: int) -> _State:
        """The hand stands (or busts, or has doubled): the next waiting hand's turn."""
        dealt, finished, _, _, _, _, waiting, hands = s
        shown = 22 if total > 21 else max(total, 16)
        if self.listing is not None:  # listing the multisets: the finished hands do not matter
            done: tuple[Finished, ...] = ()
        else:
            done = tuple(sorted((*finished, (shown, stake))))
        if waiting == 0:  # that was the last: the round goes to the dealer
            return (dealt, done, 0, False, 0, False, 0, hands)
        return (dealt, done, *self.fresh, 1, False, waiting - 1, hands)

    def _settle(self, dealt: int, finished: tuple[Finished, ...]) -> int:
        """Every hand against the dealer, times ``(N − s)!`` (see :meth:`_dealer`)."""
        if self.listing is not None:
            self.listing.add(dealt)
            return 0
        worth, scale = self._dealer(dealt)
        return scale * sum(stake * worth[t] for t, stake in finished)

    def _dealer(self, dealt: int) -> tuple[dict[int, int], int]:
        """A finished total's value per unit against the dealer from the cards left, and
        the factor to ``(N − s)!``: numerators over ``(N − s)^(k)`` (``k`` the longest
        draw), so the factor is ``(N − s − k)!``. The shoe's own plan serves every
        multiset that leaves ``k`` cards; a deeply dealt one gets a plan of its own."""
        found = self.worth.get(dealt)
        if found is not None:
            return found
        removed = self._removed(dealt)
        s = sum(removed)
        dp = self.dealer
        if self.size - s < dp.kmax:
            left = tuple(c - d for c, d in zip(self.left, removed, strict=True))
            dp, removed, s = plan(left, self.up, self.rules.dealer_hits_soft_17), (0,) * RANKS, 0
        found = self._worth(dp, dp.unpack(up_card_numerators(dp, [removed])[removed]), s)
        self.worth[dealt] = found
        return found

    def _worth(
        self, dp: DealerPlan, outcomes: tuple[int, ...], s: int
    ) -> tuple[dict[int, int], int]:
        if sum(outcomes) != dp.denominator(s):
            raise AssertionError("dealer outcomes do not add up to 1")
        values = {t: sum(map(mul, w, outcomes)) for t, w in self.stand_weights}
        return values, factorial(dp.size - s - dp.kmax)

    @staticmethod
    def _removed(dealt: int) -> Counts:
        return tuple((dealt >> (_BITS * r)) & _MASK for r in range(RANKS))

    def _p_blackjack(self) -> Fraction:
        left = tuple(c - 2 * (r == self.pair) for r, c in enumerate(self.left))
        hole = {A: TEN, TEN: A}.get(self.up)
        if hole is None:
            return Fraction(0)
        return Fraction(left[hole], sum(left))
