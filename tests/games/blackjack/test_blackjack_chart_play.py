"""The chart played card by card (:class:`ChartStrategy` through ``play``) is the chart the
exact analysis values (``analyse_round(..., chart=)``): every ordered deal of a small shoe,
weighted by its chance, gives the analysis's EV exactly, resplits included.

The shoe holds three ranks only, so that every order of a round can be walked (a few
thousand deals), and enough pair cards that a round resplits to its limit.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.play import PlayerHand, play
from odds.games.blackjack.rounds import analyse_round
from odds.games.blackjack.strategy import ChartStrategy, build_chart

THREE, EIGHT, TEN = 2, 7, 9


class _More(Exception):
    """The scripted cards ran out: the walk branches on the next card."""


def every_deal_ev(
    counts: tuple[int, ...], net_of: Callable[[Callable[..., int]], Fraction]
) -> Fraction:
    """Σ over every ordered deal of ``P(deal) · net``, the deal grown one card at a time."""

    def walk(script: list[int], left: list[int], chance: Fraction) -> Fraction:
        cards = iter(script)

        def draw(hand: PlayerHand[int] | None = None) -> int:
            card = next(cards, None)
            if card is None:
                raise _More
            return card

        try:
            return chance * net_of(draw)
        except _More:
            total = sum(left)
            found = Fraction(0)
            for rank, n in enumerate(left):
                if n:
                    left[rank] -= 1
                    found += walk([*script, rank], left, chance * Fraction(n, total))
                    left[rank] += 1
            return found

    return walk([], list(counts), Fraction(1))


@pytest.mark.parametrize(
    "rules",
    [
        # Surrender (8-8 against a ten) beside resplits to 3 (8-8 against a 3 or an 8): one
        # walk of the small shoe for both, no hole card; the other, DAS and a peek to 4 hands.
        BlackjackRules(split_hands=3, surrender=True),
        BlackjackRules(split_hands=4, double_after_split=True, hole_card="peek"),
    ],
    ids=["resplit-3-surrender", "resplit-4-das-peek"],
)
def test_the_chart_played_card_by_card_is_the_chart_analysed(rules: BlackjackRules) -> None:
    counts = [0] * 10
    counts[THREE], counts[EIGHT], counts[TEN] = 4, 8, 8
    shoe = tuple(counts)
    chart = build_chart(analyse_round(shoe, rules))
    strategy: Any = ChartStrategy(chart, rules)
    split_somewhere = any(chart.first[up, EIGHT, EIGHT] == "P" for up in (THREE, EIGHT, TEN))
    assert split_somewhere  # the case that needs resplits to agree

    def net(draw: Callable[..., int]) -> Fraction:
        return Fraction(play(draw, strategy, rules).net(rules))

    assert every_deal_ev(shoe, net) == analyse_round(shoe, rules, chart=chart).ev
