"""Splitting a pair: the post-split play by convention, exact resplits, the split round's outcomes.

A post-split strategy (:class:`PostSplitPlay`) is, for one pair and up card, the
first action per second card ``y`` and then hit or stand per split hand. The
conventions (``house.split_strategy``, Farmer's names) choose it:

* **CDP1** (default): chosen once, for the first split: each second card gets the
  best of stand, hit and double for the shoe less the up card, the pair and ``y``
  (later cards: the hit/stand decisions of the split context of
  :class:`odds.games.blackjack.player.Play`); every split hand is played by it,
  however many pair cards the round has seen.
* **CDZ-**: the pre-split strategy for the same cards (the ordinary context's
  decisions, the other pair card not taken into account; doubling as the
  after-split rule allows).
* **CDP**: for the base values ``EV[X; a, 0]`` / ``EV[P; a, 0]`` (below),
  the strategy best with ``a`` further pair cards out (Farmer's CDP: it depends on
  pair cards the round's later hands receive, so no player can follow it; an
  upper benchmark).
* **CDPN**: a hand completed after ``c`` splits beyond the first plays the strategy
  best with ``c`` further pair cards out (what the player has seen), valued
  exactly with the round's other second cards out (:func:`completions`).

With one split per round CDP, CDPN and CDP1 coincide (``a = c = 0``).

With one split per round (the rule book's rule) the two hands are exchangeable
and the split is worth twice one hand. A pair card dealt to a split hand as its
second card is resplit while the round has fewer hands than its limit (the player
chooses, per up card and pair, the best limit up to the rule's: :func:`split_value`);
each hand's value then needs the strategy's hand with ``a`` further pair cards out
of the shoe: :class:`ShiftedHands` evaluates the strategy's hands again with those
cards removed (the hands are the same, the shoe is smaller).

Why a handful of numbers suffice (the exchangeability argument)
---------------------------------------------------------------
Hands are dealt in turn from one shuffled shoe, each to the end before the
next one gets its second card, then the dealer draws. Each hand's play
depends on its own cards only, so the probability of any complete deal is a
product of falling factorials of the shoe that depends on the *multiset* of
cards dealt, not on who got them in which order. Consequently the cards a
finished hand drew after its second card may be moved behind the dealer's
(they are a stopping rule on the shoe: drawn or not, the law of everything
else is unchanged), and a hand's value depends on the rest of the round only
through the second cards of the other hands: ``a`` of them pair cards and
``b`` non-pair cards (of unknown rank). With

* ``p``, ``q``: pair and non-pair cards left after the up card and the pair,
* ``EV[X; a, b]``: a split hand whose second card may be anything (no split
  left), ``EV[N; a, b]``: one whose second card is a non-pair card,
* ``v(a, b) = (p − a) / (p + q − a − b)``: the chance that a random card of
  the shoe in state ``(a, b)`` is a pair card,

removing one random card changes nothing, so
``EV[X; a, b] = (EV[X; a, b−1] − v · EV[X; a+1, b−1]) / (1 − v)`` with
``v = v(a, b−1)``, and the same for ``N`` with ``v = v(a, b)`` (given that the
hand's own second card is a non-pair card, the random card is drawn from the
others); and ``EV[N; a, 0] = (EV[X; a, 0] − v(a, 0) · EV[P; a, 0]) / (1 − v(a, 0))``
where ``EV[P; a, 0]`` is the hand whose second card is a pair card it may not
resplit. Everything reduces to ``EV[X; a, 0]`` and ``EV[P; a, 0]`` for
``a = 0 … 2·(hands − 2)``: a split hand valued with ``a`` further pair cards
out of the shoe (:class:`ShiftedHands` computes them exactly).

A round is a sequence of second cards, each a pair card (``P``: a resplit),
a non-pair card (``N``: the hand is complete) or, once the limit is reached,
any card (``X``). A sequence with ``A`` pair and ``B`` non-pair cards has
probability ``p^(A) · q^(B) / (p + q)^(A+B)`` (falling factorials), and its
hands are worth ``EV[N; A, B − 1]`` each (N-hands) and ``EV[X; A, B]`` each
(X-hands). The tests check all of this against a plain enumeration of the
split tree on small shoes (``tests/games/blackjack/test_blackjack_resplit.py``).

The same algebra applies to any linear quantity of a hand instead of its
value: it works on :class:`Fraction` values or on outcome distributions
(``{net: probability}``) alike (:class:`HandAlgebra`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import repeat
from math import lcm
from operator import add as plus
from operator import and_, mul, rshift, sub
from typing import TYPE_CHECKING, Generic, TypeVar

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.engine.polynomial import falling
from odds.games.blackjack.actions import DOUBLE, HIT, STAND, Action, Chart, ChartCode, best_action
from odds.games.blackjack.dealer import RANKS, total_of
from odds.games.blackjack.nodes import STEP, counts_of
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.player import Play

V = TypeVar("V")  # a hand's value: a number or an outcome distribution (:class:`HandAlgebra`)

if TYPE_CHECKING:
    from odds.games.blackjack.shoes import Prepared


# ---------------------------------------------------------------------------
# Exact resplits: the split round from the base values (see the module docstring)


def max_pair_removals(limit: int) -> int:
    """Largest ``a`` for which ``EV[X; a, 0]`` and ``EV[P; a, 0]`` may be needed."""
    return 2 * (limit - 2)


class HandAlgebra(Generic[V]):
    """How to add and scale hand values (numbers or outcome distributions)."""

    def __init__(
        self,
        add: Callable[[V, V], V],
        scale: Callable[[V, Fraction], V],
        zero: V,
    ) -> None:
        self.add, self.scale, self.zero = add, scale, zero

    def combine(self, u: V, cu: Fraction, w: V, cw: Fraction) -> V:
        return self.add(self.scale(u, cu), self.scale(w, cw))


NUMBERS: HandAlgebra[Fraction] = HandAlgebra(lambda u, w: u + w, lambda u, c: u * c, Fraction(0))


#: Net payout probabilities of a hand or a round: ``{net per initial stake: probability}``.
Distribution = dict[Fraction, Fraction]


def add_distributions(u: Distribution, w: Distribution) -> Distribution:
    out = dict(u)
    for net, p in w.items():
        out[net] = out.get(net, Fraction(0)) + p
    return out


def scaled(u: Distribution, factor: Fraction) -> Distribution:
    return {net: p * factor for net, p in u.items()}


def convolve(hands: Iterable[Distribution]) -> Distribution:
    """The net of several hands played as if independent: their distributions convolved
    (in integers: nets in a unit every net is a multiple of, probabilities over the product
    of each hand's common denominator)."""
    hands = list(hands)
    unit = lcm(*(net.denominator for hand in hands for net in hand))
    out: dict[int, int] = {0: 1}
    scale = 1
    for hand in hands:
        common = lcm(*(p.denominator for p in hand.values()))
        ways = [
            (net.numerator * (unit // net.denominator), p.numerator * (common // p.denominator))
            for net, p in hand.items()
        ]
        summed: dict[int, int] = {}
        for net, q in out.items():
            for more, r in ways:
                summed[net + more] = summed.get(net + more, 0) + q * r
        out, scale = summed, scale * common
    return {Fraction(net, unit): Fraction(q, scale) for net, q in out.items()}


DISTRIBUTIONS: HandAlgebra[Distribution] = HandAlgebra(add_distributions, scaled, {})


class SplitHands(Generic[V]):
    """``EV[X; a, b]`` and ``EV[N; a, b]`` from the base values, lazily and exactly."""

    def __init__(
        self,
        pair_cards: int,
        other_cards: int,
        x_value: Callable[[int], V],
        p_value: Callable[[int], V],
        algebra: HandAlgebra[V],
    ) -> None:
        self.p, self.q = pair_cards, other_cards
        self.x_value, self.p_value, self.algebra = x_value, p_value, algebra
        self._memo: dict[tuple[str, int, int], V] = {}

    def chance_of_pair(self, a: int, b: int) -> Fraction:
        return Fraction(self.p - a, self.p + self.q - a - b)

    def value(self, kind: str, a: int, b: int) -> V:
        """``EV[kind; a, b]`` for kind ``"X"`` or ``"N"``."""
        key = (kind, a, b)
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = self._value(kind, a, b)
        return found

    def in_round(self, kind: str, a: int, b: int) -> V:
        """A hand of ``kind`` (:class:`Completion`) in a round whose second cards are ``a``
        pair and ``b`` non-pair cards: an N-hand's own second card is one of the ``b``."""
        return self.value("N", a, b - 1) if kind == "N" else self.value("X", a, b)

    def _value(self, kind: str, a: int, b: int) -> V:
        alg = self.algebra
        if b == 0:
            if kind == "X":
                return self.x_value(a)
            v = self.chance_of_pair(a, 0)
            if v == 0:
                return self.x_value(a)
            return alg.combine(self.x_value(a), 1 / (1 - v), self.p_value(a), -v / (1 - v))
        # A random card removed in state (a, b − 1) is a pair card with chance v; an
        # N-hand's own (non-pair) second card is not among the cards it can be.
        v = self.chance_of_pair(a, b if kind == "N" else b - 1)
        if v == 0:  # no pair card left: removing a random card removes a non-pair card
            return self.value(kind, a, b - 1)
        return alg.combine(
            self.value(kind, a, b - 1), 1 / (1 - v), self.value(kind, a + 1, b - 1), -v / (1 - v)
        )


def split_value(value_of: Callable[[int], Fraction], limit: int) -> tuple[Fraction, int]:
    """The split's value and the number of hands it is best to stop at (2 … ``limit``).

    ``value_of(m)`` is the value always resplitting up to ``m`` hands. Splitting into
    at most ``m`` hands is available whenever ``m ≤ limit``, so the value never
    decreases as the limit rises (ties keep the smaller ``m``).
    """
    best, best_m = value_of(2), 2
    for m in range(3, limit + 1):
        value = value_of(m)
        if value > best:
            best, best_m = value, m
    return best, best_m


@dataclass(frozen=True)
class Completion:
    """One sequence of second cards, with the hands in the order they are completed.

    Each hand is ``(kind, c)``: ``"N"`` (a non-pair second card while a split was
    left) or ``"X"`` (any card, the limit reached), and ``c`` the splits beyond the
    first made when it got that card (what a CDPN player knows when playing it).
    """

    pairs: int
    non_pairs: int
    hands: tuple[tuple[str, int], ...]


@cached
def completions(limit: int) -> tuple[Completion, ...]:
    """Every sequence of second cards for a pair split into at most ``limit`` hands, each
    hand with its ``c`` (sequences with equal counts repeat: each has the same probability).

    >>> for c in completions(3):
    ...     print(c.pairs, c.non_pairs, c.hands)
    1 0 (('X', 1), ('X', 1), ('X', 1))
    1 1 (('N', 0), ('X', 1), ('X', 1))
    0 2 (('N', 0), ('N', 0))
    """
    found: list[Completion] = []

    def deal(hands: int, waiting: int, a: int, b: int, done: tuple[tuple[str, int], ...]) -> None:
        if hands < limit:
            deal(hands + 1, waiting + 1, a + 1, b, done)
            finish(hands, waiting, a, b + 1, (*done, ("N", hands - 2)))
        else:
            finish(hands, waiting, a, b, (*done, ("X", hands - 2)))

    def finish(hands: int, waiting: int, a: int, b: int, done: tuple[tuple[str, int], ...]) -> None:
        if waiting == 0:
            found.append(Completion(a, b, done))
        else:
            deal(hands, waiting - 1, a, b, done)

    deal(2, 1, 0, 0, ())
    return tuple(found)


def weighted_completions(
    pair_cards: int, other_cards: int, limit: int
) -> Iterator[tuple[Completion, Fraction]]:
    """Each sequence of second cards the shoe can deal (:func:`completions`) with its chance,
    ``p^(A) · q^(B) / (p + q)^(A+B)`` (see the module docstring)."""
    size = pair_cards + other_cards
    for completion in completions(limit):
        a, b = completion.pairs, completion.non_pairs
        ways = falling(pair_cards, a) * falling(other_cards, b)
        if ways:
            yield completion, Fraction(ways, falling(size, a + b))


def completion_value(
    pair_cards: int,
    other_cards: int,
    hands_for: Callable[[int], SplitHands[V]],
    limit: int,
    algebra: HandAlgebra[V],
) -> V:
    """Expected total of the split hands, resplitting up to ``limit`` hands; a hand's values
    are ``hands_for(c)``, ``c`` the splits made before it (CDPN's strategy depends on it, the
    other conventions' does not).

    Given the sequence of second cards, each hand plays by its own cards and a strategy
    fixed by the sequence, so the exchangeability argument holds hand by hand.
    """
    total = algebra.zero
    for completion, weight in weighted_completions(pair_cards, other_cards, limit):
        a, b = completion.pairs, completion.non_pairs
        for kind, c in completion.hands:
            total = algebra.add(total, algebra.scale(hands_for(c).in_round(kind, a, b), weight))
    return total


# ---------------------------------------------------------------------------
# The post-split strategies and their base values


@dataclass
class SplitResult:
    """How a pair is split and what it is worth (per initial stake, every hand, unconditional).

    ``actions``: post-split action per second card (of the first split's strategy);
    ``hands``: the most hands the split is played to (2 … the rule's limit; the best
    one, see :func:`split_value`).
    """

    value: Fraction
    actions: dict[int, Action]
    hands: int


class _PreSplitHits:
    """CDZ-'s hit (True) or stand per split hand: that of the ordinary hand of the same cards
    (a split hand's key counts the other pair card too, :mod:`.nodes`)."""

    def __init__(self, hits: dict[int, bool], x: int) -> None:
        self.hits, self.step = hits, STEP[x]

    def get(self, key: int, default: bool = False) -> bool:
        return self.hits.get(key - self.step, default)


#: Hit (True) or stand per split hand, by composition key.
HitLookup = dict[int, bool] | _PreSplitHits


@dataclass(frozen=True, eq=False)
class PostSplitPlay:
    """One fixed post-split strategy for one pair against one up card.

    ``actions``: the first action per second card; ``hits``: after a first hit, hit
    (True) or stand per split hand (composition keys of the split context); ``name``
    tells strategies with the same first actions apart in the play's memos;
    ``known``: per ``a``, the second cards' values at scale ``D[3 + a]`` where choosing
    the strategy computed them (:func:`shifted_values` reuses them).
    """

    name: Hashable
    actions: Mapping[int, Action]
    hits: HitLookup
    known: Mapping[int, Mapping[int, int]] = field(default_factory=dict)

    @property
    def memo_key(self) -> tuple[Hashable, ...]:
        return (self.name, tuple(sorted(self.actions.items())))


def convention(rules: BlackjackRules, chart: Chart | None) -> str:
    """The split convention in force (a chart player follows its chart: as CDP1's machinery)."""
    return "CDP1" if chart is not None else rules.split_strategy


def split_pair(play: Play, rules: BlackjackRules, x: int, chart: Chart | None) -> SplitResult:
    """Split a pair of rank ``x`` against the play's up card (exact for the convention).

    Kept on the play (without a chart) for every rule set with the same split rules: the
    value reads the rules only through the doubles allowed after a split, split aces' one
    card, the pair's hand limit and the convention (the play holds the shoe, up card,
    soft-17 rule and peek), so a report's option rows that change none of them (the
    blackjack payout, surrender, the double rule without DAS, peek or OBO) share it.
    """
    if chart is not None:
        return _split_pair(play, rules, x, chart)
    memo_key = (
        "split-pair",
        x,
        _doubles(rules),
        rules.split_aces_one_card,
        rules.split_limit(x),
        rules.split_strategy,
    )
    found: SplitResult | None = play.memo.get(memo_key)
    if found is None:
        found = play.memo[memo_key] = _split_pair(play, rules, x, None)
    return found


def _split_pair(play: Play, rules: BlackjackRules, x: int, chart: Chart | None) -> SplitResult:
    actions, _ = _post_split_play(play, rules, x, chart)
    limit = rules.split_limit(x) if play.u.n[x] > 2 else 2
    value_of = _round_values(play, rules, x, chart)
    if chart is not None:  # a chart player resplits whenever the rules allow
        value, best = value_of(limit), limit
    else:
        value, best = split_value(value_of, limit)
    return SplitResult(value, dict(actions), best)


def values_by_limit(play: Play, rules: BlackjackRules, x: int) -> dict[int, Fraction]:
    """The split's value when the pair is always resplit up to ``m`` hands, per ``m``."""
    value_of = _round_values(play, rules, x, None)
    return {m: value_of(m) for m in range(2, rules.split_limit(x) + 1)}


def split_hand_strategy(
    play: Play, rules: BlackjackRules, x: int, splits_before: int
) -> PostSplitPlay:
    """The strategy a split hand of pair ``x`` follows when it gets its second card after
    ``splits_before`` splits beyond the first: CDP1's or CDZ-'s for every hand, CDPN's
    best for that count. CDP looks at pair cards later hands receive, so no player can
    follow it: a one-line error."""
    name = rules.split_strategy
    if name == "CDP" and rules.split_limit(x) > 2:  # with one split it is CDP1
        raise OddsError(
            "split_strategy CDP depends on pair cards later split hands receive: no player "
            "can follow it, so there is nothing to simulate (CDPN is the nearest playable)"
        )
    if name in ("CDPN", "CDP"):
        return _best_play(play, rules, x, splits_before)
    return _strategies(play, rules, x, None)(0)


def hand_value(play: Play, rules: BlackjackRules, x: int, a: int) -> Fraction:
    """``EV[X; a, 0]`` (module docstring) by the convention: one split hand of pair ``x``, its
    second card drawn, ``a`` further pair cards out of the shoe (CDPN: the first split's)."""
    return _Bases(play, x, _strategies(play, rules, x, None)).x_value(a)


def _round_values(
    play: Play, rules: BlackjackRules, x: int, chart: Chart | None
) -> Callable[[int], Fraction]:
    """``m`` → the split's value always resplitting up to ``m`` hands, by the convention."""
    u = play.u
    pair_cards = u.n[x] - 2
    other_cards = u.size - 2 - pair_cards

    def hands_of(strategy: Callable[[int], PostSplitPlay]) -> SplitHands[Fraction]:
        bases = _Bases(play, x, strategy)
        return SplitHands(pair_cards, other_cards, bases.x_value, bases.p_value, NUMBERS)

    hands_for = _hands_by_count(play, rules, x, chart, hands_of)
    return lambda m: completion_value(pair_cards, other_cards, hands_for, m, NUMBERS)


def _hands_by_count(
    play: Play,
    rules: BlackjackRules,
    x: int,
    chart: Chart | None,
    hands_of: Callable[[Callable[[int], PostSplitPlay]], SplitHands[V]],
) -> Callable[[int], SplitHands[V]]:
    """``c`` → the split hands (``hands_of`` the strategy per ``a``) that a hand completed
    after ``c`` splits beyond the first is valued by: CDPN's best play for ``c``, built on
    first use; one strategy for every hand under the other conventions."""
    if convention(rules, chart) != "CDPN":
        hands = hands_of(_strategies(play, rules, x, chart))
        return lambda c: hands
    by_count: dict[int, SplitHands[V]] = {}

    def hands_for(c: int) -> SplitHands[V]:
        found = by_count.get(c)
        if found is None:
            found = by_count[c] = hands_of(_fixed(_best_play(play, rules, x, c)))
        return found

    return hands_for


def _fixed(strategy: PostSplitPlay) -> Callable[[int], PostSplitPlay]:
    return lambda a: strategy


def _strategies(
    play: Play, rules: BlackjackRules, x: int, chart: Chart | None
) -> Callable[[int], PostSplitPlay]:
    """``a`` → the strategy the base values with ``a`` further pair cards out are for
    (CDP: the best for that ``a``; CDP1 and CDZ-: one strategy for every ``a``)."""
    name = convention(rules, chart)
    if name == "CDP":
        return lambda a: _best_play(play, rules, x, a)
    if name == "CDPN":  # the first split's, for the hands completed before any resplit
        return _fixed(_best_play(play, rules, x, 0))
    if name == "CDZ-":
        return _fixed(_pre_split_strategy(play, rules, x))
    return _fixed(_first_split_strategy(play, rules, x, chart))


def _doubles(rules: BlackjackRules) -> tuple[int, ...]:
    return tuple(t for t in range(4, 22) if rules.may_double(t, after_split=True))


def _first_split_strategy(
    play: Play, rules: BlackjackRules, x: int, chart: Chart | None
) -> PostSplitPlay:
    """CDP1 (or a chart's post-split cells): the best play for the first split."""
    actions, values = _post_split_play(play, rules, x, chart)
    hits: dict[int, bool] = {}
    if HIT in actions.values():
        play.context(x)
        hits = play.hits[x]
    return PostSplitPlay("first", actions, hits, {0: values})


def _pre_split_strategy(play: Play, rules: BlackjackRules, x: int) -> PostSplitPlay:
    """CDZ-: every decision as for the ordinary hand of the same cards (the pre-split
    values: the shoe less the up card and the hand's cards, the other pair card in it);
    doubling only where the after-split rule allows it, split aces as the rule says."""
    memo_key = ("pre-split", x, _doubles(rules), rules.split_aces_one_card)
    found: PostSplitPlay | None = play.memo.get(memo_key)
    if found is not None:
        return found
    actions: dict[int, Action] = {}
    for y in range(RANKS):
        if _weight(play.u.n, x, y, 0) > 0:
            options = _second_card_options(play, rules, x, y, -1)
            actions[y] = best_action(options)
    play.context(-1)
    found = play.memo[memo_key] = PostSplitPlay(
        "pre-split", actions, _PreSplitHits(play.hits[-1], x)
    )
    return found


def _best_play(play: Play, rules: BlackjackRules, x: int, a: int) -> PostSplitPlay:
    """The best post-split play with ``a`` further pair cards out of the shoe (CDP, CDPN);
    ``a = 0`` is CDP1's."""
    if a == 0:
        return _first_split_strategy(play, rules, x, None)
    memo_key = ("best", x, a, _doubles(rules), rules.split_aces_one_card)
    found: PostSplitPlay | None = play.memo.get(memo_key)
    if found is None:
        hands = ShiftedHands(play, x, a, None)
        actions, hits, values = hands.optimise(rules)
        found = play.memo[memo_key] = PostSplitPlay(("best", a), actions, hits, {a: values})
    return found


def resplit_needs(play: Play, rules: BlackjackRules, chart: Chart | None) -> set[int]:
    """Composition keys of every pair's hands with further pair cards out whose dealer
    numerators this up card lacks (the caller computes them, every up card together)."""
    u = play.u
    name = convention(rules, chart)
    keys: list[int] = []
    for x in range(RANKS):
        pair_cards = u.n[x] - 2
        limit = rules.split_limit(x)
        if pair_cards <= 0 or limit <= 2:
            continue
        most = min(max_pair_removals(limit), pair_cards)
        if name in ("CDP", "CDPN"):  # the best play for a pair cards out: every hand
            for a in range(1, (most if name == "CDP" else min(limit - 2, most)) + 1):
                marker = ("prepared-all", x, a)
                if marker not in play.memo:
                    play.memo[marker] = {}
                    keys.extend(ShiftedHands(play, x, a, None).needed_all())
            if name == "CDP":
                continue
        strategy = (
            _pre_split_strategy(play, rules, x)
            if name == "CDZ-"
            else _first_split_strategy(play, rules, x, chart)
        )
        for a in range(1, most + 1):
            prepared = ("prepared", x, strategy.memo_key, a)
            if prepared not in play.memo:
                play.memo[prepared] = {}
                keys.extend(ShiftedHands(play, x, a, None).needed(strategy))
    return set(keys).difference(u.packed_table)


def _post_split_play(
    play: Play, rules: BlackjackRules, x: int, chart: Chart | None
) -> tuple[dict[int, Action], dict[int, int]]:
    """Per second card: the post-split action and its value (integers at scale ``D[3]``).

    Kept on the play for every rule set that allows the same post-split actions
    (a chart's play is its own).
    """
    memo_key = ("post-split", x, _doubles(rules), rules.split_aces_one_card, chart is None)
    found = play.memo.get(memo_key)
    if found is None:
        found = play.memo[memo_key] = _choose_post_split_play(play, rules, x, chart)
    return found


def _choose_post_split_play(
    play: Play, rules: BlackjackRules, x: int, chart: Chart | None
) -> tuple[dict[int, Action], dict[int, int]]:
    u = play.u
    actions: dict[int, Action] = {}
    values: dict[int, int] = {}
    for y in range(RANKS):
        if _weight(u.n, x, y, 0) <= 0:
            continue
        options = _second_card_options(play, rules, x, y, x)
        if chart is not None:
            action = ChartCode(chart.post_split[u.up, x, y]).choose(options)
        else:
            action = best_action(options)
        actions[y] = action
        values[y] = options[action]
    return actions, values


def _second_card_options(
    play: Play, rules: BlackjackRules, x: int, y: int, ctx: int
) -> dict[Action, int]:
    """A split hand of pair ``x`` given the second card ``y``: stand, and hit and double
    where the rules allow them after a split, valued at scale ``D[s]`` in the context
    ``ctx`` (``x``: the split hand, the other pair card out; −1: the ordinary hand of the
    same two cards, CDZ-'s pre-split values)."""
    removed = [0] * RANKS
    removed[x] += 1 if ctx < 0 else 2
    removed[y] += 1
    s, key = sum(removed), (1 if ctx < 0 else 2) * STEP[x] + STEP[y]
    hard, aces = x + y + 2, (x == 0) + (y == 0)
    total, _ = total_of(hard, aces > 0)
    options = {STAND: play.stand(key, s, total)}
    if not (x == 0 and rules.split_aces_one_card):
        if total < 21:
            options[HIT] = play.hit(ctx, key)
        if rules.may_double(total, after_split=True):
            options[DOUBLE] = play.double(removed, key, s, hard, aces)
    return options


class _Bases:
    """``EV[X; a, 0]`` and ``EV[P; a, 0]`` (module docstring) for one pair, the strategy of
    each ``a`` given by ``strategy(a)``."""

    def __init__(self, play: Play, x: int, strategy: Callable[[int], PostSplitPlay]) -> None:
        self.play, self.x, self.strategy = play, x, strategy
        self._hands: dict[int, dict[int, int]] = {}

    def hand_values(self, a: int) -> dict[int, int]:
        """Value of each second card's hand at scale ``D[3 + a]``, ``a`` pair cards out."""
        found = self._hands.get(a)
        if found is None:
            found = self._hands[a] = shifted_values(self.play, self.x, self.strategy(a), a, None)
        return found

    def x_value(self, a: int) -> Fraction:
        u, x = self.play.u, self.x
        values = self.hand_values(a)
        left = u.size - 2 - a
        total = sum(_weight(u.n, x, y, a) * v for y, v in values.items())
        return Fraction(total, left * u.scale[3 + a])

    def p_value(self, a: int) -> Fraction:
        values = self.hand_values(a)
        if self.x not in values or _weight(self.play.u.n, self.x, self.x, a) <= 0:
            return Fraction(0)
        return Fraction(values[self.x], self.play.u.scale[3 + a])


def _weight(n: tuple[int, ...], x: int, y: int, a: int) -> int:
    """Cards of rank ``y`` left after the up card, the pair and ``a`` further pair cards."""
    return n[y] - (2 + a if y == x else 0)


def shifted_values(
    play: Play, x: int, strategy: PostSplitPlay, a: int, width: int | None
) -> dict[int, int]:
    """The strategy's hand per second card with ``a`` further pair cards out of the shoe.

    ``width`` None: values at scale ``D[3 + a]``; otherwise packed
    ``(lose, push, win)`` numerators (as :meth:`Play.stand_distribution`).
    Cached on the play: every rule set with the same post-split strategy
    shares it.
    """
    if width is None and a in strategy.known:  # the values the strategy was chosen by
        return dict(strategy.known[a])
    cache_key = ("shifted", x, strategy.memo_key, a, width)
    found = play.memo.get(cache_key)
    if found is None:
        hands = ShiftedHands(play, x, a, width)
        if ("prepared", x, strategy.memo_key, a) not in play.memo:
            hands.prepare(strategy)
        found = play.memo[cache_key] = hands.values(strategy)
    return found


def _strategy_tree(play: Play, x: int, strategy: PostSplitPlay) -> tuple[list[Prepared], set[int]]:
    """The split hands the strategy hits after a first hit, and its stand leaves (``a = 0``).

    Returns the hands that follow the strategy's hit/stand decisions (reached
    from a hand whose first action is a hit), children before parents, as entries of
    :meth:`UpCard.prepared`; and the keys of every hand the strategy stands on (a
    standing second card, a double's third card, a decision to stand). Cached on the
    play (the same for every ``a``).
    """
    memo_key = ("tree", x, strategy.memo_key)
    found: tuple[list[Prepared], set[int]] | None = play.memo.get(memo_key)
    if found is not None:
        return found
    u = play.u
    u.prepared(x)
    index = u.index(x)
    key0 = 2 * STEP[x]
    leaves: set[int] = set()
    stack: list[int] = []
    reached: set[int] = set()

    def kids(key: int) -> list[int]:
        return [kid for kid in index[key][4] if kid in index]

    hits = strategy.hits
    for y, action in strategy.actions.items():
        key = key0 + STEP[y]
        if action == STAND:
            leaves.add(key)
        elif action == DOUBLE:
            leaves.update(kids(key))
        else:
            stack.extend(kids(key))
    while stack:
        key = stack.pop()
        if key in reached:
            continue
        reached.add(key)
        if hits.get(key, False):
            stack.extend(kids(key))
        else:
            leaves.add(key)
    order = [entry for entry in u.prepared(x) if entry[0] in reached]
    found = play.memo[memo_key] = (order, leaves)
    return found


#: :func:`_strategy_passes`: stand hands by total (keys, sizes, pair cards), then hit hands.
_Passes = tuple[dict[int, tuple[list[int], list[int], list[int]]], list["Prepared"]]


def _strategy_passes(play: Play, x: int, strategy: PostSplitPlay) -> _Passes:
    """:func:`_strategy_tree`'s hands split for :meth:`ShiftedHands.values`: the hands the
    strategy stands on by total (their keys, sizes and pair cards), and the hands it hits, in
    order (children first). Cached on the play (the same for every ``a``)."""
    memo_key = ("passes", x, strategy.memo_key)
    found: _Passes | None = play.memo.get(memo_key)
    if found is not None:
        return found
    order, _ = _strategy_tree(play, x, strategy)
    hits = strategy.hits
    stands: dict[int, tuple[list[int], list[int], list[int]]] = {}
    drawn: list[Prepared] = []
    for entry in order:
        if hits.get(entry[0], False):
            drawn.append(entry)
        else:
            keys, sizes, pair_counts = stands.setdefault(entry[2], ([], [], []))
            keys.append(entry[0])
            sizes.append(entry[1])
            pair_counts.append(entry[9][x])
    found = play.memo[memo_key] = (stands, drawn)
    return found


class ShiftedHands:
    """Split hands of pair ``x`` played by a strategy, with ``a`` further pair cards out.

    The hands are those of the first split (``a = 0``), only the shoe has ``a``
    fewer pair cards, so every probability and dealer outcome is computed again,
    exactly: for a fixed strategy (:meth:`values`) or choosing the best play for
    this shoe (:meth:`optimise`).
    """

    def __init__(self, play: Play, x: int, a: int, width: int | None) -> None:
        self.play, self.u, self.x, self.a, self.width = play, play.u, x, a, width
        self.shift = a * STEP[x]

    # -- the dealer numerators the strategy's stand leaves need ----------------

    def prepare(self, strategy: PostSplitPlay) -> None:
        if self.a:
            self.u.ensure([(counts_of(key), key) for key in self.needed(strategy)])

    def needed(self, strategy: PostSplitPlay) -> list[int]:
        """Composition keys of every hand the strategy stands on, ``a`` pair cards out."""
        x, a, n = self.x, self.a, self.u.n
        if n[x] - 2 - a < 0:
            return []
        _, leaves = _strategy_tree(self.play, x, strategy)  # (after it, the index is ready)
        limit, shift, index = n[x] - a, self.shift, self.u.index(x)
        return [key + shift for key in sorted(leaves) if index[key][9][x] <= limit]

    def needed_all(self) -> list[int]:
        """Composition keys of every split hand the shoe can hold, ``a`` pair cards out."""
        limit, shift = self.u.n[self.x] - self.a, self.shift
        return [e[0] + shift for e in self.u.prepared(self.x) if e[9][self.x] <= limit]

    # -- values --------------------------------------------------------------

    def values(self, strategy: PostSplitPlay) -> dict[int, int]:
        """Each second card's hand played by its action (then by the decisions).

        One pass over the strategy's hands, children first; a hand the shoe
        cannot hold once the ``a`` pair cards are out is worth 0 (it is never
        reached: the weight of the card that leads to it is 0).
        """
        u, x, a = self.u, self.x, self.a
        order, _ = _strategy_tree(self.play, x, strategy)
        hits = strategy.hits
        limit = u.n[x] - a
        worth: dict[int, int] = {}
        if self.width is None:  # the common case: the stands of one total at once
            stands, drawn = _strategy_passes(self.play, x, strategy)
            known, mask, shift = u.packed_table, u.lane_mask, self.shift
            scale, peek = u.stand_scale, self.play.peek
            for total, (keys, sizes, pair_counts) in stands.items():
                if max(pair_counts) > limit:  # hands the shoe cannot hold: worth 0
                    worth.update(zip(keys, repeat(0)))
                    held = [i for i, c in enumerate(pair_counts) if c <= limit]
                    keys, sizes = [keys[i] for i in held], [sizes[i] for i in held]
                first, second, last = u.stand_shifts[total, peek]
                packed = list(map(known.__getitem__, map(plus, keys, repeat(shift))))
                low = list(map(and_, map(rshift, packed, repeat(first)), repeat(mask)))
                high = (
                    low
                    if second == first
                    else map(and_, map(rshift, packed, repeat(second)), repeat(mask))
                )
                lanes = map(
                    sub,
                    map(plus, low, high),
                    map(and_, map(rshift, packed, repeat(last)), repeat(mask)),
                )
                worth.update(
                    zip(
                        keys,
                        map(mul, lanes, map(scale.__getitem__, map(plus, sizes, repeat(a)))),
                        strict=True,
                    )
                )
            for entry in drawn:  # children before parents; every stand is known
                worth[entry[0]] = 0 if entry[9][x] > limit else self._draw(entry, worth)
        else:
            for entry in order:
                if entry[9][x] > limit:
                    worth[entry[0]] = 0
                elif hits.get(entry[0], False):
                    worth[entry[0]] = self._draw(entry, worth)
                else:
                    worth[entry[0]] = self._stand(entry)
        out = {}
        key0 = 2 * STEP[x]
        for y, action in strategy.actions.items():
            if _weight(u.n, x, y, a) <= 0:
                continue
            entry = u.entry(x, key0 + STEP[y])
            if action == STAND:
                out[y] = self._stand(entry)
            elif action == DOUBLE:
                out[y] = self._double(entry)
            else:
                out[y] = self._draw(entry, worth)
        return out

    def optimise(
        self, rules: BlackjackRules
    ) -> tuple[dict[int, Action], dict[int, bool], dict[int, int]]:
        """The best play with the ``a`` pair cards out: the first action per second card,
        hit (True) or stand per split hand, and each second card's value at ``D[3 + a]``.

        Every split hand the shoe can hold is valued, children first, as the best of
        hit and stand (ties: stand); the second card then takes the best of stand,
        hit and double the rules allow (ties: the simplest).
        """
        u, x, a = self.u, self.x, self.a
        if ("prepared-all", x, a) not in self.play.memo:
            self.u.ensure([(counts_of(key), key) for key in self.needed_all()])
        limit = u.n[x] - a
        worth: dict[int, int] = {}
        hits: dict[int, bool] = {}
        for entry in u.prepared(x):
            key = entry[0]
            if entry[9][x] > limit:
                worth[key] = 0
                continue
            stand = self._stand(entry)
            if entry[2] >= 21:
                worth[key] = stand
                continue
            hit = self._draw(entry, worth)
            if hit > stand:
                worth[key], hits[key] = hit, True
            else:
                worth[key] = stand
        one_card = x == 0 and rules.split_aces_one_card
        key0 = 2 * STEP[x]
        actions: dict[int, Action] = {}
        values: dict[int, int] = {}
        for y in range(RANKS):
            if _weight(u.n, x, y, a) <= 0:
                continue
            entry = u.entry(x, key0 + STEP[y])
            total = entry[2]
            options = {STAND: self._stand(entry)}
            if not one_card:
                if total < 21:
                    options[HIT] = self._draw(entry, worth)
                if rules.may_double(total, after_split=True):
                    options[DOUBLE] = self._double(entry)
            actions[y] = best_action(options)
            values[y] = options[actions[y]]
        return actions, hits, values

    def _double(self, entry: Prepared) -> int:
        """One card, then stand, for a double stake (packed outcomes: not doubled)."""
        stands = {kid: self._stand(self.u.entry(self.x, kid)) for kid in self._possible(entry)}
        value = self._draw(entry, stands)
        return 2 * value if self.width is None else value

    def _possible(self, entry: Prepared) -> list[int]:
        """The hand's next hands that the shoe (less the ``a`` pair cards) can hold."""
        u, x, limit = self.u, self.x, self.u.n[self.x] - self.a
        index = u.index(x)
        return [kid for kid in entry[4] if kid in index and index[kid][9][x] <= limit]

    def _stand(self, entry: Prepared) -> int:
        key, s, total = entry[0] + self.shift, entry[1] + self.a, entry[2]
        if self.width is None:
            return self.play.stand(key, s, total)
        return self.play.stand_distribution(key, s, total, self.width)

    def _draw(self, entry: Prepared, worth: dict[int, int]) -> int:
        return self.play.drawn(worth, entry, self.width is not None, self.x, self.a)


# ---------------------------------------------------------------------------
# The split round's outcomes (for the report's outcome table)


def split_distribution(
    play: Play, rules: BlackjackRules, x: int, split: SplitResult, p_bj: Fraction
) -> dict[Fraction, Fraction]:
    """Net payout probabilities of a split round (the sum of its hands), per initial stake.

    Each hand's distribution is exact (for its place in the round: the pair
    and non-pair second cards of the other hands removed, as for the values);
    the hands of one round are convolved as if independent (they share the
    dealer's hand, so the spread is approximate). The mean is exact: it is the
    sum of the hands' exact means.
    """
    u = play.u
    width = u.scale[0].bit_length() + 4
    pair_cards = u.n[x] - 2
    other_cards = u.size - 2 - pair_cards
    mask = (1 << width) - 1

    def base(strategy: PostSplitPlay, a: int, only_pair: bool) -> dict[Fraction, Fraction]:
        packed = shifted_values(play, x, strategy, a, width)
        left = u.size - 2 - a
        scale = u.scale[3 + a]
        out: dict[Fraction, Fraction] = {}
        for y, triple in packed.items():
            if only_pair and y != x:
                continue
            factor = 2 if strategy.actions[y] == DOUBLE else 1
            weight = Fraction(1) if only_pair else Fraction(_weight(u.n, x, y, a), left)
            for net, c in (
                (-factor, triple & mask),
                (0, (triple >> width) & mask),
                (factor, triple >> (2 * width)),
            ):
                if c:
                    key = Fraction(net)
                    out[key] = out.get(key, Fraction(0)) + weight * Fraction(c, scale)
        return out

    def hands_of(strategy: Callable[[int], PostSplitPlay]) -> SplitHands[dict[Fraction, Fraction]]:
        return SplitHands(
            pair_cards,
            other_cards,
            lambda a: base(strategy(a), a, False),
            lambda a: base(strategy(a), a, True),
            DISTRIBUTIONS,
        )

    hands_for = _hands_by_count(play, rules, x, None, hands_of)
    result: dict[Fraction, Fraction] = {}
    for completion, weight in weighted_completions(pair_cards, other_cards, split.hands):
        a, b = completion.pairs, completion.non_pairs
        members = [hands_for(c).in_round(kind, a, b) for kind, c in completion.hands]
        mass = sum(members[0].values(), Fraction(0))
        # Every hand of a round has the same chance that the dealer has no blackjack.
        assert all(sum(m.values(), Fraction(0)) == mass for m in members)
        combined = convolve({net: p / mass for net, p in m.items()} for m in members)
        for net, p in combined.items():
            result[net] = result.get(net, Fraction(0)) + weight * mass * p
    if rules.peek and p_bj:
        result[Fraction(-1)] = result.get(Fraction(-1), Fraction(0)) + p_bj
    return result
