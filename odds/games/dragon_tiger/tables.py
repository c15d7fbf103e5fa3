"""Dragon Tiger report tables: the cards' ranking and what each side bet counts."""

from __future__ import annotations

from fractions import Fraction

from odds.analysis import Table
from odds.cards import Card, Rank
from odds.games.dragon_tiger import rules as r
from odds.shoe import Shoe


def card_table(shoe: Shoe[Card]) -> Table:
    """Every rank: its place in the ranking, its big/small and odd/even class, its chance."""
    total = shoe.size
    rows = []
    for rank in sorted({card.rank for card in shoe.types}, key=r.order, reverse=True):
        ways = sum(n for card, n in zip(shoe.types, shoe.counts, strict=True) if card.rank == rank)
        size = "big" if rank in r.BIG else ("small" if rank in r.SMALL else "—")
        parity = "odd" if rank in r.ODD else ("even" if rank in r.EVEN else "—")
        rows.append((rank.symbol, str(r.order(rank)), size, parity, ways, Fraction(ways, total)))
    rows.append(("Total", "", "", "", total, Fraction(1)))
    return Table(
        key="cards",
        title="Cards (one card from the full shoe)",
        headers=("rank", "order", "big/small", "odd/even", "ways", "probability"),
        rows=tuple(rows),
        note=(
            "The higher order wins (A lowest, K highest); suits never rank. A 7 is neither "
            "big nor small, odd nor even: every big/small and odd/even bet loses on it."
        ),
    )


def rank_label(rank: Rank) -> str:
    """A card's hand class for audits: its rank."""
    return rank.symbol
