"""Red Dog counted the plain way, from the rules page alone (docs/rules/red-dog.md).

No project import: a shoe is the number of cards of each rank, a rank given by its place in
the full ace-high order (2 is 0, A is 12; suits never matter), and a round is walked card by
card in dealing order, a card of a rank with ``n`` copies left counting ``n`` ways: the first
card, the second, and the third card whatever happens (a round that stops after two cards,
consecutive ranks, counts every third card it never dealt, as the engine extends it).

The bet, one unit: consecutive ranks push; a pair, then a third card of its rank pays
``trips`` to 1, any other pushes; otherwise the spread is the number of ranks strictly
between the two, the player stands or raises (doubles the stake), and a third card strictly
between wins ``pays[spread]`` to 1 on every unit staked (spreads past the table take its
last entry), any other loses every unit staked. The raise is chosen per pair of first cards
by exact EV: raise only when it is strictly better (the engine takes the first action listed,
stand, on equal EVs).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

#: The common paytable: spread 1 pays 5, 2 pays 4, 3 pays 2, 4 or more 1; trips 11.
PAYS = (5, 4, 2, 1)
TRIPS = 11


def _pay(spread: int, pays: tuple[int, ...]) -> int:
    return pays[min(spread, len(pays)) - 1]


def rounds(
    counts: dict[int, int], pays: tuple[int, ...] = PAYS, trips: int = TRIPS
) -> tuple[Counter[str], dict[tuple[int, int], str]]:
    """Ways per outcome (the definition's outcome names) under the optimal raise, and the
    action taken on each pair of first ranks that is neither a pair nor consecutive."""
    ways: Counter[str] = Counter()
    actions: dict[tuple[int, int], str] = {}
    left = dict(counts)
    for a, na in counts.items():
        if not na:
            continue
        left[a] -= 1
        for b, nb in left.items():
            if not nb:
                continue
            left[b] -= 1
            first = na * nb
            thirds = [(c, n) for c, n in left.items() if n]
            if abs(a - b) == 1:
                ways["consecutive"] += first * sum(n for _, n in thirds)
            elif a == b:
                for c, n in thirds:
                    ways["three-of-a-kind" if c == a else "pair"] += first * n
            else:
                spread = abs(a - b) - 1
                low, high = min(a, b), max(a, b)
                between = sum(n for c, n in thirds if low < c < high)
                outside = sum(n for c, n in thirds if not low < c < high)
                pay = _pay(spread, pays)
                ev_stand = Fraction(pay * between - outside, between + outside)
                raise_ = 2 * ev_stand > ev_stand
                actions[(a, b)] = "raise" if raise_ else "stand"
                tag = min(spread, len(pays))
                prefix = "raise-" if raise_ else ""
                ways[f"{prefix}win-{tag}"] += first * between
                ways[f"{prefix}lose"] += first * outside
            left[b] += 1
        left[a] += 1
    return ways, actions


def net(outcome: str, pays: tuple[int, ...] = PAYS, trips: int = TRIPS) -> tuple[int, int]:
    """(net per initial unit, total staked) of an outcome."""
    if outcome == "three-of-a-kind":
        return trips, 1
    if outcome in ("consecutive", "pair"):
        return 0, 1
    stake = 2 if outcome.startswith("raise-") else 1
    if outcome.endswith("lose"):
        return -stake, stake
    return stake * pays[int(outcome.rsplit("-", 1)[1]) - 1], stake


def figures(
    counts: dict[int, int], pays: tuple[int, ...] = PAYS, trips: int = TRIPS
) -> tuple[Fraction, Fraction]:
    """House edge per initial unit and element of risk (per unit wagered in all)."""
    ways, _ = rounds(counts, pays, trips)
    total = sum(ways.values())
    ev = Fraction(sum(net(o, pays, trips)[0] * n for o, n in ways.items()), total)
    wagered = Fraction(sum(net(o, pays, trips)[1] * n for o, n in ways.items()), total)
    return -ev, -ev / wagered


def full(decks: int) -> dict[int, int]:
    """Every rank, ``4 · decks`` cards each."""
    return dict.fromkeys(range(13), 4 * decks)
