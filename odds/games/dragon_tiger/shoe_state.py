"""Dragon Tiger shoe states: every bet's exact EV for any unseen cards, and dealing a shoe.

The evaluator is :func:`odds.games.dragon_tiger.state_values.state_ev`; the
procedure the paytable's ``[dealing]`` (docs/rules/dragon-tiger.md §Shoe
procedure): the turned card and its burn, then two cards a round, face up,
until the round that draws the cut card.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.games.dealing import Procedure, cut_card_procedure, points_burn
from odds.games.dragon_tiger.counting import ROUND_CARDS, bet_specs, event_polynomial
from odds.games.dragon_tiger.options import DragonTigerConfig
from odds.games.dragon_tiger.state_values import state_ev
from odds.games.features import ShoeStateFeature
from odds.games.shoe_state import OutcomeLaw, StateBet, StateEvaluator, StateWays


class DragonTigerEvaluator(StateEvaluator):
    """Every offered bet's exact EV for a composition of the 52 card types."""

    def __init__(self, config: DragonTigerConfig) -> None:
        shoe = config.shoe.build()
        bets = [StateBet(spec.name, spec.title) for spec in bet_specs(config)]
        super().__init__(shoe, bets, ROUND_CARDS, 52)
        self.config = config

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        return state_ev(self.config, self.check(counts))


class DragonTigerLaw(OutcomeLaw):
    """Every bet's event ways for a batch of states: the event polynomial, one call a batch."""

    seconds_per_round = 2e-4  # measured: about 0.2 ms a round

    def __init__(self, config: DragonTigerConfig) -> None:
        super().__init__(ROUND_CARDS)
        self.specs = bet_specs(config)
        self.polynomial = event_polynomial(config, config.shoe.build().types)
        self.column = {key: i for i, key in enumerate(self.polynomial.keys)}

    def __call__(self, states: Any, shared: Sequence[tuple[int, ...]] | None = None) -> StateWays:
        import numpy as np

        numerators = np.asarray(self.polynomial.numerators(states), dtype=np.int64)
        found: StateWays = {}
        for spec in self.specs:
            labels = list(dict.fromkeys(e.label for e in spec.events))
            ways = np.zeros((len(states), len(labels)), dtype=np.int64)
            for event in spec.events:
                index = self.column.get((spec.name, event.key))
                if index is not None:
                    ways[:, labels.index(event.label)] += numerators[:, index]
            found[spec.name] = (labels, ways)
        return found


class DragonTigerShoeState(ShoeStateFeature[DragonTigerConfig]):
    """Per-state EVs of every offered bet, and the cut-card procedure."""

    report_shoes = 20

    def evaluator(self, config: DragonTigerConfig) -> DragonTigerEvaluator:
        return DragonTigerEvaluator(config)

    def outcome_law(self, config: DragonTigerConfig) -> DragonTigerLaw:
        return DragonTigerLaw(config)

    def procedure(self, config: DragonTigerConfig) -> Procedure:
        shoe = config.shoe.build()
        types = shoe.types
        return cut_card_procedure(
            config.dealing,
            shoe.size,
            ROUND_CARDS,
            points_burn(lambda t: types[t].rank.baccarat_points),
            "one card to the Dragon and one to the Tiger, face up",
        )
