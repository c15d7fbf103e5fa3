"""Blackjack (docs/rules/blackjack.md): the game module — options, report tables, settle, bench.

The counting lives in :mod:`odds.blackjack`; this module states the rules,
turns the exact values into the report (dealer table, chart, house edges,
rule-option values, the main bet's net payout distribution) and settles
finished rounds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any

from odds.analysis import Analysis
from odds.cards import Card, hand_text
from odds.config import section
from odds.errors import OddsError
from odds.games.base import BenchCase, Game
from odds.games.blackjack.charts import BlackjackCharts
from odds.games.blackjack.dealer import OUTCOMES, RANK_NAMES, RANKS
from odds.games.blackjack.hands import (
    LOSE_LABEL,
    NATURAL_PUSH,
    NATURAL_WIN,
    SURRENDER_LABEL,
    rank_index,
    replay,
    single_label,
    split_label,
)
from odds.games.blackjack.player import ACTION_NAMES, NATURAL, SPLIT, family
from odds.games.blackjack.rounds import HandResult, RoundAnalysis, analyse_round, two_card_total
from odds.games.blackjack.rules import BlackjackRules
from odds.games.blackjack.shoe_state import BlackjackShoeState
from odds.games.blackjack.simulate import SimulationResult, simulate
from odds.games.blackjack.strategy import UP_ORDER, build_chart, chart_rows
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.features import CrosscheckFeature
from odds.numbers import fraction_text, percent
from odds.progress import track
from odds.settlement import SettledBet, SettledHand, Settlement
from odds.shoe import Shoe
from odds.shoe_state.dealing import PenetrationDealing
from odds.stats import Bet, Outcome
from odds.table import Table as TableModel
from odds.table import legacy_table as Table


@dataclass(frozen=True)
class BlackjackShoe(CardShoeOptions):
    """Eight decks by default (the live-casino default, docs/rules/blackjack.md §Readings)."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class BlackjackConfig:
    """A blackjack paytable."""

    shoe: BlackjackShoe = section(BlackjackShoe, "The shoe.")
    # Named [house], not [rules]: these are table variants, not readings of an
    # ambiguous text, so `odds verify` (which tries every combination of the
    # [rules] readings) does not run 1,536 blackjack analyses.
    house: BlackjackRules = section(BlackjackRules, "House rules: how the round is played.")
    dealing: PenetrationDealing = section(
        PenetrationDealing, "How the shoe is dealt (shoe states only)."
    )


def rank_counts(shoe: Shoe[Card]) -> tuple[int, ...]:
    """The shoe as ten rank counts (A, 2–9, ten-value): suits never matter."""
    counts = [0] * RANKS
    for card, n in zip(shoe.types, shoe.counts, strict=True):
        counts[rank_index(card)] += n
    return tuple(counts)


STRATEGY_DEFINITION = (
    "Composition-dependent play: every decision is the best for the exact composition of the "
    "shoe less the up card and the cards of the hand being played. Two-card hands choose among "
    "stand, hit, double, split and surrender (as the rules allow); later cards between hit and "
    "stand; a total of 21 is never hit. Split hands follow CDP1: every split hand is played by "
    "the post-split strategy that is best for the first split (the shoe less the up card, the "
    "pair and the hand's own cards), and a pair card dealt to a split hand is resplit while the "
    "round has fewer hands than allowed (the best limit per pair and up card is taken, so "
    "allowing more hands never lowers a value). Split values are exact for this strategy, "
    "resplits included: each hand is valued with the other hands' pair and non-pair second "
    "cards out of the shoe (the cards a finished hand drew after its second card are "
    "distributed like a fresh draw, so they drop out). Probabilities are exact rationals; every "
    "figure is exact for this definition."
)

#: The one assumption the figures rest on (the report states it in one sentence).
SPLIT_ASSUMPTION = (
    "The one assumption: split hands keep the first split's strategy instead of re-optimising "
    "for the other split hands' cards or the number of pair cards already dealt (CDP1, not "
    "CDPN), so the figures are exact for that strategy and at most slightly below what perfect "
    "post-split play would earn."
)


@dataclass(frozen=True)
class Flip:
    """One row of the rule-option table: a changed option and its label."""

    label: str
    shoe: dict[str, Any]
    rules: dict[str, Any]


