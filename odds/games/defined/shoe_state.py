"""Shoe states of a defined game: every bet's exact EV for any unseen cards, and dealing a shoe.

Two hands of one or two cards each (Dragon Tiger, Pok Deng as data) are one
:func:`odds.engine.polynomial.two_hand_polynomial`, built once per evaluator and
evaluated per state (as the coded games do: ``odds exposure`` recounted every
state's rounds, ~2 s a Dragon Tiger shoe, ~20 s a Pok Deng one). Any other deal
is counted again for each composition (the same plans as the report: a tableau's
polynomial evaluated once per state, or the hands' showdown after removal), so
``odds shoe``, ``odds eor`` and ``odds exposure`` work on every defined game.
The procedure is the paytable's ``[dealing]``: the cut-card shoe (the turned card's
burn, 14 cards behind the cut card by default), or one round per shuffle
(``reshuffle_every_round``, one-deck games).

A definition with ``seats`` deals its whole table every round (the dealer and every
seat: twelve cards for Pok Deng's five seats and two cards a hand), as the rule book
does, so a state is what a player watching the table has seen.

``odds reports`` (and ``report --shoe``) add the Shoe section where the states are one
polynomial (:attr:`DefinedShoeState.in_reports`); elsewhere they leave it out: an
effect of removal reruns the count per card type, about a second each for a
three-card showdown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.errors import OddsError
from odds.engine.polynomial import FallingPolynomial, two_hand_polynomial
from odds.games.dealing import Procedure, cut_card_procedure, points_burn
from odds.games.defined import counting, ranking
from odds.games.defined.options import DefinedConfig
from odds.games.defined.rounds import RoundKey, bet_needs
from odds.games.defined.schema import Definition
from odds.games.defined.seats import has_whole_table
from odds.games.features import ShoeStateFeature
from odds.games.shoe_state import (
    PolynomialEvaluator,
    StateBet,
    StateByStateLaw,
    StateEvaluator,
)

#: Hand sizes whose two-hand polynomial is cheap to build: two cards from 52 types is
#: ~26,000 correction rows (a second); three cards would be millions (those games are one
#: deck, reshuffled every round, so their states are the full deck anyway).
POLYNOMIAL_HAND_SIZES = (1, 2)
_WORDS = ("no", "one", "two", "three", "four", "five")

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame


class DefinedEvaluator(StateEvaluator):
    """Every bet's exact EV for a composition of the shoe's card types."""

    def __init__(self, game: DefinedGame, config: DefinedConfig) -> None:
        shoe = config.shoe.build()
        bets = [StateBet(b.name, b.title) for b in game.definition.bets]
        super().__init__(shoe, bets, table_cards(game.definition), 52)
        self.game = game
        self.config = config

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        counts = self.check(counts)
        game, config = self.game, self.config
        found = {}
        for bet in game.definition.bets:
            ways = game.settle_rounds(config, bet, game.rounds(config, bet, counts), False)
            total = sum(ways.values())
            found[bet.name] = sum(
                (Fraction(ways[e.key], total) * e.net for e in game.events(config, bet)),
                Fraction(0),
            )
        return found

    def forget(self) -> None:
        self.game.__dict__.pop("_rounds_cache", None)


class DefinedShoeState(ShoeStateFeature[DefinedConfig]):
    """Per-state EVs of every bet, and the paytable's ``[dealing]`` procedure."""

    def __init__(self, game: DefinedGame) -> None:
        self.game = game
        polynomial = polynomial_deal(game.definition)
        #: Whether ``odds reports`` adds the Shoe section: where a state's EVs are one
        #: polynomial's evaluation (the module docstring).
        self.in_reports = polynomial
        #: Shoes the report's simulated exposure deals: as the coded games', where a state
        #: costs a polynomial's evaluation; few where it costs a count.
        self.report_shoes = 100 if polynomial else 10

    def evaluator(self, config: DefinedConfig) -> StateEvaluator:
        polynomial = hands_polynomial(self.game, config)
        if polynomial is None:
            return DefinedEvaluator(self.game, config)
        bets = [StateBet(b.name, b.title) for b in self.game.definition.bets]
        shoe = config.shoe.build()
        return PolynomialEvaluator(shoe, bets, table_cards(self.game.definition), 52, polynomial)

    def outcome_law(self, config: DefinedConfig) -> StateByStateLaw | None:
        """Every bet's outcome ways for a state: the definition counted again for it.

        The cost per state is the report's count for that composition; measured (one
        state, idle core): about 5 ms for one card a hand, 10 to 60 ms for a tableau,
        0.2 s for two cards a hand, 0.3 to 0.9 s for three (Teen Patti 20-20, Win Three
        Cards, San Gong).
        """
        game = self.game
        deal = game.definition.deal
        seconds = 0.06 if deal.tableau is not None else {1: 0.01, 2: 0.2}.get(deal.cards, 1.0)

        def ways_of(counts: tuple[int, ...]) -> dict[str, dict[str, int]]:
            return {
                bet.name: game.settle_rounds(config, bet, game.rounds(config, bet, counts), False)
                for bet in game.definition.bets
            }

        names = {
            bet.name: {str(e.key): e.label for e in game.events(config, bet)}
            for bet in game.definition.bets
        }
        return StateByStateLaw(game.definition.round_cards, ways_of, names, seconds)

    def procedure(self, config: DefinedConfig) -> Procedure:
        definition = self.game.definition
        shoe = config.shoe.build()
        types = shoe.types
        positions = " and ".join(definition.deal.positions)
        if definition.deal.tableau is not None:
            what = f"a round by the tableau (four to six cards) to the {positions}, face up"
        else:
            cards = definition.deal.cards
            count = _WORDS[cards] if cards < len(_WORDS) else str(cards)
            each = (
                f"{count} card{'s' * (cards > 1)} {'each ' * (len(definition.deal.positions) > 1)}"
            )
            if has_whole_table(definition):
                seat, dealer = definition.deal.positions
                positions = f"{seat} seats 1–{definition.deal.seats} and the {dealer}"
            what = f"{each}to the {positions}, face up"
        round_cards = table_cards(definition)
        if config.dealing.reshuffle_every_round:
            if round_cards > shoe.size:
                raise OddsError(f"a round needs {round_cards} cards")
            return Procedure(
                description=f"every round {what}, from freshly shuffled cards.",
                round_cards=round_cards,
                reshuffled_each_round=True,
                deal_round=self._dealer(config),
            )
        base = cut_card_procedure(
            config.dealing,
            shoe.size,
            round_cards,
            points_burn(lambda t: types[t].rank.baccarat_points),
            what,
        )
        if definition.deal.tableau is None:
            return base
        import dataclasses

        return dataclasses.replace(base, deal_round=self._dealer(config))

    def _dealer(self, config: DefinedConfig) -> Callable[[Callable[[], int]], list[int]]:
        """One round from a source of card-type indices, as the definition deals it."""
        types = config.shoe.build().types
        game = self.game

        def deal(draw: Callable[[], int]) -> list[int]:
            shown: list[int] = []

            def card() -> object:
                index = draw()
                shown.append(index)
                return types[index]

            game.deal_round(config, card)
            return shown

        return deal


