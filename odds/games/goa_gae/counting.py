"""How Goa Gae asks the engine: the exact showdown per player hand, then the Player bet.

One position against the dealer is a two-hand problem (by exchangeability the
other positions' unseen cards change nothing): the player's three cards, then
the dealer's, with card removal. :func:`odds.engine.showdown` gives, for every
player hand, the dealer's weaker, equal and stronger ways without the
all-pairs loop; no suit symmetry is used, because the tie-breaks compare suits.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.engine import Hand, HandShowdown, StrengthIndex, deal_count, showdown
from odds.games.events import outcomes
from odds.games.goa_gae.options import GoaGaeConfig
from odds.games.goa_gae.report_tables import (
    category_table,
    order_table,
    showdown_table,
    strength_table,
)
from odds.games.goa_gae.rules import (
    HAND_SIZE,
    GoaGaeEvent,
    GoaGaeHand,
    Ranking,
    StrengthKey,
    category_named,
    player_events,
)
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet

if TYPE_CHECKING:
    from odds.games.base import Game

#: Cards one round needs for the analysis: the player's three and the dealer's three.
DEAL_CARDS = 2 * HAND_SIZE


@dataclass(frozen=True)
class ShowdownTable:
    """The exact showdown of one position against the dealer, per player hand.

    ``rows`` come from :func:`odds.engine.showdown`, weakest hand first;
    ``index`` maps a row's rank back to its strength key, ``ranking`` the key
    to its category.
    """

    shoe: Shoe[Card]
    ranking: Ranking
    index: StrengthIndex
    rows: list[HandShowdown]

    def cards(self, hand: Hand) -> tuple[Card, ...]:
        """The cards of a hand of shoe types."""
        return tuple(self.shoe.types[t] for t in hand)

    def hand(self, row: HandShowdown) -> GoaGaeHand:
        """The ranked player hand of a row."""
        return self.ranking.hand(self.index.keys[row.rank])


def compute_showdown(config: GoaGaeConfig, shoe: Shoe[Card], cuts: bool = False) -> ShowdownTable:
    """Every player hand's win/tie/lose ways against one dealer hand from what it left.

    With ``cuts`` each row also counts the dealer's hands at or above each
    category's lowest key (what :func:`event_ways` needs to split losses by
    the dealer's category).
    """
    ranking = Ranking(config.rules)
    types = shoe.types

    def strength(hand: Hand) -> StrengthKey:
        return ranking.strength([types[t] for t in hand])

    index = StrengthIndex(shoe.counts, HAND_SIZE, strength)
    rows = showdown(
        shoe.counts, HAND_SIZE, strength, ranking.category_cuts() if cuts else (), index=index
    )
    return ShowdownTable(shoe, ranking, index, rows)


def event_ways(config: GoaGaeConfig, table: ShowdownTable) -> dict[str, int]:
    """The Player bet's ways per event, from the per-hand showdown.

    Wins are keyed by the player's category. A loss keyed by the dealer's
    category needs the dealer's stronger hands split into categories: the
    showdown's cuts at each category's lowest key give them.
    """
    payouts = config.payouts
    ranking = table.ranking
    split_losses = payouts.dealer_bonus_costs_player and bool(payouts.bonus)
    ways: dict[str, int] = {}

    def add(key: str, n: int) -> None:
        ways[key] = ways.get(key, 0) + n

    n_categories = len(ranking.order)
    for row in table.rows:
        hand = table.hand(row)
        add(
            GoaGaeEvent.win_with(hand.category)
            if hand.category in payouts.bonus
            else GoaGaeEvent.WIN,
            row.ways * row.weaker,
        )
        add(GoaGaeEvent.PUSH, row.ways * row.equal)
        if not split_losses:
            add(GoaGaeEvent.LOSE, row.ways * row.stronger)
            continue
        # at_least[i - 1]: dealer hands in category position ≥ i.
        at_least = (*row.at_least, 0)
        mine = ranking.position[hand.category]
        for i in range(mine, n_categories):
            above_next = at_least[i]  # category position ≥ i + 1
            band = row.stronger - above_next if i == mine else at_least[i - 1] - above_next
            key = ranking.order[i].key
            add(
                GoaGaeEvent.loss_to(key) if key in payouts.bonus else GoaGaeEvent.LOSE,
                row.ways * band,
            )
    return ways


def bet_description(config: GoaGaeConfig) -> str:
    """The Player bet in one sentence, as the paytable pays it."""
    p = config.payouts
    text = f"Stake 1 against the dealer; a win pays {p.win}:1, a tie pushes"
    if p.bonus:
        listed = ", ".join(f"{category_named(k).name} {m}:1" for k, m in p.bonus.items())
        text += f"; a win with a bonus category pays {listed}"
        if p.dealer_bonus_costs_player:
            text += "; a loss to a dealer holding a bonus category costs that multiple"
    if p.withholding:
        text += f"; {p.withholding} more is withheld (debited {1 + p.withholding})"
    return text + "."


def player_bet(config: GoaGaeConfig, ways: dict[str, int]) -> Bet:
    """The Player bet with its exact outcome table."""
    return Bet(
        "player",
        "Player",
        bet_description(config),
        outcomes(player_events(config), ways),
        withholding=config.payouts.withholding,
    )


def analyse(game: Game[GoaGaeConfig], config: GoaGaeConfig, paytable: str) -> Analysis:
    """The exact analysis of the Player bet of one paytable, with the showdown tables."""
    shoe = config.shoe.build()
    shoe.require(DEAL_CARDS)
    split = config.payouts.dealer_bonus_costs_player and bool(config.payouts.bonus)
    table = compute_showdown(config, shoe, cuts=split)
    deals = deal_count(shoe.counts, (HAND_SIZE, HAND_SIZE))
    strength = strength_table(table)
    return game.new_analysis(
        config,
        paytable,
        shoe=f"{shoe.description} ({shoe.size} cards)",
        deals=deals,
        counting=(
            "Unordered hands, dealt one after the other with card removal: the player's "
            f"three cards, then the dealer's, from {shoe.size} cards: C({shoe.size},3) × "
            f"C({shoe.size - 3},3) = {deals:,} deals. Other positions' cards are unseen, "
            "so by exchangeability they change nothing. The showdown is exact for every "
            "player hand (sorted prefix sums with inclusion–exclusion over the player's "
            "cards, no all-pairs loop); no suit symmetry is used, because the tie-breaks "
            "compare suits."
        ),
        bets=(player_bet(config, event_ways(config, table)),),
        tables=(
            category_table(table, deal_count(shoe.counts, (HAND_SIZE,))),
            order_table(table.ranking),
            showdown_table(table),
            strength,
        ),
        hand_classes={row["name"]: row["ways"] for row in strength.rows},
    )
