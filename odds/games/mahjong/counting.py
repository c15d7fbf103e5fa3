"""How Mahjong 2-8 asks the engine: exact ways per bet and event, then the outcome tables.

One position against the banker is a two-hand problem: the position's two
tiles, then the banker's, with tile removal (by exchangeability the other
positions' unseen tiles change nothing). The engine returns ways per
(position's hand, banker's hand) class pair; every bet is settled from the
same joint, so all outcome tables share one total. The several-positions
table is :mod:`odds.games.mahjong.positions`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from odds.core.numbers import short_number
from odds.core.shoe import Shoe
from odds.core.table import Table
from odds.core.tiles import Tile
from odds.engine import (
    Hand,
    class_distribution,
    deal_count,
    hands,
    joint_class_distribution,
    settle_distribution,
)
from odds.games.events import outcomes
from odds.games.mahjong.options import MahjongConfig
from odds.games.mahjong.positions import pair_results, several_positions
from odds.games.mahjong.report_tables import fair_table, hierarchy_table, positions_table
from odds.games.mahjong.rules import (
    BetRule,
    HandInfo,
    bet_rules,
    check_config,
    hand_infos,
    result,
    strongest_first,
)
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet

if TYPE_CHECKING:
    from odds.games.base import Game


def event_ways(config: MahjongConfig, shoe: Shoe[Tile]) -> dict[str, dict[str, int]]:
    """Exact ways per bet and event key: the position's hand, then the banker's.

    Every bet is counted over the same deals (position and banker), so all
    outcome tables share one total.
    """
    infos = hand_infos(config, shoe)
    # Classes are the hands' positions in ``infos`` (small integers hash fast).
    index = {hand: i for i, hand in enumerate(infos)}
    values = list(infos.values())
    joint = joint_class_distribution(shoe.counts, 2, index.__getitem__)
    results = settle_distribution(
        joint, lambda pb: result(values[pb[0]], values[pb[1]], config.rules)
    )
    return {bet.name: settle_distribution(results, bet.settle) for bet in bet_rules(config)}


def describe(rule: BetRule, config: MahjongConfig) -> str:
    """The bet's sentence in the report: stake, payout, commission, what settles it."""
    p, tie_result = config.payouts, config.rules.tie_result
    less = ""
    if rule.name in p.commission_on and p.commission:
        less = f" less {short_number(p.commission * 100)}% commission"
    pays = f"pays {short_number(rule.payout)}:1{less}"
    if rule.name == "player-wins":
        return f"Stake 1 on the position beating the banker; {pays}; on equal hands: {tie_result}."
    if rule.name == "player-loses":
        return f"Stake 1 on the banker beating the position; {pays}; on equal hands: {tie_result}."
    if rule.name == "tie":
        return f"Stake 1; {pays} when the position and the banker hold identical tiles (rule 5)."
    if rule.name == "pair":
        return f"Stake 1; {pays} when the position holds a pair."
    return (
        "The banker's result against one position staking 1 on Player wins: collects "
        f"1{less} when the banker wins, pays {short_number(p.player_wins)} when the "
        "position wins. A house-banked table keeps this side; a player-banked table "
        "gives it to the player acting as banker."
    )


def bets(
    config: MahjongConfig, rules: tuple[BetRule, ...], ways: Mapping[str, Mapping[str, int]]
) -> tuple[Bet, ...]:
    """Every offered bet with its exact outcome table."""
    return tuple(
        Bet(
            rule.name,
            rule.title,
            describe(rule, config),
            outcomes(rule.events, ways[rule.name]),
            withholding=rule.debited - 1,
        )
        for rule in rules
    )


def hand_classes(shoe: Shoe[Tile], infos: Mapping[Hand, HandInfo]) -> dict[str, int]:
    """Ways per hand-class label of one hand, strongest class first (for the audit)."""
    labels = class_distribution(shoe.counts, 2, lambda h: infos[h].label)
    ordered = [info.label for info in sorted(set(infos.values()), key=strongest_first)]
    return {label: labels[label] for label in dict.fromkeys(ordered) if label in labels}


def counting_text(shoe: Shoe[Tile], deals: int) -> str:
    """The report's "Counting" paragraph: what is dealt, and how many ways."""
    one_hand = deal_count(shoe.counts, (2,))
    return (
        "Unordered hands dealt one after the other with tile removal: a position's "
        f"two tiles, then the banker's, from {shoe.size} tiles: C({shoe.size},2) × "
        f"C({shoe.size - 2},2) = {deals:,} deals; every bet is counted over these "
        f"deals. The hierarchy table counts one hand: C({shoe.size},2) = {one_hand:,}. "
        "Other positions' tiles are unseen, so by exchangeability they change "
        "nothing for one position; the several-positions table deals the banker "
        "and two positions together."
    )


def analyse(game: Game[MahjongConfig], config: MahjongConfig, paytable: str) -> Analysis:
    """The exact analysis of every bet of one paytable, with the hierarchy and positions."""
    shoe = check_config(config)
    rules = bet_rules(config)
    offered = bets(config, rules, event_ways(config, shoe))
    infos = hand_infos(config, shoe)
    tables: list[Table] = [
        hierarchy_table(infos, dict(hands(shoe.counts, 2)), config.rules),
        fair_table(rules, offered),
    ]
    if shoe.size >= 6:  # a banker and two positions can be dealt
        pairs = pair_results(config, shoe)
        k = config.rules.positions
        rows = several_positions(pairs, rules, offered, k)
        tables.append(positions_table(rows, k, sum(pairs.values())))
    deals = deal_count(shoe.counts, (2, 2))
    return game.new_analysis(
        config,
        paytable,
        shoe=shoe.description,
        deals=deals,
        counting=counting_text(shoe, deals),
        bets=offered,
        tables=tuple(tables),
        hand_classes=hand_classes(shoe, infos),
    )
