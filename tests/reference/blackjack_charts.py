"""Small fixed blackjack charts for tests (the report's chart takes seconds to derive)."""

from __future__ import annotations

from odds.games.blackjack.actions import Chart
from odds.games.blackjack.dealer import RANKS, total_of


def simple_chart(surrender: bool) -> Chart:
    """A small chart touching every action: hit below 12 (soft 18), double 10-11, split A and 8,
    surrender 16 against a ten (a short hitting tree keeps the polynomial quick to build)."""
    hit = {}
    for up in range(RANKS):
        for total in range(4, 22):
            for soft in (False, True):
                hit[up, total, soft] = total < (18 if soft else 12)
    first, post = {}, {}
    for up in range(RANKS):
        for a in range(RANKS):
            for b in range(a, RANKS):
                total, soft = total_of(a + b + 2, 0 in (a, b))
                if total == 21:
                    continue
                if a == b and a in (0, 7):
                    action = "P"
                elif total in (10, 11) and not soft:
                    action = "D"
                elif surrender and total == 16 and not soft and up == 9:
                    action = "R"
                else:
                    action = "H" if hit[up, total, soft] else "S"
                first[up, a, b] = action
        for x in range(RANKS):
            for y in range(RANKS):
                total, soft = total_of(x + y + 2, 0 in (x, y))
                fallback = "H" if hit[up, total, soft] and total < 21 else "S"
                post[up, x, y] = ("D" + fallback.lower()) if total in (10, 11) else fallback
    return Chart({}, hit, first, post)
