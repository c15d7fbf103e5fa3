"""Pok Deng shoe states: exact EVs for any unseen cards, and the shoe procedure.

Both bets settle on one position's two cards and the Banker's, so each EV is an
:class:`odds.engine.polynomial.FallingPolynomial` over the 52 card types, in the factored
form: a quadratic form over hand classes plus a correction for hands sharing a
card (about 26,000 monomials), a fraction of a millisecond per state.

The shoe (docs/rules/pok-deng.md, "Shoe procedure"; the paytable's ``[dealing]``): one card
turned face up and as many burned as its points; every round one card burned
face down, then two cards each to Player 1–5 and the Banker, all face up; the
round that draws the cut card is the shoe's last.
"""

from __future__ import annotations

from fractions import Fraction

from odds.core.caching import cached
from odds.core.cards import Card
from odds.engine.polynomial import FallingPolynomial, two_hand_polynomial
from odds.games.dealing import Procedure, cut_card_procedure, points_burn
from odds.games.events import by_key
from odds.games.features import ShoeStateFeature
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.rules import PokDengHand, classify, player_events, settle_player
from odds.games.shoe_state import PolynomialEvaluator, StateBet

#: Hands dealt every round: Player 1–5 and the Banker, two cards each.
ROUND_CARDS = 12


class PokDengShoeState(ShoeStateFeature[PokDengConfig]):
    """Per-state EVs of the Player and Player Pair bets, and the cut-card procedure."""

    def evaluator(self, config: PokDengConfig) -> PolynomialEvaluator:
        bets = [StateBet("player", "Player N"), StateBet("player-pair", "Player N Pair")]
        polynomial = player_polynomial(config)
        return PolynomialEvaluator(config.shoe.build(), bets, ROUND_CARDS, 52, polynomial)

    def procedure(self, config: PokDengConfig) -> Procedure:
        shoe = config.shoe.build()
        types: tuple[Card, ...] = shoe.types
        return cut_card_procedure(
            config.dealing,
            shoe.size,
            ROUND_CARDS,
            points_burn(lambda t: types[t].rank.baccarat_points),
            "two cards each to Player 1–5 and the Banker, face up",
        )


@cached(maxsize=4)
def player_polynomial(config: PokDengConfig) -> FallingPolynomial[str]:
    """Both bets' EV polynomial (about a second to build; ``odds shoe``, ``eor``, ``exposure``
    and the audit's shoe tests of one paytable in a process share it)."""
    shoe = config.shoe.build()
    types = shoe.types
    payouts, rules = config.payouts, config.rules

    events = by_key(player_events(payouts))

    def classify_hand(hand: tuple[int, ...]) -> tuple[PokDengHand, bool]:
        a, b = types[hand[0]], types[hand[1]]
        return classify(a, b), a.rank == b.rank

    def payoff(
        player: tuple[PokDengHand, bool], banker: tuple[PokDengHand, bool]
    ) -> list[Fraction]:
        (mine, pair), (theirs, _) = player, banker
        event = events[settle_player(mine, theirs, rules)]
        return [event.net, payouts.pair if pair else Fraction(-1)]

    return two_hand_polynomial(shoe.counts, 2, classify_hand, ["player", "player-pair"], payoff)
