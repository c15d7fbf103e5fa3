"""Pok Deng shoe states: exact EVs for any unseen cards, and the shoe procedure.

Both bets settle on one position's two cards and the Banker's, so each EV is an
:class:`odds.engine.polynomial.FallingPolynomial` over the 52 card types, in the factored
form: a quadratic form over hand classes plus a correction for hands sharing a
card (about 26,000 monomials), a fraction of a millisecond per state.

The shoe (docs/rules/pok-deng.md, "Shoe procedure"; the paytable's ``[dealing]``): one card
turned face up and as many burned as its points; every round one card burned
face down, then two cards each to Player 1–5 and the Banker, all face up; the
round that draws the cut card is the shoe's last.

The shoe-aware tests' law (:class:`PokDengLaw`) is a seat's events given the Banker's
hand: five seats play against one Banker, so their events are dependent given the
state; revealed Banker first, then seat after seat, each seat is one fresh hand from
what is left, against a known hand — every two-card hand of the state counted once.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from odds.core.caching import cached
from odds.core.cards import Card
from odds.engine.polynomial import FallingPolynomial, two_hand_polynomial
from odds.games.dealing import Procedure, cut_card_procedure, points_burn
from odds.games.events import by_key
from odds.games.features import ShoeStateFeature
from odds.games.pok_deng.options import PokDengConfig
from odds.games.pok_deng.rules import (
    PokDengHand,
    classify,
    pair_events,
    player_events,
    settle_player,
)
from odds.games.shoe_state import OutcomeLaw, PolynomialEvaluator, StateBet, StateWays

#: Hands dealt every round: Player 1–5 and the Banker, two cards each.
ROUND_CARDS = 12


class PokDengLaw(OutcomeLaw):
    """A seat's Player and Player Pair events, given the Banker's hand, for any state.

    A state's two-card hands, one column per pair of card types ``i ≤ j``, have
    ``cᵢ·cⱼ`` ways (``cᵢ(cᵢ − 1)/2`` for ``i = j``); each column settles to one
    event against a Banker's hand class, so a batch of states is one gather of
    products and one sum per event (about 0.1 ms a seat).
    """

    given = ("banker",)
    seconds_per_round = 1e-3  # measured: five seats a round

    def __init__(self, config: PokDengConfig) -> None:
        import numpy as np

        super().__init__(2)
        shoe = config.shoe.build()
        self.types: tuple[Card, ...] = shoe.types
        self.rules = config.rules
        count = len(self.types)
        pairs = [(i, j) for i in range(count) for j in range(i, count)]
        self.first = np.array([i for i, _ in pairs], dtype=np.int64)
        self.second = np.array([j for _, j in pairs], dtype=np.int64)
        self.same = self.first == self.second
        self.hands = [classify(self.types[i], self.types[j]) for i, j in pairs]
        player = player_events(config.payouts)
        self.player_labels = list(dict.fromkeys(e.label for e in player))
        self.label_of = {e.key: e.label for e in player}
        pair = {e.key: e.label for e in pair_events(config.payouts)}
        self.pair_labels = list(dict.fromkeys(pair.values()))
        is_pair = [self.types[i].rank == self.types[j].rank for i, j in pairs]
        self.pair_column = np.array(
            [0 if p else 1 for p in is_pair], dtype=np.int64
        )  # PAIR first, as pair_events lists it
        assert self.pair_labels == [pair["pair"], pair["no-pair"]]
        self.columns: dict[PokDengHand, Any] = {}  # a Banker class → each hand's event column

    def _event_columns(self, banker: PokDengHand) -> Any:
        import numpy as np

        found = self.columns.get(banker)
        if found is None:
            index = {label: k for k, label in enumerate(self.player_labels)}
            found = self.columns[banker] = np.array(
                [index[self.label_of[settle_player(h, banker, self.rules)]] for h in self.hands],
                dtype=np.int64,
            )
        return found

    def hand_ways(self, states: Any) -> Any:
        """Every two-card hand's ways in every state (states × pairs of types)."""
        import numpy as np

        states = np.asarray(states, dtype=np.int64)
        a, b = states[:, self.first], states[:, self.second]
        return np.where(self.same, a * (a - 1) // 2, a * b)

    def __call__(self, states: Any, shared: Sequence[tuple[int, ...]] | None = None) -> StateWays:
        import numpy as np

        if shared is None or len(shared) != len(states):
            raise ValueError("a seat's law needs the Banker's hand of every state")
        ways = self.hand_ways(states)
        player = np.zeros((len(states), len(self.player_labels)), dtype=np.int64)
        rows_of: dict[PokDengHand, Any] = {}
        for row, banker in enumerate(shared):
            hand = classify(self.types[banker[0]], self.types[banker[1]])
            rows_of.setdefault(hand, []).append(row)
        for hand, listed in rows_of.items():
            rows = np.array(listed, dtype=np.int64)
            columns = self._event_columns(hand)
            for k in range(len(self.player_labels)):
                player[rows, k] = ways[np.ix_(rows, np.flatnonzero(columns == k))].sum(axis=1)
        pair = np.stack([ways[:, self.pair_column == k].sum(axis=1) for k in range(2)], axis=1)
        return {"player": (self.player_labels, player), "player-pair": (self.pair_labels, pair)}


class PokDengShoeState(ShoeStateFeature[PokDengConfig]):
    """Per-state EVs of the Player and Player Pair bets, and the cut-card procedure."""

    def evaluator(self, config: PokDengConfig) -> PolynomialEvaluator:
        bets = [StateBet("player", "Player N"), StateBet("player-pair", "Player N Pair")]
        polynomial = player_polynomial(config)
        return PolynomialEvaluator(config.shoe.build(), bets, ROUND_CARDS, 52, polynomial)

    def outcome_law(self, config: PokDengConfig) -> PokDengLaw:
        return PokDengLaw(config)

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
