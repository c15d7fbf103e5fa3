"""How Pok Deng asks the engine: exact ways per bet and event, then the outcome tables.

One position against the Banker is a two-hand problem (by exchangeability the
other positions' unseen cards change nothing): the player's two cards, then
the Banker's, with card removal. The engine returns ways per (player class,
banker class) without the all-pairs loop, using the 24 suit permutations (the
rules ask only whether suits are equal; the engine checks the classifier
respects them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from odds.core.cards import Card, suit_symmetries
from odds.core.shoe import Shoe
from odds.core.table import Table
from odds.engine import (
    Hand,
    class_distribution,
    deal_count,
    joint_class_distribution,
    settle_distribution,
)
from odds.games.events import outcomes
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.positions import whole_table as table_analysis
from odds.games.pok_deng.report_tables import hand_class_table, whole_table_tables, withheld
from odds.games.pok_deng.rules import (
    PokDengHand,
    class_label,
    classify,
    pair_events,
    player_events,
    settle_pair,
    settle_player,
)
from odds.games.pok_deng.table_hands import TABLE_CARDS
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet

if TYPE_CHECKING:
    from odds.games.base import Game

#: Cards one round needs for the analysis: the player's two and the Banker's two.
DEAL_CARDS = 4


def event_ways(config: PokDengConfig, shoe: Shoe[Card]) -> dict[str, dict[str, int]]:
    """Exact ways per bet and event, one position against the Banker.

    The player's hand is the first of two hands dealt from the shoe; by
    exchangeability this is every position's view.
    """
    types = shoe.types
    classes: dict[Hand, PokDengHand] = {}

    def hand_class(hand: Hand) -> PokDengHand:
        found = classes.get(hand)
        if found is None:
            found = classes[hand] = classify(types[hand[0]], types[hand[1]])
        return found

    joint = joint_class_distribution(shoe.counts, 2, hand_class, suit_symmetries(types))
    player: dict[str, int] = settle_distribution(
        joint, lambda pb: settle_player(pb[0], pb[1], config.rules)
    )
    pair: dict[str, int] = class_distribution(
        shoe.counts, 2, lambda h: settle_pair((types[h[0]], types[h[1]]))
    )
    return {"player": player, "player-pair": pair}


def hand_classes(shoe: Shoe[Card]) -> dict[PokDengHand, int]:
    """Ways per hand class of one two-card hand."""
    types = shoe.types
    return class_distribution(shoe.counts, 2, lambda h: classify(types[h[0]], types[h[1]]))


def bets(config: PokDengConfig, ways: dict[str, dict[str, int]]) -> tuple[Bet, Bet]:
    """The Player and Player Pair bets with their exact outcome tables."""
    payouts = config.payouts
    return (
        Bet(
            "player",
            "Player N",
            f"Stake 1 with {withheld(payouts.player_withholding)}; one position against the "
            "Banker.",
            outcomes(player_events(payouts), ways["player"]),
            withholding=payouts.player_withholding,
        ),
        Bet(
            "player-pair",
            "Player N Pair",
            f"Stake 1, nothing withheld; pays {payouts.pair}:1 when the position's two "
            "cards have the same rank.",
            outcomes(pair_events(payouts), ways["player-pair"]),
        ),
    )


def analyse(
    game: Game[PokDengConfig], config: PokDengConfig, paytable: str, whole_table: bool = True
) -> Analysis:
    """The exact analysis of every bet of one paytable; ``whole_table=False`` leaves the
    whole-table section out (its tables and note: no bet needs them)."""
    shoe = config.shoe.build()
    shoe.require(DEAL_CARDS)
    deals = deal_count(shoe.counts, (2, 2))
    classes = hand_classes(shoe)
    by_label: dict[str, int] = {}
    for hand, count in sorted(classes.items(), reverse=True):
        by_label[class_label(hand)] = by_label.get(class_label(hand), 0) + count
    tables: tuple[Table, ...] = (hand_class_table(classes, config.payouts),)
    notes: tuple[str, ...] = ()
    if whole_table and shoe.size >= TABLE_CARDS:
        tables += whole_table_tables(table_analysis(config))
    elif whole_table:
        notes = (
            f"Whole table: not analysed; the shoe has {shoe.size} cards and the Banker "
            f"with five positions needs {TABLE_CARDS}.",
        )
    return game.new_analysis(
        config,
        paytable,
        shoe=f"{shoe.description} ({shoe.size} cards)",
        deals=deals,
        counting=(
            "Unordered hands, dealt one after the other with card removal: the player's "
            f"two cards, then the Banker's, from {shoe.size} cards: C({shoe.size},2) × "
            f"C({shoe.size - 2},2) = {deals:,} deals. The Pair bet counts the player's "
            f"hand alone: C({shoe.size},2) = {deal_count(shoe.counts, (2,)):,} hands. "
            "Other positions' cards are unseen, so by exchangeability they change "
            "nothing. The whole-table section deals the Banker and two positions "
            "together (three hands), and counts pairs over five hands."
        ),
        bets=bets(config, event_ways(config, shoe)),
        tables=tables,
        notes=notes,
        hand_classes=by_label,
    )
