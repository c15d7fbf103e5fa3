"""Plain second counts of the definitions' report tables: every deal of a small shoe, one by one.

Shares no counting with :mod:`odds.games.defined` or the engine (no polynomial, no
showdown prefix sums, no cached classes): each card copy is distinct, every deal is
walked, and only the pattern vocabulary (a hand's category, its strength key and the
winner of two hands, :mod:`odds.games.defined.patterns` and ``ranking``) is shared, as
in :mod:`tests.reference.defined`.

* :func:`tableau_coups` — every ordered sequence of six cards, dealt by the tableau's
  data read as the rules page words it (the first position draws on its totals, the
  second by its row and the first's third card, or on its own when the first stood):
  ways per (winner, cards dealt) and per position's final total.
* :func:`showdown_hands` — every first hand against every second hand from the rest:
  per first hand (its cards), its ways and the second hand's weaker / equal /
  stronger ways (the winner of the two, exceptions included).
* :func:`against` — one hand against one or two opponents from the rest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations
from typing import Any

from odds.core.cards import Card
from odds.games.defined import ranking
from odds.games.defined.schema import Definition


def tableau_coups(
    definition: Definition, cards: Sequence[Card]
) -> tuple[Counter[tuple[str, int]], dict[str, Counter[int]]]:
    """Ways per (winner, cards dealt) and per position's final total, over every ordered
    six-card sequence of ``cards`` (a coup of four or five cards is counted once per way
    to follow it with the unseen cards, which is what every six-card sequence does)."""
    tableau = definition.deal.tableau
    assert tableau is not None
    first, second = definition.deal.positions
    values = [definition.shoe.values[c.rank] % 10 for c in cards]
    results: Counter[tuple[str, int]] = Counter()
    totals: dict[str, Counter[int]] = {first: Counter(), second: Counter()}
    for order in permutations(range(len(cards)), 6):
        v = [values[i] for i in order]
        mine, theirs = [v[0], v[2]], [v[1], v[3]]
        a, b = sum(mine) % 10, sum(theirs) % 10
        if a not in tableau.naturals and b not in tableau.naturals:
            if a in tableau.first_draws:
                third = v[4]
                mine.append(third)
                if third in dict(tableau.second_draws).get(b, ()):
                    theirs.append(v[5])
            elif b in tableau.second_draws_first_stood:
                theirs.append(v[4])
        a, b = sum(mine) % 10, sum(theirs) % 10
        winner = first if a > b else second if b > a else definition.ties
        results[winner, len(mine) + len(theirs)] += 1
        totals[first][a] += 1
        totals[second][b] += 1
    return results, totals


def showdown_hands(
    definition: Definition, cards: Sequence[Card]
) -> dict[tuple[Card, ...], list[int]]:
    """Per first hand (its cards, sorted as the shoe lists them): ``[ways, weaker, equal,
    stronger]`` — its copies' ways, and the second hand's ways from what one copy left."""
    size = definition.deal.cards
    first, second = definition.deal.positions
    index = list(range(len(cards)))
    found: dict[tuple[Card, ...], list[int]] = {}
    for mine in combinations(index, size):
        hand = tuple(cards[i] for i in mine)
        row = found.get(hand)
        if row is not None:  # another copy of the same cards: the same second hands
            row[0] += 1
            continue
        row = found[hand] = [1, 0, 0, 0]
        rest = [i for i in index if i not in mine]
        for theirs in combinations(rest, size):
            other = [cards[i] for i in theirs]
            who = ranking.winner(definition, list(hand), other)
            row[1 if who == first else 3 if who == second else 2] += 1
    return found


def against(
    definition: Definition, cards: Sequence[Card], hand: Sequence[Card], opponents: int
) -> tuple[int, int, int]:
    """(win, tie, deals) of ``hand`` against ``opponents`` hands dealt one after the other
    from ``cards`` less the hand: win beats every one, tie is none stronger, one equal."""
    size = definition.deal.cards
    first, second = definition.deal.positions
    rest = list(cards)
    for card in hand:
        rest.remove(card)

    def place(other: Sequence[Card]) -> int:
        who = ranking.winner(definition, list(hand), list(other))
        return 0 if who == first else 2 if who == second else 1

    win = tie = deals = 0

    def deal(left: list[int], best: int, more: int) -> None:
        nonlocal win, tie, deals
        if not more:
            deals += 1
            win += best == 0
            tie += best == 1
            return
        for chosen in combinations(left, size):
            where = place([rest[i] for i in chosen])
            deal([i for i in left if i not in chosen], max(best, where), more - 1)

    deal(list(range(len(rest))), 0, opponents)
    return win, tie, deals


def strongest_and_weakest(
    definition: Definition, hands: Sequence[tuple[Card, ...]], key: Any
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The weakest and strongest of ``hands`` by ``key`` (the first and the last in card
    order when several share the extreme key)."""
    del definition
    low = min(key(h) for h in hands)
    high = max(key(h) for h in hands)
    return (
        next(h for h in hands if key(h) == low),
        [h for h in hands if key(h) == high][-1],
    )
