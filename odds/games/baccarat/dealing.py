"""Dealing a whole baccarat shoe, as the table does, for shoe-state studies.

The ``[dealing]`` section says how (docs/rules/baccarat.md, "Dealing a
shoe"): after the shuffle the first card is turned face up and as many cards
as its value are burned face down (10, J, Q, K burn 10); coups are dealt by
the tableau until the cut card, ``cut_card`` cards from the end, comes out;
then the coup in progress is finished and, by default, one more is dealt.

An observer sees every card dealt to a coup and the turned card, but not the
burned cards or those behind the cut card, so before each coup the cards
*unseen* by the observer are the shoe less what was seen; their composition
is what :func:`odds.games.baccarat.state.state_ev` values. Off the top, the
coup's cards are a uniformly random draw from those unseen cards, which is
why that EV is the right one.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from odds.cards import Card
from odds.games.baccarat import rules as r
from odds.games.baccarat.analysis import COUP_CARDS
from odds.games.baccarat.options import BaccaratConfig


@dataclass(frozen=True)
class DealtRound:
    """One coup of a shoe: the cards unseen just before it, and the hands dealt."""

    number: int
    unseen: tuple[int, ...]  # per card type of the shoe, before the coup
    player: tuple[Card, ...]
    banker: tuple[Card, ...]


def deal_shoe(config: BaccaratConfig, rng: random.Random) -> Iterator[DealtRound]:
    """Shuffle one shoe with ``rng`` and deal it to the end by the ``[dealing]`` procedure."""
    shoe = config.shoe.build()
    index = {card: i for i, card in enumerate(shoe.types)}
    stack = [card for card, n in zip(shoe.types, shoe.counts, strict=True) for _ in range(n)]
    rng.shuffle(stack)
    stack.reverse()  # deal by pop() from the end: the shuffled order, first card first
    unseen = list(shoe.counts)
    dealing = config.dealing
    if dealing.burn == "first-card-value" and stack:
        turned = stack.pop()
        unseen[index[turned]] -= 1
        value = r.card_value(turned.rank) or 10
        del stack[max(0, len(stack) - value) :]  # burned face down: still unseen
    table = _Table(stack, unseen, index, dealing.cut_card, r.DrawingRules.of(config.tableau))
    last_coup = False
    number = 0
    while len(stack) >= COUP_CARDS:
        number += 1
        before = tuple(unseen)
        player, banker = table.deal()
        yield DealtRound(number, before, player, banker)
        if last_coup or (table.cut_out and dealing.last_round == "finish"):
            return
        last_coup = table.cut_out


class _Table:
    """The shoe being dealt: the stack, what the observer has not seen, and the cut card."""

    def __init__(
        self,
        stack: list[Card],
        unseen: list[int],
        index: dict[Card, int],
        cut_card: int,
        drawing: r.DrawingRules,
    ) -> None:
        self.stack, self.unseen, self.index = stack, unseen, index
        self.cut_card, self.drawing = cut_card, drawing
        #: The dealer has reached a card behind the cut card.
        self.cut_out = False

    def deal(self) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """One coup by the tableau, face up: the Player's and the Banker's cards."""
        hands: dict[str, list[Card]] = {"player": [], "banker": []}

        def next_value(hand: str) -> int:
            if len(self.stack) <= self.cut_card:
                self.cut_out = True
            card = self.stack.pop()
            self.unseen[self.index[card]] -= 1
            hands[hand].append(card)
            return r.card_value(card.rank)

        r.deal_coup(next_value, self.drawing)
        return tuple(hands["player"]), tuple(hands["banker"])
