"""Blackjack shoe states: the main bet's exact EV for any unseen cards, and dealing a shoe.

The per-state bet is one round played by the *report's chart* (the basic
strategy the full-shoe report derives from its exact EVs), fixed for every
state as a player's strategy is. Its EV for a composition is defined as
:func:`odds.games.blackjack.rounds.analyse_round` with that chart (dealer
probabilities exact for the composition less the up card and the player's
cards) and computed from its polynomial in the rank counts
(:func:`~odds.games.blackjack.round_polynomial.round_polynomial`, the engine's
:class:`~odds.engine.polynomial.FallingPolynomial`: exact, or in double precision with an
error bound for simulations). Suits
never matter, so states are cached by rank counts.

The shoe is dealt to a penetration (``[dealing]``): each round ``players``
players play the chart against the dealer, every card face up; a new round
starts only while less than the penetration has been dealt. The number of
rounds therefore depends on the cards (the cut-card effect), which the
simulation measures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING, Any

from odds.core.caching import cached
from odds.core.numbers import short_number
from odds.games.blackjack.actions import Chart
from odds.games.blackjack.dealer import RANK_NAMES
from odds.games.blackjack.options import MIN_CARDS, BlackjackConfig
from odds.games.blackjack.play import PlayerHand, table_for
from odds.games.blackjack.round_polynomial import KEY
from odds.games.blackjack.strategy import ChartStrategy
from odds.games.dealing import Procedure
from odds.games.features import ShoeStateFeature
from odds.games.shoe_state import CountGroup, StateBet, StateEvaluator

if TYPE_CHECKING:
    from odds.engine.polynomial import FallingPolynomial


class BlackjackEvaluator(StateEvaluator):
    """Exact EV of a round played by the report's chart, for any composition.

    ``chart`` (optional) plays another fixed chart (tests use small ones).
    """

    def __init__(self, config: BlackjackConfig, chart: Chart | None = None) -> None:
        from odds.games.blackjack.counting import rank_counts
        from odds.games.blackjack.rules import rank_index

        shoe = config.shoe.build()
        super().__init__(
            shoe, [StateBet("main", "Blackjack round (the report's chart)")], MIN_CARDS, 52
        )
        self.rules = config.house
        # Resplits (split_hands 3–4) are valued by the recursion's split strategy, not
        # the round polynomial; the exchangeability check is kept for one split.
        self.checks_exchangeability = self.rules.split_hands == 2
        self.rank_of = tuple(rank_index(card) for card in shoe.types)
        self.chart = chart if chart is not None else report_chart(rank_counts(shoe), self.rules)
        self._cache: dict[tuple[int, ...], Fraction] = {}
        self.polynomial: FallingPolynomial[str] | None = None
        if self.checks_exchangeability:
            from odds.games.blackjack.round_polynomial import round_polynomial

            self.polynomial = round_polynomial(self.chart, self.rules)
            self.fast_path = True

    def ranks(self, counts: Sequence[int]) -> tuple[int, ...]:
        """A state as ten rank counts (A, 2–9, ten-value)."""
        found = [0] * 10
        for rank, n in zip(self.rank_of, counts, strict=True):
            found[rank] += n
        return tuple(found)

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        from odds.games.blackjack.rounds import analyse_round

        ranks = self.ranks(self.check(counts))
        found = self._cache.get(ranks)
        if found is None:
            if self.polynomial is not None:
                found = self.polynomial.fractions(ranks)[KEY]
            else:  # resplits: the recursion itself (seconds per state)
                found = analyse_round(ranks, self.rules, chart=self.chart).ev
            if len(self._cache) > 4096:
                self._cache.clear()
            self._cache[ranks] = found
        return {"main": found}

    def forget(self) -> None:
        self._cache.clear()

    def approximate(self, counts: Sequence[int]) -> dict[str, tuple[float, float]]:
        if self.polynomial is None:
            return super().approximate(counts)
        return {"main": self.polynomial.approximate(self.ranks(self.check(counts)))[KEY]}

    def groups(self) -> tuple[CountGroup, ...]:
        """Blackjack counts ten-value cards (10, J, Q, K) as one group."""
        return tuple(
            CountGroup(label, tuple(t for t, r in enumerate(self.rank_of) if r == rank))
            for rank, label in enumerate(RANK_NAMES)
        )


class BlackjackShoeState(ShoeStateFeature[BlackjackConfig]):
    """Per-state EVs of a charted round, and a shoe dealt to a penetration."""

    report_shoes = 40  # about 57 rounds a shoe: reports stay within their minute

    def reference_evs(
        self, paytable: Any, evaluator: StateEvaluator, counts: Sequence[int]
    ) -> dict[str, Fraction]:
        """The full analysis's recursion, played by the same (fixed) chart."""
        from odds.games.blackjack.rounds import analyse_round

        assert isinstance(evaluator, BlackjackEvaluator)
        ranks = evaluator.ranks(counts)
        return {"main": analyse_round(ranks, evaluator.rules, chart=evaluator.chart).ev}

    def evaluator(self, config: BlackjackConfig) -> BlackjackEvaluator:
        return BlackjackEvaluator(config)

    def procedure(self, config: BlackjackConfig) -> Procedure:
        from odds.games.blackjack.counting import rank_counts

        return penetration_procedure(
            config, report_chart(rank_counts(config.shoe.build()), config.house)
        )


@cached(maxsize=4)
def report_chart(full: tuple[int, ...], rules: Any) -> Chart:
    """The chart the full-shoe report prints (what every player at the table plays)."""
    from odds.games.blackjack.rounds import analyse_round
    from odds.games.blackjack.strategy import build_chart

    return build_chart(analyse_round(full, rules, distributions=True))


def penetration_procedure(config: BlackjackConfig, chart: Chart) -> Procedure:
    """Rounds of ``players`` chart players and the dealer until the penetration is reached."""
    from odds.games.blackjack.rules import rank_index

    shoe = config.shoe.build()
    options = config.dealing
    size = shoe.size
    rank_of = tuple(rank_index(card) for card in shoe.types)
    dealer = RoundDealer(config.house, chart, rank_of, options.players)
    share = options.penetration
    return Procedure(
        description=(
            f"{options.players} player{' plays' if options.players == 1 else 's play'} the "
            "report's chart against the dealer, every "
            f"card face up; a round starts only while less than {short_number(share * 100)}% "
            f"of the {size} cards has been dealt, then the shoe is reshuffled."
        ),
        round_cards=MIN_CARDS,
        last_start=max(0, ceil(share * size) - 1),
        deal_round=dealer,
    )


class RoundDealer:
    """Deals one round at a live table (:func:`odds.games.blackjack.play.play`): every player
    plays the chart, then the dealer; returns every card dealt (all face up)."""

    def __init__(self, rules: Any, chart: Chart, rank_of: Sequence[int], players: int) -> None:
        self.rules, self.rank_of, self.players = rules, rank_of, players
        self.strategy = ChartStrategy(chart, rules)
        self.table = table_for(rules)  # kept: one lookup per study, not per round

    def __call__(self, draw: Callable[[], int]) -> list[int]:
        dealt: list[int] = []

        def card(hand: PlayerHand[int] | None) -> int:
            dealt.append(t := draw())
            return t

        self.table.play(card, self.strategy, players=self.players, rank=self.rank_of.__getitem__)
        return dealt
