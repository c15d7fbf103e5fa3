"""One settled round (``odds settle``) for the terminal, and as the tables its JSON is."""

from __future__ import annotations

from fractions import Fraction

from odds.core.numbers import short_number
from odds.core.settlement import Settlement
from odds.core.table import Column, Kind, Table, fields_table, objects_table
from odds.output.markdown import markdown_table


def settlement_text(settlement: Settlement) -> str:
    """A settled round for the terminal."""
    hands = markdown_table(
        ("position", "cards", "hand"),
        [(h.position, h.cards, h.description) for h in settlement.hands],
        2,
    )
    rows = [
        (b.bet, _money(b.stake), _money(b.debited), _money(b.returned), _signed(b.net), b.reason)
        for b in settlement.bets
    ]
    bets = markdown_table(("bet", "stake", "debited", "returned", "net", "why"), rows, 2)
    notes = "".join(f"\n{n}" for n in settlement.notes)
    return f"{hands}\n\n{bets}\n{notes}"


def settlement_tables(settlement: Settlement) -> list[Table]:
    """The round as tables: the hands, every bet (exact money), then the notes.

    ``odds settle --format json`` is these tables (:mod:`odds.output.json_document`).
    """
    hands = objects_table(
        "hands",
        "Hands",
        settlement.hands,
        [
            Column("position", "position"),
            Column("cards", "cards"),
            (Column("hand", "hand"), "description"),
            Column("hand_class", "hand class", json_null=True),
        ],
    )
    money = [Column(key, key, Kind.EXACT) for key in ("stake", "debited", "returned", "net")]
    bets = objects_table(
        "bets",
        "Bets",
        settlement.bets,
        [Column("bet", "bet"), *money, Column("event", "event"), Column("reason", "why")],
    )
    notes = fields_table(
        "notes", "Notes", [(Column("notes", "notes", Kind.LIST), list(settlement.notes))]
    )
    return [hands, bets, notes]


def _money(value: Fraction) -> str:
    """An amount as people write it: ``1.2``, ``2.4``, ``100``; a fraction only when no
    decimal ends (``1/3``). JSON keeps the exact fraction."""
    return short_number(value)


def _signed(value: Fraction) -> str:
    return ("+" if value > 0 else "") + _money(value)
