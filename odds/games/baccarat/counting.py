"""How baccarat asks the engine: coups in dealing order, and every bet's outcome table.

* Every bet but the pair bets depends only on the coup's totals and numbers
  of cards, and those only on card *values* (10, J, Q, K alike). The deal is
  a :class:`odds.engine.drawing.DealProcedure` over the ten values, counted once per
  tableau as a polynomial in the value counts
  (:func:`odds.engine.drawing.ordered_deal_polynomial`); a composition is then one
  evaluation. The same table serves the full analysis and the per-state EV.
* The pair bets look only at the first two cards of each hand (cards 1 and 3
  for the Player, 2 and 4 for the Banker): two two-card hands, counted by
  :func:`odds.engine.drawing.two_hand_pair_ways` over ranks, or over identical cards
  (or rank and colour) for the perfect pair.

Convention: ordered deals, each extended by the next unseen cards to six, so
every bet's ways add up to ``(N)_6`` (416·415·414·413·412·411 for 8 decks).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.caching import cached
from odds.core.cards import Card, Rank
from odds.core.frozen import FrozenMap
from odds.engine import check_total
from odds.engine.drawing import (
    DealPolynomial,
    falling,
    group_counts,
    ordered_deal_polynomial,
    two_hand_pair_ways,
)
from odds.games.baccarat import report_tables
from odds.games.baccarat import rules as r
from odds.games.baccarat.bets import BetSpec, bet_specs
from odds.games.baccarat.options import BaccaratConfig, BaccaratPayouts, BaccaratRules
from odds.games.baccarat.rules import Coup, DrawingRules
from odds.games.events import spec_bets
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet

if TYPE_CHECKING:
    from odds.games.base import Game

#: Cards in the longest coup; every deal is extended to this many.
COUP_CARDS = 6
#: Card values 0–9 are the types of the coup procedure.
VALUES = 10

# ---------------------------------------------------------------------------
# The deal as a state machine over card values

#: Procedure states: ``(stage, player total, banker total, player cards)``;
#: a finished coup is its :class:`Coup`.
State = tuple[int, ...] | Coup

_PLAYER_THIRD, _BANKER_THIRD = 5, 6


@dataclass(frozen=True)
class CoupProcedure:
    """Baccarat's deal for :func:`odds.engine.drawing.ordered_deal_polynomial`.

    Stages 0–3 deal Player, Banker, Player, Banker; after the fourth card the
    tableau decides (natural, Player draws, Player stands); stage 5 is the
    Player's third card (its value decides the Banker's draw), stage 6 the
    Banker's third card.
    """

    drawing: DrawingRules

    @property
    def start(self) -> State:
        return (0, 0, 0, 2)

    def step(self, state: State, value: int) -> State:
        assert isinstance(state, tuple)
        stage, pt, bt, pn = state
        if stage in (0, 2):
            return (stage + 1, (pt + value) % 10, bt, pn)
        if stage == 1:
            return (2, pt, value, pn)
        if stage == 3:
            return self._after_four(pt, (bt + value) % 10)
        if stage == _PLAYER_THIRD:
            total = (pt + value) % 10
            if self.drawing.banker_draws_on(bt, value):
                return (_BANKER_THIRD, total, bt, 3)
            return Coup(total, bt, 3, 2)
        return Coup(pt, (bt + value) % 10, pn, 3)

    def _after_four(self, pt: int, bt: int) -> State:
        drawing = self.drawing
        if drawing.is_natural(pt) or drawing.is_natural(bt):
            return Coup(pt, bt, 2, 2)
        if drawing.player_draws_on(pt):
            return (_PLAYER_THIRD, pt, bt, 2)
        if drawing.banker_draws_on(bt, None):
            return (_BANKER_THIRD, pt, bt, 2)
        return Coup(pt, bt, 2, 2)

    def outcome(self, state: State) -> Coup | None:
        return state if isinstance(state, Coup) else None


def build_coup_polynomial(drawing: DrawingRules) -> DealPolynomial[Coup]:
    """Every coup's ordered ways as a polynomial in the ten value counts (not cached)."""
    return ordered_deal_polynomial(CoupProcedure(drawing), VALUES, COUP_CARDS)


@cached
def coup_polynomial(drawing: DrawingRules) -> DealPolynomial[Coup]:
    """The tableau's counting table, built once per tableau in a process."""
    return build_coup_polynomial(drawing)


# ---------------------------------------------------------------------------
# Counting


@dataclass(frozen=True)
class TypeGroups:
    """How the shoe's card types group for each question: value, rank, perfect-pair class."""

    value: tuple[int, ...]
    rank: tuple[int, ...]
    perfect: tuple[int, ...]
    perfect_groups: int

    @classmethod
    def of(cls, types: Sequence[Card], perfect_reading: str) -> TypeGroups:
        values = tuple(r.card_value(card.rank) for card in types)
        ranks = tuple(int(card.rank) - 1 for card in types)
        keys: list[tuple[Rank, object]] = [
            (card.rank, card.suit if perfect_reading == "identical" else r.colour(card.suit))
            for card in types
        ]
        index = {key: i for i, key in enumerate(dict.fromkeys(keys))}
        return cls(values, ranks, tuple(index[k] for k in keys), len(index))


def coup_event_ways(
    config: BaccaratConfig, counts: Sequence[int], groups: TypeGroups
) -> dict[str, dict[str, int]]:
    """Ordered ways (extended to six cards) of every event of every offered bet.

    ``counts`` are per card type of the shoe (aligned with ``groups``).
    """
    specs = bet_specs(config)
    polynomial = event_polynomial(config)
    values = group_counts(counts, groups.value, VALUES)
    ways = polynomial.ways(values)
    result: dict[str, dict[str, int]] = {}
    for spec in specs:
        if spec.settle is not None:
            result[spec.name] = {e.key: ways.get((spec.name, e.key), 0) for e in spec.events}
    pair_names = [s.name for s in specs if s.settle is None]
    if pair_names:
        result.update(pair_event_ways(counts, groups, pair_names))
    return result


