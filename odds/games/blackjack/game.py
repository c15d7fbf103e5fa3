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
from odds.games.blackjack.dealer import OUTCOMES, RANK_NAMES, RANKS, dealer_probabilities_reference
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
from odds.games.blackjack.player import (
    ACTION_NAMES,
    NATURAL,
    SPLIT,
    RoundAnalysis,
    analyse_round,
    family,
)
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
    "stand; a total of 21 is never hit. A split hand is played on its own cards and the pair "
    "(the other split hand's drawn cards are not used), which makes the two split hands "
    "exchangeable: with one split per round the split is worth exactly twice one split hand "
    "(the cards after a hand that stops by its own cards are distributed like a fresh draw). "
    "Probabilities are exact rationals; every figure is exact for this definition."
)

RESPLIT_NOTE = (
    "Resplitting (split_hands above 2) is approximated: every second card of a split hand is "
    "drawn with the first pair removed only, and every resplit hand is valued as a first split "
    "hand (the extra pair cards and other hands' cards stay in the shoe)."
)


@dataclass(frozen=True)
class Flip:
    """One row of the rule-option table: a changed option and its label."""

    label: str
    shoe: dict[str, Any]
    rules: dict[str, Any]
    note: str = ""


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
        rows.append(Flip("split_hands = 4", {}, {"split_hands": 4}, "approximate"))
        rows.append(
            Flip(
                "split_hands = 4, resplit_aces = yes",
                {},
                {"split_hands": 4, "resplit_aces": True},
                "approximate",
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
        approximate = rules.split_hands > 2
        option_rows = self._option_table(config, optimal.ev)
        strategy_table = self._strategy_table(optimal, charted, bet, approximate)
        tables = (
            self._dealer_table(counts, rules),
            strategy_table,
            *self._chart_tables(chart),
            option_rows,
        )
        notes = [STRATEGY_DEFINITION]
        if approximate:
            notes.append(RESPLIT_NOTE)
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
            up.ensure(_EMPTY)
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

    def _strategy_table(
        self, optimal: RoundAnalysis, charted: RoundAnalysis, bet: Bet, approximate: bool
    ) -> Table:
        split_p = sum((h.probability for h in optimal.hands if h.best == SPLIT), Fraction(0))
        mark = " (approximate: resplits)" if approximate else ""
        rows = (
            (
                "composition-dependent optimal play" + mark,
                fraction_text(-optimal.ev),
                percent(-optimal.ev, 4),
            ),
            (
                "the basic strategy chart below" + mark,
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
                f"Split rounds ({percent(split_p, 4)} of rounds) are listed by the sum of the two "
                "hands, convolved as if the hands were independent: their mean (and so the EV) "
                "is exact, their spread and therefore the SD are approximate (the dealer's "
                "common final hand makes split hands positively correlated, so the SD is a "
                "slight underestimate)."
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
        rows.append(
            ("(paytable as it is)", fraction_text(base_edge), percent(base_edge, 4), "", "")
        )
        for flip in track(flips(config), "blackjack rule options"):
            shoe = dataclasses.replace(config.shoe, **flip.shoe)
            rules = dataclasses.replace(config.house, **flip.rules)
            counts = rank_counts(shoe.build())
            edge = -analyse_round(counts, rules).ev
            change = edge - base_edge
            rows.append(
                (
                    flip.label,
                    fraction_text(edge) if not flip.note else "≈",
                    percent(edge, 4),
                    ("+" if change > 0 else "") + percent(change, 4),
                    flip.note,
                )
            )
            data.append(
                {
                    "option": flip.label,
                    "house_edge": fraction_text(edge),
                    "change": fraction_text(change),
                    "exact": not flip.note,
                }
            )
        return Table(
            key="rule_options",
            title="What each rule option is worth (composition-dependent optimal play)",
            headers=("option flipped", "house edge (exact)", "house edge", "change", "note"),
            rows=tuple(rows),
            note="Each row changes one option of the paytable and recomputes everything. "
            + RESPLIT_NOTE,
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
            "hands": [
                {
                    "cards": [RANK_NAMES[c] for c in h.cards],
                    "up": RANK_NAMES[h.up],
                    "probability": fraction_text(h.probability),
                    "best": ACTION_NAMES[h.best],
                    "ev": {ACTION_NAMES[k]: fraction_text(v) for k, v in h.values.items()},
                }
                for h in optimal.hands
            ],
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
        cases = []
        for decks in (1, 2, 4, 6, 8):
            shoe = dataclasses.replace(config.shoe, decks=decks, removed=(), counts={})
            counts = rank_counts(shoe.build())
            cases.append(
                BenchCase(
                    f"Blackjack optimal house edge, {decks} deck{'s' if decks > 1 else ''}",
                    _fresh(counts, config.house),
                    None,
                    note="cold cache; no brute-force enumerator exists at this size (the dealer "
                    "probabilities are compared with one below, the EVs by simulation)",
                )
            )
        full = rank_counts(config.shoe.build())
        cases.append(
            BenchCase(
                "Blackjack dealer probabilities, every up card, full shoe",
                lambda: _dealer_fast(full, config.house.dealer_hits_soft_17),
                lambda: _dealer_brute(full, config.house.dealer_hits_soft_17),
            )
        )
        return cases


_EMPTY = (((0,) * RANKS, 0),)


def _fresh(counts: tuple[int, ...], rules: BlackjackRules):
    """The optimal house edge from a cold cache (dealer numerators included)."""

    def run() -> str:
        from odds.games.blackjack import player

        player._FAMILIES.clear()
        return percent(-analyse_round(counts, rules).ev, 6)

    return run


def _dealer_fast(counts: tuple[int, ...], h17: bool) -> dict[str, dict[str, Fraction]]:
    from odds.games.blackjack.dealer import dealer_probabilities

    result = {}
    for u in range(RANKS):
        after = list(counts)
        after[u] -= 1
        result[RANK_NAMES[u]] = dealer_probabilities(tuple(after), u, h17)
    return result


def _dealer_brute(counts: tuple[int, ...], h17: bool) -> dict[str, dict[str, Fraction]]:
    result = {}
    for u in range(RANKS):
        after = list(counts)
        after[u] -= 1
        result[RANK_NAMES[u]] = dealer_probabilities_reference(tuple(after), u, h17)
    return result


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
