"""Shoe states of a defined game: every bet's exact EV for any unseen cards, and dealing a shoe.

Each deal is laid out once and evaluated per state, as the coded games were:

* a tableau deal (baccarat as data): the coup bets are the tableau's ordered-deal
  polynomial regrouped by bet and outcome, one evaluation per state (and one
  polynomial of the bets' EVs in double precision with a rigorous bound, for
  simulations); the bets read from the first two cards are closed forms
  (:class:`TableauWays`);
* bets paid by the winner of a showdown, by the winning hand's class (Goa Gae as
  data): the engine's :class:`~odds.engine.showdown_states.SubShowdown`
  (:func:`showdown_evaluator`);
* two hands of one or two cards each (Dragon Tiger, Pok Deng as data): one
  :func:`odds.engine.polynomial.two_hand_polynomial` of the bets' EVs.

Any other deal is counted again for each composition (the same plans as the
report), so ``odds shoe``, ``odds eor`` and ``odds exposure`` work on every
defined game; ``odds reports`` then leaves the Shoe section out
(:attr:`DefinedShoeState.in_reports`: an effect of removal would rerun the count
per card type, about a second each for a three-card showdown).
The procedure is the paytable's ``[dealing]``: the cut-card shoe (the turned card's
burn, 14 cards behind the cut card by default), or one round per shuffle
(``reshuffle_every_round``, one-deck games).

A definition with ``seats`` deals its whole table every round (the dealer and every
seat: twelve cards for Pok Deng's five seats and two cards a hand), as the rule book
does, so a state is what a player watching the table has seen.

"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.engine import hands as engine_hands
from odds.engine.counting import check_total
from odds.engine.polynomial import FallingPolynomial, falling, two_hand_polynomial
from odds.games.dealing import (
    CONTINUOUS,
    Procedure,
    cut_card_procedure,
    every_round_from_full_shoe,
    points_burn,
)
from odds.games.defined import counting, ranking
from odds.games.defined.options import DefinedConfig
from odds.games.defined.riders import with_riders
from odds.games.defined.rounds import RoundKey, bet_needs, cut_key
from odds.games.defined.schema import Definition, Tableau
from odds.games.defined.seats import has_whole_table
from odds.games.defined.words import in_words
from odds.games.features import ShoeStateFeature
from odds.games.shoe_state import (
    OutcomeLaw,
    PolynomialEvaluator,
    StateBet,
    StateByStateLaw,
    StateEvaluator,
)

#: Hand sizes whose two-hand polynomial is cheap to build: two cards from 52 types is
#: ~26,000 correction rows (a second); three cards would be millions (those games are one
#: deck, reshuffled every round, so their states are the full deck anyway).
POLYNOMIAL_HAND_SIZES = (1, 2)

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
        found = []
        for bet in game.definition.bets:
            ways = game.settle_rounds(config, bet, game.rounds(config, bet, counts), False)
            total = sum(ways.values())
            found.append(
                sum(
                    (Fraction(ways[e.key], total) * e.net for e in game.events(config, bet)),
                    Fraction(0),
                )
            )
        # A carrier is valued with the bets riding on its stake, as its report section is.
        found = with_riders(game.definition, found)
        return {bet.name: ev for bet, ev in zip(game.definition.bets, found, strict=True)}

    def forget(self) -> None:
        self.game.__dict__.pop("_rounds_cache", None)


class DefinedShoeState(ShoeStateFeature[DefinedConfig]):
    """Per-state EVs of every bet, and the paytable's ``[dealing]`` procedure."""

    def __init__(self, game: DefinedGame) -> None:
        self.game = game

    @property
    def report_shoes(self) -> int:  # type: ignore[override]
        """Shoes the report simulates: a tableau shoe is ~80 rounds of a millisecond; where a
        state is one polynomial's evaluation, as many as the coded games dealt; few where a
        state costs a count."""
        if self.game.definition.deal.tableau is not None:
            return 20
        return 100 if polynomial_deal(self.game.definition) else 10

    @property
    def in_reports(self) -> bool:  # type: ignore[override]
        """Whether ``odds reports`` adds the Shoe section: when no state is recounted."""
        from odds.games.defined import showdown_tables

        definition = self.game.definition
        deal = definition.deal
        if deal.tableau is not None or polynomial_deal(definition):
            return True
        if ranking.has_exceptions(definition) or deal.draw_at_most:
            return False
        if len(deal.positions) == 2 and deal.cards in POLYNOMIAL_HAND_SIZES:
            return True  # one polynomial
        if deal.cards > 3:  # five-card showdowns (Bull Bull): ~90 s of CPU per report
            return False
        # the showdown evaluator: bets that each read the winner
        return (
            showdown_tables.applies(definition)
            and definition.ties == "tie"
            and all(bet_needs(b, deal.positions)[0] for b in definition.bets)
        )

    def evaluator(self, config: DefinedConfig) -> StateEvaluator:
        fast = fast_evaluator(self.game, config)
        if fast is not None:
            return fast
        polynomial = hands_polynomial(self.game, config)
        if polynomial is None:
            return DefinedEvaluator(self.game, config)
        bets = [StateBet(b.name, b.title) for b in self.game.definition.bets]
        shoe = config.shoe.build()
        return PolynomialEvaluator(shoe, bets, table_cards(self.game.definition), 52, polynomial)

    def outcome_law(self, config: DefinedConfig) -> OutcomeLaw | None:
        """Every bet's outcome ways for a state: laid out once where the deal allows (seats
        against a dealer, a tableau, two hands of one or two cards), else counted again for
        each state (:func:`counting_law`)."""
        game = self.game
        if has_whole_table(game.definition):  # seats against one dealer hand
            from odds.games.defined.seat_law import SeatLaw

            return SeatLaw(game, config)
        fast = fast_law(game, config)
        if fast is not None:
            return fast
        law = polynomial_law(game, config)
        if law is not None:
            return law
        return counting_law(game, config)

    def procedure(self, config: DefinedConfig) -> Procedure:
        definition = self.game.definition
        shoe = config.shoe.build()
        types = shoe.types
        positions = " and ".join(definition.deal.positions)
        if definition.deal.tableau is not None:
            what = f"a coup by the tableau (four to six cards) to the {positions}, face up"
        else:
            cards = definition.deal.cards
            count = in_words(cards)
            each = (
                f"{count} card{'s' * (cards > 1)} {'each ' * (len(definition.deal.positions) > 1)}"
            )
            if has_whole_table(definition):
                seat, dealer = definition.deal.positions
                positions = f"{seat} seats 1–{definition.deal.seats} and the {dealer}"
            what = f"{each}to the {positions}, face up"
        round_cards = table_cards(definition)
        if every_round_from_full_shoe(config.dealing):
            if round_cards > shoe.size:
                raise OddsError(f"a round needs {round_cards} cards")
            source = (
                "a continuous shuffling machine (the full shoe)"
                if config.dealing.shuffle == CONTINUOUS
                else "freshly shuffled cards"
            )
            return Procedure(
                description=f"every round {what}, from {source}.",
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
        import dataclasses

        if config.dealing.last_round == "one-more":
            base = dataclasses.replace(
                base,
                description=base.description.removesuffix(" is the last.")
                + " is finished, then one more round is dealt.",
                rounds_after_cut=1,
            )
        if definition.deal.tableau is None:
            return base
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


def _pair_settlement(
    game: DefinedGame, config: DefinedConfig
) -> tuple[Callable[[tuple[int, ...]], Any], Callable[[Any, Any], list[Any]]] | None:
    """How two hands of one or two cards settle, by class: ``(classify, settle)``.

    A hand's class is its strength (when a bet reads the winner) and every feature a
    bet reads; ``settle(first class, second class)`` gives each bet's event key (``None``
    where the bet cannot settle that pair), as :meth:`DefinedGame.settle_rounds` settles
    the round. ``None`` for any deal that is not :func:`polynomial_deal`. Both the EV
    polynomial and the outcome law are built from it, so they cannot disagree.
    """
    definition = game.definition
    deal = definition.deal
    if not polynomial_deal(definition):
        return None
    classifier = counting.classifier_for(definition, config.shoe.build().types)
    first, second = deal.positions
    needs = [bet_needs(bet, deal.positions) for bet in definition.bets]
    names: set[str] = set().union(*(reads[p] for _, reads in needs for p in deal.positions))
    any_winner = any(winner for winner, _ in needs)

    def classify(hand: tuple[int, ...]) -> tuple[object, tuple[tuple[str, object], ...]]:
        strength = classifier.strength(hand) if any_winner else None
        return strength, tuple(classifier.view(hand, names))

    def settle(a: tuple[object, Any], b: tuple[object, Any]) -> list[Any]:
        keys: list[Any] = []
        for bet, (winner, reads) in zip(definition.bets, needs, strict=True):
            who = counting.winner_of(definition, a[0], b[0]) if winner else None
            key = cut_key(who, (first, second), reads, (a[1], b[1]))
            try:
                ways = game.settle_rounds(config, bet, {key: 1}, full_shoe=False)
            except OddsError:
                keys.append(None)
                continue
            keys.append(next(k for k, n in ways.items() if n))
        return keys

    return classify, settle


def hands_polynomial(game: DefinedGame, config: DefinedConfig) -> FallingPolynomial[str] | None:
    """Every bet's EV as one polynomial in the counts, for two hands of one or two cards.

    ``None`` — count each state instead — for any other deal, a ranking with exceptions
    (they read hand pairs, not classes), or a pair of classes some bet cannot settle (the
    counting then names the round if it is ever dealt). See :func:`_pair_settlement`.
    """
    found: FallingPolynomial[str] | None = _kept(game, config, _build_hands_polynomial)
    return found


#: Readings (configs) whose polynomials one game keeps: building Pok Deng's takes a second
#: and a half, and a session (the API, a test run) asks for the same reading again.
_POLYNOMIALS_KEPT = 8


def _kept(game: DefinedGame, config: DefinedConfig, build: Callable[..., Any]) -> Any:
    """``build(game, config)``, kept on the game per reading (a few at most): a polynomial
    depends on nothing else, and the game is the registry's, so it lives as long as the
    definition it was built from."""
    kept = game.__dict__.setdefault(f"_kept_{build.__name__}", {})
    if config not in kept:
        if len(kept) >= _POLYNOMIALS_KEPT:
            kept.clear()
        kept[config] = build(game, config)
    return kept[config]


def _build_hands_polynomial(
    game: DefinedGame, config: DefinedConfig
) -> FallingPolynomial[str] | None:
    settlement = _pair_settlement(game, config)
    if settlement is None:
        return None
    classify, settle = settlement
    definition = game.definition
    nets = [{e.key: e.net for e in game.events(config, bet)} for bet in definition.bets]
    unsettled = False

    def payoff(a: Any, b: Any) -> list[Fraction]:
        nonlocal unsettled
        keys = settle(a, b)
        unsettled = unsettled or None in keys
        found = [Fraction(0) if k is None else net[k] for k, net in zip(keys, nets, strict=True)]
        return with_riders(definition, found)

    names_of_bets = [bet.name for bet in definition.bets]
    shoe = config.shoe.build()
    polynomial = two_hand_polynomial(
        shoe.counts, definition.deal.cards, classify, names_of_bets, payoff
    )
    return None if unsettled else polynomial


def counting_law(game: DefinedGame, config: DefinedConfig) -> StateByStateLaw:
    """The outcome law by counting the definition again for each state (any deal).

    The cost per state is the report's count for that composition; measured (one state,
    idle core): about 5 ms for one card a hand, 10 to 60 ms for a tableau, 0.2 s for two
    cards a hand, 0.3 to 0.9 s for three (Teen Patti 20-20, Win Three Cards, San Gong).
    """
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


class PolynomialLaw(OutcomeLaw):
    """Every bet's outcome ways for a batch of states, as one polynomial's evaluation.

    For two hands of one or two cards (Dragon Tiger as data) the ways of each
    ``(bet, event)`` are a polynomial in the counts — the two-hand polynomial of the
    event's indicator — so the audit's shoe-aware tests evaluate every state of a log
    in one batch instead of counting each again (measured: a 2,000-round Dragon Tiger
    audit spent 30 s of CPU counting its 1,950 states one by one). Each row's ways add
    up to the state's deals (times a scale common to the row).
    """

    seconds_per_round = 1e-4  # measured: about 0.05 ms a state, in batches

    def __init__(
        self,
        round_cards: int,
        polynomial: FallingPolynomial[str],
        keys: dict[str, list[tuple[int, str]]],
    ) -> None:
        super().__init__(round_cards)
        self.polynomial = polynomial
        self.keys = keys  # bet -> [(column of the polynomial, event label)]

    def __call__(
        self, states: Any, shared: Sequence[tuple[int, ...]] | None = None
    ) -> dict[str, tuple[list[str], Any]]:
        import numpy as np

        numerators = np.asarray(self.polynomial.numerators(np.asarray(states)), dtype=object)
        numerators = numerators.reshape(len(states), -1)
        found = {}
        for bet, columns in self.keys.items():
            labels = list(dict.fromkeys(label for _, label in columns))
            where = {label: i for i, label in enumerate(labels)}
            ways = np.zeros((len(states), len(labels)), dtype=object)
            for column, label in columns:
                ways[:, where[label]] += numerators[:, column]
            found[bet] = (labels, ways)
        return found


def polynomial_law(game: DefinedGame, config: DefinedConfig) -> PolynomialLaw | None:
    """The outcome law of a :func:`polynomial_deal` (``None``: another deal, or a pair of
    hands some bet cannot settle)."""
    found: PolynomialLaw | None = _kept(game, config, _build_polynomial_law)
    return found


def _build_polynomial_law(game: DefinedGame, config: DefinedConfig) -> PolynomialLaw | None:
    settlement = _pair_settlement(game, config)
    if settlement is None:
        return None
    classify, settle = settlement
    definition = game.definition
    events = [[e.key for e in game.events(config, bet)] for bet in definition.bets]
    labels = [{e.key: e.label for e in game.events(config, bet)} for bet in definition.bets]
    columns = [(b, key) for b, keys in enumerate(events) for key in keys]
    column_of = {c: i for i, c in enumerate(columns)}
    unsettled = False

    def indicators(a: Any, b: Any) -> list[Fraction]:
        nonlocal unsettled
        row = [Fraction(0)] * len(columns)
        for bet, key in enumerate(settle(a, b)):
            if key is None:
                unsettled = True
            else:
                row[column_of[bet, key]] = Fraction(1)
        return row

    shoe = config.shoe.build()
    names = [f"{b}:{key}" for b, key in columns]
    polynomial = two_hand_polynomial(
        shoe.counts, definition.deal.cards, classify, names, indicators
    )
    if unsettled:
        return None
    keys = {
        bet.name: [(column_of[b, key], labels[b][key]) for key in events[b]]
        for b, bet in enumerate(definition.bets)
    }
    return PolynomialLaw(definition.round_cards, polynomial, keys)


# ---------------------------------------------------------------------------
# Tableau deals: the coup bets as one polynomial, the first-card bets in closed form


class TableauWays:
    """Every bet's outcome ways of a tableau deal, for any composition (built once).

    The coup bets (winner, points, cards, naturals) settle each finished coup into one
    outcome, so the tableau's ordered-deal polynomial regrouped by ``(bet, outcome)`` is
    every coup bet's outcome ways at once: a state is one evaluation of one polynomial
    (:func:`coup_outcome_polynomial`, cached per tableau and settlement). The bets that
    read the first two cards' ranks or suits are the two-hand closed forms of
    :mod:`odds.games.defined.first_cards`. Nothing is recounted between states.
    """

    def __init__(self, game: DefinedGame, config: DefinedConfig, assignment: Any) -> None:
        definition = game.definition
        self.game, self.config = game, config
        self.types = config.shoe.build().types
        tableau = definition.deal.tableau
        assert tableau is not None
        self.polynomial = coup_outcome_polynomial(tableau, *assignment)
        self.coup_bets = [bet for bet in definition.bets if not _reads_first_cards(game, bet)]
        self.settled: dict[str, dict[Any, str]] = {}  # bet → pair of views → outcome
        self.groupings: dict[frozenset[str], Any] = {}
        self.card_bets = [
            (bet, bet_needs(bet, definition.deal.positions)[1])
            for bet in definition.bets
            if _reads_first_cards(game, bet)
        ]

    @classmethod
    def of(cls, game: DefinedGame, config: DefinedConfig) -> TableauWays | None:
        """The ways of ``game``'s bets, or ``None`` when a coup bet leaves a coup unsettled."""
        from odds.games.defined.counting import (
            check_details,
            coup_details,
            coup_round_key,
            tableau_polynomial,
        )

        definition = game.definition
        tableau = definition.deal.tableau
        if tableau is None:
            return None
        coup_bets = [bet for bet in definition.bets if not _reads_first_cards(game, bet)]
        # The drawn-card details any coup bet reads: one polynomial carries them all.
        every: set[Any] = set()
        for bet in coup_bets:
            every.update(coup_details(definition, bet_needs(bet, definition.deal.positions)[1]))
        details = tuple(sorted(every))
        check_details(definition, details)
        coups = tableau_polynomial(tableau, details).keys
        per_bet = []
        for bet in coup_bets:
            winner, reads = bet_needs(bet, definition.deal.positions)
            settled = []
            for coup in coups:
                key = coup_round_key(definition, coup, winner, reads, details)
                outcome = _settled_by(game, config, bet, key)
                if outcome is None:
                    return None
                settled.append(outcome.key)
            per_bet.append((bet.name, tuple(o.key for o in bet.outcomes), tuple(settled)))
        return cls(game, config, (tuple(per_bet), details))

    def __call__(self, counts: Sequence[int]) -> dict[str, dict[str, int]]:
        from odds.games.defined.counting import value_counts

        definition = self.game.definition
        ways = self.polynomial.ways(value_counts(definition, self.types, counts))
        found: dict[str, dict[str, int]] = {}
        for bet in definition.bets:
            found[bet.name] = {o.key: ways.get((bet.name, o.key), 0) for o in bet.outcomes}
        found.update(self.card_ways(counts))
        return found

    def card_ways(self, counts: Sequence[int]) -> dict[str, dict[str, int]]:
        """The outcome ways of the bets read from the first two cards (closed forms)."""
        from odds.games.defined import first_cards

        definition = self.game.definition
        found: dict[str, dict[str, int]] = {}
        joints: dict[frozenset[str], Any] = {}  # bets reading the same features share one
        for bet, reads in self.card_bets:
            names = frozenset().union(*reads.values())
            joint = joints.get(names)
            if joint is None:
                grouped = self.groupings.get(names)
                if grouped is None:
                    grouped = self.groupings[names] = first_cards.grouping(self.types, names)
                joint = joints[names] = first_cards.first_card_joint(
                    definition, self.types, counts, set(names), grouped
                )
                total = falling(sum(counts), first_cards.ROUND_CARDS)
                check_total(joint, total, f"{definition.source}: first-card rounds")
            found[bet.name] = ways = dict.fromkeys((o.key for o in bet.outcomes), 0)
            # A pair of views settles the same way in every state: its outcome is kept (the
            # round key it cuts to, first_cards.first_card_rounds's, worked out once).
            outcomes = self.settled.setdefault(bet.name, {})
            for views, n in joint.items():
                outcome = outcomes.get(views)
                if outcome is None:  # first met: settled (and checked) as the report does
                    key = cut_key(None, definition.deal.positions, reads, views)
                    settled = self.game.settle_rounds(self.config, bet, {key: 1}, False)
                    outcome = outcomes[views] = next(k for k, v in settled.items() if v)
                ways[outcome] += n
        return found


def _reads_first_cards(game: DefinedGame, bet: Any) -> bool:
    from odds.games.defined.first_cards import reads_first_cards

    return reads_first_cards(bet_needs(bet, game.definition.deal.positions)[1])


def _settled_by(game: DefinedGame, config: DefinedConfig, bet: Any, key: RoundKey) -> Any | None:
    """The outcome that settles the round ``key`` (``None``: none or two do)."""
    try:
        ways = game.settle_rounds(config, bet, {key: 1}, full_shoe=False)
    except OddsError:
        return None
    return next(o for o in bet.outcomes if ways[o.key])


@cached(maxsize=16)
def coup_outcome_polynomial(
    tableau: Tableau,
    assignment: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...],
    details: tuple[Any, ...] = (),
) -> FallingPolynomial[Any]:
    """The tableau's coups regrouped into ``(bet, outcome)`` keys.

    ``assignment`` holds, per coup bet, its name, its outcome keys and the outcome of each
    coup of :func:`~odds.games.defined.counting.tableau_polynomial` with the drawn-card
    ``details`` the bets read (in its key order); every bet's outcomes add up to the
    ordered deals (checked on each evaluation).
    """
    from odds.games.defined.counting import tableau_polynomial

    polynomial = tableau_polynomial(tableau, details)
    column = {coup: j for j, coup in enumerate(polynomial.keys)}

    def assign(coup: Any) -> list[tuple[str, str]]:
        j = column[coup]
        return [(name, settled[j]) for name, _, settled in assignment]

    partitions = [[(name, key) for key in keys] for name, keys, _ in assignment]
    return polynomial.regroup(assign, partitions)


