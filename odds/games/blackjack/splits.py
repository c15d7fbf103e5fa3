"""Splitting a pair: the post-split play (CDP1), exact resplits, the split round's outcomes.

The post-split strategy is chosen once, for the first split: each second card
``y`` gets the best of stand, hit and double for the shoe less the up card,
the pair and ``y`` (later cards: the hit/stand decisions of the split
context of :class:`odds.games.blackjack.player.Play`). Every split hand is
played by it, however many pair cards the round has seen ("CDP1").

With one split per round (the rule book's rule) the two hands are exchangeable
and the split is worth twice one hand. With resplits, :mod:`.resplit` needs
a split hand's value with ``a`` further pair cards out of the shoe, for the
same strategy: :class:`ShiftedHands` evaluates the strategy's hands again
with those cards removed (the hands are the same, the shoe is smaller).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from operator import mul
from typing import TYPE_CHECKING

from odds.games.blackjack.actions import Action, ChartCode
from odds.games.blackjack.dealer import RANKS, total_of
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.player import _STEP, DOUBLE, HIT, STAND, Play, counts_of
from odds.games.blackjack.resplit import (
    DISTRIBUTIONS,
    NUMBERS,
    SplitHands,
    falling,
    hands_distribution,
    max_pair_removals,
    patterns,
    split_value,
)

_ORDER = (STAND, HIT, DOUBLE)  # ties go to the simplest action

if TYPE_CHECKING:
    from odds.games.blackjack.shoes import Prepared
    from odds.games.blackjack.strategy import Chart


@dataclass
class SplitResult:
    """How a pair is split and what it is worth (per initial stake, every hand, unconditional).

    ``actions``: post-split action per second card; ``hands``: the most hands
    the split is played to (2 … the rule's limit; the best one, see
    :func:`odds.games.blackjack.resplit.split_value`); ``hand_counts``: the
    probability that the round ends with each number of hands.
    """

    value: Fraction
    actions: dict[int, Action]
    hands: int
    hand_counts: dict[int, Fraction] = field(default_factory=dict)


def split_pair(play: Play, rules: BlackjackRules, x: int, chart: Chart | None) -> SplitResult:
    """Split a pair of rank ``x`` against the play's up card (exact for CDP1)."""
    actions, values = _post_split_play(play, rules, x, chart)
    u = play.u
    pair_cards = u.n[x] - 2
    other_cards = u.size - 2 - pair_cards
    limit = rules.split_limit(x) if pair_cards > 0 else 2
    bases = _Bases(play, x, actions, values)
    if chart is not None:  # a chart player resplits whenever the rules allow
        hands = SplitHands(pair_cards, other_cards, bases.x_value, bases.p_value, NUMBERS)
        value, best = hands.round_value(limit), limit
    else:
        value, best = split_value(pair_cards, other_cards, bases.x_value, bases.p_value, limit)
    counts = hands_distribution(pair_cards, other_cards, best)
    return SplitResult(value, actions, best, counts)


def resplit_needs(play: Play, rules: BlackjackRules, chart: Chart | None) -> set[int]:
    """Composition keys of every pair's hands with further pair cards out whose dealer
    numerators this up card lacks (the caller computes them, every up card together)."""
    u = play.u
    keys: list[int] = []
    for x in range(RANKS):
        pair_cards = u.n[x] - 2
        limit = rules.split_limit(x)
        if pair_cards <= 0 or limit <= 2:
            continue
        actions, _ = _post_split_play(play, rules, x, chart)
        for a in range(1, min(max_pair_removals(limit), pair_cards) + 1):
            prepared = ("prepared", x, tuple(sorted(actions.items())), a)
            if prepared not in play.memo:
                play.memo[prepared] = {}
                keys.extend(ShiftedHands(play, x, a, None).needed(actions))
    return set(keys).difference(u.packed_table)


