"""A second, deliberately plain Pok Deng implementation, written from docs/rules/pok-deng.md only.

It shares nothing with the engine or the Pok Deng definition (``tables/pok-deng.toml``): ranks
are ints 1..13, suits letters, values exact decimals. Tests compare the definition against it.
"""

from __future__ import annotations

from fractions import Fraction

FACES = (11, 12, 13)


def card_points(rank: int) -> int:
    return 0 if rank >= 10 else rank


def value(c1: tuple[int, str], c2: tuple[int, str]) -> Fraction:
    """The hand's value: 9, 8, 7.5, 7.4, 7.3, 7.2, 7.1 or its points."""
    (r1, s1), (r2, s2) = c1, c2
    pts = (card_points(r1) + card_points(r2)) % 10
    if pts in (8, 9):
        return Fraction(pts)
    candidates = [Fraction(pts)]
    if s1 == s2 and sorted((r1, r2)) == [1, 13]:
        candidates.append(Fraction("7.5"))
    if r1 == r2 and r1 in (1, 5, 6, 10):
        candidates.append(Fraction("7.4"))
    if r1 in FACES and r2 in FACES:
        candidates.append(Fraction("7.3"))
    if (r1 == 10 and r2 in FACES) or (r2 == 10 and r1 in FACES):
        candidates.append(Fraction("7.2"))
    if s1 == s2 and r1 not in FACES and r2 not in FACES and pts == 0:
        candidates.append(Fraction("7.1"))
    return max(candidates)


def special(c1: tuple[int, str], c2: tuple[int, str]) -> bool:
    v = value(c1, c2)
    return c1[1] == c2[1] or c1[0] == c2[0] or (7 < v < 8)


def player_net(
    banker: tuple[tuple[int, str], tuple[int, str]],
    player: tuple[tuple[int, str], tuple[int, str]],
    raw_total: bool = False,
    override: bool = True,
) -> int:
    """Net result per unit staked of the Player bet."""
    vb, vp = value(*banker), value(*player)
    if vb == vp:
        return 0
    if vb > vp:
        return -2 if special(*banker) else -1
    if not special(*player):
        return 1
    banker_points = (card_points(banker[0][0]) + card_points(banker[1][0])) % 10
    zero_or_six = banker_points in (0, 6) if raw_total else vb in (0, 6)
    if not zero_or_six:
        return 2
    flush_or_pair = player[0][1] == player[1][1] or player[0][0] == player[1][0]
    if override and vp in (8, 9) and flush_or_pair:
        return 2
    return 1


def pair_net(player: tuple[tuple[int, str], tuple[int, str]]) -> int:
    return 11 if player[0][0] == player[1][0] else -1
