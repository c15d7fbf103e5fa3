"""Blackjack's report tables: the dealer, the house edge by strategy, the chart, hand values,
what each rule option is worth, and the strategy data JSON readers want.

Tables hold exact values in declared columns (:mod:`odds.core.table`); Markdown,
JSON and CSV come from the same rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from odds.core.numbers import percent
from odds.core.table import Column, Kind, Table
from odds.games.blackjack.actions import SPLIT, Chart
from odds.games.blackjack.dealer import OUTCOMES, RANK_NAMES
from odds.games.blackjack.results import HandResult, RoundAnalysis, two_card_total
from odds.games.blackjack.strategy import STRATEGY_DEFINITION, UP_ORDER, chart_rows
from odds.stats.bets import Bet

#: Markdown order of the dealer's outcomes (the JSON keys are :data:`OUTCOMES`).
_DEALER_COLUMNS = ("17", "18", "19", "20", "21", "blackjack", "bust")


@dataclass(frozen=True)
class OptionValue:
    """The house edge with one option flipped, and the change from the paytable's."""

    label: str
    house_edge: Fraction
    change: Fraction | None  # None: the paytable as it is


def dealer_table(analysis: RoundAnalysis) -> Table:
    """The dealer's final hand by up card (unconditional; conditioned on no blackjack in JSON)."""
    rules = analysis.rules
    rows = []
    for u in UP_ORDER:
        if u not in analysis.dealer:
            continue
        probs = analysis.dealer[u]
        blackjack = probs[OUTCOMES.index("blackjack")]
        row: dict[str, Any] = {"up": RANK_NAMES[u], "p_dealer_blackjack": blackjack}
        row.update(zip(OUTCOMES, probs, strict=True))
        scale = 1 / (1 - blackjack) if rules.peek and blackjack else Fraction(1)
        for outcome, p in zip(OUTCOMES, probs, strict=True):
            conditioned = p * scale if scale == 1 or outcome != "blackjack" else Fraction(0)
            row[f"given_no_blackjack.{outcome}"] = conditioned
        rows.append(row)
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
        columns=(
            Column("up", "up card"),
            Column("p_dealer_blackjack", "P(blackjack)", Kind.PROBABILITY, markdown=False),
            *(Column(o, o, Kind.PROBABILITY) for o in _DEALER_COLUMNS),
            *(
                Column(f"given_no_blackjack.{o}", o, Kind.PROBABILITY, markdown=False)
                for o in OUTCOMES
            ),
        ),
        rows=tuple(rows),
        note=note,
    )


def _digits(*values: Fraction) -> str:
    """How long the exact fractions are, by their denominators: ``of 40 to 50 digits`` when
    they share a decade (as 8 decks' do), else the shortest and the longest."""
    lengths = [len(str(v.denominator)) for v in values]
    low, high = min(lengths), max(lengths)
    decade = low // 10 * 10
    if high < decade + 10:
        return f"of {decade} to {decade + 10} digits"
    return f"of {low} to {high} digits"


def strategy_table(optimal: RoundAnalysis, charted: RoundAnalysis | None, bet: Bet) -> Table:
    """The house edge of optimal play and of the basic strategy chart (None: not computed)."""
    split_p = sum((h.probability for h in optimal.hands if h.best == SPLIT), Fraction(0))
    rows: list[dict[str, Any]] = [
        {
            "strategy": "composition-dependent optimal play "
            f"(splits: {optimal.rules.split_strategy})",
            "edge": -optimal.ev,
        }
    ]
    if charted is not None:
        rows.append({"strategy": "the basic strategy chart below", "edge": -charted.ev})
    return Table(
        key="house_edge",
        title="House edge by strategy",
        columns=(
            Column("strategy", "strategy"),
            Column("edge", "house edge (exact)", Kind.EXACT, markdown=False),
            Column("edge", "house edge", Kind.PERCENT, places=4, json=False),
        ),
        rows=tuple(rows),
        note=(
            f"Exact fractions ({_digits(*(row['edge'] for row in rows))}) in JSON and CSV. "
            f"SD per round of optimal play ≈ {float(bet.stats.sd):.4f}. The main bet below "
            "is optimal play; its outcome table is exact for every round without a split. "
            f"Split rounds ({percent(split_p, 4)} of rounds) are listed by the sum of their "
            "hands, each hand's outcomes exact and the hands convolved as if independent: "
            "their mean (and so the EV) is exact, their spread and therefore the SD are "
            "approximate (the dealer's common final hand makes split hands positively "
            "correlated, so the SD is a slight underestimate). The chart player resplits "
            "whenever the rules allow."
        ),
    )


CHART_LEGEND = (
    "S stand, H hit, Dh double (else hit), Ds double (else stand), P split, "
    "Rh/Rs/Rp surrender (else hit/stand/split). Derived from the exact EVs: each row "
    "takes the action with the highest EV summed over its two-card hands, weighted by "
    "their probabilities; hit/stand after three or more cards follows the fallback "
    "letter of the hand's total."
)
_CHART_TITLES = {
    "hard": "Basic strategy: hard totals",
    "soft": "Basic strategy: soft totals",
    "pair": "Basic strategy: pairs",
}


