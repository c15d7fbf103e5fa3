"""The one card-by-card round (:func:`odds.games.blackjack.play.play`): the order of a live
table, what a strategy is asked and allowed, and the settlement, on scripted cards."""

from __future__ import annotations

from typing import Any

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
