"""How baccarat asks the engine: coups in dealing order, and every bet's outcome table.

* Every bet but the pair bets depends only on the coup's totals and numbers
  of cards, and those only on card *values* (10, J, Q, K alike). The deal is
  a :class:`odds.drawing.DealProcedure` over the ten values, counted once per
  tableau as a polynomial in the value counts
  (:func:`odds.drawing.ordered_deal_polynomial`); a composition is then one
  evaluation. The same table serves the full analysis and the per-state EV.
* The pair bets look only at the first two cards of each hand (cards 1 and 3
  for the Player, 2 and 4 for the Banker): two two-card hands, counted by
  :func:`odds.drawing.two_hand_pair_ways` over ranks, or over identical cards
  (or rank and colour) for the perfect pair.

Convention: ordered deals, each extended by the next unseen cards to six, so
every bet's ways add up to ``(N)_6`` (416·415·414·413·412·411 for 8 decks).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar

from odds.cards import Card
from odds.drawing import (
    DealPolynomial,
    falling,
    group_counts,
    ordered_deal_polynomial,
    two_hand_pair_ways,
)
from odds.games.baccarat import rules as r
from odds.games.baccarat.options import SIDE_BETS, BaccaratConfig, BaccaratPayouts
from odds.games.baccarat.rules import Coup, DrawingRules, Event

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
    """Baccarat's deal for :func:`odds.drawing.ordered_deal_polynomial`.

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


def tableau_key(drawing: DrawingRules) -> tuple[Any, ...]:
    """A hashable identity of a tableau (for caching its counting table)."""
    return (
        tuple(sorted(drawing.naturals)),
        tuple(sorted(drawing.player_draws)),
        tuple(sorted(drawing.banker_draws_player_stood)),
        tuple(sorted((k, tuple(sorted(v))) for k, v in drawing.banker_draws.items())),
    )


def build_coup_polynomial(drawing: DrawingRules) -> DealPolynomial[Coup]:
    """Every coup's ordered ways as a polynomial in the ten value counts (not cached)."""
    return ordered_deal_polynomial(CoupProcedure(drawing), VALUES, COUP_CARDS)


@cache
def _coup_polynomial(key: tuple[Any, ...]) -> DealPolynomial[Coup]:
    naturals, player, stood, rows = key
    drawing = DrawingRules(
        frozenset(naturals),
        frozenset(player),
        frozenset(stood),
        {total: frozenset(row) for total, row in rows},
    )
    return build_coup_polynomial(drawing)


def coup_polynomial(drawing: DrawingRules) -> DealPolynomial[Coup]:
    """The tableau's counting table, built once per tableau in a process."""
    return _coup_polynomial(tableau_key(drawing))


# ---------------------------------------------------------------------------
# Bets


@dataclass(frozen=True)
class BetSpec:
    """A bet: name, title, description, events, and how a coup settles it."""

    name: str
    title: str
    description: str
    events: tuple[Event, ...]
    settle: Callable[[Coup], str] | None  # None: a pair bet (first two cards of each hand)


T = TypeVar("T")


def per_config(function: Callable[[BaccaratConfig], T]) -> Callable[[BaccaratConfig], T]:
    """Remember ``function``'s answer for the last few config objects (by identity).

    A config is frozen but holds dicts, so it cannot be a dict key; the
    per-state EV asks the same config thousands of times, and the bets'
    texts and closures need not be rebuilt each time.
    """
    memory: dict[int, tuple[BaccaratConfig, T]] = {}

    def remembered(config: BaccaratConfig) -> T:
        found = memory.get(id(config))
        if found is None or found[0] is not config:
            if len(memory) >= 32:
                memory.clear()
            found = memory[id(config)] = (config, function(config))
        return found[1]

    return remembered