def chart_tables(chart: Chart) -> list[Table]:
    """The basic strategy chart: hard totals, soft totals, pairs; one column per up card."""
    ups = [RANK_NAMES[u] for u in UP_ORDER]
    rows = chart_rows(chart)
    return [
        Table(
            key=f"chart_{kind}",
            title=_CHART_TITLES[kind],
            columns=(Column("hand", "hand"), *(Column(up, up) for up in ups)),
            rows=tuple(
                {"hand": label, **dict(zip(ups, cells, strict=True))} for label, cells in rows[kind]
            ),
            note=CHART_LEGEND if kind == "pair" else "",
            json_index="hand",
        )
        for kind in ("hard", "soft", "pair")
    ]


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


def _shown_value(h: HandResult) -> Fraction:
    """The best action's value in the published convention (conditioned under a peek)."""
    values = h.values_given_no_dealer_blackjack if h.peek else h.values
    return (values or h.values)[h.best]


def hand_table(analysis: RoundAnalysis) -> Table:
    """Best action and its value for every two-card hand and up card (the published layout)."""
    peek = analysis.rules.peek
    by_hand = {(h.cards, h.up): h for h in analysis.hands}
    ups = [u for u in UP_ORDER if analysis.counts[u]]
    rows = []
    for label, cards in _hand_rows(analysis):
        row: dict[str, Any] = {"hand": label}
        for u in ups:
            h = by_hand.get((cards, u))
            if h is not None:
                row[f"{RANK_NAMES[u]}.ev"] = _shown_value(h)
                row[f"{RANK_NAMES[u]}.best"] = h.best.word
                row[f"{RANK_NAMES[u]}.code"] = h.best  # Markdown: the value, then the action
        rows.append(row)
    columns: list[Column] = [Column("hand", "hand")]
    for u in ups:
        name = RANK_NAMES[u]
        columns += [
            Column(
                f"{name}.ev", name, Kind.PROBABILITY, places=4, signed=True, suffix=f"{name}.code"
            ),
            Column(f"{name}.best", name, markdown=False),
        ]
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
        columns=tuple(columns),
        rows=tuple(rows),
        note=note + legend,
        json_index="hand",
    )


def option_table(values: Sequence[OptionValue], split_strategy: str = "CDP1") -> Table:
    """The exact house edge with each rule option flipped, and the change."""
    rows = tuple(
        {"option": v.label, "house_edge": v.house_edge, "change": v.change} for v in values
    )
    return Table(
        key="rule_options",
        title="What each rule option is worth (composition-dependent optimal play)",
        columns=(
            Column("option", "option flipped"),
            Column("house_edge", "house edge (exact)", Kind.EXACT, markdown=False),
            Column("house_edge", "house edge", Kind.PERCENT, places=4, json=False),
            Column("change", "change", Kind.PERCENT, places=4, signed=True),
        ),
        rows=rows,
        note="Each row changes one option of the paytable and recomputes everything, exactly "
        f"(resplits too, for the {split_strategy} split strategy); the exact house edges and "
        "changes are "
        "fractions in JSON and CSV.",
    )


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
        "probability": h.probability,
        "best": h.best.word,
        "p_dealer_blackjack": h.p_dealer_blackjack,
        "ev_unconditional": {k.word: v for k, v in h.values.items()},
        "ev_given_no_dealer_blackjack": None
        if given is None
        else {k.word: v for k, v in given.items()},
    }
    if h.split is not None:
        data["split"] = {
            "most_hands": h.split.hands,
            "post_split": {RANK_NAMES[y]: a.word for y, a in h.split.actions.items()},
        }
    return data


def strategy_data(
    optimal: RoundAnalysis, charted: RoundAnalysis | None, chart: Chart, bet: Bet
) -> Table:
    """The strategy for JSON readers: the definition, both house edges, every hand's values."""
    row = {
        "definition": STRATEGY_DEFINITION,
        "house_edge_optimal": -optimal.ev,
        "house_edge_chart": None if charted is None else -charted.ev,
        "sd_optimal_approximate": bet.stats.sd,
        "given_no_dealer_blackjack": optimal.rules.peek,
        "chart": {
            kind: {
                label: dict(zip((RANK_NAMES[u] for u in UP_ORDER), cells, strict=True))
                for label, cells in rows
            }
            for kind, rows in chart_rows(chart).items()
        },
        "hands": [hand_json(h) for h in optimal.hands],
    }
    return Table(
        key="strategy",
        title="Strategy (JSON only)",
        columns=(
            Column("definition", "definition"),
            Column("house_edge_optimal", "house edge, optimal play", Kind.EXACT),
            Column("house_edge_chart", "house edge, chart play", Kind.EXACT),
            Column("sd_optimal_approximate", "SD (approximate)", Kind.APPROXIMATE),
            Column("given_no_dealer_blackjack", "hand values given no dealer blackjack", Kind.FLAG),
            Column("chart", "chart", Kind.DATA),
            Column("hands", "hands", Kind.DATA),
        ),
        rows=(row,),
        markdown=False,
        json_record=True,
    )