def flips(config: BlackjackConfig) -> list[Flip]:
    """Each option flipped from the paytable's value (several readings for choices)."""
    r = config.house
    rows = [
        Flip(
            f"decks = {6 if config.shoe.decks == 8 else 8}",
            {"decks": 6 if config.shoe.decks == 8 else 8},
            {},
        ),
        Flip(
            f"dealer_hits_soft_17 = {_yes(not r.dealer_hits_soft_17)}",
            {},
            {"dealer_hits_soft_17": not r.dealer_hits_soft_17},
        ),
    ]
    for pays in ("3:2", "6:5", "1:1"):
        if pays != r.blackjack_pays:
            rows.append(Flip(f"blackjack_pays = {pays}", {}, {"blackjack_pays": pays}))
    for double in ("any-two", "9-11", "10-11", "none"):
        if double != r.double:
            rows.append(Flip(f"double = {double}", {}, {"double": double}))
    rows.append(
        Flip(
            f"double_after_split = {_yes(not r.double_after_split)}",
            {},
            {"double_after_split": not r.double_after_split},
        )
    )
    if r.split_hands == 2:
        rows.append(Flip("split_hands = 4", {}, {"split_hands": 4}))
        rows.append(
            Flip(
                "split_hands = 4, resplit_aces = yes", {}, {"split_hands": 4, "resplit_aces": True}
            )
        )
    else:
        rows.append(Flip("split_hands = 2", {}, {"split_hands": 2}))
    rows.append(
        Flip(
            f"split_aces_one_card = {_yes(not r.split_aces_one_card)}",
            {},
            {"split_aces_one_card": not r.split_aces_one_card},
        )
    )
    rows.append(Flip(f"surrender = {_yes(not r.surrender)}", {}, {"surrender": not r.surrender}))
    other = "peek" if r.hole_card == "none" else "none"
    rows.append(Flip(f"hole_card = {other}", {}, {"hole_card": other}))
    return rows


def _yes(value: bool) -> str:
    return "yes" if value else "no"


class BlackjackCrosscheck(CrosscheckFeature[BlackjackConfig]):
    """``odds crosscheck``: the seeded simulation of optimal play against its exact EV."""

    def exact_ev(self, config: BlackjackConfig) -> Fraction:
        """EV per round of optimal play (what ``simulate`` must reproduce)."""
        return analyse_round(rank_counts(config.shoe.build()), config.house).ev

    def simulate(self, config: BlackjackConfig, rounds: int, seed: int) -> SimulationResult:
        counts = rank_counts(config.shoe.build())
        return simulate(analyse_round(counts, config.house), rounds, seed)


