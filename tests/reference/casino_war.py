"""Casino War counted the plain way, from the rules page alone (docs/rules/casino-war.md).

No project import: a shoe is the number of cards of each rank (suits never matter in Casino
War), and a round is walked card by card in dealing order, every card drawn explicitly, a
card of a rank with ``n`` copies left counting ``n`` ways: the player's card, the dealer's,
and on a tie each burned card, then the player's war card and the dealer's. So the ways are
ordered sequences of physical cards, grouped by rank, and a round that stops after the first
two cards counts every sequence of the cards the war would have taken (``(left)_(burn + 2)``).

The Main bet (one unit): the player's card higher wins 1, lower loses 1; on a tie the player
surrenders (loses 1/2) or goes to war (raises 1): the war card at least the dealer's, the
raise wins 1 and the bet pushes (net ``war_win``), a war tie nets ``war_tie`` (1, or 2 with
the bonus), lower loses both (net −2). The Tie bet pays ``tie`` to 1 on a tie of the first
two cards. ``strategy``: ``"war"``, ``"surrender"``, or ``"optimal"`` (per tied rank, the
action of greater exact EV, war on equal EVs).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction


def _walk(counts: dict[int, int], cards: int) -> list[tuple[tuple[int, ...], int]]:
    """Every sequence of ``cards`` ranks drawn one by one, with its ways (card by card)."""
    found: list[tuple[tuple[int, ...], int]] = []

    def step(left: dict[int, int], drawn: tuple[int, ...], ways: int) -> None:
        if len(drawn) == cards:
            found.append((drawn, ways))
            return
        for rank, n in left.items():
            if n:
                left[rank] = n - 1
                step(left, (*drawn, rank), ways * n)
                left[rank] = n

    step(dict(counts), (), 1)
    return found


def main_bet(
    counts: dict[int, int],
    burn: int = 3,
    strategy: str = "optimal",
    war_win: Fraction = Fraction(1),
    war_tie: Fraction = Fraction(1),
) -> tuple[Counter[str], dict[int, str]]:
    """Ways per Main bet outcome, and the action taken on each tied rank.

    ``counts``: cards per rank, the rank's number its strength (higher beats lower).
    """
    size = sum(counts.values())
    nets = {"win": Fraction(1), "lose": Fraction(-1), "surrender": Fraction(-1, 2),
            "war-win": war_win, "war-tie": war_tie, "war-lose": Fraction(-2)}  # fmt: skip
    found: Counter[str] = Counter()
    actions: dict[int, str] = {}
    for (player, dealer), ways in _walk(counts, 2):
        if player != dealer:
            unseen = 1  # the cards the war would have taken, never dealt
            for k in range(burn + 2):
                unseen *= size - 2 - k
            found["win" if player > dealer else "lose"] += ways * unseen
            continue
        left = dict(counts)
        left[player] -= 1
        left[dealer] -= 1
        war: Counter[str] = Counter()
        for drawn, more in _walk(left, burn + 2):
            mine, theirs = drawn[burn], drawn[burn + 1]  # the burned cards are never read
            war["war-win" if mine > theirs else "war-tie" if mine == theirs else "war-lose"] += more
        total = sum(war.values())
        go = sum(nets[k] * n for k, n in war.items()) / total
        action = (
            strategy
            if strategy != "optimal"
            else "war"
            if go >= nets["surrender"]
            else ("surrender")
        )
        actions[player] = action
        if action == "war":
            for k, n in war.items():
                found[k] += ways * n
        else:
            found["surrender"] += ways * total
    return found, actions


def tie_bet(counts: dict[int, int]) -> Counter[str]:
    """Ways per Tie bet outcome over the first two cards."""
    found: Counter[str] = Counter()
    for (player, dealer), ways in _walk(counts, 2):
        found["win" if player == dealer else "lose"] += ways
    return found


def war_law(counts: dict[int, int], first: int, burn: int) -> dict[tuple[int, int], Fraction]:
    """The law of the two war cards after a tie of rank ``first``, the ``burn`` cards drawn
    one by one before them: the same whatever ``burn`` is (a burned card is unseen)."""
    left = dict(counts)
    left[first] -= 2
    found: Counter[tuple[int, int]] = Counter()
    for drawn, ways in _walk(left, burn + 2):
        found[drawn[burn], drawn[burn + 1]] += ways
    total = sum(found.values())
    return {k: Fraction(n, total) for k, n in found.items()}


def figures(
    counts: dict[int, int], strategy: str, war_tie: Fraction = Fraction(1)
) -> tuple[Fraction, Fraction]:
    """House edge per initial unit and element of risk (per unit wagered) of the Main bet."""
    found, _ = main_bet(counts, strategy=strategy, war_tie=war_tie)
    nets = {"win": Fraction(1), "lose": Fraction(-1), "surrender": Fraction(-1, 2),
            "war-win": Fraction(1), "war-tie": war_tie, "war-lose": Fraction(-2)}  # fmt: skip
    wagered = {k: Fraction(2 if k.startswith("war") else 1) for k in nets}
    total = sum(found.values())
    ev = sum(nets[k] * n for k, n in found.items()) / total
    wager = sum(wagered[k] * n for k, n in found.items()) / total
    return -ev, -ev / wager