@per_config
def bet_specs(config: BaccaratConfig) -> tuple[BetSpec, ...]:
    """Every offered bet in report order: Banker, Player, Tie, then the side bets."""
    rules, payouts = config.rules, config.payouts
    drawing = DrawingRules.of(config.tableau)
    p = payouts
    specs = {
        "banker": BetSpec(
            "banker", "Banker", _banker_text(config), r.banker_events(rules),
            lambda c: r.settle_banker(c, rules),
        ),
        "player": BetSpec(
            "player", "Player", f"Pays {_to(p.player)} on a Player win; a tie pushes.",
            r.PLAYER_EVENTS, r.settle_player,
        ),
        "tie": BetSpec(
            "tie", "Tie", f"Pays {_to(p.tie)} when the totals are equal.", r.TIE_EVENTS,
            r.settle_tie,
        ),
        "player-pair": BetSpec(
            "player-pair", "Player Pair",
            f"Pays {_to(p.pair)} when the Player's first two cards are of one rank.",
            r.PAIR_EVENTS, None,
        ),
        "banker-pair": BetSpec(
            "banker-pair", "Banker Pair",
            f"Pays {_to(p.pair)} when the Banker's first two cards are of one rank.",
            r.PAIR_EVENTS, None,
        ),
        "either-pair": BetSpec(
            "either-pair", "Either Pair",
            f"Pays {_to(p.either_pair)} when either hand's first two cards are of one rank.",
            r.EITHER_PAIR_EVENTS, None,
        ),
        "perfect-pair": BetSpec(
            "perfect-pair", "Perfect Pair", _perfect_text(config), r.PERFECT_PAIR_EVENTS, None
        ),
        "dragon-7": BetSpec(
            "dragon-7", "Dragon 7",
            f"Pays {_to(p.dragon_7)} when the Banker wins with a three-card 7.",
            r.DRAGON_7_EVENTS, r.settle_dragon_7,
        ),
        "panda-8": BetSpec(
            "panda-8", "Panda 8",
            f"Pays {_to(p.panda_8)} when the Player wins with a three-card 8.",
            r.PANDA_8_EVENTS, r.settle_panda_8,
        ),
        "dragon-bonus-player": BetSpec(
            "dragon-bonus-player", "Dragon Bonus, Player", _bonus_text("Player", p),
            r.dragon_bonus_events("player", p),
            lambda c: r.settle_dragon_bonus("player", c, drawing, p),
        ),
        "dragon-bonus-banker": BetSpec(
            "dragon-bonus-banker", "Dragon Bonus, Banker", _bonus_text("Banker", p),
            r.dragon_bonus_events("banker", p),
            lambda c: r.settle_dragon_bonus("banker", c, drawing, p),
        ),
        "super-6": BetSpec(
            "super-6", "Super 6",
            f"Pays {_to(p.super_6_two_cards)} when the Banker wins with a two-card 6, "
            f"{_to(p.super_6_three_cards)} with a three-card 6.",
            r.SUPER_6_EVENTS, r.settle_super_6,
        ),
        "big": BetSpec(
            "big", "Big", f"Pays {_to(p.big)} when five or six cards are dealt.",
            r.BIG_EVENTS, r.settle_big,
        ),
        "small": BetSpec(
            "small", "Small", f"Pays {_to(p.small)} when only four cards are dealt.",
            r.SMALL_EVENTS, r.settle_small,
        ),
    }  # fmt: skip
    offered = ("banker", "player", "tie", *(b for b in SIDE_BETS if b in config.bets.side_bets))
    return tuple(specs[name] for name in offered)


def _to(value: Fraction) -> str:
    from odds.numbers import payout_ratio

    return payout_ratio(value).removeprefix("wins ")


def _percent(value: Fraction) -> str:
    """``5%``, ``2.5%``: a share as people write it (exact, trailing zeros dropped)."""
    from odds.numbers import decimal

    return decimal(value * 100, 6).rstrip("0").rstrip(".") + "%"


def _banker_text(config: BaccaratConfig) -> str:
    p = config.payouts
    reading = config.rules.banker_pays
    if reading == "commission":
        return (
            f"Pays {_to(p.banker)} less {_percent(p.commission)} commission on a Banker win "
            f"(net {_to(p.banker * (1 - p.commission))}); a tie pushes."
        )
    if reading == "no-commission":
        return (
            f"No commission: pays {_to(p.banker)} on a Banker win, {_to(p.banker_six)} on a "
            "Banker win with 6; a tie pushes."
        )
    return (
        f"EZ Baccarat: pays {_to(p.banker)} on a Banker win, no commission; a Banker win with "
        "a three-card 7 pushes; a tie pushes."
    )


def _perfect_text(config: BaccaratConfig) -> str:
    p = config.payouts
    what = (
        "two identical cards (same rank and suit)"
        if config.rules.perfect_pair == "identical"
        else "two cards of the same rank and colour"
    )
    return (
        f"Pays {_to(p.perfect_pair)} when the Player's or the Banker's first two cards are {what}, "
        f"{_to(p.perfect_pair_both)} when both are."
    )


def _bonus_text(side: str, p: BaccaratPayouts) -> str:
    margins = ", ".join(f"by {m} {_to(p.dragon_bonus[str(m)])}" for m in r.dragon_bonus_margins(p))
    return (
        f"On the {side}: a natural win pays {_to(p.dragon_bonus['natural'])}, a natural tie "
        f"pushes; a win without a natural pays by the margin ({margins}); anything else loses."
    )


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
        if perfect_reading == "identical":
            keys = [(card.rank, card.suit) for card in types]
        else:
            keys = [(card.rank, r.colour(card.suit)) for card in types]
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


@per_config
def event_polynomial(config: BaccaratConfig) -> DealPolynomial[Any]:
    """The coup table regrouped into the coup bets' events (cached per paytable shape)."""
    specs = bet_specs(config)
    drawing = DrawingRules.of(config.tableau)
    names = tuple(s.name for s in specs if s.settle is not None)
    key = (
        tableau_key(drawing),
        config.rules.banker_pays,
        r.dragon_bonus_margins(config.payouts),
        names,
    )
    found = _EVENT_POLYNOMIALS.get(key)
    if found is None:
        found = regroup_by_events(coup_polynomial(drawing), specs)
        _EVENT_POLYNOMIALS[key] = found
    return found


_EVENT_POLYNOMIALS: dict[tuple[Any, ...], DealPolynomial[Any]] = {}


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
    return result


@per_config
def event_nets(config: BaccaratConfig) -> dict[str, dict[str, Fraction]]:
    """Net payout per unit staked of every event of every offered bet."""
    return {
        spec.name: {e.key: Fraction(e.net(config.payouts)) for e in spec.events}
        for spec in bet_specs(config)
    }
