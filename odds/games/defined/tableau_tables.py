"""A tableau deal's report tables, for any definition with ``[definition.deal.tableau]``.

Three tables, every figure from the definition: the drawing tableau as the definition
gives it (the second position's rows: draw or stand by the first position's third card,
or when it stood), the coups by winner and number of cards dealt, and the distribution
of each position's final total. The coups are the tableau's ordered-deal polynomial
(:func:`odds.games.defined.counting.tableau_polynomial`) evaluated for the shoe: ordered
deals extended to six cards, the convention every tableau bet counts in.

Keys and columns are named after the positions (``banker_total``, ``player_ways``), so
punto banco's definition gives the tables, and the JSON keys, its coded report had.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from odds.core.cards import Card
from odds.core.table import Column, Kind, Table
from odds.games.defined.counting import tableau_polynomial, value_counts, winner_of
from odds.games.defined.schema import Definition, Tableau

#: A finished coup: ``(first points, second points, first cards, second cards)``.
Coup = tuple[int, int, int, int]

#: Cards a coup may take: two each, and up to one more each.
COUP_SIZES = (4, 5, 6)


def coup_ways(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> dict[Coup, int]:
    """Ordered ways (extended to six cards) of every finished coup from ``counts``."""

    tableau = definition.deal.tableau
    assert tableau is not None
    ways = tableau_polynomial(tableau).ways(value_counts(definition, types, counts))
    return {coup: n for coup, n in ways.items() if n}


def tableau_tables(
    definition: Definition, types: Sequence[Card], counts: Sequence[int]
) -> tuple[Table, ...]:
    """The drawing tableau, the coups by winner and cards dealt, and the final totals."""
    coups = coup_ways(definition, types, counts)
    return (
        drawing_table(definition),
        results_table(definition, coups),
        totals_table(definition, coups),
    )


def _title(position: str) -> str:
    return position[:1].upper() + position[1:]


def drawing_table(definition: Definition) -> Table:
    """The second position's rows: draw (D) or stand (S) by the first's third card, or stood."""
    tableau = definition.deal.tableau
    assert tableau is not None
    first, second = definition.deal.positions
    first_title, second_title = _title(first), _title(second)
    rows = []
    for total in open_totals(tableau):
        stood = total in tableau.second_draws_first_stood
        row: dict[str, object] = {
            f"{second}_total": total,
            "stood_mark": "D" if stood else "S",
            f"{first}_stood": stood,
            "draws_on": [x for x in range(10) if tableau.second_draws_on(total, x)],
        }
        for x in range(10):
            row[f"third_{x}"] = "D" if tableau.second_draws_on(total, x) else "S"
        rows.append(row)
    draws = ", ".join(map(str, sorted(tableau.first_draws)))
    stands = ", ".join(str(t) for t in range(10) if t not in tableau.first_draws | tableau.naturals)
    naturals = " and ".join(map(str, sorted(tableau.naturals)))
    natural_text = (
        f"Two-card totals {naturals} are naturals: when either side holds one, no more "
        "cards are dealt. Otherwise the "
        if tableau.naturals
        else "There are no naturals: the "
    )
    return Table(
        key="tableau",
        title="Drawing tableau (as the paytable gives it)",
        columns=(
            Column(f"{second}_total", f"{second_title} total", Kind.WAYS),
            Column("stood_mark", f"{first_title} stood", json=False),
            Column(
                f"{first}_stood", f"draws when the {first_title} stood", Kind.FLAG, markdown=False
            ),
            *(Column(f"third_{x}", f"3rd card {x}", json=False) for x in range(10)),
            Column("draws_on", "draws on third cards", Kind.DATA, markdown=False),
        ),
        rows=tuple(rows),
        note=(
            f"D: the {second_title} draws; S: the {second_title} stands. {natural_text}"
            f"{first_title} draws on {draws or 'nothing'} and stands on {stands or 'nothing'}; "
            f"then the {second_title} acts by its row: the '{first_title} stood' column when the "
            f"{first_title} stood, otherwise the column of the {first_title}'s third card "
            f"(its value{_zero_values(definition)})."
        ),
    )


def open_totals(tableau: Tableau) -> list[int]:
    """The second position's two-card totals on which the deal goes on (not naturals)."""
    return [t for t in range(10) if t not in tableau.naturals]


def _zero_values(definition: Definition) -> str:
    """``: 10, J, Q, K are 0`` — the ranks worth 0, as the note names them."""
    zero = [r.symbol for r, v in definition.shoe.values.items() if v % 10 == 0]
    return f": {', '.join(zero)} are 0" if zero else ""


def winners(definition: Definition) -> list[tuple[str, str]]:
    """``(winner, label)`` in the report's order: the second position, the first, a tie."""
    first, second = definition.deal.positions
    found = [(second, f"{_title(second)} wins"), (first, f"{_title(first)} wins")]
    if definition.ties == "tie":
        found.append(("tie", "Tie"))
    return found


def results_table(definition: Definition, coups: Mapping[Coup, int]) -> Table:
    """Ways of each winner by the number of cards dealt (4, 5 or 6)."""
    total = sum(coups.values())
    merged: Counter[tuple[str, int]] = Counter()
    for coup, ways in coups.items():
        merged[winner_of(definition, coup[0], coup[1]), coup[2] + coup[3]] += ways
    rows: list[dict[str, object]] = []
    for winner, label in winners(definition):
        for cards in COUP_SIZES:
            ways = merged[winner, cards]
            rows.append(_result_row(label, str(cards), ways, total))
        rows.append(_result_row(label, "any", sum(merged[winner, c] for c in COUP_SIZES), total))
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


def _result_row(label: str, cards: str, ways: int, total: int) -> dict[str, Any]:
    return {"result": label, "cards": cards, "ways": ways, "probability": Fraction(ways, total)}


def totals_table(definition: Definition, coups: Mapping[Coup, int]) -> Table:
    """The distribution of each position's final total."""
    first, second = definition.deal.positions
    total = sum(coups.values())
    by: dict[str, Counter[int]] = {first: Counter(), second: Counter()}
    for coup, ways in coups.items():
        by[first][coup[0]] += ways
        by[second][coup[1]] += ways
    rows = []
    for t in range(9, -1, -1):
        row: dict[str, Any] = {"total": t}
        for position in (first, second):
            row[f"{position}_ways"] = by[position][t]
            row[f"{position}_probability"] = Fraction(by[position][t], total)
        rows.append(row)
    columns = [Column("total", "total", Kind.WAYS)]
    summed: dict[str, Any] = {"total": "Total"}
    for position in (first, second):
        columns += [
            Column(f"{position}_ways", f"{_title(position)} ways", Kind.WAYS),
            Column(f"{position}_probability", f"{_title(position)} probability", Kind.PROBABILITY),
        ]
        summed |= {f"{position}_ways": total, f"{position}_probability": Fraction(1)}
    return Table(
        key="final_totals",
        title="Final totals",
        columns=tuple(columns),
        rows=tuple(rows),
        total=summed,
    )
