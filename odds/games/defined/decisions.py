"""A position's decision, solved exactly: the optimal action per hand the position can see.

``[definition.decision]`` names a position and its actions; the bets that read ``action``
settle each round by the action chosen. The position sees its own hand alone, so its
information state is its hand (the multiset of card types it holds), and the best action is
the one of greatest exact EV, summed over the bets that read the action (played together,
one initial unit each), against every hand the other position can hold from what is left.

That EV is what the showdown plan already counts, before it sums over hands
(:func:`odds.games.defined.counting.showdown_cells`): per deciding hand, the other hand's
ways in each cell (winner, and the other's category and reference-hand bands). So the
solver keeps the cells per hand, settles every (hand view, cell, action) once by the bets'
outcomes (the definition's own checks: every round and action settled by exactly one
outcome), takes the argmax per hand (ties: the first action listed), and only then sums
the ways per round key, now carrying the action. Every total is asserted.

The strategy comes out of the computation: :func:`strategy_runs` reads it back in the
hand order (Three Card Poker's "play Q-6-4 or better"), never from the definition.

A definition may also fix a strategy (``[definition.decision] strategy``, a house or
published rule on the deciding hand): :func:`strategy_choice` reads each hand's action from
it, and the same cells are summed under that choice instead of the argmax
(``Solution.fixed``, on the paytable's own composition; a shoe state plays the optimal one).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.engine import check_total, deal_count
from odds.games.defined import counting, ranking
from odds.games.defined.rounds import RoundKey, holds, needs, with_action
from odds.games.defined.schema import ACTION, BetDefinition, Condition, Decision, Definition

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame


@dataclass
class Solution:
    """The optimal strategy on one composition and the rounds it plays.

    Arrays run over ``hands`` (the deciding position's hands, weakest first, as the
    showdown lists them): ``ways`` deals each, ``rank`` its strength rank, ``choice`` the
    index of its best action, ``ev[a]`` the EV of action ``a`` times ``scale`` times
    ``others`` (the other position's hands after its removal), exact integers.
    ``rounds`` holds the ways per round key of the bets that read the action (every
    feature they read, the action in the deciding position's view).
    """

    decision: Decision
    bets: tuple[BetDefinition, ...]
    hands: list[tuple[int, ...]]
    ways: Any
    rank: Any
    others: Any
    choice: Any
    ev: list[Any]
    scale: int
    rounds: dict[RoundKey, int]
    #: The definition's fixed strategy (``[definition.decision] strategy``) on the same
    #: cells: ``choice`` from its rule instead of the argmax, and the rounds it plays.
    fixed: Solution | None = None

    def action_of(self, hand: tuple[int, ...]) -> str:
        """The best action for a hand (card types, sorted)."""
        index = self.__dict__.get("_index")
        if index is None:  # built once (setdefault would build it on every call)
            index = self.__dict__["_index"] = {h: i for i, h in enumerate(self.hands)}
        return self.decision.actions[int(self.choice[index[hand]])]

    def strategy(self) -> dict[tuple[int, ...], int]:
        """Each hand's action (an index into the actions), to be played elsewhere."""
        return dict(zip(self.hands, (int(a) for a in self.choice.tolist()), strict=True))

    def hand_ev(self, i: int, action: int) -> Fraction:
        """Exact EV per initial unit of the bets that read the action, hand ``i``."""
        return Fraction(int(self.ev[action][i]), self.scale * int(self.others[i]))


def decision_bets(game: DefinedGame) -> tuple[BetDefinition, ...]:
    """The bets that read the action (settled by the decision), and the bets riding on
    them."""
    positions = game.definition.deal.positions
    reading = {
        bet.name
        for bet in game.definition.bets
        if any(ACTION in r for r in needs((o.when for o in bet.outcomes), positions)[1].values())
    }
    # A bet riding on one of them is played with it (odds.games.defined.riders).
    return tuple(b for b in game.definition.bets if b.name in reading or b.rides_on in reading)


def reads_action(game: DefinedGame, bet: BetDefinition) -> bool:
    return game.definition.decision is not None and bet in decision_bets(game)


def solve(
    game: DefinedGame,
    payouts: Mapping[str, Fraction],
    types: Sequence[Any],
    counts: tuple[int, ...],
    fixed: Mapping[tuple[int, ...], int] | None = None,
) -> Solution:
    """The optimal action of every hand of the deciding position, and the rounds it plays,
    under the paytable's ``payouts``; with ``fixed``, each hand's action is the one it
    gives (a strategy found on another composition), not chosen again."""
    import numpy as np

    from odds.games.defined.rounds import net_of

    definition = game.definition
    decision = definition.decision
    assert decision is not None
    bets = decision_bets(game)
    first, second = definition.deal.positions
    deciding = decision.position
    other = second if deciding == first else first
    winner, reads = needs((o.when for b in bets for o in b.outcomes), definition.deal.positions)
    by_category = not definition.categories or definition.compare[0] == "category"
    if not counting.bandable(reads[other], by_category) or ranking.has_exceptions(definition):
        read = ", ".join(sorted(reads[other])) or "nothing"
        raise OddsError(
            f"{definition.source}: definition.decision (line {decision.line}): the bets that "
            f"read the action read the {other}'s {read}; a decision is solved against the "
            f"{other}'s category and reference hands (at_least, at_most) only, without "
            "exceptions (beats)"
        )
    counting.check_bounds(definition, len(types), sum(counts), False)
    classifier = counting.classifier_for(definition, types)
    cells = counting.showdown_cells(
        classifier, counts, winner, reads[other], swapped=deciding == second
    )
    count = cells.count
    ids, views = counting.full_views(classifier, count.hands, reads[deciding] - {ACTION})
    actions = decision.actions
    outcomes = {(b.name, o.key): o for b in bets for o in b.outcomes}
    # Every (view, cell, action) settled once: the net of the bets played together.
    # Only the (view, cell) pairs that happen are settled (a tie of two trips never happens
    # from one deck, and no outcome need settle it).
    happens = [counting.per_view(ids, len(views), column) for column in cells.columns]
    nets: dict[tuple[int, int, int], Fraction] = {}
    for v, view in enumerate(views):
        for c, (who, band) in enumerate(cells.cells):
            if not happens[c][v]:
                continue
            for a, action in enumerate(actions):
                key = _key(who, with_action(view, action), band, deciding == second)
                nets[v, c, a] = sum(
                    (net_of(outcomes[bet.name, game.settled_outcome(bet, key)], payouts)
                     for bet in bets),
                    Fraction(0),
                )  # fmt: skip
    scale = lcm(*(n.denominator for n in nets.values()))
    largest = max((abs(n) * scale for n in nets.values()), default=Fraction(0))
    others = count.weaker + count.equal + count.stronger
    bound = int(largest) * max(int(others.max()), 1) * len(cells.cells) if len(others) else 0
    dtype: Any = np.int64 if bound < 2**62 else object
    table = np.zeros((len(actions), len(views), len(cells.cells)), dtype=dtype)
    for (v, c, a), net in nets.items():
        table[a, v, c] = int(net * scale)
    ev = []
    for a in range(len(actions)):
        total = np.zeros(len(count.hands), dtype=dtype)
        for c, column in enumerate(cells.columns):
            total = total + column.astype(dtype) * table[a, ids, c]
        ev.append(total)
    best = np.zeros(len(count.hands), dtype=np.int64)
    for a in range(1, len(actions)):  # strictly better only: a tie keeps the earlier action
        better = ev[a] > _taken(ev, best)
        best = np.where(better, a, best)
    if fixed is not None:  # a hand the strategy never met (more copies) takes its optimum
        chosen = [fixed.get(hand, b) for hand, b in zip(count.hands, best.tolist(), strict=True)]
        best = np.array(chosen, dtype=np.int64)
    dealt = deal_count(counts, [definition.deal.cards] * 2)

    def played(choice: Any) -> dict[RoundKey, int]:
        """The rounds a choice per hand plays: views numbered with the action."""
        coded = ids * len(actions) + choice
        rounds: Counter[RoundKey] = Counter()
        for (who, band), column in zip(cells.cells, cells.columns, strict=True):
            summed = counting.per_view(coded, len(views) * len(actions), count.ways * column)
            for code, n in enumerate(summed):
                if n:
                    view = with_action(views[code // len(actions)], actions[code % len(actions)])
                    rounds[_key(who, view, band, deciding == second)] += n
        check_total(rounds, dealt, "decision rounds")
        return dict(rounds)

    found = None
    if decision.strategy is not None and fixed is None:  # the same cells, the rule's choice
        choice = strategy_choice(definition, classifier, count.hands)
        found = Solution(decision, bets, count.hands, count.ways, count.rank, others, choice,
                         ev, scale, played(choice))  # fmt: skip
    return Solution(decision, bets, count.hands, count.ways, count.rank, others, best, ev,
                    scale, played(best), found)  # fmt: skip


def strategy_choice(definition: Definition, classifier: Any, hands: Sequence[Any]) -> Any:
    """Each hand's action under the definition's fixed strategy (an index into the
    actions), its conditions read on the hand's own view."""
    import numpy as np

    decision = definition.decision
    assert decision is not None and decision.strategy is not None
    strategy = decision.strategy
    positions = definition.deal.positions
    conditions = [c for _, c in strategy.rules if isinstance(c, Condition)]
    names = needs(conditions, positions)[1][decision.position]
    ids, views = counting.full_views(classifier, hands, names)

    def action(view: tuple[Any, ...]) -> int:
        key = (None, *(view if p == decision.position else () for p in positions))
        return decision.actions.index(
            strategy.action(lambda condition: holds(condition, key, definition))
        )

    per_view = np.array([action(view) for view in views], dtype=np.int64)
    return per_view[ids]


def _taken(ev: list[Any], best: Any) -> Any:
    """Per hand, the EV of the action ``best`` names."""
    import numpy as np

    found = ev[0].copy()
    for a in range(1, len(ev)):
        found = np.where(best == a, ev[a], found)
    return found


def _key(who: Any, full: tuple[Any, ...], band: tuple[Any, ...], swapped: bool) -> RoundKey:
    return (who, band, full) if swapped else (who, full, band)


# ---------------------------------------------------------------------------
# The strategy read back in the hand order


@dataclass(frozen=True)
class Run:
    """Consecutive hands in the strength order (strongest first) that take one action."""

    action: str
    strongest: int  # the strength rank of its strongest hand
    weakest: int
    hands: int  # distinct hands (card-type multisets)
    ways: int  # ways to deal them


def strategy_runs(solution: Solution, members: Sequence[int] | None = None) -> list[Run]:
    """The actions in the strength order, strongest first, as runs of one action.

    ``members`` restricts to some hands (a category's). Hands of equal strength that take
    different actions (card removal may split them by suit) end a run each: the strategy is
    then no single threshold, and the runs say where.
    """
    actions = solution.decision.actions
    chosen = [int(a) for a in solution.choice.tolist()]
    ranks = [int(r) for r in solution.rank.tolist()]
    ways = [int(w) for w in solution.ways.tolist()]
    order = list(range(len(solution.hands))) if members is None else list(members)
    order.sort(key=lambda i: (-ranks[i], chosen[i]))
    runs: list[Run] = []
    for i in order:
        if runs and runs[-1].action == actions[chosen[i]]:
            last = runs[-1]
            runs[-1] = Run(last.action, last.strongest, ranks[i], last.hands + 1,
                           last.ways + ways[i])  # fmt: skip
        else:
            runs.append(Run(actions[chosen[i]], ranks[i], ranks[i], 1, ways[i]))
    return runs


def mixed_strengths(solution: Solution) -> int:
    """How many strength levels hold hands that take different actions."""
    seen: dict[int, set[int]] = {}
    for r, a in zip(solution.rank.tolist(), solution.choice.tolist(), strict=True):
        seen.setdefault(int(r), set()).add(int(a))
    return sum(len(a) > 1 for a in seen.values())
