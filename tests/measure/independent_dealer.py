"""A second dealer, written apart from the games, for the audit's power study.

The false-alarm rates and the power of the audit are measured on logs dealt
here, not by ``odds simulate``: a bug in the games' dealing or drawing rules
(which ``odds simulate`` uses) would otherwise be dealt into the honest logs
and hidden by the same bug in the audit's expectations. Nothing here imports
a game: the cards are numbers (``4 × rank + suit``, rank 0 = ace), the
shuffle is numpy's, and the baccarat tableau is written out again from the
rule book (``docs/rules/baccarat.md``: the Player draws on 0–5; the Banker,
when the Player stood, on 0–5, else by the Player's third card). A shoe is
dealt as at a table: one card turned and as many burned as its value (a ten
or a face: ten), rounds dealt until the cut card (at the penetration), then
the shoe is replaced. Pok Deng (``docs/rules/pok-deng.md`` §Shoe procedure) is
dealt as its rule page says, apart from the game's own dealing: the turned card
and its burn, then every round one card burned and two cards each to Player 1–5
and the Banker, one at a time, round the table twice; the round that draws the
cut card (52 cards from the end) is the shoe's last. Only the mapping of a card
number to the game's card (to hand the shoes to the audit's tests) goes through
the game's parser.

The faults of :mod:`odds.tools.audit.faults` are planted the same way
``odds simulate`` plants them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from odds.tools.audit.faults import Faults
from odds.tools.audit.shoes import DealtRound, DealtShoe

HONEST = Faults()
RANKS = "A23456789TJQK"
SUITS = "cdhs"


def card_text(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def point(card: int) -> int:
    """A card's baccarat point: ace 1, two to nine at face value, tens and faces 0."""
    rank = card // 4 + 1
    return rank if rank < 10 else 0