class Blackjack(Game[BlackjackConfig]):
    """Blackjack against the dealer, one player position, off the top of a full shoe."""

    name = "blackjack"
    title = "Blackjack (8 decks, no hole card)"
    config_type = BlackjackConfig
    positions = ("player", "dealer", "actions")
    bet_names = ("main",)
    hand_size = 0
    crosscheck = BlackjackCrosscheck()
    charts = BlackjackCharts()
    shoe_state = BlackjackShoeState()

    def validate(self, config: BlackjackConfig) -> None:
        counts = rank_counts(config.shoe.build())
        if sum(counts) < 40:
            raise OddsError(
                f"impossible composition: {sum(counts)} cards may run out during a round "
                "(blackjack needs at least 40)"
            )

    # -- analysis -----------------------------------------------------------

    def analyse(self, config: BlackjackConfig, paytable: str) -> Analysis:
        shoe = config.shoe.build()
        counts = rank_counts(shoe)
        rules = config.house
        optimal = analyse_round(counts, rules, distributions=True)
        chart = build_chart(optimal)
        charted = analyse_round(counts, rules, chart=chart)
        bet = main_bet(optimal)
        option_rows = self._option_table(config, optimal.ev)
        strategy_table = self._strategy_table(optimal, charted, bet)
        tables = (
            self._dealer_table(counts, rules),
            strategy_table,
            *self._chart_tables(chart),
            hand_table(optimal),
            option_rows,
        )
        notes = [STRATEGY_DEFINITION, SPLIT_ASSUMPTION]
        return self.new_analysis(
            config,
            paytable,
            shoe=f"{shoe.description} ({shoe.size} cards)",
            deals=bet.stats.total,
            counting=(
                "A recursion over shoe compositions, not a showdown: suits never matter, so the "
                "shoe is ten rank counts (A, 2–9, ten-value). For each up card the dealer's "
                "final-hand probabilities are computed exactly for every composition the player "
                "can leave (the shoe less the up card and the player's cards), then every player "
                "hand is valued bottom-up (children before parents) as integers over one common "
                "denominator per up card, and every initial two-card hand takes its best action. "
                "The round is off the top of the full shoe: P(two cards, up card) with card "
                "removal. The main bet's 'ways' are the numerators of its exact probabilities "
                f"over their common denominator ({len(str(bet.stats.total))} digits)."
            ),
            bets=(bet,),
            tables=(
                *tables,
                Table(
                    key="strategy",
                    title="Strategy (JSON only)",
                    headers=(),
                    rows=(),
                    json=self._strategy_json(optimal, charted, chart, bet),
                    markdown=False,
                ),
            ),
            notes=tuple(notes),
        )

    def _dealer_table(self, counts: tuple[int, ...], rules: BlackjackRules) -> Table:
        fam = family(counts, rules.dealer_hits_soft_17)
        rows, data = [], []
        for u in UP_ORDER:
            if counts[u] == 0:
                continue
            up = fam.up(u)
            up.ensure([((0,) * RANKS, 0)])
            lanes = up.lanes(0)
            denominator = up.plan.denominator(0)
            probs = [Fraction(c, denominator) for c in lanes]
            if rules.peek and probs[6]:
                conditioned = [p / (1 - probs[6]) for p in probs[:6]] + [Fraction(0)]
            else:
                conditioned = probs
            rows.append((RANK_NAMES[u], *probs[:5], probs[6], probs[5]))
            data.append(
                {
                    "up": RANK_NAMES[u],
                    "p_dealer_blackjack": fraction_text(probs[6]),
                    **{o: fraction_text(p) for o, p in zip(OUTCOMES, probs, strict=True)},
                    "given_no_blackjack": {
                        o: fraction_text(p) for o, p in zip(OUTCOMES, conditioned, strict=True)
                    },
                }
            )
        note = (
            "From the full shoe less the up card, before any player card is seen (the dealer's "
            "hand as it would be completed). Unconditional: under no-hole-card rules these are "
            "the probabilities the player faces."
        )
        if rules.peek:
            note += (
                " With the peek, a player who acts knows the dealer has no blackjack: for A and "
                "10 divide the other columns by 1 − P(blackjack) (JSON: given_no_blackjack)."
            )
        return Table(
            key="dealer",
            title="Dealer's final hand by up card",
            headers=("up card", "17", "18", "19", "20", "21", "blackjack", "bust"),
            rows=tuple(rows),
            note=note,
            json=data,
        )

    def _strategy_table(self, optimal: RoundAnalysis, charted: RoundAnalysis, bet: Bet) -> Table:
        split_p = sum((h.probability for h in optimal.hands if h.best == SPLIT), Fraction(0))
        rows = (
            (
                "composition-dependent optimal play (splits: CDP1)",
                fraction_text(-optimal.ev),
                percent(-optimal.ev, 4),
            ),
            (
                "the basic strategy chart below",
                fraction_text(-charted.ev),
                percent(-charted.ev, 4),
            ),
        )
        return Table(
            key="house_edge",
            title="House edge by strategy",
            headers=("strategy", "house edge (exact)", "house edge"),
            rows=rows,
            note=(
                f"SD per round of optimal play ≈ {float(bet.stats.sd):.4f}. The main bet below "
                "is optimal play; its outcome table is exact for every round without a split. "
                f"Split rounds ({percent(split_p, 4)} of rounds) are listed by the sum of their "
                "hands, each hand's outcomes exact and the hands convolved as if independent: "
                "their mean (and so the EV) is exact, their spread and therefore the SD are "
                "approximate (the dealer's common final hand makes split hands positively "
                "correlated, so the SD is a slight underestimate). The chart player resplits "
                "whenever the rules allow."
            ),
            json=None,
        )

    def _chart_tables(self, chart: dict) -> list[Table]:
        rows = chart_rows(chart)
        headers = ("hand", *(RANK_NAMES[u] for u in UP_ORDER))
        legend = (
            "S stand, H hit, Dh double (else hit), Ds double (else stand), P split, "
            "Rh/Rs/Rp surrender (else hit/stand/split). Derived from the exact EVs: each row "
            "takes the action with the highest EV summed over its two-card hands, weighted by "
            "their probabilities; hit/stand after three or more cards follows the fallback "
            "letter of the hand's total."
        )
        titles = {
            "hard": "Basic strategy: hard totals",
            "soft": "Basic strategy: soft totals",
            "pair": "Basic strategy: pairs",
        }
        return [
            Table(
                key=f"chart_{kind}",
                title=titles[kind],
                headers=headers,
                rows=tuple((label, *cells) for label, cells in rows[kind]),
                note=legend if kind == "pair" else "",
                json={
                    label: dict(zip(headers[1:], cells, strict=True)) for label, cells in rows[kind]
                },
            )
            for kind in ("hard", "soft", "pair")
        ]

    def _option_table(self, config: BlackjackConfig, base_ev: Fraction) -> Table:
        rows, data = [], []
        base_edge = -base_ev
        rows.append(("(paytable as it is)", fraction_text(base_edge), percent(base_edge, 4), ""))
        for flip in track(flips(config), "blackjack rule options"):
            shoe = dataclasses.replace(config.shoe, **flip.shoe)
            rules = dataclasses.replace(config.house, **flip.rules)
            counts = rank_counts(shoe.build())
            edge = -analyse_round(counts, rules).ev
            change = edge - base_edge
            rows.append(
                (
                    flip.label,
                    fraction_text(edge),
                    percent(edge, 4),
                    ("+" if change > 0 else "") + percent(change, 4),
                )
            )
            data.append(
                {
                    "option": flip.label,
                    "house_edge": fraction_text(edge),
                    "change": fraction_text(change),
                }
            )
        return Table(
            key="rule_options",
            title="What each rule option is worth (composition-dependent optimal play)",
            headers=("option flipped", "house edge (exact)", "house edge", "change"),
            rows=tuple(rows),
            note="Each row changes one option of the paytable and recomputes everything, exactly "
            "(resplits too, for the CDP1 split strategy).",
            json=data,
        )

    def _strategy_json(
        self, optimal: RoundAnalysis, charted: RoundAnalysis, chart: dict, bet: Bet
    ) -> dict[str, Any]:
        rows = chart_rows(chart)
        return {
            "definition": STRATEGY_DEFINITION,
            "house_edge_optimal": fraction_text(-optimal.ev),
            "house_edge_chart": fraction_text(-charted.ev),
            "sd_optimal_approximate": float(bet.stats.sd),
            "chart": {
                kind: {
                    label: dict(zip((RANK_NAMES[u] for u in UP_ORDER), cells, strict=True))
                    for label, cells in rows[kind]
                }
                for kind in rows
            },
            "hands": [hand_json(h) for h in optimal.hands],
        }

    # -- one round ---------------------------------------------------------------

    def settle(
        self, config: BlackjackConfig, hands: Mapping[str, str], stake: Fraction
    ) -> Settlement:
        player, dealer = hands.get("player"), hands.get("dealer")
        if not player:
            raise OddsError("missing --player (the player's cards in the order dealt)")
        if not dealer:
            raise OddsError("missing --dealer (the dealer's cards, up card first)")
        result = replay(config.house, player, dealer, hands.get("actions"))
        shoe = config.shoe.build()
        shoe.check_holds(
            [c for h in result.hands for c in h.cards] + list(result.dealer), "the round's cards"
        )
        settled_hands = [
            SettledHand("player", hand_text(h.cards), h.description, h.description.split(": ")[1])
            for h in result.hands
        ]
        settled_hands.append(
            SettledHand("dealer", hand_text(result.dealer), result.dealer_description, "")
        )
        wagered = sum(h.stake for h in result.hands)
        reason = "; ".join(f"{h.description.split(':')[0]}: {h.reason}" for h in result.hands)
        debited = stake * wagered
        bet = SettledBet("main", stake, debited, debited + result.net * stake, reason, result.event)
        return Settlement(tuple(settled_hands), (bet,))

    # -- checks and timings ---------------------------------------------------------

    def bench_cases(self, config: BlackjackConfig) -> list[BenchCase]:
        from odds.games.blackjack.bench import bench_cases

        return bench_cases(self, config, lambda shoe: rank_counts(shoe.build()))