def values_by_limit(play: Play, rules: BlackjackRules, x: int) -> dict[int, Fraction]:
    """The split's value when the pair is always resplit up to ``m`` hands, per ``m``."""
    actions, values = _post_split_play(play, rules, x, None)
    u = play.u
    pair_cards = u.n[x] - 2
    bases = _Bases(play, x, actions, values)
    hands = SplitHands(pair_cards, u.size - 2 - pair_cards, bases.x_value, bases.p_value, NUMBERS)
    return {m: hands.round_value(m) for m in range(2, rules.split_limit(x) + 1)}


def _post_split_play(
    play: Play, rules: BlackjackRules, x: int, chart: Chart | None
) -> tuple[dict[int, Action], dict[int, int]]:
    """Per second card: the post-split action and its value (integers at scale ``D[3]``).

    Kept on the play for every rule set that allows the same post-split actions
    (a chart's play is its own).
    """
    doubles = tuple(t for t in range(4, 22) if rules.may_double(t, after_split=True))
    memo_key = ("post-split", x, doubles, rules.split_aces_one_card, chart is None)
    found = play.memo.get(memo_key)
    if found is None:
        found = play.memo[memo_key] = _choose_post_split_play(play, rules, x, chart)
    return found


def _choose_post_split_play(
    play: Play, rules: BlackjackRules, x: int, chart: Chart | None
) -> tuple[dict[int, Action], dict[int, int]]:
    u = play.u
    base = [0] * RANKS
    base[x] = 2
    key0 = 2 * _STEP[x]
    actions: dict[int, Action] = {}
    values: dict[int, int] = {}
    for y in range(RANKS):
        if u.n[y] - base[y] <= 0:
            continue
        base[y] += 1
        key = key0 + _STEP[y]
        hard = x + y + 2
        aces = (x == 0) + (y == 0)
        total, _ = total_of(hard, aces > 0)
        options = {STAND: play.stand(key, 3, total)}
        if not (x == 0 and rules.split_aces_one_card):
            if total < 21:
                options[HIT] = play.hit(x, key)
            if rules.may_double(total, after_split=True):
                options[DOUBLE] = play.double(base, key, 3, hard, aces)
        base[y] -= 1
        if chart is not None:
            action = ChartCode(chart.post_split[u.up, x, y]).choose(options)
        else:
            action = max(options, key=lambda k: (options[k], -_ORDER.index(k)))
        actions[y] = action
        values[y] = options[action]
    return actions, values


class _Bases:
    """``EV[X; a, 0]`` and ``EV[P; a, 0]`` of :mod:`.resplit` for one pair and strategy."""

    def __init__(
        self, play: Play, x: int, actions: dict[int, Action], values: dict[int, int]
    ) -> None:
        self.play, self.x, self.actions, self.values = play, x, actions, values
        self._hands: dict[int, dict[int, int]] = {0: values}

    def hand_values(self, a: int) -> dict[int, int]:
        """Value of each second card's hand at scale ``D[3 + a]``, ``a`` pair cards out."""
        found = self._hands.get(a)
        if found is None:
            found = self._hands[a] = shifted_values(self.play, self.x, self.actions, a, None)
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
    play: Play, x: int, actions: dict[int, Action], a: int, width: int | None
) -> dict[int, int]:
    """The strategy's hand per second card with ``a`` further pair cards out of the shoe.

    ``width`` None: values at scale ``D[3 + a]``; otherwise packed
    ``(lose, push, win)`` numerators (as :meth:`Play.stand_distribution`).
    Cached on the play: every rule set with the same post-split strategy
    shares it.
    """
    cache_key = ("shifted", x, tuple(sorted(actions.items())), a, width)
    found = play.memo.get(cache_key)
    if found is None:
        hands = ShiftedHands(play, x, a, width)
        if ("prepared", x, cache_key[2], a) not in play.memo:
            hands.prepare(actions)
        found = play.memo[cache_key] = hands.values(actions)
    return found


