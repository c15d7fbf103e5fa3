"""A plain second count of a whole table: every ordered deal of a small shoe to every seat.

It shares no counting with :mod:`odds.games.defined.seats` or
:mod:`odds.games.defined.whole_table` (no engine call, no hand classes, no
three-hand joint, no exchangeability): it walks every ordered sequence of cards
(copies of one card told apart by their falling-factorial weight), deals them as
the rule book does — one card at a time to seat 1 … n and then the dealer, as many
times as a hand has cards — and settles every seat's every bet against the dealer
by the definition's conditions, seat by seat. What it shares is the vocabulary
(:mod:`odds.games.defined.patterns`, the conditions of :mod:`odds.games.defined.rounds`),
as :mod:`tests.reference.defined` does; published figures check that part.

The result is the probability of each tuple of every seat's outcome keys (seat 1
first), exactly: the whole table's every figure is a sum over it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction

from odds.core.cards import Card
from odds.games.defined.game import DefinedGame
from odds.games.defined.rounds import holds
from tests.reference.defined import _round_key

#: Every seat's outcome keys, seat 1 first: ``((player key, pair key), (…), …)``.
TableOutcome = tuple[tuple[str, ...], ...]


def settle_seat(game: DefinedGame, seat: list[Card], dealer: list[Card]) -> tuple[str, ...]:
    """Every bet's outcome key for one seat's hand against the dealer's (by the conditions)."""
    definition = game.definition
    first, second = definition.deal.positions
    keys = []
    for bet in definition.bets:
        key = _round_key(game, {first: seat, second: dealer}, bet)
        hits = [o for o in bet.outcomes if o.when is not None and holds(o.when, key, definition)]
        assert len(hits) <= 1, (bet.name, seat, dealer)
        outcome = hits[0] if hits else bet.outcomes[-1]
        assert hits or outcome.when is None, (bet.name, seat, dealer)
        keys.append(outcome.key)
    return tuple(keys)


def whole_table(game: DefinedGame, cards: Sequence[Card]) -> dict[TableOutcome, Fraction]:
    """Probability per every seat's outcome keys, over every ordered deal of ``cards``."""
    definition = game.definition
    seats, size = definition.deal.seats, definition.deal.cards
    hands_dealt = seats + 1  # seat 1 … n, then the dealer
    length = size * hands_dealt
    kinds = sorted(set(cards), key=str)
    left = [sum(1 for c in cards if c == kind) for kind in kinds]
    dealt: list[int] = []
    settled: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[str, ...]] = {}
    found: Counter[TableOutcome] = Counter()

    def seat_keys(seat: list[Card], dealer: list[Card]) -> tuple[str, ...]:
        memo = (tuple(sorted(map(str, seat))), tuple(sorted(map(str, dealer))))
        if memo not in settled:
            settled[memo] = settle_seat(game, seat, dealer)
        return settled[memo]

    def walk(ways: int) -> None:
        if len(dealt) == length:
            hands = [
                [kinds[dealt[p * hands_dealt + h]] for p in range(size)] for h in range(hands_dealt)
            ]
            dealer = hands[-1]
            found[tuple(seat_keys(hands[s], dealer) for s in range(seats))] += ways
            return
        for t, n in enumerate(left):
            if n:
                left[t] -= 1
                dealt.append(t)
                walk(ways * n)
                dealt.pop()
                left[t] += 1

    walk(1)
    total = sum(found.values())
    return {key: Fraction(ways, total) for key, ways in found.items()}
