"""How blackjack asks its recursion: the round's exact EV, the strategy, the rule options.

A drawing game, not a showdown: the round is valued bottom-up over shoe
compositions (:mod:`~odds.games.blackjack.rounds`), once with optimal
composition-dependent play and once with the basic strategy chart derived
from it; each rule option is then flipped and the round valued again. The
main bet's outcome table is the round's net per initial stake.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import TYPE_CHECKING, Any

from odds.core.cards import Card
from odds.core.shoe import Shoe
from odds.games.blackjack.actions import Chart
from odds.games.blackjack.dealer import RANKS
from odds.games.blackjack.infinite import analyse_infinite
from odds.games.blackjack.options import BlackjackConfig
from odds.games.blackjack.report_tables import OptionValue
from odds.games.blackjack.results import RoundAnalysis
from odds.games.blackjack.rounds import analyse_round, shoe_counts, tables_built
from odds.games.blackjack.rules import rank_index, round_event
from odds.games.blackjack.strategy import build_chart, split_assumption, strategy_definition
from odds.games.features import InfiniteShoeFeature
from odds.runtime.progress import track
from odds.stats.analysis import Analysis
from odds.stats.bets import Bet, Outcome

if TYPE_CHECKING:
    from odds.games.base import Game


def rank_counts(shoe: Shoe[Card]) -> tuple[int, ...]:
    """The shoe as ten rank counts (A, 2–9, ten-value): suits never matter."""
    counts = [0] * RANKS
    for card, n in zip(shoe.types, shoe.counts, strict=True):
        counts[rank_index(card)] += n
    return tuple(counts)


# ---------------------------------------------------------------------------
# What each rule option is worth


@dataclass(frozen=True)
class Flip:
    """One rule option changed from the paytable's value: a label and the changes."""

    label: str
    shoe: dict[str, Any]
    rules: dict[str, Any]


def _yes(value: bool) -> str:
    return "yes" if value else "no"


def flips(config: BlackjackConfig) -> list[Flip]:
    """Each option flipped from the paytable's value (several readings for choices)."""
    r = config.house
    decks = 6 if config.shoe.decks == 8 else 8
    rows = [
        Flip(f"decks = {decks}", {"decks": decks}, {}),
        Flip(
            f"dealer_hits_soft_17 = {_yes(not r.dealer_hits_soft_17)}",
            {},
            {"dealer_hits_soft_17": not r.dealer_hits_soft_17},
        ),
    ]
    rows += [
        Flip(f"blackjack_pays = {pays}", {}, {"blackjack_pays": pays})
        for pays in ("3:2", "6:5", "1:1")
        if pays != r.blackjack_pays
    ]
    rows += [
        Flip(f"double = {double}", {}, {"double": double})
        for double in ("any-two", "9-11", "10-11", "none")
        if double != r.double
    ]
    das = not r.double_after_split
    rows.append(Flip(f"double_after_split = {_yes(das)}", {}, {"double_after_split": das}))
    if r.split_hands == 2:
        rows.append(Flip("split_hands = 4", {}, {"split_hands": 4}))
        both = {"split_hands": 4, "resplit_aces": True}
        rows.append(Flip("split_hands = 4, resplit_aces = yes", {}, both))
    else:
        rows.append(Flip("split_hands = 2", {}, {"split_hands": 2}))
    one = not r.split_aces_one_card
    rows.append(Flip(f"split_aces_one_card = {_yes(one)}", {}, {"split_aces_one_card": one}))
    rows.append(Flip(f"surrender = {_yes(not r.surrender)}", {}, {"surrender": not r.surrender}))
    rows += [
        Flip(f"hole_card = {hole}", {}, {"hole_card": hole})
        for hole in ("none", "peek", "obo")
        if hole != r.hole_card
    ]
    return rows