def _strategy_tree(
    play: Play, x: int, actions: dict[int, Action]
) -> tuple[list[Prepared], set[int]]:
    """The split hands the strategy hits after a first hit, and its stand leaves (``a = 0``).

    Returns the hands that follow the first split's hit/stand decisions (reached
    from a hand whose first action is a hit), children before parents, as entries of
    :meth:`UpCard.prepared`; and the keys of every hand the strategy stands on (a
    standing second card, a double's third card, a decision to stand). Cached on the
    play (the same for every ``a``).
    """
    memo_key = ("tree", x, tuple(sorted(actions.items())))
    found: tuple[list[Prepared], set[int]] | None = play.memo.get(memo_key)
    if found is not None:
        return found
    u = play.u
    u.prepared(x)
    index = u.index(x)
    key0 = 2 * _STEP[x]
    leaves: set[int] = set()
    stack: list[int] = []
    reached: set[int] = set()

    def kids(key: int) -> list[int]:
        return [kid for kid in index[key][4] if kid in index]

    hits: dict[int, bool] = {}
    if HIT in actions.values():
        play.context(x)
        hits = play.hits[x]
    for y, action in actions.items():
        key = key0 + _STEP[y]
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


def _strategy_leaves(
    play: Play, x: int, actions: dict[int, Action]
) -> list[tuple[int, tuple[int, ...]]]:
    """``(key, removed)`` of every split hand the strategy stands on (``a = 0``)."""
    _, leaves = _strategy_tree(play, x, actions)
    index = play.u.index(x)
    return [(key, index[key][9]) for key in sorted(leaves)]


class ShiftedHands:
    """Split hands of pair ``x`` played by the strategy, with ``a`` further pair cards out.

    The decisions are those of the first split (``a = 0``): the hands and the
    choices are the same, only the shoe has ``a`` fewer pair cards, so every
    probability and dealer outcome is computed again, exactly.
    """

    def __init__(self, play: Play, x: int, a: int, width: int | None) -> None:
        self.play, self.u, self.x, self.a, self.width = play, play.u, x, a, width
        self.shift = a * _STEP[x]
        self._memo: dict[int, int] = {}
        self._hit_table: dict[int, bool] | None = None

    # -- the dealer numerators the strategy's stand leaves need ----------------

    def prepare(self, actions: dict[int, Action]) -> None:
        if self.a:
            self.u.ensure([(counts_of(key), key) for key in self.needed(actions)])

    def needed(self, actions: dict[int, Action]) -> list[int]:
        """Composition keys of every hand the strategy stands on, ``a`` pair cards out."""
        x, a, n = self.x, self.a, self.u.n
        if n[x] - 2 - a < 0:
            return []
        limit, shift = n[x] - a, self.shift
        return [
            key + shift
            for key, removed in _strategy_leaves(self.play, x, actions)
            if removed[x] <= limit
        ]

    # -- values --------------------------------------------------------------

    def values(self, actions: dict[int, Action]) -> dict[int, int]:
        """Each second card's hand played by its action (then by the decisions).

        One pass over the strategy's hands, children first; a hand the shoe
        cannot hold once the ``a`` pair cards are out is worth 0 (it is never
        reached: the weight of the card that leads to it is 0).
        """
        u, x, a = self.u, self.x, self.a
        order, _ = _strategy_tree(self.play, x, actions)
        hits = self.play.hits.get(x, {}) if order else {}
        limit = u.n[x] - a
        worth: dict[int, int] = {}
        if self.width is None:  # the stand values inlined (the common case)
            known, mask, shift = u.packed_table, u.lane_mask, self.shift
            shifts, scale = u.stand_shifts, u.stand_scale
            peek = self.play.peek
            for entry in order:
                key = entry[0]
                if entry[9][x] > limit:
                    worth[key] = 0
                elif hits.get(key, False):
                    worth[key] = self._draw(entry, worth)
                else:
                    p = known[key + shift]
                    first, second, last = shifts[entry[2], peek]
                    lanes = ((p >> first) & mask) + ((p >> second) & mask) - ((p >> last) & mask)
                    worth[key] = lanes * scale[entry[1] + a]
        else:
            for entry in order:
                if entry[9][x] > limit:
                    worth[entry[0]] = 0
                elif hits.get(entry[0], False):
                    worth[entry[0]] = self._draw(entry, worth)
                else:
                    worth[entry[0]] = self._stand(entry)
        out = {}
        key0 = 2 * _STEP[x]
        for y, action in actions.items():
            if _weight(u.n, x, y, a) <= 0:
                continue
            entry = u.entry(x, key0 + _STEP[y])
            if action == STAND:
                out[y] = self._stand(entry)
            elif action == DOUBLE:
                stands = {kid: self._stand(u.entry(x, kid)) for kid in self._possible(entry)}
                value = self._draw(entry, stands)
                out[y] = 2 * value if self.width is None else value
            else:
                out[y] = self._draw(entry, worth)
        return out

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
        """Σ over the next card of (cards of that rank left) · (value after it).

        The entry's weights count the full shoe; the up card and the ``a``
        further pair cards come off here (hands not in ``worth`` count 0).
        """
        _, s, _, _, kids, weights, position, bust_weight, bust_ranks, removed, _ = entry
        up, x, a = self.u.up, self.x, self.a
        get = worth.get
        value: int = sum(map(mul, weights, map(get, kids, _ZEROS)))
        j = position[up]
        if j >= 0:
            value -= get(kids[j], 0)
        j = position[x]
        if j >= 0 and a:
            value -= a * get(kids[j], 0)
        if x in bust_ranks:
            bust_weight -= a
        if a:
            removed = (*removed[:x], removed[x] + a, *removed[x + 1 :])
        loss = self.play._busts(s + a, bust_weight, bust_ranks, removed)
        return value - loss if self.width is None else value + loss


