"""A second, plain implementation of the Mahjong 2-8 rules (docs/rules/mahjong-28.md), for tests.

It shares nothing with ``odds.games.mahjong.rules`` nor with the definition's
counting (``tables/mahjong-28.toml``) except the options it reads — a
paytable's ``tiles``, ``rules`` and ``payouts`` by their names, which the coded game
and the definition share: tiles are plain code strings, the order is spelled out
as nested comparisons, and every bet is settled from the rule book's words.
"""

from __future__ import annotations

from fractions import Fraction


def _value(code, config):
    return Fraction(config.tiles.points[code])


def points(a, b, config):
    return (_value(a, config) + _value(b, config)) % 10


def is_zero_hand(a, b, config):
    """A 0-point *points* hand (not a pair, not a special 2-8)."""
    if a == b:
        return False
    if config.rules.two_eight_special and {a, b} == {"2", "8"}:
        return False
    return points(a, b, config) == 0


def compare(p, b, config):
    """+1 if hand p beats hand b, -1 if it loses, 0 if the two are equal hands."""
    pair_order = list(config.tiles.pair_order)
    single_order = list(config.tiles.single_order)
    p_pair, b_pair = p[0] == p[1], b[0] == b[1]
    if p_pair and b_pair:
        # earlier in pair_order = higher
        if pair_order.index(p[0]) < pair_order.index(b[0]):
            return 1
        if pair_order.index(p[0]) > pair_order.index(b[0]):
            return -1
        return 0
    if p_pair:
        return 1
    if b_pair:
        return -1
    special = config.rules.two_eight_special
    p_kong = special and sorted(p) == ["2", "8"]
    b_kong = special and sorted(b) == ["2", "8"]
    if p_kong and b_kong:
        return 0
    if p_kong:
        return 1
    if b_kong:
        return -1
    pp, bp = points(p[0], p[1], config), points(b[0], b[1], config)
    if pp != bp:
        return 1 if pp > bp else -1
    if pp == 0 and config.rules.zero_points == "equal":
        return 0
    p_sorted = sorted(p, key=single_order.index)
    b_sorted = sorted(b, key=single_order.index)
    for x, y in zip(p_sorted, b_sorted, strict=True):
        if single_order.index(x) < single_order.index(y):
            return 1
        if single_order.index(x) > single_order.index(y):
            return -1
    return 0


def settle(p, b, config):
    """Event key per bet for position hand p against banker hand b (tile code pairs)."""
    rules, pay = config.rules, config.payouts
    c = compare(p, b, config)
    identical = sorted(p) == sorted(b)
    if c > 0:
        showdown = "win"
    elif c < 0:
        showdown = "lose"
    else:
        banker_takes = False
        if identical and rules.exact_tie_to_banker:
            banker_takes = True
        if is_zero_hand(*p, config) and is_zero_hand(*b, config) and rules.zero_tie_to_banker:
            banker_takes = True
        showdown = "tie-banker" if banker_takes else "tie"
    result = {"player-wins": showdown, "player-loses": showdown, "banker": showdown}
    if pay.tie:
        result["tie"] = "identical" if identical else "different"
    if pay.pair:
        result["pair"] = "pair" if p[0] == p[1] else "no-pair"
    return result


def nets(config):
    """Net per unit staked for every (bet, event key), from the rule book's payouts."""
    pay, rules = config.payouts, config.rules
    c = pay.commission
    on = set(pay.commission_on)

    def win(amount, bet):
        return amount - amount * c if bet in on else amount

    tie = Fraction(-1) if rules.tie_result == "lose" else Fraction(0)
    return {
        "player-wins": {
            "win": win(pay.player_wins, "player-wins"),
            "tie": tie,
            "tie-banker": Fraction(-1),
            "lose": Fraction(-1),
        },
        "player-loses": {
            "lose": win(pay.player_loses, "player-loses"),
            "tie-banker": win(pay.player_loses, "player-loses"),
            "tie": tie,
            "win": Fraction(-1),
        },
        "tie": {"identical": win(pay.tie, "tie"), "different": Fraction(-1)},
        "pair": {"pair": win(pay.pair, "pair"), "no-pair": Fraction(-1)},
        "banker": {
            "lose": win(Fraction(1), "banker"),
            "tie-banker": win(Fraction(1), "banker"),
            "tie": win(Fraction(1), "banker") if rules.tie_result == "lose" else Fraction(0),
            "win": -pay.player_wins,
        },
    }