def option_values(config: BlackjackConfig, base_ev: Fraction) -> list[OptionValue]:
    """The paytable's house edge, then the edge with each option flipped (all exact)."""
    base_edge = -base_ev
    values = [OptionValue("(paytable as it is)", base_edge, None)]
    for flip in track(flips(config), "blackjack rule options"):
        shoe = dataclasses.replace(config.shoe, **flip.shoe)
        rules = dataclasses.replace(config.house, **flip.rules)
        edge = -analyse_round(rank_counts(shoe.build()), rules).ev
        values.append(OptionValue(flip.label, edge, edge - base_edge))
    return values


# ---------------------------------------------------------------------------
# The main bet


@dataclass(frozen=True)
class RoundBet(Bet):
    """A bet whose extra stakes (doubles, splits) are placed during the round.

    :class:`Bet` refuses losses above stake plus withholding because a
    withholding must cover them; in blackjack the player adds stakes by
    choice, so nothing is withheld and a round may lose up to the stakes added.
    """

    @property
    def sd_is_exact(self) -> bool:
        """Split rounds are convolved as independent hands: the SD is approximate."""
        return False

    def __post_init__(self) -> None:
        if sum(o.ways for o in self.outcomes) <= 0 or any(o.ways < 0 for o in self.outcomes):
            raise AssertionError(f"bet {self.name}: bad outcome table")


def main_bet(analysis: RoundAnalysis) -> RoundBet:
    """The round as one bet: net payout per initial stake, over every initial hand and up card.

    Probabilities are exact; the outcome table's "ways" are their numerators
    over one common denominator.
    """
    probabilities: dict[tuple[str, Fraction], Fraction] = {}
    for h in analysis.hands:
        for net, p in h.distribution.items():
            key = (round_event(h.best, net), net)
            probabilities[key] = probabilities.get(key, Fraction(0)) + h.probability * p
    total = sum(probabilities.values())
    if total != 1:
        raise AssertionError(f"round probabilities add up to {total}")
    denominator = lcm(*(p.denominator for p in probabilities.values()))
    order = sorted(probabilities, key=lambda k: (k[0].startswith("split"), k[1], k[0]))
    outcomes = tuple(
        Outcome(label, net, int(probabilities[label, net] * denominator)) for label, net in order
    )
    return RoundBet(
        "main",
        "Blackjack round (optimal play)",
        "One initial stake; doubles and splits add stakes, so a round can win or lose more than "
        f"1 (blackjack pays {analysis.rules.blackjack_pays}). Nets per initial stake, optimal "
        "composition-dependent play.",
        outcomes,
    )


def counting_text(bet: Bet) -> str:
    """How the round is counted (the report's Counting section)."""
    return (
        "A recursion over shoe compositions, not a showdown: suits never matter, so the "
        "shoe is ten rank counts (A, 2–9, ten-value). For each up card the dealer's "
        "final-hand probabilities are computed exactly for every composition the player "
        "can leave (the shoe less the up card and the player's cards), then every player "
        "hand is valued bottom-up (children before parents) as integers over one common "
        "denominator per up card, and every initial two-card hand takes its best action. "
        "The round is off the top of the full shoe: P(two cards, up card) with card "
        "removal. The main bet's 'ways' are the numerators of its exact probabilities "
        f"over their common denominator ({len(str(bet.stats.total))} digits)."
    )


def analyse(game: Game[BlackjackConfig], config: BlackjackConfig, paytable: str) -> Analysis:
    """The exact analysis: optimal play, the chart, every rule option, the main bet."""
    shoe = config.shoe.build()
    counts = rank_counts(shoe)
    rules = config.house
    with tables_built():  # the tables too: a collection would walk every kept table
        optimal = analyse_round(counts, rules, distributions=True)
        chart = build_chart(optimal)
        charted = analyse_round(counts, rules, chart=chart)
        options = option_values(config, optimal.ev)
        return _analysis(game, config, paytable, optimal, chart, charted, options, shoe.size)


