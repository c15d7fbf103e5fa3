"""Dragon Tiger's report table: the cards' ranking and what each side bet counts."""

from __future__ import annotations

from fractions import Fraction

from odds.core.cards import Card, Rank
from odds.core.shoe import Shoe
from odds.core.table import Column, Kind, Table
from odds.games.dragon_tiger import rules as r


def card_table(shoe: Shoe[Card]) -> Table:
    """Every rank: its place in the ranking, its big/small and odd/even class, its chance."""
    total = shoe.size
    rows = []
    for rank in sorted({card.rank for card in shoe.types}, key=r.order, reverse=True):
        ways = sum(n for card, n in zip(shoe.types, shoe.counts, strict=True) if card.rank == rank)
        rows.append(
            {
                "rank": rank.symbol,
                "order": r.order(rank),
                "size": "big" if rank in r.BIG else ("small" if rank in r.SMALL else "—"),
                "parity": "odd" if rank in r.ODD else ("even" if rank in r.EVEN else "—"),
                "ways": ways,
                "probability": Fraction(ways, total),
            }
        )
    return Table(
        key="cards",
        title="Cards (one card from the full shoe)",
        columns=(
            Column("rank", "rank"),
            Column("order", "order", Kind.WAYS),
            Column("size", "big/small"),
            Column("parity", "odd/even"),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"rank": "Total", "ways": total, "probability": Fraction(1)},
        note=(
            "The higher order wins (A lowest, K highest); suits never rank. A 7 is neither "
            "big nor small, odd nor even: every big/small and odd/even bet loses on it."
        ),
    )


def rank_label(rank: Rank) -> str:
    """A card's hand class for audits: its rank."""
    return rank.symbol