def _banker_draws(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    t = point(third)
    return (
        banker <= 2
        or (banker == 3 and t != 8)
        or (banker == 4 and 2 <= t <= 7)
        or (banker == 5 and 4 <= t <= 7)
        or (banker == 6 and t in (6, 7))
    )


def baccarat_coup(draw: Callable[[], int]) -> tuple[list[int], list[int]]:
    """The Player's and the Banker's cards of one coup, dealt P, B, P, B by the tableau."""
    player = [draw()]
    banker = [draw()]
    player.append(draw())
    banker.append(draw())
    p = (point(player[0]) + point(player[1])) % 10
    b = (point(banker[0]) + point(banker[1])) % 10
    if p >= 8 or b >= 8:
        return player, banker
    third = None
    if p <= 5:
        third = draw()
        player.append(third)
    if _banker_draws(b, third):
        banker.append(draw())
    return player, banker


def baccarat_totals(player: list[int], banker: list[int]) -> tuple[int, int]:
    return sum(map(point, player)) % 10, sum(map(point, banker)) % 10


#: Pok Deng: cards behind the cut card, and the seats dealt every round.
POK_DENG_CUT = 52
POK_DENG_SEATS = 5


def pok_deng_round(draw: Callable[[], int]) -> tuple[list[int], list[list[int]]]:
    """The Banker's two cards and each seat's, dealt one at a time: seats 1–5, then the Banker."""
    seats: list[list[int]] = [[] for _ in range(POK_DENG_SEATS)]
    banker: list[int] = []
    for _ in range(2):
        for hand in seats:
            hand.append(draw())
        banker.append(draw())
    return banker, seats


@dataclass
class IndependentDealer:
    """Shoes of baccarat, Dragon Tiger or Pok Deng, dealt through to a cut card.

    ``types`` maps a card number to the audit's type index for that card;
    ``positions`` are the game's positions in order (``player``/``banker``,
    ``dragon``/``tiger``, ``banker``/``player``), for the hand texts each round
    carries; a Pok Deng round carries its five seats' hands as the operator
    layout does (``player_1`` … ``player_5``).
    """

    game: str  # "baccarat", "dragon-tiger" or "pok-deng"
    types: tuple[int, ...]
    positions: tuple[str, ...]
    decks: int = 8
    penetration: float = 0.8
    faults: Faults = HONEST
    #: Pok Deng: cards behind the cut card (the rule page's 52; fewer for a reduced shoe).
    cut_card: int = POK_DENG_CUT

    def shoes(self, count: int, seed: int) -> list[DealtShoe]:
        rng = random.Random(seed)
        cards = [c for c in range(52) for _ in range(self.decks)]
        cards = self._composition(cards)
        previous: list[int] | None = None
        shoes = []
        for number in range(1, count + 1):
            order = self.faults.new_order(rng, cards, previous, lambda c: c // 4)
            rounds = self._deal(order, rng)
            shoes.append(DealtShoe(str(number), tuple(rounds)))
            previous = order  # its discards in the order dealt, then the cards behind the cut
        return shoes

    def _composition(self, cards: list[int]) -> list[int]:
        """Extra and missing cards, given as type indices, as card numbers."""
        number_of = {t: c for c, t in enumerate(self.types)}
        result = [*cards, *(number_of[t] for t in self.faults.extra)]
        for t in self.faults.missing:
            result.remove(number_of[t])
        return result

    def _deal(self, order: list[int], rng: random.Random) -> list[DealtRound]:
        position = 0

        def draw() -> int:
            nonlocal position
            position += 1
            return order[position - 1]

        first = draw()  # turned face up, then as many burned as its value
        burn = min(10, first // 4 + 1)
        position += burn
        cut = int(len(order) * self.penetration)
        need = 12 if self.faults.improve_banker else 6
        if self.game == "pok-deng":
            cut, need = len(order) - self.cut_card, 1 + 2 * (POK_DENG_SEATS + 1)
        rounds: list[DealtRound] = []
        while position < cut and len(order) - position >= need:
            line = len(rounds) + 1
            if self.game == "pok-deng":
                position += 1  # one card burned face down
                banker, seats = pok_deng_round(draw)
                texts = tuple(" ".join(card_text(c) for c in hand) for hand in seats)
                shown = tuple(self.types[c] for hand in (banker, *seats) for c in hand)
                hands = tuple(
                    " ".join(card_text(c) for c in banker) if p == "banker" else ""
                    for p in self.positions
                )
                rounds.append(DealtRound(line, str(line), shown, hands, texts))
                continue
            dealt = self._round(draw, rng)
            text = {p: " ".join(card_text(c) for c in hand) for p, hand in dealt.items()}
            shown = tuple(self.types[c] for p in self.positions for c in dealt[p])
            rounds.append(
                DealtRound(line, str(line), shown, tuple(text[p] for p in self.positions))
            )
        return rounds

    def _round(self, draw: Callable[[], int], rng: random.Random) -> dict[str, list[int]]:
        if self.game == "dragon-tiger":
            return {"dragon": [draw()], "tiger": [draw()]}
        player, banker = baccarat_coup(draw)
        if self.faults.improve_banker:
            p, b = baccarat_totals(player, banker)
            if p > b and rng.random() < self.faults.improve_banker:
                player, banker = baccarat_coup(draw)  # the coup is dealt again
        return {"player": player, "banker": banker}


def dealer_for(
    game: Any, config: Any, faults: Faults = HONEST, **options: Any
) -> IndependentDealer:
    """A dealer whose card numbers are mapped to ``game``'s types (through its parser only)."""
    shoe = game.shoe(config)
    types = tuple(shoe.index(game.parse_hand(config, card_text(c))[0]) for c in range(52))
    name = (
        "dragon-tiger"
        if "dragon" in game.positions
        else "pok-deng"
        if game.name == "pok-deng"
        else "baccarat"
    )
    decks = shoe.size // 52
    return IndependentDealer(name, types, tuple(game.positions), decks, faults=faults, **options)