def hand_json(h: HandResult) -> dict[str, Any]:
    """One initial hand against one up card, every action valued (exact fractions).

    ``ev_unconditional``: per initial stake, the dealer's blackjack included;
    ``ev_given_no_dealer_blackjack`` (peek only, else null): the values a player
    acting after the peek sees, the published convention for a peeking dealer.
    """
    given = h.values_given_no_dealer_blackjack
    data: dict[str, Any] = {
        "cards": [RANK_NAMES[c] for c in h.cards],
        "up": RANK_NAMES[h.up],
        "probability": fraction_text(h.probability),
        "best": ACTION_NAMES[h.best],
        "p_dealer_blackjack": fraction_text(h.p_dealer_blackjack),
        "ev_unconditional": {ACTION_NAMES[k]: fraction_text(v) for k, v in h.values.items()},
        "ev_given_no_dealer_blackjack": None
        if given is None
        else {ACTION_NAMES[k]: fraction_text(v) for k, v in given.items()},
    }
    if h.split is not None:
        data["split"] = {
            "most_hands": h.split.hands,
            "post_split": {RANK_NAMES[y]: ACTION_NAMES[a] for y, a in h.split.actions.items()},
        }
    return data


def _hand_rows(analysis: RoundAnalysis) -> list[tuple[str, tuple[int, int]]]:
    """Two-card hands in chart order: hard totals, soft totals, pairs (2–10, then A)."""
    keys = []
    for a, b in {h.cards for h in analysis.hands}:
        total, soft = two_card_total(a, b)
        kind = 2 if a == b else (1 if soft else 0)
        order = (a if a else 10) if a == b else total
        label = f"{RANK_NAMES[a]}-{RANK_NAMES[b]}"  # rank order puts the ace first: A-7
        keys.append(((kind, order, b, a), label, (a, b)))
    return [(label, cards) for _, label, cards in sorted(keys)]


