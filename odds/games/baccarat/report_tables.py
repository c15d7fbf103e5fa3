"""Baccarat's report tables: the tableau as the paytable gives it, and how coups end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

from odds.core.table import Column, Kind, Table
from odds.games.baccarat.rules import Coup, DrawingRules

_WINNERS = (("banker", "Banker wins"), ("player", "Player wins"), ("tie", "Tie"))


def tableau_table(drawing: DrawingRules) -> Table:
    """The Banker's rows: draw (D) or stand (S) by the Player's third card, or when it stood."""
    rows = []
    for total in sorted(drawing.banker_draws):
        row: dict[str, object] = {
            "banker_total": total,
            "stood_mark": "D" if drawing.banker_draws_on(total, None) else "S",
            "player_stood": drawing.banker_draws_on(total, None),
            "draws_on": [x for x in range(10) if drawing.banker_draws_on(total, x)],
        }
        for x in range(10):
            row[f"third_{x}"] = "D" if drawing.banker_draws_on(total, x) else "S"
        rows.append(row)
    player = ", ".join(map(str, sorted(drawing.player_draws)))
    stands = ", ".join(
        str(t) for t in range(10) if t not in drawing.player_draws | drawing.naturals
    )
    naturals = " and ".join(map(str, sorted(drawing.naturals)))
    return Table(
        key="tableau",
        title="Drawing tableau (as the paytable gives it)",
        columns=(
            Column("banker_total", "Banker total", Kind.WAYS),
            Column("stood_mark", "Player stood", json=False),
            Column("player_stood", "draws when the Player stood", Kind.FLAG, markdown=False),
            *(Column(f"third_{x}", f"3rd card {x}", json=False) for x in range(10)),
            Column("draws_on", "draws on third cards", Kind.DATA, markdown=False),
        ),
        rows=tuple(rows),
        note=(
            f"D: the Banker draws; S: the Banker stands. Two-card totals {naturals} are "
            "naturals: when either side holds one, no more cards are dealt. Otherwise the "
            f"Player draws on {player} and stands on {stands or 'nothing'}; then the Banker "
            "acts by its row: the 'Player stood' column when the Player stood, otherwise the "
            "column of the Player's third card (its value: 10, J, Q, K are 0)."
        ),
    )


def results_table(coups: Mapping[Coup, int]) -> Table:
    """Ways of each winner by the number of cards dealt (4, 5 or 6)."""
    total = sum(coups.values())
    merged: Counter[tuple[str, int]] = Counter()
    for coup, ways in coups.items():
        merged[coup.winner, coup.cards] += ways
    rows: list[dict[str, object]] = []
    for winner, label in _WINNERS:
        for cards in (4, 5, 6):
            ways = merged[winner, cards]
            rows.append(
                {
                    "result": label,
                    "cards": str(cards),
                    "ways": ways,
                    "probability": Fraction(ways, total),
                }
            )
        subtotal = sum(merged[winner, c] for c in (4, 5, 6))
        rows.append(
            {
                "result": label,
                "cards": "any",
                "ways": subtotal,
                "probability": Fraction(subtotal, total),
            }
        )
    return Table(
        key="results",
        title="Coups by winner and cards dealt",
        columns=(
            Column("result", "result"),
            Column("cards", "cards dealt"),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"result": "Total", "ways": total, "probability": Fraction(1)},
        note="Ways are ordered deals extended to six cards (see Counting).",
    )


def totals_table(coups: Mapping[Coup, int]) -> Table:
    """The distribution of each hand's final total."""
    total = sum(coups.values())
    player: Counter[int] = Counter()
    banker: Counter[int] = Counter()
    for coup, ways in coups.items():
        player[coup.player_total] += ways
        banker[coup.banker_total] += ways
    rows = tuple(
        {
            "total": t,
            "player_ways": player[t],
            "player_probability": Fraction(player[t], total),
            "banker_ways": banker[t],
            "banker_probability": Fraction(banker[t], total),
        }
        for t in range(9, -1, -1)
    )
    return Table(
        key="final_totals",
        title="Final totals",
        columns=(
            Column("total", "total", Kind.WAYS),
            Column("player_ways", "Player ways", Kind.WAYS),
            Column("player_probability", "Player probability", Kind.PROBABILITY),
            Column("banker_ways", "Banker ways", Kind.WAYS),
            Column("banker_probability", "Banker probability", Kind.PROBABILITY),
        ),
        rows=rows,
        total={
            "total": "Total",
            "player_ways": total,
            "player_probability": Fraction(1),
            "banker_ways": total,
            "banker_probability": Fraction(1),
        },
    )
