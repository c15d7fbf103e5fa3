"""The one card-by-card round (:func:`odds.games.blackjack.play.play`): the order of a live
table, what a strategy is asked and allowed, and the settlement, on scripted cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from odds.games.blackjack.actions import Action
from odds.games.blackjack.options import BlackjackRules
from odds.games.blackjack.play import PlayerHand, allowed_actions, play

A, EIGHT, SIX, TEN = 0, 7, 5, 9


class Scripted:
    """Splits whenever allowed, else stands; records every question it is asked."""

    def __init__(self) -> None:
        self.asked: list[tuple[tuple[int, ...], frozenset[Action]]] = []

    def action(self, hand: PlayerHand[Any], up: int, allowed: frozenset[Action]) -> Action:
        self.asked.append((tuple(hand.ranks), allowed))
        return Action.SPLIT if Action.SPLIT in allowed else Action.STAND


def deal(cards: list[int], rules: BlackjackRules, strategy: Any) -> tuple[Any, list[str]]:
    seen: list[str] = []
    it = iter(cards)

    def draw(hand: PlayerHand[int] | None) -> int:
        seen.append("dealer" if hand is None else f"hand {hand.position + 1}")
        return next(it)

    return play(draw, strategy, rules), seen


def test_a_resplit_round_in_the_order_of_the_table() -> None:
    """8-8 against a 6, resplit to three hands: each hand gets its second card in its turn,
    the hole card comes after the players (no hole card), and the dealer draws to 17."""
    rules = BlackjackRules(split_hands=3)
    cards = [EIGHT, SIX, EIGHT, EIGHT, TEN, TEN, TEN, TEN, 2]
    round_, seen = deal(cards, rules, Scripted())
    hands = round_.seats[0]
    assert [h.ranks for h in hands] == [[EIGHT, TEN], [EIGHT, TEN], [EIGHT, TEN]]
    assert (
        seen
        == ["hand 1", "dealer", "hand 1", "hand 1", "hand 1", "hand 2", "hand 3"] + ["dealer"] * 2
    )
    assert round_.dealer_ranks == [SIX, TEN, 2] and round_.dealer_total == 19
    assert round_.net(rules) == -3  # three 18s against 19


def test_split_aces_take_one_card_and_are_never_asked() -> None:
    strategy = Scripted()
    round_, _ = deal([A, SIX, A, TEN, 8, TEN, 1], BlackjackRules(), strategy)
    assert [h.ranks for h in round_.seats[0]] == [[A, TEN], [A, 8]]
    assert len(strategy.asked) == 1  # only the pair itself
    assert round_.net(BlackjackRules()) == 2  # 21 and 20 against 18 (21, not a blackjack)


def test_what_the_rules_allow() -> None:
    rules = BlackjackRules(surrender=True, double_after_split=False)
    first = PlayerHand([], [EIGHT, EIGHT])
    assert allowed_actions(first, 1, rules) == {"S", "H", "D", "P", "R"}
    split = PlayerHand([], [EIGHT, 2], pair=EIGHT)
    assert allowed_actions(split, 2, rules) == {"S", "H"}  # no double after a split, no surrender
    assert allowed_actions(PlayerHand([], [TEN, 5, 6]), 1, rules) == frozenset()  # 21 stands
    assert allowed_actions(PlayerHand([], [EIGHT, EIGHT], pair=EIGHT), 2, rules) == {"S", "H"}


def _best_total(ranks: list[int]) -> tuple[int, bool]:
    """A hand's total counted afresh: aces 1, one of them 11 when that stays at 21 or under."""
    hard = sum(rank + 1 for rank in ranks)
    return (hard + 10, True) if 0 in ranks and hard + 10 <= 21 else (hard, False)


class Checking:
    """Takes a seeded random allowed action, and checks at every question that what
    ``play`` offers is what :func:`allowed_actions` says and the hand's total is its cards'."""

    def __init__(self, rules: BlackjackRules, seed: int) -> None:
        self.rules, self.rng, self.asked = rules, random.Random(seed), 0

    def action(self, hand: PlayerHand[Any], up: int, allowed: frozenset[Action]) -> Action:
        self.asked += 1
        assert hand.total == _best_total(hand.ranks)
        assert allowed == allowed_actions(hand, hand.hands, self.rules) != frozenset()
        return self.rng.choice(sorted(allowed))


@pytest.mark.parametrize(
    "rules",
    [
        BlackjackRules(),
        BlackjackRules(hole_card="peek", surrender=True, double="9-11", split_hands=4),
        BlackjackRules(split_hands=4, resplit_aces=True, double_after_split=True),
        BlackjackRules(split_hands=3, resplit_aces=True, split_aces_one_card=False),
    ],
)
def test_every_question_and_every_total_random_rounds(rules: BlackjackRules) -> None:
    """Random actions on a small aces-and-pairs-rich shoe: each question offers exactly the
    allowed actions, no finished hand is asked (a three-card soft 21, a split ace), and the
    totals kept as the cards come are the cards' totals, the dealer's included."""
    strategy, cards = Checking(rules, 1), random.Random(2)

    def draw(hand: PlayerHand[int] | None) -> int:
        return cards.choice([A, A, EIGHT, EIGHT, 4, SIX, TEN, TEN, 2, 1])

    for _ in range(3_000):
        round_ = play(draw, strategy, rules, players=2)
        assert round_.dealer_total == _best_total(round_.dealer_ranks)[0]
        for hands in round_.seats:
            for hand in hands:
                assert hand.total == _best_total(hand.ranks)
                assert hand.natural == (hand.pair is None and sorted(hand.ranks) == [A, TEN])
                finished = hand.surrendered or hand.stake == 2 or hand.total[0] >= 21
                if not finished and hand.pair != 0:  # stood by choice, or a split ace
                    assert allowed_actions(hand, hand.hands, rules)
    assert strategy.asked > 3_000