def event_polynomial(config: BaccaratConfig) -> DealPolynomial[Any]:
    """The coup table regrouped into the coup bets' events (cached per way of settling)."""
    return _event_polynomial(settling(config))


def settling(config: BaccaratConfig) -> BaccaratConfig:
    """What of ``config`` decides which event each coup settles into, the rest at defaults.

    The tableau, how the Banker bet is paid, the bets offered and which Dragon Bonus
    margins pay: payouts and the perfect-pair reading change no coup's event (the pair
    bets are not settled from the coup), so payout what-ifs share one regrouped table.
    """
    paid = FrozenMap({margin: Fraction(1) for margin in config.payouts.dragon_bonus})
    return BaccaratConfig(
        tableau=config.tableau,
        rules=BaccaratRules(banker_pays=config.rules.banker_pays),
        payouts=BaccaratPayouts(dragon_bonus=paid),
        bets=config.bets,
    )


@cached(maxsize=32)
def _event_polynomial(config: BaccaratConfig) -> DealPolynomial[Any]:
    return regroup_by_events(coup_polynomial(DrawingRules.of(config.tableau)), bet_specs(config))


def regroup_by_events(
    polynomial: DealPolynomial[Coup], specs: Sequence[BetSpec]
) -> DealPolynomial[Any]:
    """Each coup counts once towards one event of every coup bet: ``(bet, event)`` keys.

    Pair bets (no ``settle``) are left out: they are not settled from the coup.
    """
    coup_specs = [s for s in specs if s.settle is not None]

    def assign(coup: Coup) -> list[tuple[str, str]]:
        return [(s.name, s.settle(coup)) for s in coup_specs if s.settle is not None]

    partitions = [[(s.name, e.key) for e in s.events] for s in coup_specs]
    return polynomial.regroup(assign, partitions)


def pair_event_ways(
    counts: Sequence[int], groups: TypeGroups, names: Sequence[str]
) -> dict[str, dict[str, int]]:
    """The pair bets from the first two cards of each hand, extended to six cards."""
    size = sum(counts)
    extend = falling(size - 4, COUP_CARDS - 4)
    result: dict[str, dict[str, int]] = {}
    rank = two_hand_pair_ways(group_counts(counts, groups.rank, 13))
    rank = {k: v * extend for k, v in rank.items()}
    if "player-pair" in names:
        result["player-pair"] = {
            "win": rank["first"] + rank["both"],
            "lose": rank["neither"] + rank["second"],
        }
    if "banker-pair" in names:
        result["banker-pair"] = {
            "win": rank["second"] + rank["both"],
            "lose": rank["neither"] + rank["first"],
        }
    if "either-pair" in names:
        result["either-pair"] = {
            "both": rank["both"],
            "one": rank["first"] + rank["second"],
            "lose": rank["neither"],
        }
    if "perfect-pair" in names:
        perfect = two_hand_pair_ways(group_counts(counts, groups.perfect, groups.perfect_groups))
        result["perfect-pair"] = {
            "both": perfect["both"] * extend,
            "one": (perfect["first"] + perfect["second"]) * extend,
            "lose": perfect["neither"] * extend,
        }
    total = falling(size, COUP_CARDS)
    for bet, events in result.items():
        check_total(events, total, bet)
    return result


# ---------------------------------------------------------------------------
# The analysis


def value_counts(shoe_counts: Sequence[int], groups: TypeGroups) -> tuple[int, ...]:
    """Cards per value 0–9."""
    return group_counts(shoe_counts, groups.value, VALUES)


def bets(config: BaccaratConfig, ways: Mapping[str, Mapping[str, int]]) -> tuple[Bet, ...]:
    """Every offered bet with its exact outcome table."""
    return spec_bets(bet_specs(config), ways)


def analyse(game: Game[BaccaratConfig], config: BaccaratConfig, paytable: str) -> Analysis:
    """The exact analysis of every offered bet of one paytable."""
    shoe = config.shoe.build()
    shoe.require(COUP_CARDS)
    drawing = DrawingRules.of(config.tableau)
    groups = TypeGroups.of(shoe.types, config.rules.perfect_pair)
    ways = coup_event_ways(config, shoe.counts, groups)
    coups = coup_polynomial(drawing).ways(value_counts(shoe.counts, groups))
    total = falling(shoe.size, COUP_CARDS)
    factors = " × ".join(str(shoe.size - i) for i in range(COUP_CARDS))
    return game.new_analysis(
        config,
        paytable,
        shoe=f"{shoe.description} ({shoe.size} cards)",
        deals=total,
        counting=(
            "Ordered deals in dealing order (Player, Banker, Player, Banker, then the third "
            "cards the tableau calls for), with card removal. A coup takes four to six "
            "cards; each is extended by the next unseen cards to six, so every bet counts "
            f"the same ordered six-card sequences: {factors} = {total:,} (the convention of "
            "the published baccarat tables). The coup bets look only at card values (10, J, "
            "Q, K count 0); they are counted once per tableau as a polynomial in the ten "
            "value counts and evaluated for this shoe. The pair bets look only at the first "
            "two cards of each hand: by rank, and by rank and suit (or colour) for the "
            "perfect pair."
        ),
        bets=bets(config, ways),
        tables=(
            report_tables.tableau_table(drawing),
            report_tables.results_table(coups),
            report_tables.totals_table(coups),
        ),
    )
