"""One settled round (``odds settle``) for the terminal and as JSON."""

from __future__ import annotations

import json
from fractions import Fraction

from odds.core.numbers import fraction_text
from odds.core.settlement import Settlement
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


def settlement_json(settlement: Settlement) -> str:
    return (
        json.dumps(
            {
                "hands": [
                    {
                        "position": h.position,
                        "cards": h.cards,
                        "hand": h.description,
                        "hand_class": h.hand_class,
                    }
                    for h in settlement.hands
                ],
                "bets": [
                    {
                        "bet": b.bet,
                        "stake": fraction_text(b.stake),
                        "debited": fraction_text(b.debited),
                        "returned": fraction_text(b.returned),
                        "net": fraction_text(b.net),
                        "event": b.event,
                        "reason": b.reason,
                    }
                    for b in settlement.bets
                ],
                "notes": list(settlement.notes),
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )


def _money(value: Fraction) -> str:
    return fraction_text(value) if value.denominator != 1 else str(value.numerator)


def _signed(value: Fraction) -> str:
    return ("+" if value > 0 else "") + _money(value)