def hand_table(analysis: RoundAnalysis) -> TableModel:
    """Best action and its value for every two-card hand and up card (the published layout)."""
    peek = analysis.rules.peek
    by_hand = {(h.cards, h.up): h for h in analysis.hands}
    ups = [u for u in UP_ORDER if analysis.counts[u]]
    rows, data = [], {}
    for label, cards in _hand_rows(analysis):
        cells, entry = [], {}
        for u in ups:
            h = by_hand.get((cards, u))
            if h is None:
                cells.append("")
                continue
            values = h.values_given_no_dealer_blackjack if peek else h.values
            value = (values or h.values)[h.best]
            cells.append(f"{float(value):+.4f} {h.best}")
            entry[RANK_NAMES[u]] = {"best": ACTION_NAMES[h.best], "ev": fraction_text(value)}
        rows.append((label, *cells))
        data[label] = entry
    if peek:
        note = (
            "Given that the dealer has no blackjack: the player acts only after the peek, and "
            "this is the convention of published tables. Exactly (value + P(blackjack)) / "
            "(1 − P(blackjack)), a natural value / (1 − P(blackjack)), where value is the "
            "unconditional EV per initial stake (JSON: strategy.hands[].ev_unconditional, "
            "p_dealer_blackjack, ev_given_no_dealer_blackjack)."
        )
    else:
        note = (
            "Unconditional (no hole card: the player acts before a dealer blackjack is known, "
            "and it takes every stake, doubles and splits included); per initial stake."
        )
    legend = " Best action: S stand, H hit, D double, P split, R surrender, BJ blackjack."
    return Table(
        key="hand_values",
        title="Value of every two-card hand by up card (best action)",
        headers=("hand", *(RANK_NAMES[u] for u in ups)),
        rows=tuple(rows),
        note=note + legend,
        json={"given_no_dealer_blackjack": peek, "hands": data},
    )


def main_bet(analysis: RoundAnalysis) -> Bet:
    """The round as one bet: net payout per initial stake, over every initial hand and up card."""
    rules = analysis.rules
    probabilities: dict[tuple[str, Fraction], Fraction] = {}
    for h in analysis.hands:
        for net, p in h.distribution.items():
            if h.best == NATURAL:
                label = NATURAL_WIN if net else NATURAL_PUSH
            elif h.best == SPLIT:
                label = split_label(net)
            elif net == Fraction(-1, 2):
                label = SURRENDER_LABEL
            else:
                label = single_label(net) if net != -1 else LOSE_LABEL
            key = (label, net)
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
        f"1 (blackjack pays {rules.blackjack_pays}). Nets per initial stake, optimal "
        "composition-dependent play.",
        outcomes,
    )


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
