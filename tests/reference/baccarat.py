"""A second, deliberately plain baccarat, written from the standard rules only.

It shares nothing with the engine or the baccarat definition (``tables/baccarat.toml``): the
tableau is the standard one written out as ``if`` statements (not the paytable's data), cards
are plain ``(rank, suit)`` pairs with ranks 1..13, and every bet is settled from the totals in
a few lines. Tests compare the game (engine, settle, brute force) against it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction


def value(rank: int) -> int:
    return 0 if rank >= 10 else rank


def banker_draws(banker: int, third: int | None) -> bool:
    """The standard tableau, as the rule is usually printed."""
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return third != 8
    if banker == 4:
        return 2 <= third <= 7
    if banker == 5:
        return 4 <= third <= 7
    if banker == 6:
        return third in (6, 7)
    return False


def coup(draw: Callable[[], int]) -> tuple[list[int], list[int]]:
    """Deal one coup of card values (0-9) in order P, B, P, B, [P], [B]."""
    p1, b1, p2, b2 = draw(), draw(), draw(), draw()
    player, banker = [p1, p2], [b1, b2]
    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
    if pt >= 8 or bt >= 8:
        return player, banker
    third = None
    if pt <= 5:
        third = draw()
        player.append(third)
    if banker_draws(bt, third):
        banker.append(draw())
    return player, banker


def summary(player: list[int], banker: list[int]) -> tuple[int, int, int, int]:
    """Totals and numbers of cards: all the coup bets look at."""
    return sum(player) % 10, sum(banker) % 10, len(player), len(banker)


def nets(pt: int, bt: int, pn: int, bn: int) -> dict[str, Fraction]:
    """Net result per unit of every coup bet, default payouts, commission Banker bet."""
    p_nat = pn == 2 and pt >= 8
    b_nat = bn == 2 and bt >= 8
    result: dict[str, Fraction] = {}
    if pt > bt:
        result["banker"], result["player"] = Fraction(-1), Fraction(1)
    elif bt > pt:
        result["banker"], result["player"] = Fraction(19, 20), Fraction(-1)
    else:
        result["banker"] = result["player"] = Fraction(0)
    result["tie"] = Fraction(8) if pt == bt else Fraction(-1)
    result["dragon-7"] = Fraction(40) if bt > pt and bt == 7 and bn == 3 else Fraction(-1)
    result["panda-8"] = Fraction(25) if pt > bt and pt == 8 and pn == 3 else Fraction(-1)
    scale = {9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1}
    for side, mine, theirs, natural in (
        ("player", pt, bt, p_nat),
        ("banker", bt, pt, b_nat),
    ):
        if mine == theirs:
            net = Fraction(0) if natural else Fraction(-1)
        elif mine < theirs:
            net = Fraction(-1)
        elif natural:
            net = Fraction(1)
        else:
            net = Fraction(scale.get(mine - theirs, -1))
        result[f"dragon-bonus-{side}"] = net
    # Super 6 at 12:1 with two or three cards.
    result["super-6"] = Fraction(12) if bt > pt and bt == 6 else Fraction(-1)
    cards = pn + bn
    result["big"] = Fraction(54, 100) if cards >= 5 else Fraction(-1)
    result["small"] = Fraction(3, 2) if cards == 4 else Fraction(-1)
    return result


def pair_nets(
    player: tuple[tuple[int, int], tuple[int, int]],
    banker: tuple[tuple[int, int], tuple[int, int]],
) -> dict[str, Fraction]:
    """The pair bets from the first two cards of each hand, as (rank, suit) pairs."""
    p, b = player[0][0] == player[1][0], banker[0][0] == banker[1][0]
    pp, bp = player[0] == player[1], banker[0] == banker[1]
    return {
        "player-pair": Fraction(11) if p else Fraction(-1),
        "banker-pair": Fraction(11) if b else Fraction(-1),
        "either-pair": Fraction(5) if p or b else Fraction(-1),
        "perfect-pair": Fraction(25) if pp or bp else Fraction(-1),
    }


def drawn_nets(player: list[int], banker: list[int]) -> dict[str, Fraction]:
    """The side bets that read the cards the drawing dealt, from the coup's card values in
    dealing order (``coup``'s lists), at their published pays:

    * Low / High Tie Max: a tie whose highest card (of the four to six dealt) is 0-5 pays
      55 to 1, 6-9 pays 10 to 1 (Wizard of Odds, "Tie Max");
    * 3 Giving 8: the Banker's first two cards total 3 and the Player's third card is an 8,
      200 to 1 (Wizard of Odds, "3 Giving 8").
    """
    tie = sum(player) % 10 == sum(banker) % 10
    highest = max(player + banker)
    banker_two = (banker[0] + banker[1]) % 10
    player_third = player[2] if len(player) == 3 else None
    return {
        "low-tie-max": _PAYS[55] if tie and highest <= 5 else _PAYS[-1],
        "high-tie-max": _PAYS[10] if tie and highest >= 6 else _PAYS[-1],
        "3-giving-8": _PAYS[200] if banker_two == 3 and player_third == 8 else _PAYS[-1],
    }


#: The drawn-card bets' nets, made once (:func:`drawn_nets` settles every coup of eight
#: decks, 339,400 of them).
_PAYS = {n: Fraction(n) for n in (55, 10, 200, -1)}


def value_coups(counts: list[int]) -> dict[tuple[tuple[int, ...], tuple[int, ...]], int]:
    """Every coup of a shoe given as copies per value (``counts[v]``: cards of value v), as
    ``(player values, banker values)`` -> ordered ways, each deal extended by the next unseen
    cards to six (the published convention: the ways add up to N·(N-1)…(N-5)).

    Card by card with removal: a plain recursion over the values, no polynomial."""
    size = sum(counts)
    found: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

    def walk(dealt: list[int], ways: int, left: list[int]) -> None:
        # Replay the coup on the values dealt so far: finished, or one card short.
        values = iter(dealt)
        short = False

        def draw() -> int:
            nonlocal short
            try:
                return next(values)
            except StopIteration:
                short = True
                return 0

        player, banker = coup(draw)
        if not short:
            used = len(player) + len(banker)
            if used == len(dealt):
                rest = 1
                for k in range(6 - used):
                    rest *= size - used - k
                key = (tuple(player), tuple(banker))
                found[key] = found.get(key, 0) + ways * rest
                return
        for v in range(10):
            if left[v]:
                left[v] -= 1
                walk([*dealt, v], ways * (left[v] + 1), left)
                left[v] += 1

    walk([], 1, list(counts))
    return found


PlainCard = tuple[int, int]  # (rank 1..13, suit 0..3)


def threshold(limits: tuple[int, ...]) -> Callable[[Callable[[], int]], tuple[list[int], ...]]:
    """A threshold draw written plainly: each hand two cards, then one more on ``limits[i]``
    points or fewer (values as baccarat's: 10 and faces 0)."""

    def deal(draw: Callable[[], int]) -> tuple[list[int], ...]:
        hands = [[draw(), draw()] for _ in limits]
        for hand, limit in zip(hands, limits, strict=True):
            if sum(hand) % 10 <= limit:
                hand.append(draw())
        return tuple(hands)

    return deal


def dealt_card_moments(
    composition: dict[PlainCard, int],
    deal: Callable[[Callable[[], int]], tuple[list[int], ...]] = coup,
) -> tuple[dict[PlainCard, Fraction], dict[tuple[PlainCard, PlainCard], Fraction]]:
    """The exact mean and covariance of each card's count among the cards one round deals
    from ``composition`` (``(rank, suit)`` -> copies), enumerating every ordered deal of cards
    (not values) with the drawing rule of ``deal`` (:func:`coup`, baccarat's, or a
    :func:`threshold` draw; it asks ``draw()`` for each card's value): a sequence of ``k``
    cards is dealt in ``∏ copies left`` of the ``N (N-1) … (N-k+1)`` orders of ``k`` cards.
    Checks that the deals' probabilities add up to 1. No polynomial and no split into
    values: the ranks and suits are dealt as cards."""
    cards = sorted(composition)
    size = sum(composition.values())
    # Per number of cards dealt: the ways, and their sums of each count and product of counts.
    mass: dict[int, int] = {}
    first: dict[tuple[int, tuple[int, int]], int] = {}
    second: dict[tuple[int, tuple[int, int], tuple[int, int]], int] = {}

    def walk(dealt: list[tuple[int, int]], ways: int, left: dict[tuple[int, int], int]) -> None:
        values = iter(value(rank) for rank, _ in dealt)
        short = False

        def draw() -> int:
            nonlocal short
            try:
                return next(values)
            except StopIteration:
                short = True
                return 0

        hands = deal(draw)
        k = len(dealt)
        if not short and sum(len(hand) for hand in hands) == k:
            mass[k] = mass.get(k, 0) + ways
            held: dict[tuple[int, int], int] = {}
            for card in dealt:
                held[card] = held.get(card, 0) + 1
            for a, m in held.items():
                first[k, a] = first.get((k, a), 0) + ways * m
                for b, n in held.items():
                    second[k, a, b] = second.get((k, a, b), 0) + ways * m * n
            return
        for card in cards:
            copies = left[card]
            if copies:
                left[card] -= 1
                walk([*dealt, card], ways * copies, left)
                left[card] += 1

    walk([], 1, dict(composition))

    def orders(k: int) -> int:
        result = 1
        for i in range(k):
            result *= size - i
        return result

    assert sum(Fraction(w, orders(k)) for k, w in mass.items()) == 1
    mean = {
        a: sum((Fraction(first.get((k, a), 0), orders(k)) for k in mass), Fraction(0))
        for a in cards
    }
    covariance = {
        (a, b): sum((Fraction(second.get((k, a, b), 0), orders(k)) for k in mass), Fraction(0))
        - mean[a] * mean[b]
        for a in cards
        for b in cards
    }
    return mean, covariance