_ZEROS = (0,) * RANKS


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

    def base(a: int, only_pair: bool) -> dict[Fraction, Fraction]:
        packed = shifted_values(play, x, split.actions, a, width)
        left = u.size - 2 - a
        scale = u.scale[3 + a]
        out: dict[Fraction, Fraction] = {}
        for y, triple in packed.items():
            if only_pair and y != x:
                continue
            factor = 2 if split.actions[y] == DOUBLE else 1
            weight = Fraction(1) if only_pair else Fraction(_weight(u.n, x, y, a), left)
            mask = (1 << width) - 1
            for net, c in (
                (-factor, triple & mask),
                (0, (triple >> width) & mask),
                (factor, triple >> (2 * width)),
            ):
                if c:
                    key = Fraction(net)
                    out[key] = out.get(key, Fraction(0)) + weight * Fraction(c, scale)
        return out

    hands = SplitHands(
        pair_cards,
        other_cards,
        lambda a: base(a, False),
        lambda a: base(a, True),
        DISTRIBUTIONS,
    )
    result: dict[Fraction, Fraction] = {}
    size = pair_cards + other_cards
    for pattern in patterns(split.hands):
        ways = falling(pair_cards, pattern.pairs) * falling(other_cards, pattern.non_pairs)
        if not ways:
            continue
        weight = Fraction(ways, falling(size, pattern.pairs + pattern.non_pairs))
        members = []
        if pattern.non_pairs:
            members += [hands.value("N", pattern.pairs, pattern.non_pairs - 1)] * pattern.non_pairs
        if pattern.x_hands:
            members += [hands.value("X", pattern.pairs, pattern.non_pairs)] * pattern.x_hands
        mass = sum(members[0].values(), Fraction(0))
        # Every hand of a pattern has the same chance that the dealer has no blackjack.
        assert all(sum(m.values(), Fraction(0)) == mass for m in members)
        combined = {Fraction(0): Fraction(1)}
        for member in members:
            combined = _convolve(combined, member, mass)
        for net, p in combined.items():
            result[net] = result.get(net, Fraction(0)) + weight * mass * p
    if rules.peek and p_bj:
        result[Fraction(-1)] = result.get(Fraction(-1), Fraction(0)) + p_bj
    return result


def _convolve(
    left: dict[Fraction, Fraction], hand: dict[Fraction, Fraction], mass: Fraction
) -> dict[Fraction, Fraction]:
    out: dict[Fraction, Fraction] = {}
    for n1, p1 in left.items():
        for n2, p2 in hand.items():
            out[n1 + n2] = out.get(n1 + n2, Fraction(0)) + p1 * p2 / mass
    return out
