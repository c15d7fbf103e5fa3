"""Baccarat shoe states: every bet's exact EV for any unseen cards, and dealing a shoe.

The evaluator is :func:`odds.games.baccarat.state_values.state_ev` (the tableau's
counting table, built once, evaluated per composition in a millisecond or
two); the shoe-aware tests take every bet's event ways from the same table.
The procedure is the paytable's ``[dealing]`` (docs/rules/baccarat.md §Shoe
procedure): one card turned face up and as many burned as its value, coups
dealt by the tableau (four to six cards, all face up) until the cut card comes
out, then by default one more coup.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from fractions import Fraction

from odds.games.baccarat import rules as r
from odds.games.baccarat.bets import bet_specs
from odds.games.baccarat.counting import COUP_CARDS
from odds.games.baccarat.options import BaccaratConfig
from odds.games.baccarat.state_values import state_ev, state_event_ways
from odds.games.dealing import Procedure, cut_card_procedure, points_burn
from odds.games.features import ShoeStateFeature
from odds.games.shoe_state import (
    StateBet,
    StateByStateLaw,
    StateEvaluator,
    event_labels,
)


class BaccaratEvaluator(StateEvaluator):
    """Every offered bet's exact EV for a composition of the 52 card types."""

    def __init__(self, config: BaccaratConfig) -> None:
        shoe = config.shoe.build()
        bets = [StateBet(spec.name, spec.title) for spec in bet_specs(config)]
        super().__init__(shoe, bets, COUP_CARDS, 52)
        self.config = config
        state_ev(config, shoe.counts)  # build the counting table once, now

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        return state_ev(self.config, self.check(counts))


class BaccaratShoeState(ShoeStateFeature[BaccaratConfig]):
    """Per-state EVs of every offered bet, and the cut-card procedure with coups by the tableau."""

    #: A simulated shoe is ~80 coups at ~2 ms each: reports simulate a few, quickly.
    report_shoes = 20

    def evaluator(self, config: BaccaratConfig) -> BaccaratEvaluator:
        return BaccaratEvaluator(config)

    def outcome_law(self, config: BaccaratConfig) -> StateByStateLaw:
        """Every bet's event ways for a state, from the same counting table as the EVs."""
        return StateByStateLaw(
            COUP_CARDS,
            lambda counts: state_event_ways(config, counts),
            event_labels(bet_specs(config)),
            seconds_per_round=3e-3,  # measured: 2 to 3 ms a coup (docs/commands/audit.md)
        )

    def procedure(self, config: BaccaratConfig) -> Procedure:
        shoe = config.shoe.build()
        types = shoe.types
        what = "a coup by the tableau (four to six cards), face up"
        base = cut_card_procedure(
            config.dealing,
            shoe.size,
            COUP_CARDS,
            points_burn(lambda t: r.card_value(types[t].rank)),
            what,
        )
        extra = 1 if config.dealing.last_round == "one-more" else 0
        description = base.description
        if extra:
            description = description.removesuffix(" is the last.") + (
                " is finished, then one more coup is dealt."
            )
        return dataclasses.replace(
            base,
            description=description,
            deal_round=_coup_dealer(config),
            rounds_after_cut=extra,
        )


def _coup_dealer(config: BaccaratConfig) -> Callable[[Callable[[], int]], list[int]]:
    """One coup from a source of card-type indices, by the tableau; the cards shown."""
    types = config.shoe.build().types
    drawing = r.DrawingRules.of(config.tableau)

    def deal(draw: Callable[[], int]) -> list[int]:
        shown: list[int] = []

        def next_value(_: str) -> int:
            card = draw()
            shown.append(card)
            return r.card_value(types[card].rank)

        r.deal_coup(next_value, drawing)
        return shown

    return deal
