"""Goa Gae shoe states: exact EVs for any unseen cards, and how rounds are dealt.

The Player bet is a showdown (with optional category bonuses), so its EV for a
composition is an :class:`odds.engine.showdown_states.SubShowdown`: the engine's
inclusion–exclusion over the player's cards, laid out once for the full shoe.
By default the deck is reshuffled after every round (the ``[dealing]``
section), so a watching player learns nothing: the exposure is nil, and the
per-state EVs serve ``odds shoe`` and the effects of removal.

The shoe-aware tests' law (:class:`GoaGaeLaw`) is one position's events given the
dealer's hand (the positions share it): every three-card hand of the state counted
once, ranked once, and settled against the dealer's strength by comparing ranks.
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
from odds.games.goa_gae.rules import HAND_SIZE, GoaGaeEvent, Ranking, player_events
from odds.games.shoe_state import OutcomeLaw, StateBet, StateEvaluator, StateWays


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


class GoaGaeLaw(OutcomeLaw):
    """A position's Player-bet events given the dealer's hand, for any state.

    The state's three-card hands are the multisets ``i ≤ j ≤ k`` of card types, with
    ``∏ C(cₜ, mₜ)`` ways; each has a strength, ranked once among all of them, so a
    hand beats the dealer's exactly when its rank is higher (equal ranks push). A win
    pays by the position's category, a loss costs by the dealer's.
    """

    given = ("dealer",)
    seconds_per_round = 2e-3  # measured: about 1 ms a position

    def __init__(self, config: GoaGaeConfig) -> None:
        import itertools

        import numpy as np

        super().__init__(HAND_SIZE * (config.dealing.positions + 1))
        shoe = config.shoe.build()
        types = shoe.types
        ranking = Ranking(config.rules)
        hands = list(itertools.combinations_with_replacement(range(len(types)), HAND_SIZE))
        self.hand = np.array(hands, dtype=np.int64)
        ranked = [ranking.rank([types[t] for t in h]) for h in hands]
        strengths = sorted(set(r.strength for r in ranked))
        place = {key: i for i, key in enumerate(strengths)}
        self.rank = np.array([place[r.strength] for r in ranked], dtype=np.int64)
        self.index = {h: i for i, h in enumerate(hands)}
        self.category = [r.category for r in ranked]
        events = player_events(config)
        self.labels = list(dict.fromkeys(e.label for e in events))
        column = {e.key: self.labels.index(e.label) for e in events}
        pay = config.payouts
        win = [
            column[GoaGaeEvent.win_with(c) if c in pay.bonus else GoaGaeEvent.WIN]
            for c in self.category
        ]
        self.win = np.array(win, dtype=np.int64)
        self.push = column[GoaGaeEvent.PUSH]
        self.lose = [
            column[
                GoaGaeEvent.loss_to(c)
                if pay.dealer_bonus_costs_player and c in pay.bonus
                else GoaGaeEvent.LOSE
            ]
            for c in self.category
        ]
        self.winning = sorted(set(win))

    def hand_ways(self, states: Any) -> Any:
        """Every three-card hand's ways in every state (states × hands)."""
        import numpy as np

        states = np.asarray(states, dtype=np.int64)
        a, b, c = (states[:, self.hand[:, k]] for k in range(HAND_SIZE))
        i, j, k = self.hand.T
        pair_low, pair_high = (i == j) & (j != k), (i != j) & (j == k)
        triple = (i == j) & (j == k)
        ways = a * b * c
        ways = np.where(pair_low, a * (a - 1) // 2 * c, ways)
        ways = np.where(pair_high, a * b * (b - 1) // 2, ways)
        return np.where(triple, a * (a - 1) * (a - 2) // 6, ways)

    def __call__(self, states: Any, shared: Sequence[tuple[int, ...]] | None = None) -> StateWays:
        import numpy as np

        if shared is None or len(shared) != len(states):
            raise ValueError("a position's law needs the dealer's hand of every state")
        ways = self.hand_ways(states)
        dealer = np.array([self.index[tuple(sorted(h))] for h in shared], dtype=np.int64)
        rank = self.rank[dealer][:, None]
        found = np.zeros((len(states), len(self.labels)), dtype=np.int64)
        above, equal = self.rank[None, :] > rank, self.rank[None, :] == rank
        for event in self.winning:
            found[:, event] = (ways * (above & (self.win == event)[None, :])).sum(axis=1)
        found[:, self.push] = (ways * equal).sum(axis=1)
        below = (ways * (self.rank[None, :] < rank)).sum(axis=1)
        for row, d in enumerate(dealer.tolist()):
            found[row, self.lose[d]] += below[row]
        return {"player": (self.labels, found)}


class GoaGaeShoeState(ShoeStateFeature[GoaGaeConfig]):
    """Per-state EVs of the Player bet; rounds reshuffled by default (exposure nil)."""

    def evaluator(self, config: GoaGaeConfig) -> GoaGaeEvaluator:
        return GoaGaeEvaluator(config)

    def outcome_law(self, config: GoaGaeConfig) -> GoaGaeLaw:
        return GoaGaeLaw(config)

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
