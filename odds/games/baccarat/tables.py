"""Baccarat report tables: the tableau as the paytable gives it, and how coups end."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

from odds.analysis import Table
from odds.games.baccarat.rules import Coup, DrawingRules

_WINNERS = (("banker", "Banker wins"), ("player", "Player wins"), ("tie", "Tie"))


def tableau_table(drawing: DrawingRules) -> Table:
    """The Banker's rows: draw (D) or stand (S) by the Player's third card, or when it stood."""
    rows = []
    for total in sorted(drawing.banker_draws):
        cells = ["D" if drawing.banker_draws_on(total, None) else "S"]
        cells += ["D" if drawing.banker_draws_on(total, x) else "S" for x in range(10)]
        rows.append((str(total), *cells))
    player = ", ".join(map(str, sorted(drawing.player_draws)))
    stands = ", ".join(
        str(t) for t in range(10) if t not in drawing.player_draws | drawing.naturals
    )
    naturals = " and ".join(map(str, sorted(drawing.naturals)))
    return Table(
        key="tableau",
        title="Drawing tableau (as the paytable gives it)",
        headers=("Banker total", "Player stood", *(f"3rd card {x}" for x in range(10))),
        rows=tuple(rows),
        note=(
            f"D: the Banker draws; S: the Banker stands. Two-card totals {naturals} are "
            "naturals: when either side holds one, no more cards are dealt. Otherwise the "
            f"Player draws on {player} and stands on {stands or 'nothing'}; then the Banker "
            "acts by its row: the 'Player stood' column when the Player stood, otherwise the "
            "column of the Player's third card (its value: 10, J, Q, K are 0)."
        ),
        json=[
            {
                "banker_total": int(row[0]),
                "player_stood": row[1] == "D",
                "draws_on_third_card": [x for x in range(10) if row[2 + x] == "D"],
            }
            for row in rows
        ],
    )


def results_table(coups: Mapping[Coup, int]) -> Table:
    """Ways of each winner by the number of cards dealt (4, 5 or 6)."""
    total = sum(coups.values())
    merged: Counter[tuple[str, int]] = Counter()
    for coup, ways in coups.items():
        merged[coup.winner, coup.cards] += ways
    rows = []
    for winner, label in _WINNERS:
        for cards in (4, 5, 6):
            ways = merged[winner, cards]
            rows.append((label, str(cards), ways, Fraction(ways, total)))
        subtotal = sum(merged[winner, c] for c in (4, 5, 6))
        rows.append((label, "any", subtotal, Fraction(subtotal, total)))
    rows.append(("Total", "", total, Fraction(1)))
    return Table(
        key="results",
        title="Coups by winner and cards dealt",
        headers=("result", "cards dealt", "ways", "probability"),
        rows=tuple(rows),
        note="Ways are ordered deals extended to six cards (see Counting).",
    )


def totals_table(coups: Mapping[Coup, int]) -> Table:
    """The distribution of each hand's final total (and how often it has three cards)."""
    total = sum(coups.values())
    player: Counter[int] = Counter()
    banker: Counter[int] = Counter()
    for coup, ways in coups.items():
        player[coup.player_total] += ways
        banker[coup.banker_total] += ways
    rows = [
        (str(t), player[t], Fraction(player[t], total), banker[t], Fraction(banker[t], total))
        for t in range(9, -1, -1)
    ]
    rows.append(("Total", total, Fraction(1), total, Fraction(1)))
    return Table(
        key="final_totals",
        title="Final totals",
        headers=("total", "Player ways", "Player probability", "Banker ways", "Banker probability"),
        rows=tuple(rows),
    )
