"""Who decides: the :class:`~.play.Strategy` s a round is played by, and the chart they derive.

Two strategies play a round card by card (:func:`odds.games.blackjack.play.play`):
:class:`OptimalStrategy`, the decisions the exact analysis chose (composition-dependent;
split hands by the convention in force), and :class:`ChartStrategy`, a basic strategy
chart (:class:`~.actions.Chart`) followed as printed.

For each up card, a chart row collects the two-card hands of one total (hard
or soft, pairs apart) and takes the action with the highest EV summed over
those hands, each weighted by its probability. Where the best action may be
unavailable (a double or surrender after the first two cards) the chart gives
the fallback, chosen the same way between hit and stand ("Dh": double, else
hit). Hit/stand for hands of three or more cards follows the fallback of the
hand's total.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

from odds.games.blackjack.actions import (
    HIT,
    NATURAL,
    SPLIT,
    STAND,
    SURRENDER,
    Action,
    Chart,
    ChartCode,
    RowKey,
    best_action,
)
from odds.games.blackjack.dealer import RANK_NAMES, RANKS
from odds.games.blackjack.nodes import STEP
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.play import PlayerHand
from odds.games.blackjack.results import HandResult, RoundAnalysis, two_card_total
from odds.games.blackjack.splits import PostSplitPlay, split_hand_strategy

#: Up cards in chart order (2 … 10, A).
UP_ORDER = (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)


class OptimalStrategy:
    """The analysis's own decisions: each two-card hand's best action, then hit or stand
    for the composition held; a split hand by the post-split strategy of the convention
    (CDPN: the one for the hands the round had when it got its second card), resplit
    while the round has fewer hands than the pair's best limit. A convention no player
    can follow (CDP with resplits) is a one-line error when the strategy is made."""

    def __init__(self, analysis: RoundAnalysis) -> None:
        self.analysis = analysis
        self.rules = analysis.rules
        self.best = {(h.cards, h.up): h for h in analysis.hands}
        if analysis.plays:  # refused before any round
            split_hand_strategy(next(iter(analysis.plays.values())), self.rules, 9, 0)
        self._split: dict[tuple[int, int, int], PostSplitPlay] = {}
        # Every round asks these: flat lookups by the hand's cards as dealt (either order),
        # so a decision is one dict read, never a sort or a search of the analysis.
        self._first = {
            (*cards, h.up): h.best for h in analysis.hands for cards in (h.cards, h.cards[::-1])
        }
        self._hits = {up: play.hits[-1] for up, play in analysis.plays.items()}
        self._split_hands = {
            (h.cards[0], h.up): h.split.hands for h in analysis.hands if h.split is not None
        }

    def action(self, hand: PlayerHand[Any], up: int, allowed: frozenset[Action]) -> Action:
        ranks, pair = hand.ranks, hand.pair
        if pair is None:
            if len(ranks) == 2:
                return self._first[ranks[0], ranks[1], up]
            return HIT if self._hits[up].get(sum(map(STEP.__getitem__, ranks)), False) else STAND
        if len(ranks) == 2:
            if SPLIT in allowed and hand.hands < self._split_hands.get((pair, up), 0):
                return SPLIT
            return self._post_split(up, pair, hand.hands).actions[ranks[1]]
        strategy = self._post_split(up, pair, hand.hands)
        key = STEP[pair] + sum(map(STEP.__getitem__, ranks))  # a split hand counts the pair
        return HIT if strategy.hits.get(key, False) else STAND

    def _post_split(self, up: int, pair: int, hands: int) -> PostSplitPlay:
        found = self._split.get((up, pair, hands))
        if found is None:
            play = self.analysis.plays[up]
            found = split_hand_strategy(play, self.rules, pair, hands - 2)
            self._split[up, pair, hands] = found
        return found


class ChartStrategy:
    """A basic strategy chart followed as printed: the first action per two-card hand, a
    split hand's cell (its fallback where the cell's action is not allowed), then hit or
    stand by total. A pair card dealt to a split hand is split again whenever the rules
    allow it (the chart split that pair), as the charted analysis values it
    (:func:`odds.games.blackjack.splits.split_pair`)."""

    def __init__(self, chart: Chart, rules: BlackjackRules) -> None:
        self.chart, self.rules = chart, rules

    def action(self, hand: PlayerHand[Any], up: int, allowed: frozenset[Action]) -> Action:
        ranks = hand.ranks
        if len(ranks) == 2:
            if hand.pair is None:
                return Action(self.chart.first[up, min(ranks), max(ranks)])
            if SPLIT in allowed:  # a resplit: only a pair card makes a pair again
                return SPLIT
            code = ChartCode(self.chart.post_split[up, hand.pair, ranks[1]])
            return code.choose(allowed)
        total, soft = hand.total
        return HIT if self.chart.hit[up, total, soft] else STAND


#: Hit (True) or stand per (up card, total, soft).
HitTable = dict[tuple[int, int, bool], bool]
#: The printed code per (up card, chart row).
RowCodes = dict[tuple[int, RowKey], ChartCode]
#: Two-card hands per (up card, chart row).
RowHands = dict[tuple[int, RowKey], list[HandResult]]
#: Two-card hands per (up card, total, soft).
TotalHands = dict[tuple[int, int, bool], list[HandResult]]


def build_chart(analysis: RoundAnalysis) -> Chart:
    """The chart: row codes per up card, and the decisions a chart player makes."""
    rows_of, by_total = _group_hands(analysis)
    hit = _hit_decisions(by_total)
    rows: dict[RowKey, dict[int, ChartCode]] = defaultdict(dict)
    first: dict[tuple[int, int, int], Action] = {}
    codes: RowCodes = {}
    for (up, row), members in rows_of.items():
        action, code = _row_decision(members, hit)
        rows[row][up] = code
        codes[up, row] = code
        for m in members:
            first[(up, *m.cards)] = action
    return Chart(dict(rows), hit, first, _post_split_decisions(codes, hit))


def _group_hands(analysis: RoundAnalysis) -> tuple[RowHands, TotalHands]:
    """The two-card hands but naturals, per (up card, chart row) and per (up card, total, soft)."""
    rows_of: RowHands = defaultdict(list)
    by_total: TotalHands = defaultdict(list)
    for h in analysis.hands:
        a, b = h.cards
        total, soft = two_card_total(a, b)
        if h.best == NATURAL:
            continue
        by_total[h.up, total, soft].append(h)
        if a == b:
            rows_of[h.up, ("pair", a)].append(h)
        else:
            rows_of[h.up, ("soft" if soft else "hard", total)].append(h)
    return rows_of, by_total


def _hit_decisions(by_total: TotalHands) -> HitTable:
    """Hit or stand per (up card, total, soft), by the EV summed over the two-card hands.

    A total no two-card hand reaches takes a default (hit below 17), and 21
    and over always stands.
    """
    hit: HitTable = {}
    for up in range(RANKS):
        for total in range(4, 22):
            for soft in (False, True):
                members = by_total.get((up, total, soft))
                if not members or total >= 21:
                    hit[up, total, soft] = total < 17 and not (soft and total >= 19)
                    if total >= 21:
                        hit[up, total, soft] = False
                    continue
                s = sum((m.probability * m.values[STAND] for m in members), Fraction(0))
                h_ = sum((m.probability * m.values[HIT] for m in members), Fraction(0))
                hit[up, total, soft] = h_ > s
    return hit


def _row_decision(members: list[HandResult], hit: HitTable) -> tuple[Action, ChartCode]:
    """A row's best first action and its printed code (``"Dh"``: double, else hit).

    Only actions open to every hand of the row compete. A double or surrender
    carries the fallback for when it is not allowed: hit or stand from
    ``hit``, or split when a surrender's runner-up is the split.
    """
    up = members[0].up
    allowed = set.intersection(*(set(m.values) for m in members))
    sums = {
        act: sum((m.probability * m.values[act] for m in members), Fraction(0)) for act in allowed
    }
    action = best_action(sums)
    a0, b0 = members[0].cards
    total, soft = two_card_total(a0, b0)
    fallback = HIT if hit[up, total, soft] else STAND
    if action == SURRENDER and SPLIT in sums:
        rest = {k: v for k, v in sums.items() if k != SURRENDER}
        if best_action(rest) == SPLIT:
            fallback = SPLIT
    return action, ChartCode.of(action, fallback)


def _post_split_decisions(codes: RowCodes, hit: HitTable) -> dict[tuple[int, int, int], ChartCode]:
    """The action per (up card, pair card, second card) of a split hand.

    A split hand follows its total's row (no resplit or surrender there: those
    fall back to hit or stand), and stands on 21 and over.
    """
    post_split: dict[tuple[int, int, int], ChartCode] = {}
    for up in range(RANKS):
        for x in range(RANKS):
            for y in range(RANKS):
                total, soft = two_card_total(x, y)
                fallback = ChartCode.of(HIT if hit[up, total, soft] else STAND)
                code = codes.get((up, ("soft" if soft else "hard", total)), fallback)
                if total >= 21 or code.action in (SURRENDER, SPLIT):
                    code = ChartCode.STAND if total >= 21 else fallback
                post_split[up, x, y] = code
    return post_split


def chart_rows(chart: Chart) -> dict[str, list[tuple[str, list[str]]]]:
    """Rows per kind: ``{"hard": [(label, [code per up in UP_ORDER])], …}``."""
    out: dict[str, list[tuple[str, list[str]]]] = {"hard": [], "soft": [], "pair": []}
    for (kind, value), cells in sorted(chart.rows.items(), key=lambda kv: kv[0]):
        if kind == "pair":
            label = f"{RANK_NAMES[value]}-{RANK_NAMES[value]}"
        elif kind == "soft":
            label = f"soft {value} (A-{RANK_NAMES[value - 12]})"
        else:
            label = f"hard {value}"
        out[kind].append((label, [cells.get(up, "") for up in UP_ORDER]))
    return out


STRATEGY_DEFINITION = (
    "Composition-dependent play: every decision is the best for the exact composition of the "
    "shoe less the up card and the cards of the hand being played. Two-card hands choose among "
    "stand, hit, double, split and surrender (as the rules allow); later cards between hit and "
    "stand; a total of 21 is never hit. Split hands follow CDP1: every split hand is played by "
    "the post-split strategy that is best for the first split (the shoe less the up card, the "
    "pair and the hand's own cards), and a pair card dealt to a split hand is resplit while the "
    "round has fewer hands than allowed (the best limit per pair and up card is taken, so "
    "allowing more hands never lowers a value). Split values are exact for this strategy, "
    "resplits included: each hand is valued with the other hands' pair and non-pair second "
    "cards out of the shoe (the cards a finished hand drew after its second card are "
    "distributed like a fresh draw, so they drop out). Probabilities are exact rationals; every "
    "figure is exact for this definition."
)

#: How split hands are played, per ``house.split_strategy`` (the CDP1 text is in
#: :data:`STRATEGY_DEFINITION`).
SPLIT_PLAY = {
    "CDZ-": "Split hands follow CDZ-: every split hand is played by the pre-split strategy for "
    "the same cards (the best play for the shoe less the up card and the hand's own cards, the "
    "other pair card not taken into account; doubling as the after-split rule allows)",
    "CDP": "Split hands follow CDP (Farmer's): a split hand valued with some further pair "
    "cards out of the shoe (those the round's other hands receive) is played by the strategy "
    "best for that shoe, so the strategy depends on cards later hands receive: no player can "
    "follow it, and its values are a benchmark",
    "CDPN": "Split hands follow CDPN: a split hand is played by the strategy best for the shoe "
    "less the up card, the pair, the pair cards split so far and the hand's own cards (it "
    "depends on how many times the pair has been split when the hand gets its second card, "
    "which the player has seen)",
}


def strategy_definition(split_strategy: str = "CDP1") -> str:
    """The report's definition of the strategy, naming the split convention."""
    if split_strategy == "CDP1":
        return STRATEGY_DEFINITION
    head, tail = STRATEGY_DEFINITION.split(" Split hands follow CDP1: ", 1)
    _, rest = tail.split(", and a pair card dealt", 1)
    return f"{head} {SPLIT_PLAY[split_strategy]}, and a pair card dealt{rest}"