class BlackjackInfiniteShoe(InfiniteShoeFeature[BlackjackConfig]):
    """``odds report blackjack --decks infinite``: optimal play with every card dealt with
    replacement (:mod:`.infinite`), the chart the values derive and its own house edge
    (played as printed, as the finite report plays it), and every rule option flipped; the
    decks' row is the paytable's own finite shoe, so the report says what the infinite
    limit costs against it."""

    def analyse(self, game: Any, config: BlackjackConfig, paytable: str) -> Analysis:
        rules = config.house
        optimal = analyse_infinite(rules, distributions=True)
        chart = build_chart(optimal)
        charted = analyse_infinite(rules, chart=chart)
        options = [OptionValue("(paytable as it is)", -optimal.ev, None)]
        shoe = config.shoe.build()  # the paytable's own: --decks infinite flipped back
        counts = rank_counts(shoe)
        label = f"decks = {config.shoe.decks}"
        if counts != shoe_counts(config.shoe.decks):  # cards removed: say which shoe it is
            label = f"shoe = {shoe.description}"
        finite = -analyse_round(counts, rules).ev
        options.append(OptionValue(label, finite, finite + optimal.ev))
        for flip in track(flips(config)[1:], "blackjack rule options"):  # [0] flips the decks
            edge = -analyse_infinite(dataclasses.replace(rules, **flip.rules)).ev
            options.append(OptionValue(flip.label, edge, edge + optimal.ev))
        return _analysis(game, config, paytable, optimal, chart, charted, options, None)


def _analysis(
    game: Game[BlackjackConfig],
    config: BlackjackConfig,
    paytable: str,
    optimal: RoundAnalysis,
    chart: Chart,
    charted: RoundAnalysis | None,
    options: list[OptionValue],
    cards: int | None,
) -> Analysis:
    """The report from its parts (``cards`` None: an infinite shoe)."""
    from odds.games.blackjack import report_tables

    rules = config.house
    bet = main_bet(optimal)
    game_tables = (
        report_tables.dealer_table(optimal),
        report_tables.strategy_table(optimal, charted, bet),
        *report_tables.chart_tables(chart),
        report_tables.hand_table(optimal),
        report_tables.option_table(options, rules.split_strategy),
        report_tables.strategy_data(optimal, charted, chart, bet),
    )
    notes: tuple[str, ...] = (
        strategy_definition(rules.split_strategy),
        split_assumption(rules.split_strategy),
    )
    shoe = f"{config.shoe.build().description} ({cards} cards)"
    if cards is None:
        shoe = "infinite: every card dealt with replacement (ranks in one deck's proportions)"
        notes = (INFINITE_NOTE, *notes)
    return game.new_analysis(
        config,
        paytable,
        shoe=shoe,
        deals=bet.stats.total,
        counting=counting_text(bet) if cards is not None else infinite_counting_text(bet),
        bets=(bet,),
        tables=game_tables,
        notes=notes,
    )


def infinite_counting_text(bet: Bet) -> str:
    """How the round is counted from an infinite shoe (the report's Counting section)."""
    return (
        "Small exact recursions, not a showdown and not the composition engine: dealt with "
        "replacement, each rank has a fixed chance (1/13 for A–9, 4/13 for the ten-values), "
        "so the dealer's final-hand probabilities depend on the up card alone and a hand's "
        "value on its total and softness alone. Each total is valued once per up card "
        "(stand, hit, double; a split's hands one at a time, resplits by the number of "
        "hands), every initial two-card hand takes its best action, and the chart is played "
        "by the same recursions with its own decisions. The round is P(two cards, up card) "
        "from the fixed chances. The rule options' decks row is the paytable's finite shoe, "
        "counted over compositions as the finite report counts it. The main bet's 'ways' are "
        "the numerators of its exact probabilities over their common denominator "
        f"({len(str(bet.stats.total))} digits)."
    )


INFINITE_NOTE = (
    "From an infinite shoe (--decks infinite) nothing dealt changes what comes next: the "
    "dealer's outcomes depend on the up card alone and every decision on the hand's total "
    "(the pair, for a split), so the definition below reduces to total-dependent play. The "
    "figures are exact rationals; a split round's spread treats its hands as independent."
)