class TableauEvaluator(StateEvaluator):
    """Every bet's exact EV of a tableau deal for a composition (:class:`TableauWays`)."""

    fast_path = True

    def __init__(self, game: DefinedGame, config: DefinedConfig, ways: TableauWays) -> None:
        shoe = config.shoe.build()
        bets = [StateBet(b.name, b.title) for b in game.definition.bets]
        super().__init__(shoe, bets, game.definition.round_cards, 52)
        self.ways = ways
        # Each bet's nets over one common denominator: an EV is then one Fraction.
        self.nets: dict[str, tuple[dict[str, int], int]] = {}
        for bet in game.definition.bets:
            nets = {e.key: Fraction(e.net) for e in game.events(config, bet)}
            scale = lcm(*(n.denominator for n in nets.values()))
            self.nets[bet.name] = ({k: int(n * scale) for k, n in nets.items()}, scale)
        self._ev_polynomial: FallingPolynomial[str] | None = None

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        counts = self.check(counts)
        return self._evs(self.ways(counts), sum(counts))

    def _evs(self, outcome_ways: dict[str, dict[str, int]], size: int) -> dict[str, Fraction]:
        return {bet: Fraction(*q) for bet, q in self._quotients(outcome_ways, size).items()}

    def _quotients(
        self, outcome_ways: dict[str, dict[str, int]], size: int
    ) -> dict[str, tuple[int, int]]:
        """Each bet's EV as (numerator, denominator) integers."""
        total = falling(size, self.round_cards)
        found = {}
        for bet, ways in outcome_ways.items():
            nets, scale = self.nets[bet]
            found[bet] = (sum(nets[k] * n for k, n in ways.items()), total * scale)
        return found

    def approximate(self, counts: Sequence[int]) -> dict[str, tuple[float, float]]:
        """The coup bets in double precision with a rigorous bound (one polynomial whose
        keys are the bets' EVs), the first-card bets exactly (closed forms, cheap)."""
        from odds.games.defined.counting import value_counts

        counts = self.check(counts)
        values = self.ev_polynomial().approximate(
            value_counts(self.ways.game.definition, self.ways.types, counts)
        )
        exact = self._quotients(self.ways.card_ways(counts), sum(counts))
        found = {bet.name: values.get(bet.name) for bet in self.bets}
        for name, (numerator, denominator) in exact.items():
            # A quotient of integers is correctly rounded, as float(Fraction) is: no gcd.
            found[name] = (numerator / denominator, 0.0)
        return {name: value for name, value in found.items() if value is not None}

    def ev_polynomial(self) -> FallingPolynomial[str]:
        """The coup bets' EVs as one polynomial: each coup's ordered ways times its net."""
        if self._ev_polynomial is None:
            import numpy as np

            ways = self.ways.polynomial
            names = [bet.name for bet in self.ways.coup_bets]
            scale = lcm(*(self.nets[name][1] for name in names))
            column = {key: j for j, key in enumerate(ways.keys)}
            nets = np.zeros((len(ways.keys), len(names)), dtype=np.int64)
            for b, name in enumerate(names):
                bet_nets, bet_scale = self.nets[name]
                for key, net in bet_nets.items():
                    if (name, key) in column:
                        nets[column[name, key], b] = net * (scale // bet_scale)
            self._ev_polynomial = FallingPolynomial(
                ways.types,
                names,
                ways.exponents,
                ways.coefficients @ nets,
                extended=True,
                length=ways.length,
                scale=scale,
            )
        return self._ev_polynomial


def fast_evaluator(game: DefinedGame, config: DefinedConfig) -> StateEvaluator | None:
    """An evaluator laid out once and evaluated per state without recounting: a tableau's
    polynomial, or a showdown's inclusion–exclusion (``None``: neither applies)."""
    ways = TableauWays.of(game, config)
    if ways is not None:
        return TableauEvaluator(game, config, ways)
    return showdown_evaluator(game, config)


# ---------------------------------------------------------------------------
# Showdowns: bets that pay by the winner's hand


class ShowdownEvaluator(StateEvaluator):
    """Bets settled by who wins a showdown, each paying by the winning hand's class.

    A bet whose net is ``win(first hand)`` when the first position wins, ``−cost(second
    hand)`` when the second wins and a constant on equal hands (Goa Gae's Player bet,
    with or without category bonuses) is the engine's
    :class:`~odds.engine.showdown_states.SubShowdown`, laid out once for every
    composition below the full shoe (a tie's constant adds its share, from a second one).
    """

    def __init__(
        self,
        game: DefinedGame,
        config: DefinedConfig,
        showdowns: dict[str, tuple[Any, Fraction, Any]],
    ) -> None:
        shoe = config.shoe.build()
        bets = [StateBet(b.name, b.title) for b in game.definition.bets]
        super().__init__(shoe, bets, game.definition.round_cards, 52)
        self.showdowns = showdowns

    def evs(self, counts: Sequence[int]) -> dict[str, Fraction]:
        counts = self.check(counts)
        found = {}
        for name, (pays, tie, decided) in self.showdowns.items():
            ev = pays.ev(counts)
            if tie:
                ev += tie * (1 - decided.ev(counts))
            found[name] = ev
        return found


_ZERO = Fraction(0)


def showdown_evaluator(game: DefinedGame, config: DefinedConfig) -> StateEvaluator | None:
    """A :class:`ShowdownEvaluator` when every bet pays by the winning hand (else ``None``).

    Each bet is settled for every winner and pair of the two positions' views; its net
    must then depend on the first position's view alone when it wins, on the second's
    when it wins, and on nothing on equal hands; and each strength key must have one
    such net (what the engine's showdown reads). Exceptions (``beats``) and equal hands
    won by a position are left to the recount.
    """
    from odds.engine.showdown_states import SubShowdown
    from odds.games.defined import showdown_tables
    from odds.games.defined.counting import classifier_for

    definition = game.definition
    if (
        not showdown_tables.applies(definition)
        or ranking.has_exceptions(definition)
        or definition.ties != "tie"
    ):
        return None
    first, second = definition.deal.positions
    shoe = config.shoe.build()
    classifier = classifier_for(definition, shoe.types)
    hands_ = [hand for hand, _ in engine_hands(shoe.counts, definition.deal.cards)]
    if not all(bet_needs(bet, definition.deal.positions)[0] for bet in definition.bets):
        return None  # a bet that does not read the winner
    settled: list[tuple[str, dict[Any, Fraction], dict[Any, Fraction], Fraction]] = []
    for bet in definition.bets:
        _, reads = bet_needs(bet, definition.deal.positions)
        nets = {e.key: Fraction(e.net) for e in game.events(config, bet)}
        views = {p: {h: classifier.view(h, reads[p]) for h in hands_} for p in (first, second)}
        pays = _showdown_nets(game, config, bet, nets, set(views[first].values()),
                              set(views[second].values()))  # fmt: skip
        if pays is None:
            return None
        wins, losses, tie = pays
        by_key: dict[str, dict[Any, Fraction]] = {first: {}, second: {}}
        for position, table in ((first, wins), (second, losses)):
            for hand, view in views[position].items():
                key = classifier.strength(hand)
                net = table.get(view)
                if net is None:
                    continue
                if by_key[position].setdefault(key, net) != net:
                    return None  # a strength key with two nets: not the engine's showdown
        settled.append((bet.name, by_key[first], by_key[second], tie))
    size = definition.deal.cards
    showdowns: dict[str, tuple[Any, Fraction, Any]] = {}
    for name, wins_by_key, losses_by_key, tie in settled:

        def win(key: Any, found: dict[Any, Fraction] = wins_by_key) -> Fraction:
            return found.get(key, _ZERO)

        def cost(key: Any, found: dict[Any, Fraction] = losses_by_key) -> Fraction:
            return -found.get(key, _ZERO)

        paying = SubShowdown(shoe.counts, size, classifier.strength, win, cost)
        decided = None
        if tie:
            decided = SubShowdown(
                shoe.counts, size, classifier.strength, lambda _: Fraction(1),
                lambda _: Fraction(-1),
            )  # fmt: skip
        showdowns[name] = (paying, tie, decided)
    return ShowdownEvaluator(game, config, showdowns)


def _showdown_nets(
    game: DefinedGame,
    config: DefinedConfig,
    bet: Any,
    nets: dict[str, Fraction],
    first_views: set[Any],
    second_views: set[Any],
) -> tuple[dict[Any, Fraction], dict[Any, Fraction], Fraction] | None:
    """The bet's net by the winner's view, and on equal hands (``None``: it reads more)."""
    first, second = game.definition.deal.positions
    wins: dict[Any, Fraction] = {}
    losses: dict[Any, Fraction] = {}
    ties: set[Fraction] = set()
    for v1 in first_views:
        for v2 in second_views:
            for who in (first, second, "tie"):
                outcome = _settled_by(game, config, bet, (who, v1, v2))
                if outcome is None:
                    continue  # a round no outcome (or two) settles never happens
                net = nets[outcome.key]
                if who == "tie":
                    ties.add(net)
                elif who == first:
                    if wins.setdefault(v1, net) != net:
                        return None
                elif losses.setdefault(v2, net) != net:
                    return None
    if len(ties) > 1:
        return None
    return wins, losses, next(iter(ties), Fraction(0))


def fast_law(game: DefinedGame, config: DefinedConfig) -> StateByStateLaw | None:
    """The outcome law from the same ways as the fast evaluator (``None``: none)."""
    ways = TableauWays.of(game, config)
    if ways is None:
        return None
    names = {
        bet.name: {str(e.key): e.label for e in game.events(config, bet)}
        for bet in game.definition.bets
    }
    # measured: about 2 ms a coup (a polynomial evaluation and the pair bets' closed forms)
    return StateByStateLaw(game.definition.round_cards, ways, names, seconds_per_round=3e-3)
