"""The whole round: every initial two-card hand against every up card, each action valued.

:mod:`odds.games.blackjack.player` values hit/stand play; this module adds
the first decision (stand, hit, double, split, surrender, or the natural),
deals the first two cards and the up card off the top of the shoe, and sums
the round. Splits (resplits included) are valued by
:mod:`odds.games.blackjack.splits`.

Values are per initial stake and *unconditional* (:mod:`.player`, Dealer
blackjack); published tables give a peeking dealer's values *given no dealer
blackjack*, which :attr:`HandResult.values_given_no_dealer_blackjack` converts to.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from fractions import Fraction
from math import comb
from typing import Any

from odds.core.caching import cached, clear_caches
from odds.core.errors import OddsError
from odds.games.blackjack.actions import (
    DOUBLE,
    HIT,
    NATURAL,
    SPLIT,
    STAND,
    SURRENDER,
    Action,
    Chart,
)
from odds.games.blackjack.dealer import RANKS, Counts, total_of
from odds.games.blackjack.dealer_batches import RemovalSet
from odds.games.blackjack.kept_layouts import kept_layout, of
from odds.games.blackjack.nodes import STEP, add, counts_of, hand_multisets, key_of
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.player import Play
from odds.games.blackjack.results import (
    PREFERENCE,
    HandResult,
    RoundAnalysis,
    initial_hands,
    two_card_total,
)
from odds.games.blackjack.shoes import Family, LayoutsDoubt, UpCard, family
from odds.games.blackjack.splits import (
    resplit_needs,
    split_distribution,
    split_pair,
)
from odds.runtime.kept import distrust


def deal_probability(counts: Counts, a: int, b: int, up: int) -> Fraction:
    """P(player's first two cards are {a, b} and the up card is ``up``)."""
    size = sum(counts)
    ways = comb(counts[a], 2) if a == b else counts[a] * counts[b]
    left = counts[up] - (a == up) - (b == up)
    return Fraction(ways * max(left, 0), comb(size, 2) * (size - 2))


def shoe_counts(decks: float) -> Counts:
    """Rank counts (A, 2–9, ten-value) of ``decks`` standard 52-card decks, any number."""
    if decks < 1 or int(decks) != decks:
        raise OddsError(f"decks must be a whole number of at least 1, not {decks}")
    return (4 * int(decks),) * 9 + (16 * int(decks),)


def analyse_decks(decks: float, rules: BlackjackRules | None = None) -> RoundAnalysis:
    """Optimal play from ``decks`` standard decks: any whole number, or ``math.inf``.

    The paytables stop at 8 decks (the live games); the Python API takes any
    shoe, and ``math.inf`` deals with replacement (:mod:`.infinite`), the
    limit analysts extrapolate to.

    >>> from math import inf
    >>> f"{float(-analyse_decks(inf).ev):.4%}"  # the paytable's rules: 8 decks give 0.7154%
    '0.8001%'
    """
    rules = rules or BlackjackRules()
    if decks == float("inf"):
        from odds.games.blackjack.infinite import analyse_infinite

        return analyse_infinite(rules)
    return analyse_round(shoe_counts(decks), rules)


def analyse_round(
    counts: Counts,
    rules: BlackjackRules,
    chart: Chart | None = None,
    distributions: bool = False,
) -> RoundAnalysis:
    """Exact values of every initial hand against every up card.

    ``counts`` is the shoe as ten rank counts (A, 2–9, ten-value), any size
    that cannot run out during a round. ``chart`` (optional) plays a fixed
    chart instead of optimising: ``{"hit": {(up, total, soft): bool},
    "first": {(up, a, b): action}, "post_split": {(up, x, y): action}}``.
    """
    counts = tuple(counts)
    if len(counts) != RANKS or min(counts) < 0:
        raise OddsError("a shoe is ten non-negative rank counts (A, 2–9, ten-value)")
    try:
        return _analyse_round(counts, rules, chart, distributions)
    except LayoutsDoubt as doubt:
        # The dealer's probabilities through the layouts do not add up: if any layout was
        # read from the cache folder, it is discarded and everything counted again.
        if not distrust(f"blackjack: {doubt} with the layouts kept on disk"):
            raise
        clear_caches()
        return _analyse_round(counts, rules, chart, distributions)


def _analyse_round(
    counts: Counts, rules: BlackjackRules, chart: Chart | None, distributions: bool
) -> RoundAnalysis:
    fam = family(counts, rules.dealer_hits_soft_17)
    fam.check_round(rules)
    with tables_built():
        fam.ensure_set(*_reachable())  # every composition a play reaches, every up card
        hands: list[HandResult] = []
        plays = {u: _play(fam, fam.up(u), rules, chart) for u in range(RANKS) if counts[u]}
        if rules.split_hands > 2:
            _ensure_resplits(fam, plays, rules, chart)
        for u, play in plays.items():
            for a, b in initial_hands():
                p = deal_probability(counts, a, b, u)
                if p == 0:
                    continue
                result = _initial(play, rules, a, b, chart, distributions)
                result.probability = p
                hands.append(result)
    return RoundAnalysis(rules, counts, hands, plays, _dealer_outcomes(fam))


@contextmanager
def tables_built() -> Iterator[None]:
    """The collector paused while the round builds its tables (millions of tuples, no
    cycles), and what it kept frozen afterwards (:func:`gc.freeze`): re-enabling the
    collector would otherwise walk every kept table at once (a fifth of a split-once run)
    and again at every older collection."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


def _dealer_outcomes(fam: Family) -> dict[int, tuple[Fraction, ...]]:
    """P(each dealer outcome) per up card, off the top (the numerators the round computed)."""
    result = {}
    for u in range(RANKS):
        if fam.counts[u]:
            upcard = fam.up(u)
            upcard.ensure([((0,) * RANKS, 0)])  # computed with the round's sets: a lookup
            denominator = upcard.plan.denominator(0)
            result[u] = tuple(Fraction(c, denominator) for c in upcard.lanes(0))
    return result


def _play(fam: Family, up: UpCard, rules: BlackjackRules, chart: Chart | None) -> Play:
    """The hit/stand pass for this up card: shared by every rule set that can share it.

    Only the soft-17 rule (handled by the family), the peek (which matters
    only when the up card can make a blackjack) and a chart change it.
    """
    u = up.up
    peek = rules.peek and up.blackjack_rank is not None
    if chart is not None:
        hit_chart = {(t, soft): chart.hit[uu, t, soft] for (uu, t, soft) in chart.hit if uu == u}
        return Play(up, peek, hit_chart)
    memos = fam.owner(u).memos
    memo_key = ("play", u, peek)
    play = memos.get(memo_key)
    if play is None:
        play = memos[memo_key] = Play(up, peek)
    return play


@cached
def _reachable() -> tuple[RemovalSet, dict[Counts, int]]:
    """Every removed multiset a round can reach (hands, and split hands plus their pair
    card; and none, for the dealer's own table), laid out once per process for every
    shoe, with its composition key. Split aces that take one card reach only
    ``{A, A, y}``, a few of these: one set serves either rule (and a shoe analysed
    under one has the other's numerators too). Kept on disk (:mod:`.kept_layouts`)."""
    return kept_layout(
        "reachable",
        _build_reachable,
        lambda reachable: (reachable[0].data(), [reachable[1][r] for r in reachable[0].items]),
        _reachable_from_data,
    )


def _reachable_from_data(data: Any) -> tuple[RemovalSet, dict[Counts, int]]:
    """The set, and each multiset's key (kept as a list in the order of the set's items)."""
    removal, keys = of(tuple, data)
    made = RemovalSet.from_data(removal)
    return made, dict(zip(made.items, of(list, keys), strict=True))


def _build_reachable() -> tuple[RemovalSet, dict[Counts, int]]:
    hands = [h for h in hand_multisets() if sum(h) >= 2]
    wanted = set(hands)
    wanted.add((0,) * RANKS)
    for x in range(RANKS):
        wanted.update(add(h, x) for h in hands if h[x] >= 1)
    removal = RemovalSet(wanted)
    return removal, {r: key_of(r) for r in removal.items}


def _ensure_resplits(
    fam: Family, plays: dict[int, Play], rules: BlackjackRules, chart: Chart | None
) -> None:
    """Dealer numerators of every up card's split hands with further pair cards out
    (:mod:`.resplit`), computed together (:meth:`Family.ensure_set`): the up cards that
    need many (the strategy hits on against them) apart from those that need few."""
    needed = {u: resplit_needs(play, rules, chart) for u, play in plays.items()}
    most = max(map(len, needed.values()), default=0)
    for group in (
        [u for u in needed if 2 * len(needed[u]) >= most],
        [u for u in needed if 0 < 2 * len(needed[u]) < most],
    ):
        wanted = set().union(*(needed[u] for u in group))
        if wanted:
            keys = {counts_of(key): key for key in wanted}
            fam.ensure_set(RemovalSet(keys, exact_roots=False), keys, group)


def _initial(
    play: Play, rules: BlackjackRules, a: int, b: int, chart: Chart | None, distributions: bool
) -> HandResult:
    u = play.u
    removed = [0] * RANKS
    removed[a] += 1
    removed[b] += 1
    avoid, left = u.no_blackjack(removed, 2)
    p_bj = Fraction(left - avoid, left)
    total, _soft = two_card_total(a, b)
    values: dict[Action, Fraction] = {}
    adjust = -p_bj if rules.peek else Fraction(0)
    if total == 21:
        values[NATURAL] = rules.blackjack_payout * (1 - p_bj)
        result = HandResult((a, b), u.up, Fraction(0), values, NATURAL, p_bj, rules.peek)
        if distributions:
            result.distribution = _clean({rules.blackjack_payout: 1 - p_bj, Fraction(0): p_bj})
        return result
    values[STAND] = _two_card_value(play, STAND, a, b) + adjust
    values[HIT] = _two_card_value(play, HIT, a, b) + adjust
    if rules.may_double(total):
        values[DOUBLE] = _two_card_value(play, DOUBLE, a, b) + adjust
    if rules.surrender:
        values[SURRENDER] = -Fraction(1, 2) * (1 - p_bj) - p_bj
    split = None
    if a == b:
        split = split_pair(play, rules, a, chart)
        values[SPLIT] = split.value + adjust
    if chart is not None:
        best = Action(chart.first[u.up, a, b])
        if best not in values:
            raise AssertionError(f"chart action {best} not allowed for {a},{b} v {u.up}")
    else:
        best = max(values, key=lambda k: (values[k], -PREFERENCE.index(k)))
    result = HandResult((a, b), u.up, Fraction(0), values, best, p_bj, rules.peek, split=split)
    if distributions:
        if best == SPLIT:
            assert split is not None
            result.distribution = _clean(split_distribution(play, rules, a, split, p_bj))
        else:
            result.distribution = _clean(_single_distribution(play, rules, a, b, best, p_bj))
    return result


def _two_card_value(play: Play, action: Action, a: int, b: int) -> Fraction:
    """Stand, hit or double of the hand ``a, b`` (before any peek adjustment), kept on the
    play: it depends on the play's shoe, up card, peek rule and chart only, so every rule
    set the play serves (a report flips a dozen) shares it."""
    found: Fraction | None = play.memo.get(("two-card", action, a, b))
    if found is None:
        key = STEP[a] + STEP[b]
        if action == STAND:
            value = play.stand(key, 2, two_card_total(a, b)[0])
        elif action == HIT:
            value = play.hit(-1, key)
        else:
            removed = [0] * RANKS
            removed[a] += 1
            removed[b] += 1
            value = play.double(removed, key, 2, a + b + 2, (a == 0) + (b == 0))
        found = play.memo["two-card", action, a, b] = Fraction(value, play.u.scale[2])
    return found


def _clean(distribution: dict[Fraction, Fraction]) -> dict[Fraction, Fraction]:
    return {net: p for net, p in sorted(distribution.items()) if p}


def _unpack3(packed: int, width: int) -> tuple[int, int, int]:
    mask = (1 << width) - 1
    return packed & mask, (packed >> width) & mask, packed >> (2 * width)


def _single_distribution(
    play: Play, rules: BlackjackRules, a: int, b: int, best: Action, p_bj: Fraction
) -> dict[Fraction, Fraction]:
    """Net payout probabilities of a stand, hit, double or surrender (exact)."""
    if best == SURRENDER:
        return {Fraction(-1, 2): 1 - p_bj, Fraction(-1): p_bj}
    u = play.u
    width = u.scale[0].bit_length() + 4
    removed = [0] * RANKS
    removed[a] += 1
    removed[b] += 1
    key = STEP[a] + STEP[b]
    hard = a + b + 2
    aces = (a == 0) + (b == 0)
    peek_loss = p_bj if rules.peek else Fraction(0)
    scale = u.scale[2]
    if best == DOUBLE:
        packed = play.double_distribution(removed, key, 2, hard, aces, width)
        factor = 2
    elif best == STAND:
        total, _ = total_of(hard, aces > 0)
        packed = play.stand_distribution(key, 2, total, width)
        factor = 1
    else:
        packed = play.hit_packed(-1, key, width)
        factor = 1
    lose, push, win = _unpack3(packed, width)
    result = {
        Fraction(-factor): Fraction(lose, scale),
        Fraction(0): Fraction(push, scale),
        Fraction(factor): Fraction(win, scale),
    }
    # A peeked dealer blackjack takes the original stake only (before any double).
    result[Fraction(-1)] = result.get(Fraction(-1), Fraction(0)) + peek_loss
    return result
