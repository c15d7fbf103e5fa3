"""Goa Gae's report tables (beside the Player bet's outcome table every report has).

Each table declares its columns once and holds exact values (ways, ``Fraction``
probabilities); :mod:`odds.output` shows them as Markdown, JSON and CSV. All
of them read the one exact showdown (:class:`~odds.games.goa_gae.counting.ShowdownTable`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.cards import hand_text
from odds.core.table import Column, Kind, Table
from odds.engine import HandShowdown
from odds.games.goa_gae.rules import Ranking, points_label

if TYPE_CHECKING:
    from odds.games.goa_gae.counting import ShowdownTable


def category_table(table: ShowdownTable, hand_ways: int) -> Table:
    """Ways per category of one three-card hand, strongest first under the readings used."""
    ways: dict[str, int] = {}
    for row in table.rows:
        key = table.hand(row).category
        ways[key] = ways.get(key, 0) + row.ways
    rows = tuple(
        {
            "name": category.name,
            "key": category.key,
            "ways": ways.get(category.key, 0),
            "probability": Fraction(ways.get(category.key, 0), hand_ways),
        }
        for category in reversed(table.ranking.order)
    )
    return Table(
        key="hand_categories",
        title="Hand categories (one three-card hand)",
        columns=(
            Column("name", "category"),
            Column("key", "key", markdown=False),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=rows,
        total={"name": "Total", "ways": hand_ways, "probability": Fraction(1)},
        note="Strongest first under the readings used. A hand belongs to the highest "
        "category it qualifies for.",
    )


#: The hand-order table's columns; their keys are the JSON keys reports have always had.
_ORDER_CATEGORY = "category"
_ORDER_RULE = "qualifies, and the tie-break within it"


def order_table(ranking: Ranking) -> Table:
    """The categories strongest first, each with who qualifies and its tie-break."""
    return Table(
        key="hand_order",
        title="Hand order used (strongest first)",
        columns=(Column(_ORDER_CATEGORY, "category"), Column(_ORDER_RULE, _ORDER_RULE)),
        rows=tuple(
            {_ORDER_CATEGORY: c.name, _ORDER_RULE: c.description} for c in reversed(ranking.order)
        ),
        note="With several decks, identical top cards compare the next card, and so on; "
        "identical hands tie.",
    )


def showdown_table(table: ShowdownTable) -> Table:
    """Win, tie and lose ways (and their shares) by the player's category, with a total."""
    merged: dict[str, list[int]] = {}
    for row in table.rows:
        acc = merged.setdefault(table.hand(row).category, [0, 0, 0])
        acc[0] += row.ways * row.weaker
        acc[1] += row.ways * row.equal
        acc[2] += row.ways * row.stronger
    rows = []
    totals = [0, 0, 0]
    for category in reversed(table.ranking.order):
        win, tie, lose = merged.get(category.key, [0, 0, 0])
        totals = [totals[0] + win, totals[1] + tie, totals[2] + lose]
        rows.append(_showdown_row(category.name, win, tie, lose))
    return Table(
        key="showdown",
        title="Showdown: one position against the dealer, by the player's category",
        columns=(
            Column("name", "player's category"),
            Column("win_ways", "win ways", Kind.WAYS),
            Column("tie_ways", "tie ways", Kind.WAYS),
            Column("lose_ways", "lose ways", Kind.WAYS),
            Column("win", "win", Kind.PROBABILITY),
            Column("tie", "tie", Kind.PROBABILITY),
            Column("lose", "lose", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total=_showdown_row("Total", *totals),
        json_total=True,
        note="Ways count (player hand, dealer hand) deals; win, tie and lose are conditional "
        "on the player holding that category (the Total row: over all deals). The player wins "
        "exactly as often as the dealer does: the two hands are dealt alike.",
    )


def _showdown_row(name: str, win: int, tie: int, lose: int) -> dict[str, Any]:
    """One category's ways; its shares only when it occurs (no 0/0)."""
    row: dict[str, Any] = {"name": name, "win_ways": win, "tie_ways": tie, "lose_ways": lose}
    total = win + tie + lose
    if total:
        for key, n in (("win", win), ("tie", tie), ("lose", lose)):
            row[key] = Fraction(n, total)
    return row


def strength_table(table: ShowdownTable) -> Table:
    """Per hand class: ways, exact P(beat one dealer hand), the weakest and strongest hands."""
    groups = _class_groups(table)
    rows = tuple(_strength_row(table, label, groups[label]) for label in groups)
    return Table(
        key="hand_strength",
        title="Hand strength: the exact chance of beating one dealer hand",
        columns=(
            Column("name", "hand class"),
            Column("ways", "ways", Kind.WAYS),
            Column("win", "P(win)", Kind.PROBABILITY),
            Column("tie", "P(tie)", Kind.PROBABILITY),
            Column("lose", "P(lose)", Kind.PROBABILITY, markdown=False),
            Column("weakest.hand", "weakest hand"),
            Column("weakest.win", "its P(win)", Kind.PROBABILITY),
            Column("strongest.hand", "strongest hand"),
            Column("strongest.win", "its P(win)", Kind.PROBABILITY),
        ),
        rows=rows,
        total={"name": "Total", "ways": sum(r.ways for r in table.rows)},
        note="P(win) and P(tie) average over the class's hands, the dealer's hand drawn from "
        "what the player's left. The weakest and strongest hands are the class's lowest and "
        "highest strength keys (one of them when several share it). `odds strength goa-gae "
        '"As Ks 8s"` gives any one hand.',
    )


def _class_groups(table: ShowdownTable) -> dict[str, list[HandShowdown]]:
    """The showdown rows per hand class (weakest hand first), strongest class first.

    Classes are the special categories and ``N points``; they are ordered by
    their strongest hand, so a reading that reorders categories reorders them.
    """
    groups: dict[str, list[HandShowdown]] = {}
    for row in table.rows:
        groups.setdefault(table.hand(row).label, []).append(row)
    labels = [c.name for c in reversed(table.ranking.order) if c.key != "points"]
    labels += [points_label(p) for p in range(9, -1, -1)]
    labels = [label for label in labels if label in groups]
    labels.sort(key=lambda label: table.hand(groups[label][-1]).strength, reverse=True)
    return {label: groups[label] for label in labels}


def _strength_row(table: ShowdownTable, label: str, rows: list[HandShowdown]) -> dict[str, Any]:
    """One hand class's row of the hand-strength table (``rows`` weakest first)."""
    deals = sum(r.ways * (r.weaker + r.equal + r.stronger) for r in rows)
    win = sum(r.ways * r.weaker for r in rows)
    tie = sum(r.ways * r.equal for r in rows)
    weakest, strongest = rows[0], rows[-1]
    return {
        "name": label,
        "ways": sum(r.ways for r in rows),
        "win": Fraction(win, deals),
        "tie": Fraction(tie, deals),
        "lose": Fraction(deals - win - tie, deals),
        "weakest.hand": hand_text(table.cards(weakest.hand)),
        "weakest.win": _beat(weakest),
        "strongest.hand": hand_text(table.cards(strongest.hand)),
        "strongest.win": _beat(strongest),
    }


def _beat(row: HandShowdown) -> Fraction:
    """One hand's exact chance of beating one dealer hand."""
    return Fraction(row.weaker, row.weaker + row.equal + row.stronger)
