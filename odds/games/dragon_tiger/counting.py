"""How Dragon Tiger asks the engine: two cards in dealing order, and every bet's outcome table.

The deal is a :class:`odds.engine.drawing.DealProcedure` over the 52 card types
(Dragon's card, then Tiger's), counted once as a polynomial in the card
counts; the full shoe and any partly dealt shoe are evaluations of it.
Ordered ways: ``N (N − 1)`` two-card deals (172,640 for 8 decks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import TYPE_CHECKING, Any

from odds.core.caching import cached
from odds.core.cards import Card
from odds.engine.drawing import DealPolynomial, falling, ordered_deal_polynomial
from odds.games.dragon_tiger import rules as r
from odds.games.dragon_tiger.options import SIDE_BETS, DragonTigerConfig
from odds.games.dragon_tiger.report_tables import card_table, rank_label
from odds.games.dragon_tiger.rules import Round
from odds.games.events import BetSpec as GenericBetSpec
from odds.games.events import spec_bets
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet

if TYPE_CHECKING:
    from odds.games.base import Game

#: Cards in a round.
ROUND_CARDS = 2


@dataclass(frozen=True)
class RoundProcedure:
    """Dragon Tiger's deal for :func:`odds.engine.drawing.ordered_deal_polynomial`: two cards."""

    types: tuple[Card, ...]

    @property
    def start(self) -> tuple[int, ...]:
        return ()

    def step(self, state: tuple[int, ...] | Round, card_type: int) -> tuple[int, ...] | Round:
        assert isinstance(state, tuple)
        if not state:
            return (card_type,)
        return Round.of(self.types[state[0]], self.types[card_type])

    def outcome(self, state: tuple[int, ...] | Round) -> Round | None:
        return state if isinstance(state, Round) else None


@cached
def round_polynomial(types: tuple[Card, ...]) -> DealPolynomial[Round]:
    """Every round's ordered ways as a polynomial in the card counts (once per card set)."""
    return ordered_deal_polynomial(RoundProcedure(types), len(types), ROUND_CARDS)


#: A Dragon Tiger bet: settled from the round.
BetSpec = GenericBetSpec[Callable[[Round], str]]


def bet_specs(config: DragonTigerConfig) -> tuple[BetSpec, ...]:
    """Every offered bet in report order: Dragon, Tiger, Tie, then the side bets."""
    rules, p = config.rules, config.payouts
    tie_text = (
        "on a tie the bet loses half" if rules.tie_on_main_bets == "lose-half" else "a tie loses"
    )
    specs: dict[str, BetSpec] = {}
    for side in r.SIDES:
        name = side.capitalize()
        specs[side] = BetSpec(
            side,
            name,
            f"Pays {_to(getattr(p, side))} when the {name} card ranks higher (A low, K high); "
            f"{tie_text}.",
            r.side_events(side, rules, p),
            partial(r.settle_side, side),
        )
    specs["tie"] = BetSpec(
        "tie",
        "Tie",
        f"Pays {_to(p.tie)} when both cards have the same rank.",
        r.tie_events(p),
        r.settle_tie,
    )
    specs["suited-tie"] = BetSpec(
        "suited-tie", "Suited Tie",
        f"Pays {_to(p.suited_tie)} when both cards have the same rank and suit.",
        r.suited_tie_events(p), r.settle_suited_tie,
    )  # fmt: skip
    for side in r.SIDES:
        for kind in r.KINDS:
            pays = p.big_small if kind in ("big", "small") else p.odd_even
            specs[f"{side}-{kind}"] = BetSpec(
                f"{side}-{kind}",
                f"{side.capitalize()} {kind.capitalize()}",
                f"Pays {_to(pays)} when the {side.capitalize()} card is {kind} "
                f"({r.KIND_TEXT[kind]}); a 7 loses.",
                r.kind_events(side, kind, p),
                partial(r.settle_kind, side, kind),
            )
    offered = ("dragon", "tiger", "tie", *(b for b in SIDE_BETS if b in config.bets.side_bets))
    return tuple(specs[name] for name in offered)


def _to(value: Fraction) -> str:
    from odds.core.numbers import payout_ratio

    return payout_ratio(value).removeprefix("wins ")


def event_polynomial(config: DragonTigerConfig, types: tuple[Card, ...]) -> DealPolynomial[Any]:
    """The round table regrouped into every offered bet's events (cached per way of settling)."""
    return _event_polynomial(settling(config), types)


def settling(config: DragonTigerConfig) -> DragonTigerConfig:
    """What of ``config`` decides which event each round settles into: the rule readings and
    the bets offered (payouts change no event, and the card types are the polynomial's)."""
    return DragonTigerConfig(rules=config.rules, bets=config.bets)


@cached(maxsize=32)
def _event_polynomial(config: DragonTigerConfig, types: tuple[Card, ...]) -> DealPolynomial[Any]:
    specs = bet_specs(config)
    partitions = [[(s.name, e.key) for e in s.events] for s in specs]
    return round_polynomial(types).regroup(
        lambda round_: [(s.name, s.settle(round_)) for s in specs], partitions
    )


def event_ways(
    config: DragonTigerConfig, types: tuple[Card, ...], counts: Sequence[int]
) -> dict[str, dict[str, int]]:
    """Ordered ways of every event of every offered bet for a composition."""
    specs = bet_specs(config)
    ways = event_polynomial(config, types).ways(counts)
    return {s.name: {e.key: ways.get((s.name, e.key), 0) for e in s.events} for s in specs}


def event_nets(config: DragonTigerConfig) -> dict[str, dict[str, Fraction]]:
    """Net payout per unit staked of every event of every offered bet."""
    return {spec.name: {e.key: e.net for e in spec.events} for spec in bet_specs(config)}


def bets(config: DragonTigerConfig, ways: Mapping[str, Mapping[str, int]]) -> tuple[Bet, ...]:
    """Every offered bet with its exact outcome table."""
    return spec_bets(bet_specs(config), ways)


def analyse(game: Game[DragonTigerConfig], config: DragonTigerConfig, paytable: str) -> Analysis:
    """The exact analysis of every offered bet of one paytable."""
    shoe = config.shoe.build()
    shoe.require(ROUND_CARDS)
    total = falling(shoe.size, ROUND_CARDS)
    classes: dict[str, int] = {}
    for card, count in zip(shoe.types, shoe.counts, strict=True):
        classes[rank_label(card.rank)] = classes.get(rank_label(card.rank), 0) + count
    return game.new_analysis(
        config,
        paytable,
        shoe=f"{shoe.description} ({shoe.size} cards)",
        deals=total,
        counting=(
            "Ordered deals with card removal: the Dragon's card, then the Tiger's, from "
            f"{shoe.size} cards: {shoe.size} × {shoe.size - 1} = {total:,} deals. Ranks "
            "decide every bet; suits only the suited tie."
        ),
        bets=bets(config, event_ways(config, shoe.types, shoe.counts)),
        tables=(card_table(shoe),),
        hand_classes=classes,
    )
