"""Deals that go on until a card matches the first: Andar Bahar's deal, for any definition.

``[definition.deal] until_match = { card = "joker", match = "rank", first = "andar" }``:
one card is turned up (the *joker*), then cards are dealt to the two piles in turn, starting
with ``first`` (one pile, or one per colour of the joker), until a card matches the joker
(by rank, suit or colour); the pile that receives it wins. A bet reads the winning pile,
``dealt`` (the cards dealt after the joker, the match included), each pile's ``cards`` and
the joker's ``rank`` and ``suit``.

**The law, closed form.** Given the joker (a card type ``j``, ``c_j`` of it in the shoe of
``N`` cards) and ``m_j`` cards left that match it, the ``m_j`` matching cards take a set
of places among the ``N − 1`` others, every set equally likely; the first match is at place
``k`` in ``C(N − 1 − k, m_j − 1)`` of the ``C(N − 1, m_j)`` sets (``k = 1 … N − m_j``;
the sum is the hockey-stick identity). Over every joker the ways are put on one integer
total, ``N · L`` with ``L`` the least common multiple of the ``C(N − 1, m_j)`` (one deck,
by rank: 52 · C(51, 3) = 1,082,900), and every distribution is asserted to add up to it.
Per composition the work is one term per joker type and place, estimated (types × cards)
and bounded before anything is counted. A shoe where some joker has no card left to match
it never ends a round, and is refused in one line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from math import comb, lcm
from typing import Any

from odds.core.cards import Card
from odds.core.errors import OddsError, PositionError
from odds.core.table import Column, Kind, Table
from odds.engine import check_total
from odds.games.defined.colours import COLOUR
from odds.games.defined.rounds import RoundKey
from odds.games.defined.schema import Definition, UntilMatch

#: The most terms (joker types × places of the match) one composition's law may take;
#: far above any shoe the definitions allow (eight decks: 52 × 416 = 21,632).
MAX_WORK = 2_000_000


def deal_of(definition: Definition) -> UntilMatch:
    until = definition.deal.until_match
    assert until is not None
    return until


def matches(until: UntilMatch, card: Card) -> Any:
    """The class of ``card`` that a match must share with the joker."""
    if until.match == "rank":
        return card.rank
    if until.match == "suit":
        return card.suit
    return COLOUR[card.suit]


def first_pile(until: UntilMatch, joker: Card) -> str:
    return until.first_pile(COLOUR[joker.suit])


def winner_at(until: UntilMatch, joker: Card, dealt: int) -> str:
    """The pile receiving the ``dealt``-th card after the joker (1: the pile dealt first)."""
    first = first_pile(until, joker)
    second = until.piles[1] if first == until.piles[0] else until.piles[0]
    return first if dealt % 2 else second


def pile_cards(until: UntilMatch, joker: Card, dealt: int) -> dict[str, int]:
    """How many cards each pile holds after ``dealt`` cards, the first pile dealt first."""
    first = first_pile(until, joker)
    return {p: (dealt + 1) // 2 if p == first else dealt // 2 for p in until.piles}


def check_work(definition: Definition, types: int, size: int) -> None:
    """Refuse, before counting, a law of more terms than :data:`MAX_WORK`."""
    work = types * size
    if work > MAX_WORK:
        raise OddsError(
            f"{definition.source}: an until-match deal from {size} cards of {types} types is "
            f"~{work:,} terms (joker types × places of the match), over the limit of "
            f"{MAX_WORK:,}"
        )


def law(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> tuple[int, list[tuple[int, int, int]]]:
    """``(total, [(joker type, matching cards left m, weight)])``: the ways of the joker
    ``j`` and a first match at place ``k`` are ``weight · C(N − 1 − k, m − 1)``, and
    ``total`` = N · L is every round's ways."""
    until = deal_of(definition)
    size = sum(counts)
    check_work(definition, len(types), size)
    if size < 2:
        raise OddsError(f"{definition.source}: a round deals 2 cards but the shoe holds {size}")
    by_class: dict[Any, int] = {}
    for card, n in zip(types, counts, strict=True):
        by_class[matches(until, card)] = by_class.get(matches(until, card), 0) + n
    rows = []
    for j, (card, n) in enumerate(zip(types, counts, strict=True)):
        if not n:
            continue
        left = by_class[matches(until, card)] - 1
        if left == 0:
            raise OddsError(
                f"{definition.source}: a {until.card} {card} has no card of its "
                f"{until.match} left in the shoe to match it: the deal would never end"
            )
        rows.append((j, left, n))
    common = lcm(*(comb(size - 1, m) for _, m, _ in rows))
    total = size * common
    return total, [(j, m, n * (common // comb(size - 1, m))) for j, m, n in rows]


def round_key(
    definition: Definition,
    joker: Card,
    dealt: int,
    winner: bool,
    reads: Mapping[str, set[str]],
) -> RoundKey:
    """The round key of a deal whose first match is the ``dealt``-th card after ``joker``:
    the winner (when read), then each position's view (the joker's rank and suit, a pile's
    cards), in the deal's positions' order."""
    until = deal_of(definition)
    cards = pile_cards(until, joker, dealt)
    views: list[tuple[Any, ...]] = []
    for position in definition.deal.positions:
        names = sorted(reads.get(position, ()))
        if position == until.card:
            found = {"rank": joker.rank, "suit": joker.suit, "cards": 1}
        else:
            found = {"cards": cards[position]}
        views.append(tuple((name, found[name]) for name in names))
    return (winner_at(until, joker, dealt) if winner else None, *views)


def rounds(
    definition: Definition,
    types: Sequence[Card],
    counts: Sequence[int],
    winner: bool,
    reads: Mapping[str, set[str]],
) -> dict[RoundKey, int]:
    """Ways per round key over every joker and place of the first match (asserted)."""
    total, rows = law(definition, types, counts)
    size = sum(counts)
    found: dict[RoundKey, int] = {}
    for j, m, weight in rows:
        joker = types[j]
        for k in range(1, size - m + 1):
            key = round_key(definition, joker, k, winner, reads)
            found[key] = found.get(key, 0) + weight * comb(size - 1 - k, m - 1)
    check_total(found, total, "until-match rounds")
    return found


def deal_total(definition: Definition, types: Sequence[Card], counts: Sequence[int]) -> int:
    return law(definition, types, counts)[0]


def places(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> dict[tuple[int, bool], int]:
    """Ways per (cards dealt after the joker, whether the pile dealt first wins)."""
    total, rows = law(definition, types, counts)
    size = sum(counts)
    found: dict[tuple[int, bool], int] = {}
    for _, m, weight in rows:
        for k in range(1, size - m + 1):
            found[k, k % 2 == 1] = found.get((k, k % 2 == 1), 0) + weight * comb(
                size - 1 - k, m - 1
            )
    check_total(found, total, "until-match places")
    return found


def counting_text(definition: Definition, types: Sequence[Card], counts: Sequence[int]) -> str:
    until = deal_of(definition)
    size = sum(counts)
    total, rows = law(definition, types, counts)
    ms = sorted({m for _, m, _ in rows})
    left = (
        f"the {ms[0]} cards of its {until.match} left"
        if len(ms) == 1
        else f"the cards of its {until.match} left ({', '.join(map(str, ms))} by joker)"
    )
    first = (
        f"the {until.first} pile first"
        if isinstance(until.first, str)
        else "the first pile by its colour (" + ", ".join(f"{c}: {p}" for c, p in until.first) + ")"
    )
    return (
        f"Counted from the definition (data), with card removal: the {until.card} turned up "
        f"from {size} cards, then cards dealt to the {' and '.join(until.piles)} piles in "
        f"turn ({first}) until one matches its {until.match}. The first match is at place k "
        f"after the {until.card} in C(N−1−k, m−1) of the C(N−1, m) places of {left} among "
        f"the N−1 other cards (N = {size}), every place equally likely: a closed form per "
        f"joker, on one total of {total:,} ways (N × the least common multiple of the "
        "C(N−1, m)), asserted."
    )


def law_table(definition: Definition, types: Sequence[Card], counts: Sequence[int]) -> Table:
    """The report's table: per number of cards dealt after the joker, its ways and chance,
    and the pile that receives the match (the pile dealt first on an odd number)."""
    until = deal_of(definition)
    found = places(definition, types, counts)
    total = sum(found.values())
    rows = []
    for (k, first), n in sorted(found.items()):
        pile = until.first if isinstance(until.first, str) else "dealt first"
        if not first:
            pile = (
                next(p for p in until.piles if p != until.first)
                if isinstance(until.first, str)
                else "dealt second"
            )
        rows.append({"dealt": k, "pile": pile, "ways": n, "probability": Fraction(n, total)})
    return Table(
        "until_match",
        f"The match: cards dealt after the {until.card}, the match included",
        (
            Column("dealt", "cards dealt", Kind.WAYS),
            Column("pile", "pile receiving the match", Kind.TEXT),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        tuple(rows),
        total={"dealt": "total", "pile": "", "ways": total, "probability": Fraction(1)},
        note=(
            f"The pile dealt first receives the 1st, 3rd, 5th … card after the {until.card}; "
            f"the ways are on the counting's one total ({total:,})."
        ),
    )


# ---------------------------------------------------------------------------
# One round: settle and simulate


def checked_round(definition: Definition, held: Mapping[str, tuple[Card, ...]]) -> int:
    """The number of cards dealt after the joker, the piles checked: one card turned up,
    the piles dealt in turn from the first, and the last card dealt the only match."""
    until = deal_of(definition)
    turned = held[until.card]
    if len(turned) != 1:
        raise PositionError(until.card, f"{{position}} must be one card, got {len(turned)}")
    joker = turned[0]
    first = first_pile(until, joker)
    dealt = sum(len(held[p]) for p in until.piles)
    sizes = pile_cards(until, joker, dealt)
    for pile in until.piles:
        if len(held[pile]) != sizes[pile]:
            raise PositionError(
                pile,
                f"{{position}}: {dealt} cards dealt in turn from the {first} pile give the "
                f"{pile} {sizes[pile]}, got {len(held[pile])}",
            )
    last_pile = winner_at(until, joker, dealt)
    last = held[last_pile][-1]
    if matches(until, last) != matches(until, joker):
        raise PositionError(
            last_pile,
            f"{{position}}: the last card dealt ({last}) must match the {until.card} "
            f"({joker}) by {until.match}",
        )
    for pile in until.piles:
        cards = held[pile][:-1] if pile == last_pile else held[pile]
        early = [c for c in cards if matches(until, c) == matches(until, joker)]
        if early:
            raise PositionError(
                pile,
                f"{{position}}: {early[0]} matches the {until.card} ({joker}) by "
                f"{until.match}, so the deal ends there",
            )
    return dealt


def round_text(definition: Definition, held: Mapping[str, tuple[Card, ...]]) -> dict[str, str]:
    """What settle says of each position."""
    until = deal_of(definition)
    joker = held[until.card][0]
    dealt = checked_round(definition, held)
    winner = winner_at(until, joker, dealt)
    texts = {until.card: f"{joker}: the deal ends on a card of its {until.match}"}
    for pile in until.piles:
        n = len(held[pile])
        first = " (dealt first)" if pile == first_pile(until, joker) else ""
        won = (
            f"; receives the match ({held[pile][-1]}), card {dealt} after the {until.card}"
            if pile == winner
            else ""
        )
        texts[pile] = f"{n} card{'s' * (n != 1)}{first}{won}"
    return texts


def deal_round(definition: Definition, draw: Callable[[], Card]) -> dict[str, tuple[Card, ...]]:
    """One round card by card: the joker, then the piles in turn until a match."""
    until = deal_of(definition)
    joker = draw()
    piles: dict[str, list[Card]] = {p: [] for p in until.piles}
    dealt = 0
    while True:
        dealt += 1
        card = draw()
        piles[winner_at(until, joker, dealt)].append(card)
        if matches(until, card) == matches(until, joker):
            break
    return {until.card: (joker,), **{p: tuple(c) for p, c in piles.items()}}
