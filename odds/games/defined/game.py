"""A defined game: a :class:`~odds.games.base.Game` compiled from a definition (data).

Every command that works on a coded game works on it: ``report``, ``settle``,
``verify``, ``solve``, ``simulate``, ``audit``, ``games`` and the API see a
``Game`` whose analysis is counted by :mod:`odds.games.defined.counting`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Any

from odds.core.cards import Card
from odds.core.errors import OddsError, PositionError
from odds.core.settlement import SettledBet, SettledHand, Settlement
from odds.core.table import Column, Kind, Table
from odds.engine import (
    DealtMoments,
    card_moments,
    class_distribution,
    deal_count,
    dealt_moments,
    falling,
)
from odds.games.base import Game, HandKey
from odds.games.defined import (
    continuation,
    counting,
    decisions,
    fair,
    patterns,
    ranking,
    riders,
    seats,
    until_match,
)
from odds.games.defined.options import DefinedConfig, payout_values
from odds.games.defined.report_tables import analysis_tables, defined_strength
from odds.games.defined.rounds import (
    RoundKey,
    bet_needs,
    bet_reading,
    holding,
    net_of,
    round_text,
)
from odds.games.defined.schema import (
    ACTION,
    COVER,
    FIRST_CARD_FEATURES,
    BetDefinition,
    Definition,
    Outcome,
    pattern_keys,
)
from odds.games.defined.words import in_words, points_text
from odds.games.events import Event, labelled_ratio, reason, settled_bet
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet
from odds.stats.bets import Outcome as BetOutcome

if TYPE_CHECKING:
    from odds.games.defined.registry import Family
    from odds.games.defined.shoe_state import DefinedShoeState


class DefinedGame(Game[DefinedConfig]):
    """A game whose shoe, deal, hand classes and bets are a definition's data.

    One object per reading of the definition's options (``family`` holds the others and
    the paytable schema every reading shares: :class:`odds.games.defined.registry.Family`).
    """

    config_type = DefinedConfig

    def __init__(self, name: str, definition: Definition, family: Family | None = None) -> None:
        from odds.games.defined.whole_table_tables import stakes_feature

        self.definition = definition
        self.family = family
        deal = definition.deal
        goes_on = definition.continuation
        self.__dict__.update(
            config_type=family.config_type if family is not None else DefinedConfig,
            stakes=stakes_feature(self),
            strength=defined_strength(self),
            name=name,
            title=definition.title or name,
            # A dealer's hand first, as a log or ``settle`` lists the hand every seat meets.
            positions=(deal.positions[1], deal.positions[0])
            if deal.dealer
            else (*deal.positions, goes_on.to)
            if goes_on is not None and goes_on.to
            else deal.positions,
            bet_names=tuple(b.name for b in definition.bets),
            hand_size=0
            if deal.tableau or deal.draw_at_most or goes_on or deal.until_match
            else deal.cards,
            log_hand_sizes=(
                (2, 3)
                if deal.tableau
                else (deal.cards, deal.cards + 1)
                if deal.draw_at_most
                else tuple(sorted({0, deal.cards, goes_on.cards}))
                if goes_on and goes_on.to  # the continuation's own position may be empty
                else (deal.cards, deal.cards + goes_on.cards)
                if goes_on
                else ()
            ),
            # Only a drawing deal, or one that goes on, takes a varying number of cards (0:
            # the hands' sizes).
            max_round_cards=(
                6 if deal.tableau else definition.round_cards if deal.draw_at_most or goes_on else 0
            ),
            # Every seat meets the same dealer hand: a log's rows of one round repeat it.
            shared_positions=(deal.positions[1],) if deal.dealer else (),
            hand_example=(
                "two or three cards, e.g. '9d 7c'"
                if deal.tableau
                else continuation.hand_example(definition)
                if goes_on
                else "the cards in dealing order, e.g. '7h' or '2c 9d 7s'"
                if deal.until_match
                else f"{in_words(deal.cards)} card{'s' * (deal.cards > 1)}, e.g. "
                f"'{' '.join(['Kh', '9d', '7c', '2s', 'Ah'][: min(deal.cards, 5)])}'"
            ),
        )

    def parse_hand(self, config: DefinedConfig, text: str) -> tuple[Any, ...]:
        """A hand as written in a log; a continuation's own position (Red Dog's third card)
        is empty ("" or "-") in a round whose deal stopped."""
        parsed: dict[str, tuple[Any, ...]] = self.__dict__.setdefault("_parsed_hands", {})
        found = parsed.get(text)
        if found is None:
            continuation = self.definition.continuation
            if continuation is not None and continuation.to and text.strip() in ("", "-"):
                found = ()
            else:  # the cards a text names, whatever the config: kept per text
                found = super().parse_hand(config, text)
            if len(parsed) < MEMO_KEPT:
                parsed[text] = found
        return found

    def goes_on(self) -> bool:
        deal = self.definition.deal
        return self.definition.continuation is not None and not (deal.tableau or deal.draw_at_most)

    def first_deal(self, config: DefinedConfig, hands: Sequence[str]) -> tuple[Any, ...] | None:
        """A deal that goes on (a war, Red Dog's third card): the first ``deal.cards`` of each
        first-dealt position's hand, dealt before the rules look at any card."""
        if not self.goes_on():
            return None
        deal = self.definition.deal
        hand_of = dict(zip(self.positions, hands, strict=True))
        return tuple(
            card
            for p in deal.positions
            for card in self.parse_hand(config, hand_of[p])[: deal.cards]
        )

    @cached_property
    def shoe_state(self) -> DefinedShoeState | None:  # type: ignore[override]
        """``odds shoe``/``eor``/``exposure``/``audit``: made when first asked (a report never
        asks, and the shoe-state modules are a few ms of every start to import).

        None for a deal that goes on (not counted per shoe state yet: the commands say so in
        one line), and for an until-match deal: one round may take every card of the shoe,
        and a card turned up with nothing left to match it would never end its round, so such
        a game (Andar Bahar) deals a fresh deck every round and has no shoe states.
        """
        if self.definition.deal.until_match is not None:
            return None
        from odds.games.defined.shoe_state import DefinedShoeState

        if self.definition.continuation is not None:
            return None
        return DefinedShoeState(self)

    def for_config(self, config: DefinedConfig) -> DefinedGame:
        """The game of this paytable's reading of the declared options (this one, or the
        same definition read under the paytable's values)."""
        return self if self.family is None else self.family.game(config)

    # -- validation ------------------------------------------------------

    def validate(self, config: DefinedConfig) -> None:
        payouts = payout_values(config)
        if isinstance(config.payouts, Mapping):  # the free payouts of a definition declaring none
            self._check_named(payouts)
        for bet in self.definition.bets:
            _check_commissions(self.definition, bet, payouts)
            _check_withheld(self.definition, bet, payouts)
            if bet.per_hand:
                _check_per_hand(self.definition, bet)
        shoe = config.shoe.build()
        _, counts = counting.by_rank_where_large(
            self.definition, shoe.types, shoe.counts, True, {"": {"category"}}
        )
        held = sum(1 for n in counts if n)
        counting.check_bounds(self.definition, held, shoe.size, joint=False)

    def _check_named(self, payouts: Mapping[str, Fraction]) -> None:
        """Every payout an outcome names is given, and every one given is named."""
        named = {o.net for b in self.definition.bets for o in b.outcomes if isinstance(o.net, str)}
        named |= {
            b.withholding
            for b in self.definition.bets
            if isinstance(b.withholding, str) and b.withholding != COVER
        }
        named |= {
            o.commission for b in self.definition.bets for o in b.outcomes
            if isinstance(o.commission, str)
        }  # fmt: skip
        missing = sorted(named - set(payouts))
        if missing:
            bet, outcome = _naming(self.definition, missing[0])
            verb = (
                "withholding"
                if outcome.net != missing[0]
                else "loses"
                if outcome.loses_named
                else "pays"
            )
            raise OddsError(
                f"{self.definition.source}: definition.bets.{bet.name} (line {outcome.line}): "
                f"{verb} {missing[0]!r}, but [payouts] has no {missing[0]}"
            )
        unused = sorted(set(payouts) - named)
        if unused:
            raise OddsError(
                f"{self.definition.source}: payouts.{unused[0]}: no outcome pays it "
                f"(named: {', '.join(sorted(named)) or 'none'})"
            )

    # -- analysis --------------------------------------------------------

    def rounds(
        self, config: DefinedConfig, bet: BetDefinition, counts: Any = None
    ) -> dict[RoundKey, int]:
        """Ways per round key for one bet's reads (``counts``: another composition)."""
        if continuation.counted_here(self, bet):  # a deal that goes on
            return continuation.rounds(self, config, bet, counts)
        shoe = config.shoe.build()
        counts = shoe.counts if counts is None else counts
        if decisions.reads_action(self, bet):  # the rounds the strategy plays
            return self.solution(config, counts).rounds
        winner, reads = bet_needs(bet, self.definition.deal.positions)
        return self._rounds(shoe.types, tuple(counts), winner, reads)

    def solution(self, config: DefinedConfig, counts: Any = None) -> decisions.Solution:
        """The decision solved on the paytable's shoe, under its payouts: the optimal action
        per hand and the rounds it plays (kept per composition).

        On another composition (``counts``: a shoe state of ``odds shoe``, ``eor``,
        ``exposure``) the paytable's optimal strategy is played, not solved again: the
        player decides on its own cards, as the report's strategy says (so removing a random
        card changes the EV by nothing on average, the effects of removal's identity).
        """
        shoe = config.shoe.build()
        own = tuple(shoe.counts)
        counts = tuple(own if counts is None else counts)
        payouts = payout_values(config)
        key = (shoe.types, counts, tuple(sorted(payouts.items())))
        cache: dict[Any, decisions.Solution] = self.__dict__.setdefault("_solutions", {})
        found = cache.get(key)
        if found is None:
            fixed = None if counts == own else self.solution(config).strategy()
            found = decisions.solve(self, payouts, shoe.types, counts, fixed)
            if len(cache) > 8:
                cache.clear()
            cache[key] = found
        if counts == own and self.__dict__.get("plays") is not None:
            assert found.fixed is not None  # checked by :meth:`playing`
            return found.fixed  # the fixed strategy is the one played (odds simulate, audit)
        return found

    def playing(self, strategy: str | None) -> DefinedGame:
        """This game with the definition's fixed strategy ``strategy`` (its name) played
        instead of the optimal one: its bets, settlements and rounds under that strategy
        (``odds simulate --strategy``, an audit of a log that follows it). ``None`` or
        ``"optimal"``: the game itself. An unknown name is a one-line error."""
        decision = self.definition.decision
        if strategy is None or strategy == "optimal":
            return self
        if decision is None:
            raise OddsError(f"--strategy {strategy}: {self.name} has no player decision")
        names = self.strategy_names()
        if strategy not in names or decision.at != "deal":
            raise OddsError(
                f"--strategy {strategy}: {self.name}'s strategies are {', '.join(names)}"
            )
        played = object.__new__(DefinedGame)
        # the attributes __init__ sets, not what was counted under the optimal strategy
        made = {k: v for k, v in self.__dict__.items() if not k.startswith("_")}
        played.__dict__.update({k: v for k, v in made.items() if k != "shoe_state"})
        played.__dict__.update(plays=strategy)
        return played

    def strategy_names(self) -> tuple[str, ...]:
        """The strategies a round may be played by: ``optimal`` (the engine's) and the
        definition's fixed one, when it gives one at the deal (none without a decision)."""
        decision = self.definition.decision
        if decision is None:
            return ()
        fixed = decision.strategy if decision.at == "deal" else None
        return ("optimal", *((fixed.name,) if fixed is not None else ()))

    def round_action(self, config: DefinedConfig, hands: Mapping[str, str]) -> str | None:
        """The action the strategy played takes in a round given as hand texts (``None``:
        no decision, or the round never reaches it)."""
        held, _ = self._checked_round(config, hands)
        return self._best_action(config, held)

    def _rounds(
        self, types: Any, counts: tuple[int, ...], winner: bool, reads: dict[str, set[str]]
    ) -> dict[RoundKey, int]:
        key = (
            types,
            counts,
            winner,
            tuple(sorted((p, tuple(sorted(r))) for p, r in reads.items())),
        )
        cache: dict[Any, dict[RoundKey, int]] = self.__dict__.setdefault("_rounds_cache", {})
        found = cache.get(key)
        if found is None:
            if self.definition.deal.tableau is not None:
                found = counting.tableau_rounds(self.definition, types, counts, winner, reads)
            elif self.definition.deal.until_match is not None:
                found = until_match.rounds(self.definition, types, counts, winner, reads)
            else:
                found = counting.hand_rounds(self.definition, types, counts, winner, reads)
            if len(cache) > 64:
                cache.clear()
            cache[key] = found
        return found

    def hand_keys(self, config: DefinedConfig) -> Callable[[tuple[Any, ...]], HandKey]:
        """How ``odds audit`` groups hands: by what :meth:`settle` reads of a hand.

        For a deal of hands alone (no tableau, no deal until a match, no continuation, no
        decision, no tiles), a round's bets read each hand's features that some bet reads
        (:func:`~odds.games.defined.patterns.view`, by name: a view by every name any bet
        reads of either position holds each bet's view) and, for the winner, the hands'
        strength order (an exception to it by the categories: ``category`` is then read);
        a hand's class is its label; the deal's checks read the number of cards and, for a
        draw, the first cards' points. Those are the key, the strength is the order: equal
        keys and order settle every bet and class alike (the audit's tests sample it). Other
        deals keep the default, every distinct hand its own key.
        """
        definition = self.definition
        deal = definition.deal
        if deal.tableau is not None and definition.continuation is None:
            return self._tableau_hand_keys()
        if (
            definition.tiles is not None
            or deal.tableau is not None
            or deal.until_match is not None
            or definition.continuation is not None
            or definition.decision is not None
        ):
            return super().hand_keys(config)
        names: set[str] = set()
        winner = False
        for bet in definition.bets:
            reads_winner, reads = bet_needs(bet, deal.positions)
            winner = winner or reads_winner
            for read in reads.values():
                names |= read
        if winner and ranking.has_exceptions(definition):
            names.add("category")
        size = deal.cards

        def key(cards: tuple[Any, ...]) -> HandKey:
            drawn = patterns.points(cards[:size], definition.shoe) if deal.draw_at_most else None
            return HandKey(
                (
                    patterns.view(cards, names, definition),
                    len(cards),
                    drawn,
                    self._hand_texts(cards)[2],
                ),
                patterns.strength(cards, definition) if winner else None,
            )

        return key

    def _tableau_hand_keys(self) -> Callable[[tuple[Any, ...]], HandKey]:
        """A tableau's hand as a round's settlement reads it (:meth:`round_key_of`,
        :meth:`_check_tableau`): its number of cards, its first two cards' features, and
        what its drawing dealt (two-card points, third card's value, highest value: its
        points follow), whatever bet reads them; the winner is the points'."""

        def key(cards: tuple[Any, ...]) -> HandKey:
            found = self._tableau_hand(cards)
            first = tuple(found[n] for n in FIRST_CARD_FEATURES)
            drawn = ((n, found[n]) for n in ("highest_value", "third_value", "two_card_points"))
            return HandKey((len(cards), first, (("_highest_value", found["highest_value"]),
                                                *drawn)))  # fmt: skip

        return key

    def _tableau_hand(self, cards: tuple[Any, ...]) -> dict[str, Any]:
        """A tableau hand's features: points, cards, natural, what its drawing dealt
        (:func:`~odds.games.defined.patterns.drawn_features`, its own highest card as the
        coup's) and its first two cards' (``FIRST_CARD_FEATURES``). Pure functions of its
        cards in order, kept per hand: an audit keys every hand of a log, then settles every
        kind of round, each reading them for every bet."""
        memo: dict[Any, dict[str, Any]] = self.__dict__.setdefault("_tableau_hands", {})
        found = memo.get(cards)
        if found is None:
            definition = self.definition
            tableau = definition.deal.tableau
            assert tableau is not None
            two = patterns.points(cards[:2], definition.shoe)
            found = {"points": patterns.points(cards, definition.shoe), "cards": len(cards),
                     "natural": len(cards) == 2 and two in tableau.naturals}  # fmt: skip
            found.update(patterns.drawn_features({"": cards}, "", definition))
            found.update(
                (n, patterns.feature(cards[:2], n, definition)) for n in FIRST_CARD_FEATURES
            )
            if len(memo) < MEMO_KEPT:
                memo[cards] = found
        return found

    def settle_rounds(
        self,
        config: DefinedConfig,
        bet: BetDefinition,
        rounds: Mapping[RoundKey, int],
        full_shoe: bool,
    ) -> dict[str, int]:
        """Ways per outcome key; every round settled by exactly one outcome (checked)."""
        definition = self.definition
        ways = {o.key: 0 for o in bet.outcomes}
        settled = self._settled_of(bet)
        for key, n in rounds.items():
            found = settled.get(key)
            ways[self.settled_outcome(bet, key) if found is None else found] += n
        if full_shoe:
            played = set()
            if continuation.decides_here(definition) and continuation.counted_here(self, bet):
                played = continuation.outcomes_played(self, config, bet)  # any action's
            for outcome in bet.outcomes:
                if not ways[outcome.key] and not outcome.optional and outcome.key not in played:
                    at = f" (line {outcome.line})" if outcome.line else ""
                    raise OddsError(
                        f"{definition.source}: definition.bets.{bet.name}{at}: "
                        f"the outcome {outcome.label!r} never happens"
                    )
        return ways

    def settled_outcome(self, bet: BetDefinition, key: RoundKey) -> str:
        """The key of the outcome that settles the round ``key`` of ``bet``: the one whose
        condition holds, else the bet's ``otherwise``; two, or none without an ``otherwise``,
        refused in one line naming the round and the lines.

        Remembered per bet: the bets' counting, the whole table's seats and the shoe states
        settle the same rounds again and again (a Pok Deng report asked 1,225 class pairs'
        rounds again after its bets had settled them).
        """
        settled = self._settled_of(bet)
        found = settled.get(key)
        if found is not None:
            return found
        definition = self.definition
        outcomes = bet.outcomes
        hits = [outcomes[i] for i in holding([o.when for o in outcomes], key, definition)]
        if len(hits) > 1:
            raise OddsError(
                f"{definition.source}: definition.bets.{bet.name}: a round "
                f"({round_text(key, definition)}) "
                f"is settled by two outcomes (lines {hits[0].line} and {hits[1].line})"
            )
        if not hits:
            if bet.outcomes[-1].when is not None:
                at = f" (line {bet.line})" if bet.line else ""
                raise OddsError(
                    f"{definition.source}: definition.bets.{bet.name}{at}: no "
                    f"outcome settles the round {round_text(key, definition)}; add it, or end "
                    "with { otherwise = true, loses = 1 }"
                )
            hits = [bet.outcomes[-1]]
        found = settled[key] = hits[0].key
        return found

    def _settled_of(self, bet: BetDefinition) -> dict[RoundKey, str]:
        """:meth:`settled_outcome`'s rounds settled so far for ``bet``."""
        memos: dict[int, tuple[BetDefinition, dict[RoundKey, str]]]
        memos = self.__dict__.setdefault("_settled", {})
        kept = memos.get(id(bet))
        if kept is None or kept[0] is not bet:  # by identity: the bet is kept with its rounds
            kept = memos[id(bet)] = (bet, {})
        return kept[1]

    def events(self, config: DefinedConfig, bet: BetDefinition) -> tuple[Event, ...]:
        payouts = payout_values(config)
        return tuple(Event(o.key, o.label, net_of(o, payouts)) for o in bet.outcomes)

    def check_categories(self, config: DefinedConfig) -> dict[int | None, int]:
        """One hand's ways per category; a hand with none, or a category never dealt, refused."""
        definition = self.definition
        shoe = config.shoe.build()
        found = counting.category_distribution(definition, shoe.types, shoe.counts)
        if None in found and _reads_categories(definition):
            example = self._example(
                shoe, lambda cards: patterns.category_of(cards, definition) is None
            )
            raise OddsError(
                f"{definition.source}: definition.categories: the hand {example} matches no "
                "category; end the list with a category whose pattern is { any = true }"
            )
        if self.full_shoe(config):
            for i, category in enumerate(definition.categories):
                if not found.get(i):
                    raise OddsError(
                        f"{definition.source}: definition.categories.{category.name} "
                        f"(line {category.line}): the pattern never occurs (no hand of "
                        f"{definition.deal.cards} from {shoe.description} has it, or every such "
                        "hand is taken by a stronger category above it)"
                    )
        return found

    def full_shoe(self, config: DefinedConfig) -> bool:
        """Whether the shoe is the definition's own (impossible outcomes are then refused):
        whole decks, as many as it declares (a suited tie never happens in one deck of
        Dragon Tiger's eight; that is the paytable's shoe, not a wrong definition)."""
        decks = getattr(config.shoe, "decks", None)
        return _full(config) and decks in (None, self.definition.shoe.decks)

    def _example(self, shoe: Any, test: Callable[[list[Card]], bool]) -> str:
        from itertools import combinations_with_replacement

        size = self.definition.deal.cards
        for hand in combinations_with_replacement(range(len(shoe.types)), size):
            cards = [shoe.types[t] for t in hand]
            if test(cards):
                return " ".join(str(c) for c in cards)
        return "?"  # pragma: no cover

    def analyse(self, config: DefinedConfig, paytable: str) -> Analysis:
        return self._analyse(config, paytable, whole_table=True)

    def analyse_bets(self, config: DefinedConfig, paytable: str) -> Analysis:
        """The bets and hand categories, without the whole table (no bet needs it)."""
        return self._analyse(config, paytable, whole_table=False)

    def _analyse(self, config: DefinedConfig, paytable: str, whole_table: bool) -> Analysis:
        definition = self.definition
        shoe = config.shoe.build()
        shoe.require(definition.round_cards)
        tables: list[Table] = []
        classes: dict[str, int] = {}
        if definition.categories and definition.deal.tableau is None:
            found = self.check_categories(config)
            tables.append(_category_table(definition, found))
            classes = {
                definition.categories[i].name if i is not None else "none": n
                for i, n in found.items()
            }
        elif definition.deal.tableau is None and definition.deal.until_match is None:
            classifier = counting.classifier_for(definition, shoe.types)
            classes = class_distribution(
                shoe.counts,
                definition.deal.cards,
                lambda hand: self._label(tuple(classifier.cards(hand))),
            )
        bets = []
        full = self.full_shoe(config)
        tables += analysis_tables(self, config, shoe)
        for bet in definition.bets:
            ways = self.settle_rounds(config, bet, self.rounds(config, bet), full)
            if bet.per_hand:
                ways = per_hand_ways(definition, ways, shoe.size)
            wagered = {o.key: o.wagered for o in bet.outcomes}
            outcomes = tuple(
                BetOutcome(e.label, e.net, ways[e.key], wagered[e.key])
                for e in self.events(config, bet)
            )
            if riders.riders_of(definition, bet):  # the carrier is paid its riders too
                outcomes = riders.carried_outcomes(self, config, bet)
            bets.append(
                Bet(
                    bet.name,
                    bet.title,
                    _stake_sentence(withheld(bet, payout_values(config)))
                    + (riders.rider_sentence(bet, definition) if bet.rides_on else "")
                    + (bet.description or _describe(bet, config)),
                    outcomes,
                    withholding=withheld(bet, payout_values(config)),
                    rides_on=riders.carrier_title(definition, bet),
                )
            )
        if continuation.decides_here(definition):
            from odds.games.defined.continuation_tables import continuation_tables

            tables += continuation_tables(self, config)
        elif definition.decision is not None:
            from odds.games.defined.decision_tables import decision_tables

            tables += decision_tables(self, config, bets)
        fair_payouts = fair.fair_table(
            definition, bets, fair.stated_payouts(definition, payout_values(config))
        )
        tables += [fair_payouts] if fair_payouts is not None else []
        notes: tuple[str, ...] = ()
        if whole_table:  # a definition with seats: hand classes and the whole table
            from odds.games.defined.whole_table_tables import report_parts

            seated, notes = report_parts(self, config, bets)
            tables += seated
        return self.new_analysis(
            config,
            paytable,
            shoe=f"{shoe.description} ({shoe.size} cards)",
            deals=self.deal_total(shoe.counts, shoe.types),
            counting=self.counting_text(shoe),
            bets=tuple(bets),
            tables=tuple(tables),
            hand_classes=classes,
            notes=notes,
        )

    def deal_total(self, counts: Any, types: Any = None) -> int:
        """Every round's ways from ``counts`` (``types``: the shoe's card types, which an
        until-match deal reads to know which cards match)."""
        deal = self.definition.deal
        if deal.tableau is not None:
            return falling(sum(counts), 6)
        if deal.until_match is not None:
            return until_match.deal_total(self.definition, types, counts)
        if deal.draw_at_most:
            from odds.games.defined.threshold import deal_total

            return deal_total(self.definition, counts)
        return deal_count(counts, [deal.cards] * len(deal.positions))

    def dealt_moments(self, config: DefinedConfig) -> DealtMoments | None:
        """A drawing deal's per-round law of the cards it takes: the moments of each value's
        count from the deal's own ordered-deal polynomial (a tableau's, or a threshold
        draw's, :func:`odds.games.defined.threshold.deal_polynomial`), split into card
        types hypergeometrically (the draws read only values: which 0-valued card a round
        took is a uniform choice among the shoe's; :func:`odds.engine.card_moments`).
        Other drawing deals (a continuation, until a match, seats): None."""
        deal = self.definition.deal
        if deal.tableau is not None:
            polynomial = counting.tableau_polynomial(deal.tableau)
        elif deal.draw_at_most and deal.seats == 1 and deal.until_match is None:
            from odds.games.defined.threshold import deal_polynomial

            polynomial = deal_polynomial(self.definition)
        else:
            return None
        if self.definition.continuation is not None:
            return None
        shoe = self.shoe(config)
        values = counting.value_counts(self.definition, shoe.types, shoe.counts)
        moments = dealt_moments(polynomial, values)
        group_of = [self.definition.shoe.values[card.rank] % 10 for card in shoe.types]
        return card_moments(moments, group_of, shoe.counts)

    def counting_text(self, shoe: Any) -> str:
        definition = self.definition
        deal = definition.deal
        if deal.until_match is not None:
            return until_match.counting_text(definition, shoe.types, shoe.counts)
        total = self.deal_total(shoe.counts)
        if deal.tableau is not None:
            return (
                "Counted from the definition (data): ordered deals by the tableau, card values "
                f"only, each extended by the next unseen cards to six: {total:,} deals from "
                f"{shoe.size} cards."
            )
        hands = " and ".join(f"{deal.cards} to the {p}" for p in deal.positions)
        if deal.draw_at_most:
            rule = ", ".join(f"the {p} on {k} points or fewer" for p, k in deal.draw_at_most)
            return (
                f"Counted from the definition (data), with card removal: {hands}, then one "
                f"card more to {rule}, from {shoe.size} cards. Each hand is extended by the "
                "card it may draw, dealt whether used or not (the extended hands are "
                f"unordered within, the drawn card apart): {total:,} deals. An extended hand "
                "is counted once with the engine's joint, its finished hands weighted by "
                "which card came last."
            )
        return (
            f"Counted from the definition (data), with card removal: {hands}, from "
            f"{shoe.size} cards, hands unordered within, in dealing order between: {total:,} "
            "deals. Each bet is counted by the classes it reads (one hand's classes; a "
            "showdown of every hand against the other after removal; or the two hands' "
            "joint classes)."
            + self._seats_text()
            + seats.counting_text(self.definition, len(shoe.types), shoe.size)
            + continuation.counting_text(self, shoe.counts)
            + self._decision_text()
        )

    def _decision_text(self) -> str:
        decision = self.definition.decision
        if decision is None or decision.at != "deal":
            return ""
        bets = ", ".join(b.name for b in decisions.decision_bets(self))
        return (
            f" The {decision.position} chooses {' or '.join(decision.actions)} seeing its own "
            f"hand: for each of its hands, the action of greatest exact EV over every hand "
            f"the other position can hold from what is left, summed over the bets that read "
            f"the action ({bets}; the first action listed on equal EVs), is the one counted."
        )

    def _seats_text(self) -> str:
        deal = self.definition.deal
        if deal.seats == 1:
            return ""
        first, dealer = deal.positions
        return (
            f" The {first} position is one of {deal.seats} seats, each settled against the "
            f"{dealer} alone: the other seats' cards are unseen when bets are placed, so by "
            "exchangeability they change no seat's odds, and one seat against the "
            f"{dealer} is counted (a whole table takes {(deal.seats + 1) * deal.cards} cards)."
        )

    # -- one round ---------------------------------------------------------

    def settle(
        self, config: DefinedConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        definition = self.definition
        held, plays = self._checked_round(config, hands)
        if definition.deal.until_match is not None:
            plays = until_match.round_text(definition, held)
        action = best = self._best_action(config, held)
        given = hands.get("actions")
        if given is not None:  # ``odds settle --actions fold``: the action taken, checked
            decision = definition.decision
            if decision is None:
                raise OddsError(f"{self.name} has no decision: --actions is not read")
            if given.strip() not in decision.actions:
                raise OddsError(
                    f"--actions {given!r}: the {decision.position} may "
                    f"{' or '.join(decision.actions)}"
                )
            if decision.at == "continuation" and best is None:
                raise OddsError(
                    f"--actions {given!r}: the {decision.position} decides nothing in this "
                    "round (the deal does not go on"
                    + (", or the choice is not offered here)" if decision.when else ")")
                )
            action = given.strip()
        keys = self._round_keys(held, action)
        decided = self._tiebreak_reason(held)
        # The bets' part reads nothing of the round but these: each bet's round key, the
        # tie-break's words, the action taken and the optimal one, the stake and the config
        # (events, withholding). Kept on exactly those: a log's rounds repeat them.
        memo = self._reading(config).bets
        # The stake as integers: a Fraction's equality and hash are Python code, per lookup.
        memo_key = (type(stake), stake.numerator, stake.denominator, keys, decided, action, best)
        bets = memo.get(memo_key)
        if bets is None:
            bets = self._settled_bets(config, stake, keys, decided, action, best)
            if len(memo) < MEMO_KEPT:
                memo[memo_key] = bets
        settled = []
        for p in self.positions:  # the dealer's hand first, as commands list it
            cards = held.get(p)
            if cards is None:  # a continuation's own position, when the deal did not go on
                continue
            written, description, label = self._hand_texts(cards)
            if definition.deal.until_match is not None:
                description = plays[p]
            elif p in plays:
                description += f" ({len(cards)} cards); {plays[p]}"
            settled.append(SettledHand(p, written, description, label))
        return Settlement(hands=tuple(settled), bets=bets)

    def _settled_bets(
        self,
        config: DefinedConfig,
        stake: Fraction,
        keys: tuple[RoundKey, ...],
        decided: str,
        action: str | None,
        best: str | None,
    ) -> tuple[SettledBet, ...]:
        """Every bet of a round settled from its round key (:meth:`settle`)."""
        definition = self.definition
        settled = []
        for bet, key, (events, share, reads_winner) in zip(
            definition.bets, keys, self._reading(config).settling, strict=True
        ):
            settled_key = self.settled_outcome(bet, key)
            event, why = events[settled_key]
            outcome = next(o for o in bet.outcomes if o.key == settled_key)
            if decided and reads_winner:
                why = f"{decided}; {why}"
            if action is not None and decisions.reads_action(self, bet):
                chosen = "the optimal action" if action == best else f"the optimal is to {best}"
                why = f"{definition.decision.position} {action}s ({chosen}); {why}"  # type: ignore[union-attr]
            # A raise puts more at risk: the outcome's wagered stakes are debited; a bet
            # riding on another's stake debits nothing of its own.
            debited = stake * (outcome.wagered + share) if bet.rides_on is None else Fraction(0)
            settled.append(settled_bet(bet.name, event, stake, debited, why))
        return tuple(settled)

    def _hand_texts(self, cards: tuple[Any, ...]) -> tuple[str, str, str]:
        """A hand's cards as written, its description and class label: functions of its
        cards in order alone (:meth:`_describe_hand`, :meth:`_label`), kept per hand."""
        memo: dict[Any, tuple[str, str, str]] = self.__dict__.setdefault("_hand_texts_of", {})
        found = memo.get(cards)
        if found is None:
            found = (" ".join(map(str, cards)), self._describe_hand(cards), self._label(cards))
            if len(memo) < MEMO_KEPT:
                memo[cards] = found
        return found

    def settled_events(self, config: DefinedConfig, hands: Mapping[str, str]) -> dict[str, str]:
        """:meth:`settle`'s events without the settlement's texts (two thirds of its cost in
        an audit's shoe-aware tests, which settle every seat of every round)."""
        held, _ = self._checked_round(config, hands)
        keys = self._round_keys(held, self._best_action(config, held))
        reading = self._reading(config)
        memo = reading.events
        found = memo.get(keys)  # the events read nothing else (as in settle)
        if found is None:
            settling = zip(self.definition.bets, keys, reading.settling, strict=True)
            found = {
                bet.name: events[self.settled_outcome(bet, key)][0].label
                for bet, key, (events, _, _) in settling
            }
            if len(memo) < MEMO_KEPT:
                memo[keys] = found
        return dict(found)

    def _checked_round(
        self, config: DefinedConfig, hands: Mapping[str, str]
    ) -> tuple[dict[str, tuple[Any, ...]], dict[str, str]]:
        """A round's hands read and checked (the deal's drawing, what the shoe holds), with
        what each tableau position's drawing did."""
        definition = self.definition
        until = definition.deal.until_match
        held = {
            p: ()  # a pile no card reached (the match was the first card dealt)
            if until is not None and p in until.piles and hands.get(p, "").strip() in ("", "-")
            else self.read_hand(config, hands, p)
            for p in definition.deal.positions
        }
        to = definition.continuation.to if definition.continuation is not None else None
        if to and hands.get(to, "").strip() not in ("", "-"):  # dealt when the deal goes on
            held[to] = self.read_hand(config, hands, to)
        plays: dict[str, str] = {}
        if definition.deal.tableau is not None:
            plays = self._check_tableau(held)
        elif definition.deal.until_match is not None:
            until_match.checked_round(definition, held)
        elif definition.deal.draw_at_most:
            self._check_draws(held)
        elif definition.continuation is not None:
            plays = continuation.check_held(definition, held)
        dealt = [c for cards in held.values() for c in cards]
        reading = self._reading(config)
        # A shoe holding every card at least ``fewest`` times holds any ``fewest`` of its
        # cards at once; otherwise the full check (and its one-line error).
        if len(dealt) > reading.fewest or not reading.types.issuperset(dealt):
            reading.shoe.check_holds(dealt, "the round's cards")
        return held, plays

    def _reading(self, config: DefinedConfig) -> _Reading:
        """What settling a round reads of the config, and its rounds settled so far (kept
        per config: every round of an audit is settled under one). Found by the config's
        identity first: configs equal but distinct (a paytable loaded again) compare their
        exact payouts, field by field, on every lookup by value."""
        memo: dict[Any, Any] = self.__dict__.setdefault("_readings", {})
        kept = memo.get(id(config))
        if kept is not None and kept[0] is config:
            return kept[1]  # type: ignore[no-any-return]
        found: _Reading | None = memo.get(config)
        if found is None:
            shoe = config.shoe.build()
            held = [n for n in shoe.counts if n > 0]
            fewest = min(held) if len(held) == len(shoe.counts) else 0
            found = _Reading(shoe, fewest, frozenset(shoe.types), self._settling(config))
            if len(memo) > 128:
                memo.clear()
            memo[config] = found
        memo[id(config)] = (config, found)  # the config kept: its id is not reused
        return found

    def _settling(
        self, config: DefinedConfig
    ) -> list[tuple[dict[Any, tuple[Event, str]], Fraction, bool]]:
        """Per bet: its events with their reasons, the share withheld, whether it reads the
        winner — the same for every round of one reading, so an audit settling thousands of
        rounds computes them once (measured: two thirds of a 2,000-round Dragon Tiger log's
        settling went to recomputing them)."""
        payouts = payout_values(config)
        positions = self.definition.deal.positions
        return [
            (
                {e.key: (e, reason(e)) for e in self.events(config, bet)},
                withheld(bet, payouts),
                bet_needs(bet, positions)[0],
            )
            for bet in self.definition.bets
        ]

    def _best_action(
        self, config: DefinedConfig, held: Mapping[str, tuple[Any, ...]]
    ) -> str | None:
        """The deciding position's optimal action for its hand, from the solution on the
        paytable's shoe (``None`` without a decision)."""
        decision = self.definition.decision
        if decision is None:
            return None
        if decision.at == "continuation":
            return continuation.best_action(self, config, held)
        reading = self._reading(config)
        if reading.solution is None:  # the same for every round
            reading.solution = self.solution(config)
        index = reading.index
        return reading.solution.action_of(tuple(sorted(index[c] for c in held[decision.position])))

    def _round_keys(
        self, held: Mapping[str, tuple[Any, ...]], action: str | None
    ) -> tuple[RoundKey, ...]:
        """Every bet's round key (:meth:`round_key_of`), worked out once per distinct reading
        of the bets (Baccarat's 14 bets read the coup 10 ways) but for a deal that goes on,
        whose keys read more of a bet than its reading."""
        key_of = self.round_key_of(held, action)
        bets = self.definition.bets
        if self.definition.continuation is not None:
            return tuple(key_of(bet) for bet in bets)
        readings: tuple[tuple[BetDefinition, ...], tuple[int, ...]] | None
        readings = self.__dict__.get("_bet_readings")
        if readings is None:  # one bet per distinct reading, and each bet's
            positions = self.definition.deal.positions
            first: dict[Any, int] = {}
            index = tuple(first.setdefault(bet_reading(bet, positions), len(first)) for bet in bets)
            alike = {i: bet for bet, i in zip(reversed(bets), reversed(index), strict=True)}
            readings = self.__dict__["_bet_readings"] = (
                tuple(alike[i] for i in range(len(first))),
                index,
            )
        found = [key_of(bet) for bet in readings[0]]
        return tuple(found[i] for i in readings[1])

    def round_key_of(
        self, held: Mapping[str, tuple[Any, ...]], action: str | None = None
    ) -> Callable[[BetDefinition], RoundKey]:
        """A round's key per bet; ``action``: the deciding position's, for a decision."""
        definition = self.definition
        positions = definition.deal.positions
        if definition.continuation is not None:
            return continuation.round_key_of(self, held, action)

        # What every bet reads of this round's hands is worked out once per round, not per
        # bet: the winner, and a tableau position's features (pure functions of ``held``).
        known: dict[Any, Any] = {}

        def who_won() -> Any:
            if "who" not in known:
                if definition.deal.tableau is not None:
                    scores = [patterns.points(held[p], definition.shoe) for p in positions]
                    known["who"] = (
                        positions[0]
                        if scores[0] > scores[1]
                        else positions[1]
                        if scores[1] > scores[0]
                        else definition.ties
                    )
                else:
                    known["who"] = ranking.winner(
                        definition, held[positions[0]], held[positions[1]]
                    )
            return known["who"]

        def tableau_features(p: str) -> dict[str, Any]:
            found = known.get(p)
            if found is None:  # the hand's own features, and the coup's highest card
                highest = max(self._tableau_hand(held[q])["highest_value"] for q in positions)
                found = known[p] = {**self._tableau_hand(held[p]), "_highest_value": highest}
            return found

        def key_of(bet: BetDefinition) -> RoundKey:
            if definition.deal.until_match is not None:
                joker = held[definition.deal.until_match.card][0]
                dealt = sum(len(held[p]) for p in definition.deal.until_match.piles)
                return until_match.round_key(definition, joker, dealt, *bet_needs(bet, positions))
            # Bets reading the same of the round get the same key: worked out once per round.
            reading = bet_reading(bet, positions)
            key: RoundKey | None = known.get(reading)
            if key is not None:
                return key
            who = who_won() if reading[0] else None
            views = []
            for p, names in zip(positions, reading[1:], strict=True):
                if definition.deal.tableau is not None:
                    found = tableau_features(p)
                    views.append(tuple((n, found[n]) for n in names))
                elif ACTION in names:  # the action is the decision's, not the cards'
                    chosen: tuple[str, Any] = (ACTION, action)
                    view = patterns.view(held[p], set(names) - {ACTION}, definition)
                    views.append(tuple(sorted([*view, chosen])))
                else:
                    views.append(patterns.view(held[p], names, definition))
            key = known[reading] = (who, *views)
            return key

        return key_of

    def deal_round(
        self, config: DefinedConfig, draw: Callable[[], Any]
    ) -> dict[str, tuple[Any, ...]]:
        """One round card by card (``odds simulate``): hands in turn, or by the tableau."""
        definition = self.definition
        tableau = definition.deal.tableau
        if definition.continuation is not None:
            return continuation.deal_round(definition, draw)
        if definition.deal.until_match is not None:
            return until_match.deal_round(definition, draw)
        if tableau is None and definition.deal.draw_at_most:
            size = definition.deal.cards
            hands = {p: [draw() for _ in range(size)] for p in definition.deal.positions}
            for p, cards in hands.items():  # the draws, in dealing order
                if definition.deal.draws(p, patterns.points(cards, definition.shoe)):
                    cards.append(draw())
            return {p: tuple(cards) for p, cards in hands.items()}
        if tableau is None:
            return super().deal_round(config, draw)
        first, second = definition.deal.positions
        f = [draw()]
        s = [draw()]
        f.append(draw())
        s.append(draw())
        fp, sp = (patterns.points(cards, definition.shoe) for cards in (f, s))
        if fp in tableau.naturals or sp in tableau.naturals:
            return {first: tuple(f), second: tuple(s)}
        if fp in tableau.first_draws:
            f.append(draw())
            third = definition.shoe.values[f[2].rank] % 10
            if tableau.second_draws_on(sp, third):
                s.append(draw())
        elif sp in tableau.second_draws_first_stood:
            s.append(draw())
        return {first: tuple(f), second: tuple(s)}

    def _check_draws(self, held: Mapping[str, tuple[Any, ...]]) -> None:
        """Each hand holds its first cards, plus one when its points call for a draw."""
        from odds.games.defined.threshold import finished_hand

        size = self.definition.deal.cards
        for position, cards in held.items():
            if len(cards) not in (size, size + 1):
                raise PositionError(
                    position,
                    f"{{position}} must be {size} or {size + 1} cards, got {len(cards)}",
                )
            want = finished_hand(self.definition, position, cards)
            if len(cards) != want:
                verb = "draws a card" if want > size else "stands"
                points = patterns.points(cards[:size], self.definition.shoe)
                raise PositionError(
                    position,
                    f"{{position}} {verb} on {points} points by the draw rule, got "
                    f"{len(cards)} cards",
                )

    def _tiebreak_reason(self, held: Mapping[str, tuple[Any, ...]]) -> str:
        """Why one hand beats the other in a comparison by categories: a higher category
        (``player's Ba Tây beats Points: the higher category``), or the tie-break that decides
        between two hands of one category (``player's Straight beats Straight: the top card's
        suit``; points are said: ``Points (9 points) beats Points (5 points)``); "" otherwise."""
        definition = self.definition
        two = len(definition.deal.positions) == 2 and definition.deal.tableau is None
        if not two or definition.tiles is not None or tuple(definition.compare) != ("category",):
            return ""
        first, second = definition.deal.positions
        a, b = held[first], held[second]
        index = patterns.category_of(a, definition)
        other = patterns.category_of(b, definition)
        if index is None or other is None:
            return ""
        if ranking.exception_winner(definition, a, b) is not None:
            return ""
        if index != other:
            stronger = definition.level(index) > definition.level(other)
            winner = first if stronger else second
            won, lost = (index, other) if stronger else (other, index)
            return (
                f"{winner}'s {definition.categories[won].label} beats "
                f"{definition.categories[lost].label}: the higher category"
            )
        category = definition.categories[index]
        for part, mine, theirs in zip(
            category.tiebreak, self._tiebreaks(a, index), self._tiebreaks(b, index), strict=True
        ):
            if mine != theirs:
                winner = first if mine > theirs else second
                words = TIEBREAK_WORDS.get(part, part)
                label = category.label
                high, low = (mine, theirs) if mine > theirs else (theirs, mine)
                if part == "points":
                    return (
                        f"{winner}'s {label} ({high[0]} points) beats {label} ({low[0]} points): "
                        f"{words}"
                    )
                return f"{winner}'s {label} beats {label}: {words}"
        return ""

    def _tiebreaks(self, cards: tuple[Any, ...], index: int) -> tuple[tuple[Any, ...], ...]:
        """The hand's tie-break keys by its category ``index``'s tie-breaks, in order (pure
        functions of the cards in order: kept per hand, for :meth:`_tiebreak_reason`)."""
        memo: dict[Any, Any] = self.__dict__.setdefault("_tiebreaks_of", {})
        found = memo.get((cards, index))
        if found is None:
            category = self.definition.categories[index]
            shoe = patterns.category_shoe(self.definition.shoe, category)
            found = tuple(patterns.tiebreak_key(cards, part, shoe) for part in category.tiebreak)
            if len(memo) < MEMO_KEPT:
                memo[cards, index] = found
        return found

    def _check_tableau(self, held: Mapping[str, tuple[Any, ...]]) -> dict[str, str]:
        """The hands must be what the tableau deals: who draws, and no card more or less.
        Each position's play in words (``Player draws on 5``; ``Banker draws: 5 against a
        Player third card 6``), the reason a refusal or ``settle`` gives."""
        definition = self.definition
        tableau = definition.deal.tableau
        assert tableau is not None
        first, second = definition.deal.positions
        one, two = first.capitalize(), second.capitalize()
        f, s = held[first], held[second]
        for p, cards in ((first, f), (second, s)):
            if len(cards) not in (2, 3):
                written = " ".join(c.code for c in cards)
                raise PositionError(
                    p, f"{{position}} must be two or three cards, got {len(cards)}: '{written}'"
                )
        fp, sp = (patterns.points(cards[:2], definition.shoe) for cards in (f, s))
        if fp in tableau.naturals or sp in tableau.naturals:
            both = f"a natural ({one} {fp}, {two} {sp})"
            plays = {
                first: (False, f"{one} stands: {both}"),
                second: (False, f"{two} stands: {both}"),
            }
        else:
            first_draws = fp in tableau.first_draws
            plays = {first: (first_draws, f"{one} {'draws' if first_draws else 'stands'} on {fp}")}
            _check_count(first, f, *plays[first])
            if first_draws:
                third = definition.shoe.values[f[2].rank] % 10
                draws = tableau.second_draws_on(sp, third)
                verb = "draws" if draws else "stands"
                why = f"{two} {verb}: {sp} against a {one} third card {third}"
            else:
                draws = sp in tableau.second_draws_first_stood
                why = f"{two} {'draws' if draws else 'stands'} on {sp} ({one} stood)"
            plays[second] = (draws, why)
        for p, cards in ((first, f), (second, s)):
            _check_count(p, cards, *plays[p])
        return {p: why for p, (_, why) in plays.items()}

    def _describe_hand(self, cards: tuple[Any, ...]) -> str:
        definition = self.definition
        size = definition.deal.cards
        if definition.continuation is not None and len(cards) > size:
            first = self._describe_hand(cards[:size])
            return f"{first}; then {self._describe_hand(cards[size:])}"
        if definition.categories and definition.deal.tableau is None:
            index = patterns.category_of(cards, definition)
            name = definition.categories[index].label if index is not None else "no category"
            points = patterns.points(cards, definition.shoe)
            if name in (f"{points} points", f"{points} point"):  # a points category
                return name
            if not self._reads_points():  # a poker ranking: points would mean nothing
                return name
            return f"{name}, {points_text(points)}"
        if len(cards) == 1 and definition.deal.tableau is None:
            rank = cards[0].rank
            return f"{rank.symbol} (order {definition.shoe.order(rank) + 1} of 13)"
        return points_text(patterns.points(cards, definition.shoe))

    def _reads_points(self) -> bool:
        """Whether a hand's points decide anything here: the order compares them, a category
        or a tie-break reads them, or a bet's condition does (Pok Deng, Bài Cào); Three Card
        Poker's "High card, 0 points" named a total nothing reads."""
        found = self.__dict__.get("_points_read")
        if found is None:
            definition = self.definition
            positions = definition.deal.positions
            found = (
                "points" in definition.compare
                or any(
                    "points" in pattern_keys(c.pattern) or "points" in c.tiebreak
                    for c in definition.categories
                )
                or any("points" in names for b in definition.bets
                       for names in bet_needs(b, positions)[1].values())
            )  # fmt: skip
            self.__dict__["_points_read"] = found
        return bool(found)

    def _label(self, cards: tuple[Any, ...]) -> str:
        definition = self.definition
        if definition.continuation is not None and len(cards) > definition.deal.cards:
            cards = cards[: definition.deal.cards]  # the first deal's class
        if definition.categories and definition.deal.tableau is None:
            index = patterns.category_of(cards, definition)
            return definition.categories[index].name if index is not None else "none"
        if len(cards) == 1 and definition.deal.tableau is None:
            return str(cards[0].rank.symbol)
        return str(patterns.points(cards, definition.shoe))


#: The most entries each of a game's memos of hands and rounds keeps (:meth:`DefinedGame.settle`
#: and what it reads: a bound on memory, not a cache policy, as patterns' hands are bounded).
MEMO_KEPT = 200_000


@dataclass
class _Reading:
    """What settling a round reads of one config (:meth:`DefinedGame._reading`): its shoe,
    the fewest copies the shoe holds of any of its types, its types, each bet's settling
    (:meth:`DefinedGame._settling`), the rounds' settled bets and events so far, and the
    decision's solution played."""

    shoe: Any
    fewest: int
    types: frozenset[Any]
    settling: list[tuple[dict[Any, tuple[Event, str]], Fraction, bool]]
    bets: dict[Any, tuple[SettledBet, ...]] = field(default_factory=dict)
    events: dict[Any, dict[str, str]] = field(default_factory=dict)
    solution: decisions.Solution | None = None  # the decision's, when one is asked

    @cached_property
    def index(self) -> dict[Any, int]:
        """Each of the shoe's types by its place (a decision's hand as the solution keys it)."""
        return {t: i for i, t in enumerate(self.shoe.types)}


#: What each tie-break compares, as ``settle`` says it decided a round.
TIEBREAK_WORDS = {
    "points": "more points",
    "ranks": "the higher ranks",
    "high": "the higher cards",
    "suits": "the higher suit",
    "top_card": "the top card",
    "faces": "more face cards",
    "cards": "more cards",
    "top_cards": "the top cards, then their suits",
    "sequence_suits": "the sequence's suits",
}


def _check_count(position: str, cards: tuple[Any, ...], draws: bool, why: str) -> None:
    if draws and len(cards) == 2:
        raise PositionError(position, f"{{position}} must have a third card ({why}), but has two")
    if not draws and len(cards) == 3:
        raise PositionError(position, f"{{position}} cannot have a third card ({cards[2]}): {why}")


def _check_commissions(
    definition: Definition, bet: BetDefinition, payouts: Mapping[str, Fraction]
) -> None:
    """A named commission is a share of the win: at most 1."""
    for outcome in bet.outcomes:
        if isinstance(outcome.commission, str) and payouts[outcome.commission] > 1:
            raise OddsError(
                f"{definition.source}: payouts.{outcome.commission}: a commission is a share "
                f"of a win, at most 1 (100%), got {payouts[outcome.commission]}"
            )


def _stake_sentence(withholding: Fraction) -> str:
    """What one unit on the bet debits, said before its description when more than the stake
    is withheld: from the paytable's value, so a description never states a stale amount."""
    if not withholding:
        return ""
    from odds.core.numbers import fraction_text

    return (
        f"Stake 1 with {fraction_text(withholding)} more withheld "
        f"(debited {fraction_text(1 + withholding)}). "
    )


def withheld(bet: BetDefinition, payouts: Mapping[str, Fraction]) -> Fraction:
    """What the bet withholds per unit staked: its number, named payout, or cover (what its
    largest loss needs beyond the stake)."""
    if bet.withholding == COVER:
        worst = max(-net_of(o, payouts) for o in bet.outcomes)
        return max(Fraction(0), worst - 1)
    return payouts[bet.withholding] if isinstance(bet.withholding, str) else bet.withholding


def _check_withheld(
    definition: Definition, bet: BetDefinition, payouts: Mapping[str, Fraction]
) -> None:
    """Refuse a paytable whose loss exceeds the stake plus the withholding (one line)."""
    for outcome in bet.outcomes:
        debited = outcome.wagered + withheld(bet, payouts)
        loss = -net_of(outcome, payouts)
        if loss > debited:
            raise OddsError(
                f"{definition.source}: definition.bets.{bet.name} (line {outcome.line}): "
                f"'{outcome.label}' loses {loss} per unit staked but only {debited} is "
                "debited (the stake plus the withholding): raise the bet's withholding"
            )


def _check_per_hand(definition: Definition, bet: BetDefinition) -> None:
    """``per_hand`` counts one position's hands: the bet must read that position only."""
    from odds.games.defined.rounds import bet_needs

    winner, reads = bet_needs(bet, definition.deal.positions)
    read = [p for p, r in reads.items() if r]
    if winner or len(read) != 1 or definition.deal.tableau is not None:
        raise OddsError(
            f"{definition.source}: definition.bets.{bet.name} (line {bet.line}): per_hand "
            "counts one position's hands alone, so the bet may read one position's hand "
            "only (no winner, no other position, no tableau)"
        )


def per_hand_ways(
    definition: Definition, ways: Mapping[str, int], shoe_size: int
) -> dict[str, int]:
    """A one-position bet's ways over that position's hands alone.

    The one-hand plan deals the other positions from what is left, the same number of
    ways for every first hand; dividing it out leaves the hands (exactly: asserted).
    """
    size = definition.deal.cards
    others = deal_count([shoe_size - size], [size] * (len(definition.deal.positions) - 1))
    result = {}
    for key, n in ways.items():
        whole, left = divmod(n, others)
        assert not left, (key, n, others)
        result[key] = whole
    return result


def _naming(definition: Definition, payout: str) -> tuple[BetDefinition, Outcome]:
    for bet in definition.bets:
        for outcome in bet.outcomes:
            if outcome.net == payout:
                return bet, outcome
        if bet.withholding == payout:  # named by the bet's withholding: its first line
            return bet, bet.outcomes[0]
    raise AssertionError(payout)  # pragma: no cover


def _reads_categories(definition: Definition) -> bool:
    if "category" in definition.compare:
        return True
    _, reads = _all_reads(definition)
    return any("category" in r for r in reads.values())


def _all_reads(definition: Definition) -> tuple[bool, dict[str, set[str]]]:
    from odds.games.defined.rounds import needs

    return needs((o.when for b in definition.bets for o in b.outcomes), definition.deal.positions)


def _full(config: DefinedConfig) -> bool:
    """Whether the shoe is whole decks (the checks for impossible outcomes apply)."""
    return not config.shoe.removed and not config.shoe.counts


def _describe(bet: BetDefinition, config: DefinedConfig) -> str:
    payouts = payout_values(config)
    parts = [labelled_ratio(o.label, net_of(o, payouts)) for o in bet.outcomes]
    return "; ".join(parts) + "."


def _category_table(definition: Definition, found: Mapping[int | None, int]) -> Table:
    total = sum(found.values())
    rows = []
    indices = definition.strongest_first()
    for i in indices:
        category = definition.categories[i]
        ways = found.get(i, 0)
        rows.append(
            {"category": category.label, "ways": ways, "probability": Fraction(ways, total)}
        )
    return Table(
        key="categories",
        title=(
            f"Hand categories (one {definition.deal.positions[0]} hand after its draw, "
            "from the full shoe)"
            if definition.deal.draw_at_most
            else f"Hand categories (one hand of {in_words(definition.deal.cards)} from the "
            "full shoe)"
        ),
        columns=(
            Column("category", "category"),
            Column("ways", "ways", Kind.WAYS),
            Column("probability", "probability", Kind.PROBABILITY),
        ),
        rows=tuple(rows),
        total={"category": "Total", "ways": total, "probability": Fraction(1)},
        note="Strongest first; a hand is in the first category whose pattern it matches"
        + (
            f" (in the definition's list: {', '.join(c.label for c in definition.categories)}); "
            + "; ".join(
                f"{c.label} beats {', '.join(definition.label_of(b) for b in c.beats)} "
                "whatever the order"
                for c in definition.categories
                if c.beats
            )
            + "."
            if definition.category_order
            else "."
        ),
    )