def split_assumption(split_strategy: str = "CDP1") -> str:
    """The one assumption the figures rest on, for the split convention."""
    return SPLIT_ASSUMPTIONS[split_strategy]


#: The one assumption the figures rest on (the report states it in one sentence).
SPLIT_ASSUMPTION = (
    "The one assumption: split hands keep the first split's strategy instead of re-optimising "
    "for the other split hands' cards or the number of pair cards already dealt (CDP1, not "
    "CDPN), so the figures are exact for that strategy and at most slightly below what perfect "
    "post-split play would earn."
)
SPLIT_ASSUMPTIONS = {
    "CDP1": SPLIT_ASSUMPTION,
    "CDZ-": "The one assumption: split hands play the pre-split strategy (CDZ-), not one "
    "re-optimised for the removed pair card, so the figures are exact for that strategy and "
    "slightly below what post-split play (CDP1, CDPN) earns.",
    "CDP": "The one assumption: CDP re-optimises each split hand for pair cards the round's "
    "later hands receive, which a player cannot know: the figures are exact for that "
    "definition (Farmer's), a benchmark rather than a playable strategy.",
    "CDPN": "The one assumption: split hands re-optimise for the number of splits made so far "
    "(CDPN) but not for the other split hands' other cards, so the figures are exact for that "
    "strategy and at most slightly below what perfect post-split play would earn.",
}
