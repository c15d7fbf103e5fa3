"""A plain second count of a defined game: every ordered deal of a small shoe, one at a time.

It shares no counting with :mod:`odds.games.defined.counting` (no engine call, no
plan, no showdown cuts, no tableau polynomial): it walks every deal of the *cards*
(each copy distinct) as the definition says (each hand's set of cards in turn, the
threshold draws card by card, or the tableau's draws decided card by card), classifies
each finished hand by the pattern vocabulary and settles every bet by its conditions.
What it shares is the vocabulary itself (:mod:`odds.games.defined.patterns` and the conditions of
:mod:`odds.games.defined.rounds`); published figures check that part.

Ways are ordered: for hand deals, the engine's unordered ways times ``∏ size!`` (each
hand's set weighted by its orders, which no hand feature reads);
for tableau deals, ordered ways of the cards a round uses, extended to six cards.
Probabilities are compared, exactly.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations
from math import factorial
from typing import Any

from odds.core.cards import Card, Suit
from odds.games.defined import patterns, ranking
from odds.games.defined.game import DefinedGame
from odds.games.defined.rounds import bet_needs, holds


def _round_key(game: DefinedGame, hands: dict[str, list[Card]], bet: Any) -> tuple[Any, ...]:
    definition = game.definition
    positions = definition.deal.positions
    winner, reads = bet_needs(bet, positions)
    who = None
    if winner:
        if definition.deal.tableau is not None:
            keys = [patterns.points(hands[p], definition.shoe) for p in positions]
            if keys[0] > keys[1]:
                who = positions[0]
            elif keys[1] > keys[0]:
                who = positions[1]
            else:
                who = definition.ties
        else:
            # The comparison of two hands, exceptions (``beats``) first: the
            # vocabulary's rule, applied deal by deal (no correction of counts).
            who = ranking.winner(definition, hands[positions[0]], hands[positions[1]])
    views = []
    for p in positions:
        if definition.deal.tableau is not None:
            cards = hands[p]
            two = patterns.points(cards[:2], definition.shoe)
            found = {
                "points": patterns.points(cards, definition.shoe),
                "cards": len(cards),
                "natural": len(cards) == 2 and two in definition.deal.tableau.naturals,
            }
            # Ranks and suits are read from the first two cards only.
            found["pair"] = cards[0].rank == cards[1].rank
            found["suited_pair"] = cards[0] == cards[1]
            found["colour_pair"] = cards[0].rank == cards[1].rank and (
                (cards[0].suit in (Suit.DIAMONDS, Suit.HEARTS))
                == (cards[1].suit in (Suit.DIAMONDS, Suit.HEARTS))
            )
            views.append(tuple((n, found[n]) for n in sorted(reads[p])))
        else:
            views.append(patterns.view(hands[p], reads[p], definition))
    return (who, *views)


def _settle(
    game: DefinedGame, hands: dict[str, list[Card]], result: dict[str, Counter[str]], ways: int
) -> None:
    for bet in game.definition.bets:
        key = _round_key(game, hands, bet)
        hits = [
            o for o in bet.outcomes if o.when is not None and holds(o.when, key, game.definition)
        ]
        assert len(hits) <= 1, (bet.name, hands)
        outcome = hits[0] if hits else bet.outcomes[-1]
        assert hits or outcome.when is None, (bet.name, hands)
        result[bet.name][outcome.key] += ways


def brute_force(game: DefinedGame, cards: Sequence[Card]) -> dict[str, dict[str, Fraction]]:
    """Probability per bet and outcome key, from every ordered deal of ``cards``."""
    definition = game.definition
    positions = definition.deal.positions
    result: dict[str, Counter[str]] = {b.name: Counter() for b in definition.bets}
    left = list(range(len(cards)))
    tableau = definition.deal.tableau

    size = definition.deal.cards
    # A hand's cards are a set: every order of them is the same hand (a definition reads
    # ``rank`` and ``suit`` only of one-card hands), so each set stands for size! orders.
    orders = factorial(size) ** len(positions)

    def deal_hands(dealt: list[tuple[int, ...]]) -> None:
        if len(dealt) == len(positions):
            hands = {p: [cards[i] for i in hand] for p, hand in zip(positions, dealt, strict=True)}
            if definition.deal.draw_at_most:
                drawing = [
                    p
                    for p in positions
                    if definition.deal.draws(p, patterns.points(hands[p], definition.shoe))
                ]
                return draw_thirds(hands, drawing, size * len(positions))
            _settle(game, hands, result, orders)
            return
        for hand in combinations(list(left), size):
            for i in hand:
                left.remove(i)
            dealt.append(hand)
            deal_hands(dealt)
            dealt.pop()
            left.extend(hand)
            left.sort()

    def draw_thirds(hands: dict[str, list[Card]], drawing: list[str], used: int) -> None:
        """The threshold draws, one card to each drawing position in dealing order; every
        deal extended by unseen cards to the most a round can take."""
        if not drawing:
            ways = orders
            for k in range(definition.round_cards - used):
                ways *= len(cards) - used - k
            _settle(game, hands, result, ways)
            return
        position, rest = drawing[0], drawing[1:]
        for i in list(left):
            left.remove(i)
            drawn = {**hands, position: [*hands[position], cards[i]]}
            draw_thirds(drawn, rest, used + 1)
            left.append(i)
            left.sort()

    def value(card: Card) -> int:
        return definition.shoe.values[card.rank] % 10

    def finish(first: list[Card], second: list[Card]) -> None:
        # Every deal is extended by unseen cards to six: weight the ways to pick them.
        used = len(first) + len(second)
        ways = 1
        for k in range(6 - used):
            ways *= len(cards) - used - k
        _settle(game, {positions[0]: first, positions[1]: second}, result, ways)

    def deal_tableau(dealt: list[int]) -> None:
        assert tableau is not None
        hand = [cards[i] for i in dealt]
        first = [hand[0], hand[2], *hand[4:5]] if len(hand) >= 4 else []
        if len(hand) == 4:
            ft = (value(hand[0]) + value(hand[2])) % 10
            st = (value(hand[1]) + value(hand[3])) % 10
            if ft in tableau.naturals or st in tableau.naturals:
                return finish(first, [hand[1], hand[3]])
            if ft not in tableau.first_draws and st not in tableau.second_draws_first_stood:
                return finish(first, [hand[1], hand[3]])
        if len(hand) == 5:
            ft = (value(hand[0]) + value(hand[2])) % 10
            st = (value(hand[1]) + value(hand[3])) % 10
            if ft not in tableau.first_draws:  # the first stood: the fifth card is the second's
                return finish([hand[0], hand[2]], [hand[1], hand[3], hand[4]])
            if not tableau.second_draws_on(st, value(hand[4])):
                return finish(first, [hand[1], hand[3]])
        if len(hand) == 6:
            return finish(first, [hand[1], hand[3], hand[5]])
        for i in list(left):
            left.remove(i)
            dealt.append(i)
            deal_tableau(dealt)
            dealt.pop()
            left.append(i)
            left.sort()

    if tableau is not None:
        deal_tableau([])
    else:
        deal_hands([])
    found = {}
    for bet, events in result.items():
        total = sum(events.values())
        found[bet] = {k: Fraction(n, total) for k, n in events.items() if n}
    return found