def table_cards(definition: Definition) -> int:
    """The cards one round takes from the shoe: the whole table (the dealer and every seat)
    for a definition with seats, else the counted round's."""
    if has_whole_table(definition):
        return definition.deal.cards * (definition.deal.seats + 1)
    return definition.round_cards


def polynomial_deal(definition: Definition) -> bool:
    """Whether every bet's EV is one polynomial in the counts (:func:`hands_polynomial`):
    two hands of one or two cards, no tableau, no draw, no exceptions to the order."""
    deal = definition.deal
    return not (
        deal.tableau is not None
        or deal.draw_at_most
        or len(deal.positions) != 2
        or deal.cards not in POLYNOMIAL_HAND_SIZES
        or ranking.has_exceptions(definition)
    )


def hands_polynomial(game: DefinedGame, config: DefinedConfig) -> FallingPolynomial[str] | None:
    """Every bet's EV as one polynomial in the counts, for two hands of one or two cards.

    A hand's class is its strength (when a bet reads the winner) and every feature a
    bet reads; a pair of classes settles each bet as :meth:`DefinedGame.settle_rounds`
    settles its round. ``None`` — count each state instead — for any other deal, a
    ranking with exceptions (they read hand pairs, not classes), or a pair of classes
    some bet cannot settle (the counting then names the round if it is ever dealt).
    """
    definition = game.definition
    deal = definition.deal
    if not polynomial_deal(definition):
        return None
    shoe = config.shoe.build()
    classifier = counting.classifier_for(definition, shoe.types)
    first, second = deal.positions
    needs = [bet_needs(bet, deal.positions) for bet in definition.bets]
    names: set[str] = set().union(*(reads[p] for _, reads in needs for p in deal.positions))
    any_winner = any(winner for winner, _ in needs)

    def classify(hand: tuple[int, ...]) -> tuple[object, tuple[tuple[str, object], ...]]:
        strength = classifier.strength(hand) if any_winner else None
        return strength, tuple(classifier.view(hand, names))

    nets = [{e.key: e.net for e in game.events(config, bet)} for bet in definition.bets]
    unsettled = False

    def payoff(a: tuple[object, Any], b: tuple[object, Any]) -> list[Fraction]:
        nonlocal unsettled
        row = []
        seen = dict(a[1]), dict(b[1])
        for bet, (winner, reads), net in zip(definition.bets, needs, nets, strict=True):
            key: RoundKey = (
                counting.winner_of(definition, a[0], b[0]) if winner else None,
                tuple((n, seen[0][n]) for n in sorted(reads[first])),
                tuple((n, seen[1][n]) for n in sorted(reads[second])),
            )
            try:
                ways = game.settle_rounds(config, bet, {key: 1}, full_shoe=False)
            except OddsError:
                unsettled = True
                row.append(Fraction(0))
                continue
            row.append(next(net[k] for k, n in ways.items() if n))
        return row

    names_of_bets = [bet.name for bet in definition.bets]
    polynomial = two_hand_polynomial(shoe.counts, deal.cards, classify, names_of_bets, payoff)
    return None if unsettled else polynomial
