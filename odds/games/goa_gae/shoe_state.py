"""Goa Gae shoe states: exact EVs for any unseen cards, and how rounds are dealt.

The Player bet is a showdown (with optional category bonuses), so its EV for a
composition is an :class:`odds.engine.showdown_states.SubShowdown`: the engine's
inclusion–exclusion over the player's cards, laid out once for the full shoe.
By default the deck is reshuffled after every round (the ``[dealing]``
section), so a watching player learns nothing: the exposure is nil, and the
per-state EVs serve ``odds shoe`` and the effects of removal.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.core.errors import OddsError
from odds.engine.showdown_states import SubShowdown
from odds.games.dealing import Procedure
from odds.games.features import ShoeStateFeature
from odds.games.goa_gae.options import GoaGaeConfig
from odds.games.goa_gae.rules import HAND_SIZE, Ranking
from odds.games.shoe_state import StateBet, StateEvaluator


class GoaGaeEvaluator(StateEvaluator):
    """The Player bet's exact EV for any composition below the paytable's shoe."""

    def __init__(self, config: GoaGaeConfig) -> None:
        shoe = config.shoe.build()
        ranking = Ranking(config.rules)
        types, pay = shoe.types, config.payouts

        def strength(hand: tuple[int, ...]) -> Any:
            return ranking.strength([types[t] for t in hand])

        def win(key: Any) -> Fraction:
            return pay.bonus.get(ranking.hand(key).category, pay.win)

        def cost(key: Any) -> Fraction:
            category = ranking.hand(key).category
            if pay.dealer_bonus_costs_player and category in pay.bonus:
                return pay.bonus[category]
            return Fraction(1)

        round_cards = HAND_SIZE * (config.dealing.positions + 1)
        super().__init__(shoe, [StateBet("player", "Player")], round_cards, 52)
        self.showdown = SubShowdown(shoe.counts, HAND_SIZE, strength, win, cost)

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        return {"player": self.showdown.ev(self.check(counts))}


class GoaGaeShoeState(ShoeStateFeature[GoaGaeConfig]):
    """Per-state EVs of the Player bet; rounds reshuffled by default (exposure nil)."""

    def evaluator(self, config: GoaGaeConfig) -> GoaGaeEvaluator:
        return GoaGaeEvaluator(config)

    def procedure(self, config: GoaGaeConfig) -> Procedure:
        options = config.dealing
        size = config.shoe.build().size
        hands = options.positions + 1
        round_cards = HAND_SIZE * hands
        if round_cards > size:
            raise OddsError(
                f"dealing.positions: {hands} hands of three need {round_cards} cards, the shoe "
                f"has {size}"
            )
        players = f"{options.positions} position" + ("s" if options.positions != 1 else "")
        what = f"three cards each to {players} and the dealer, face up"
        if options.reshuffle_every_round:
            return Procedure(
                description=f"every round {what}; the cards are reshuffled after every round.",
                round_cards=round_cards,
                reshuffled_each_round=True,
            )
        if options.cut_card >= size:
            raise OddsError(f"dealing.cut_card: {options.cut_card} is not inside the shoe ({size})")
        return Procedure(
            description=(
                f"every round {what}; rounds are dealt while the cut card ({options.cut_card} "
                "cards before the end) has not come out and a whole round is left."
            ),
            round_cards=round_cards,
            last_start=size - options.cut_card,
        )
