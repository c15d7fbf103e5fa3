"""Dragon Tiger as a :class:`odds.games.base.Game`: analysis, settle, bench.

Rules in :mod:`.rules` (docs/rules/dragon-tiger.md), the paytable in
:mod:`.options`, the counting in :mod:`.analysis`, the per-state EV in
:mod:`.state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from odds.analysis import Analysis
from odds.cards import Card, Rank, parse_cards
from odds.errors import OddsError
from odds.games.base import BenchCase, Game, SettledBet, SettledHand, Settlement
from odds.games.dragon_tiger import analysis as a
from odds.games.dragon_tiger import rules as r
from odds.games.dragon_tiger import tables as t
from odds.games.dragon_tiger.options import SIDE_BETS, DragonTigerConfig
from odds.numbers import payout_ratio
from odds.stats import Bet, Outcome


class DragonTiger(Game[DragonTigerConfig]):
    """Dragon Tiger: one card each to Dragon and Tiger; the higher rank wins."""

    name = "dragon-tiger"
    title = "Dragon Tiger (8 decks)"
    config_type = DragonTigerConfig
    positions = ("dragon", "tiger")
    hand_size = 1

    def validate(self, config: DragonTigerConfig) -> None:
        offered = config.bets.side_bets
        for bet in offered:
            if bet not in SIDE_BETS:
                raise OddsError(
                    f"bets.side_bets: unknown side bet {bet!r} (known: {', '.join(SIDE_BETS)})"
                )
        if len(set(offered)) != len(offered):
            raise OddsError("bets.side_bets: a side bet is listed twice")
        config.shoe.build().require(a.ROUND_CARDS)

    def event_ways(self, config: DragonTigerConfig) -> dict[str, dict[str, int]]:
        """Ordered ways of every event of every offered bet from the paytable's shoe."""
        shoe = config.shoe.build()
        return a.event_ways(config, shoe.types, shoe.counts)

    def analyse(self, config: DragonTigerConfig, paytable: str) -> Analysis:
        shoe = config.shoe.build()
        shoe.require(a.ROUND_CARDS)
        ways = self.event_ways(config)
        bets = tuple(_bet(spec, ways[spec.name], config) for spec in a.bet_specs(config))
        total = bets[0].stats.total
        classes: dict[str, int] = {}
        for card, count in zip(shoe.types, shoe.counts, strict=True):
            label = t.rank_label(card.rank)
            classes[label] = classes.get(label, 0) + count
        return self.new_analysis(
            config,
            paytable,
            shoe=f"{shoe.description} ({shoe.size} cards)",
            deals=total,
            counting=(
                "Ordered deals with card removal: the Dragon's card, then the Tiger's, from "
                f"{shoe.size} cards: {shoe.size} × {shoe.size - 1} = {total:,} deals. Ranks "
                "decide every bet; suits only the suited tie."
            ),
            bets=bets,
            tables=(t.card_table(shoe),),
            hand_classes=classes,
        )

    def settle(
        self, config: DragonTigerConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        dragon, tiger = _card(hands, "dragon"), _card(hands, "tiger")
        config.shoe.build().check_holds((dragon, tiger), "the Dragon's and Tiger's cards")
        round_ = r.Round.of(dragon, tiger)
        nets = a.event_nets(config)
        settled = []
        for spec in a.bet_specs(config):
            key = spec.settle(round_)
            event = next(e for e in spec.events if e.key == key)
            net = nets[spec.name][key]
            settled.append(
                SettledBet(
                    spec.name,
                    stake,
                    stake,
                    stake + net * stake,
                    f"{event.label}: {payout_ratio(net)}",
                    event.label,
                )
            )
        return Settlement(
            hands=(
                SettledHand(
                    "dragon", str(dragon), _describe(dragon.rank), t.rank_label(dragon.rank)
                ),
                SettledHand("tiger", str(tiger), _describe(tiger.rank), t.rank_label(tiger.rank)),
            ),
            bets=tuple(settled),
        )

    def bench_cases(self, config: DragonTigerConfig) -> list[BenchCase]:
        from odds.games.dragon_tiger.bench import bench_cases

        return bench_cases(config)


def _bet(spec: a.BetSpec, ways: Mapping[str, int], config: DragonTigerConfig) -> Bet:
    outcomes = tuple(
        Outcome(e.label, Fraction(e.net(config.payouts)), ways.get(e.key, 0)) for e in spec.events
    )
    return Bet(spec.name, spec.title, spec.description, outcomes)


def _card(hands: Mapping[str, str], position: str) -> Card:
    text = hands.get(position)
    if not text:
        raise OddsError(f"missing the {position.capitalize()}'s card (one card, e.g. 'Kh')")
    cards = parse_cards(text)
    if len(cards) != 1:
        raise OddsError(
            f"the {position.capitalize()}'s hand is one card, got {len(cards)}: {text!r}"
        )
    return cards[0]


def _describe(rank: Rank) -> str:
    return f"{rank.symbol} (order {r.order(rank)} of 13)"
