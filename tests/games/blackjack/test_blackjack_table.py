"""Several players at one table (``[dealing] players``): every player's cards are dealt from
the one shoe, seen, and gone before the next round's state."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from odds.games.blackjack.actions import Action, Chart
from odds.games.blackjack.options import BlackjackConfig, BlackjackRules
from odds.games.blackjack.shoe_state import penetration_procedure
from odds.games.dealing import PenetrationDealing

#: Hit below 17, stand on 17 or more (hard totals): a chart simple enough to follow by hand.
CHART = Chart(
    rows={},
    hit={(up, t, s): t < 17 for up in range(10) for t in range(4, 22) for s in (False, True)},
    first={
        (u, a, b): Action.HIT if a + b + 2 < 17 else Action.STAND  # (aces count 1 here)
        for u in range(10)
        for a in range(10)
        for b in range(10)
    },
    post_split={},
)


def states(players: int, hole_card: str, seed: int) -> tuple[list[tuple[int, ...]], list[int]]:
    config = BlackjackConfig(
        house=BlackjackRules(hole_card=hole_card), dealing=PenetrationDealing(players=players)
    )
    procedure = penetration_procedure(config, CHART)
    shoe = config.shoe.build()
    order = [t for t, n in enumerate(shoe.counts) for _ in range(n)]
    random.Random(seed).shuffle(order)
    return procedure.states(order, shoe.counts), order


@pytest.mark.parametrize("hole_card", ["none", "peek"])
def test_every_players_cards_leave_the_shoe(hole_card: str) -> None:
    one, _ = states(1, hole_card, seed=5)
    five, order = states(5, hole_card, seed=5)
    assert len(five) < len(one)  # five players use the shoe up in fewer rounds
    # Between two states every card of the round is gone: at least two per player and the
    # dealer's up card (a peeked blackjack ends the round there), the dealt cards in order.
    position = 0
    for before, after in pairwise(five):
        gone = [b - a for b, a in zip(before, after, strict=True)]
        assert min(gone) >= 0
        dealt = sum(gone)
        assert dealt >= 2 * 5 + 1 + (hole_card == "peek")
        counts = [0] * len(before)
        for t in order[position : position + dealt]:
            counts[t] += 1
        assert counts == gone
        position += dealt
    # The last round started before the cut card (75% of 416 cards).
    assert position <= 312


def test_a_round_deals_each_player_then_the_dealer() -> None:
    """Three players: a first card to each, the up card, a second card to each, then each
    player acts in turn and the dealer completes the hand, as at a live table."""
    from odds.games.blackjack.shoe_state import RoundDealer

    # Players get 10+6, 10+7, 10+5 against a 10 up: the first hits (a 2: 18), the second
    # stands, the third hits (a 9: bust); the hole card (7) gives the dealer 17.
    draws = iter([9, 9, 9, 9, 5, 6, 4, 1, 8, 6, 9, 9])
    seen = RoundDealer(BlackjackRules(), CHART, list(range(10)), 3)(draws.__next__)
    assert seen == [9, 9, 9, 9, 5, 6, 4, 1, 8, 6]
