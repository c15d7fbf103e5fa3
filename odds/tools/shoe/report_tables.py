"""Tables for ``odds shoe``, ``odds eor``, ``odds exposure`` and the reports' Shoe section.

Every table is an :class:`odds.core.table.Table`: exact values in the rows, columns
declared once, Markdown and JSON rendered from the same rows. Simulated
figures are labelled as estimates with their 95% intervals (``approximate``
columns: floats in JSON).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from odds.core.numbers import decimal, fraction_text, percent
from odds.core.table import Column, Kind, Table
from odds.games.shoe_state import StateEvaluator
from odds.stats.intervals import RESAMPLES, Estimate, interval_text
from odds.tools.shoe.eor import EORTable
from odds.tools.shoe.exact import QUANTILES, ExactExposure
from odds.tools.shoe.simulate import FlatReturn, SimulatedExposure


def signed_percent(value: Fraction, digits: int = 4) -> str:
    """``+0.0163%`` / ``-2.5002%``: the sign always shown (EV changes)."""
    text = percent(value, digits)
    return text if text.startswith("-") or value == 0 else "+" + text


def _percent(
    key: str, header: str, places: int = 4, markdown: bool = True, json: bool = True
) -> Column:
    return Column(
        key, header, Kind.PERCENT, places=places, signed=True, markdown=markdown, json=json
    )


# ---------------------------------------------------------------------------
# odds shoe


def state_table(
    evaluator: StateEvaluator, top: Mapping[str, Fraction], now: Mapping[str, Fraction]
) -> Table:
    """Every bet's exact EV for the state, beside its off-the-top EV."""
    rows = tuple(
        {
            "bet": bet.name,
            "title": bet.title,
            "ev": now[bet.name],
            "ev_percent": now[bet.name],
            "off_the_top": top[bet.name],
            "change": now[bet.name] - top[bet.name],
            "positive": now[bet.name] > 0,
        }
        for bet in evaluator.bets
    )
    return Table(
        key="bets",
        title="Every bet for what is left",
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("ev", "EV now (exact)", Kind.EXACT),
            _percent("ev_percent", "EV now", json=False),
            _percent("off_the_top", "off the top"),
            _percent("change", "change"),
            Column("positive", "positive", Kind.FLAG),
        ),
        rows=rows,
        note="EV per unit staked for the next round, dealt from the unseen cards (burned cards "
        "are unseen too: by exchangeability the next round is dealt as if they were still in).",
    )


# ---------------------------------------------------------------------------
# Effects of removal and counts


def eor_table(table: EORTable) -> Table:
    """EOR of every bet per group (rank or tile), as a percentage; exact in JSON."""
    bets = table.bets
    rows = []
    for g, group in enumerate(table.groups):
        row: dict[str, Any] = {"group": group.label, "copies": table.copies[g]}
        for b in bets:
            row[f"eor.{b.bet.name}"] = b.eor[g]
        rows.append(row)
    note = (
        "EOR: the exact change in a bet's EV (per unit staked) when one card of the group is "
        "out of the full shoe (the mean over the group's cards, suit unknown); weighted by the "
        "copies, every bet's EORs add up to exactly 0 (checked)."
    )
    even = [b.bet.title for b in bets if not any(b.eor) and b.ev == 0]
    alike = [b.bet.title for b in bets if not any(b.eor) and b.ev != 0]
    if even:
        note += (
            f" {', '.join(even)}: EV 0 and every EOR 0, as for any bet that pays the "
            "player's hand what it would cost against the same dealer's hand (the two hands "
            "are exchangeable, so such a bet is even in every state)."
        )
    if alike:
        note += (
            f" {', '.join(alike)}: every EOR 0, the bet treating every rank (tile) alike; "
            "what moves its EV is the spread of the counts (several cards of one kind gone), "
            "which no linear count sees."
        )
    return Table(
        key="effect_of_removal",
        title="Shoe: effect of removal (EOR)",
        columns=(
            Column("group", "group"),
            Column("copies", "copies", Kind.WAYS),
            *(_percent(f"eor.{b.bet.name}", b.bet.title) for b in bets),
        ),
        rows=tuple(rows),
        note=note,
    )


def eor_by_type_table(table: EORTable, evaluator: StateEvaluator) -> Table:
    """Every type's exact EOR (JSON only: suits differ only where the rules compare them)."""
    rows = []
    for t, item in enumerate(evaluator.shoe.types):
        row: dict[str, Any] = {"type": str(item), "copies": evaluator.full[t]}
        for b in table.bets:
            row[f"eor.{b.bet.name}"] = b.eor_by_type[t]
        rows.append(row)
    return Table(
        key="effect_of_removal_by_type",
        title="Effect of removal of each card type",
        columns=(
            Column("type", "type"),
            Column("copies", "copies", Kind.WAYS),
            *(Column(f"eor.{b.bet.name}", b.bet.title, Kind.EXACT) for b in table.bets),
        ),
        rows=tuple(rows),
        markdown=False,
    )


def count_table(table: EORTable, unit_name: str) -> Table:
    """The balanced count of every bet: tags, betting correlation, break-even index."""
    rows = []
    for b in table.bets:
        c = b.count
        counted = any(c.tags)
        tags_text = (
            " ".join(
                f"{g.label}:{'+' if t > 0 else ''}{t}"
                for g, t in zip(table.groups, c.tags, strict=True)
            )
            if counted
            else "no count (every EOR is 0)"
        )
        rows.append(
            {
                "bet": b.bet.name,
                "title": b.bet.title,
                "tags_text": tags_text,
                "tags": dict(zip((g.label for g in table.groups), c.tags, strict=True)),
                "balanced": sum(n * t for n, t in zip(table.copies, c.tags, strict=True)) == 0,
                "correlation": c.correlation if counted else None,
                "correlation_squared": c.correlation_squared if counted else None,
                "per_true_count": c.per_true_count if counted else None,
                "index": c.index,
            }
        )
    return Table(
        key="counts",
        title="Shoe: counting systems derived from the EORs",
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("tags_text", "tags (balanced)", json=False),
            Column("tags", "tags", Kind.DATA, markdown=False),
            Column("balanced", "balanced", Kind.FLAG, markdown=False),
            Column("correlation", "betting correlation", Kind.APPROXIMATE, places=4),
            Column("correlation_squared", "correlation squared", Kind.EXACT, markdown=False),
            _percent("per_true_count", f"EV per true count (per {unit_name})"),
            Column("index", "break-even true count", Kind.PROBABILITY, places=2),
        ),
        rows=tuple(rows),
        note=(
            "Tags: each group's EOR scaled to small integers and rounded so that a whole shoe "
            "counts to 0 (Σ copies · tag = 0); the betting correlation is the copies-weighted "
            "correlation of tags and EORs. True count = running count (tags of the cards seen) "
            f"per {unit_name} unseen. The linear estimate EV ≈ EV₀ + slope · true count gives the "
            "break-even true count, where a counter starts betting; it is a guide, the exact "
            "per-state EV is what decides."
        ),
    )


# ---------------------------------------------------------------------------
# Exact exposure


def exact_round_table(exposure: ExactExposure, evaluator: StateEvaluator) -> Table:
    """Per round and bet: P(EV > 0), E[max(EV, 0)], the edge when positive, the spread."""
    titles = {b.name: b.title for b in evaluator.bets}
    rows = []
    for r in exposure.rounds:
        for name, d in r.bets.items():
            rows.append(
                {
                    "round": r.number,
                    "seen": r.seen,
                    "unseen": r.unseen,
                    "compositions": r.compositions,
                    "states_evaluated": r.orbits,
                    "bet": name,
                    "title": titles[name],
                    "p_positive": d.p_positive,
                    "expected_positive_ev": d.gain,
                    "edge_when_positive": d.edge_when_positive,
                    "mean_ev": d.mean,
                    "min": d.minimum,
                    "median": d.quantiles[2],
                    "max": d.maximum,
                    "quantiles": {str(q): v for q, v in zip(QUANTILES, d.quantiles, strict=True)},
                }
            )
    compositions = ", ".join(f"{r.compositions:,}" for r in exposure.rounds)
    return Table(
        key="exposure_rounds",
        title="Shoe: exact exposure by round",
        columns=(
            Column("round", "round", Kind.WAYS),
            Column("seen", "seen", Kind.WAYS, markdown=False),
            Column("unseen", "unseen", Kind.WAYS),
            Column("compositions", "compositions", Kind.WAYS, markdown=False),
            Column("states_evaluated", "states evaluated", Kind.WAYS, markdown=False),
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("p_positive", "P(EV > 0)", Kind.PROBABILITY),
            Column("expected_positive_ev", "E[max(EV, 0)]", Kind.PROBABILITY),
            _percent("edge_when_positive", "edge when positive", 2),
            Column("mean_ev", "mean EV", Kind.EXACT, markdown=False),
            _percent("min", "lowest EV", 2),
            _percent("median", "median EV", 2),
            _percent("max", "highest EV", 2),
            Column("quantiles", "quantiles", Kind.DATA, markdown=False),
        ),
        rows=tuple(rows),
        note=(
            "Every composition of unseen tiles before each round, weighted by its exact "
            "(multivariate hypergeometric) probability; compositions per round: "
            f"{compositions} (tile types every bet treats alike are enumerated once per orbit). "
            "E[max(EV, 0)] is what a player who stakes 1 only when the bet is positive wins per "
            "round on average; the mean EV of every round equals the off-the-top EV exactly "
            "(checked). JSON adds the 5%, 25%, 75% and 95% quantiles, as exact fractions."
        ),
    )


def exact_summary_table(exposure: ExactExposure, evaluator: StateEvaluator) -> Table:
    """Per bet: the watching player's exact win per set, against the flat bettor's."""
    rounds = len(exposure.rounds)
    rows = tuple(
        {
            "bet": bet.name,
            "title": bet.title,
            "watcher_gain_per_set": exposure.per_set_gain(bet.name),
            "watcher_decimal": exposure.per_set_gain(bet.name),
            "flat_bettor_per_set": rounds * exposure.off_the_top[bet.name],
        }
        for bet in evaluator.bets
    )
    return Table(
        key="exposure_sets",
        title="Shoe: a watching player's win per set (exact)",
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("watcher_gain_per_set", "watching player, per set (exact)", Kind.EXACT),
            Column("watcher_decimal", "watching player, per set", Kind.PROBABILITY, json=False),
            Column("flat_bettor_per_set", "flat bettor, per set", Kind.PROBABILITY),
        ),
        rows=rows,
        note=(
            f"Per unit bet on one position, over the {rounds} round(s) of a set: the watching "
            "player stakes 1 only when the exact EV is positive; the flat bettor stakes 1 every "
            "round (the number of rounds never depends on the tiles, so by exchangeability every "
            "round's EV averages to the off-the-top EV and the flat bettor's return is the "
            "off-the-top RTP)."
        ),
    )


def exact_verdicts(exposure: ExactExposure, evaluator: StateEvaluator) -> list[str]:
    """One quotable line per bet."""
    lines = []
    for bet in evaluator.bets:
        best = max(exposure.rounds, key=lambda r: (r.bets[bet.name].p_positive, r.number))
        p = best.bets[bet.name].p_positive
        if not p:
            lines.append(f"{bet.title}: never positive in any state of any round (exact).")
            continue
        gain = exposure.per_set_gain(bet.name)
        lines.append(
            f"{bet.title}: positive in {percent(p, 4)} of round-{best.number} states; a "
            f"watching player wins {decimal(gain, 6)} units per set per unit bet "
            f"(exact {fraction_text(gain)})."
        )
    return lines


# ---------------------------------------------------------------------------
# Simulated exposure


def percent_interval(e: Estimate, digits: int = 4) -> str:
    """A share estimated with its interval, every figure a percentage, signed as the EVs are.

    >>> percent_interval(Estimate(-0.007856, -0.0091, -0.0066))
    '-0.7856% [-0.9100%, -0.6600%]'
    >>> percent_interval(Estimate(0.0, None, None, reason="every shoe alike"))
    '0.0000% (no interval: every shoe alike)'
    """
    shown = e.scaled(100)

    def one(value: float) -> str:
        text = f"{value:.{digits}f}%"
        return "+" + text if value > 0 and text.strip("0.%") else text

    if shown.low is None or shown.high is None:
        return f"{one(shown.mean)} (no interval: {shown.reason})"
    return f"{one(shown.mean)} [{one(shown.low)}, {one(shown.high)}]"


def depth_table(sim: SimulatedExposure, evaluator: StateEvaluator) -> Table:
    """Per round depth: shoes reaching it, and per bet the share positive and its mean edge."""
    bets = evaluator.bets
    rows = []
    for d in sim.depths:
        row: dict[str, Any] = {"round": d.number, "shoes": d.shoes}
        for b, bet in enumerate(bets):
            row[f"{bet.name}.positive"] = Fraction(d.positive[b], d.shoes)
            row[f"{bet.name}.edge"] = (
                100 * d.positive_ev[b] / d.positive[b] if d.positive[b] else None
            )
            row[f"{bet.name}.mean_ev"] = d.mean_ev[b]
            row[f"{bet.name}.counter_bets"] = d.counted[b]
        rows.append(row)
    columns = [Column("round", "round", Kind.WAYS), Column("shoes", "shoes", Kind.WAYS)]
    for bet in bets:
        columns += [
            Column(f"{bet.name}.positive", f"{bet.title}: EV > 0", Kind.PERCENT, places=2),
            Column(
                f"{bet.name}.edge", f"{bet.title}: edge when > 0 (%)", Kind.APPROXIMATE, places=3
            ),
            Column(f"{bet.name}.mean_ev", "mean EV", Kind.APPROXIMATE, markdown=False),
            Column(f"{bet.name}.counter_bets", "counter bets", Kind.WAYS, markdown=False),
        ]
    return Table(
        key="exposure_depths",
        title="Shoe: simulated exposure by round depth",
        columns=tuple(columns),
        rows=tuple(rows),
        note=(
            f"{sim.shoes:,} shoes (seed {sim.seed}); every round's EVs are exact for the state a "
            "watcher sees (every face-up card), the shares and means are estimates over the "
            "shoes that reached the round."
        ),
    )


def _estimate_cells(key: str, estimate: Estimate, digits: int = 4) -> dict[str, Any]:
    """An estimate as Markdown text (``mean [low, high]``) and as JSON floats."""
    return {
        f"{key}_text": interval_text(estimate, digits),
        key: estimate.mean,
        f"{key}_low": estimate.low,
        f"{key}_high": estimate.high,
        f"{key}_interval": estimate.method,
    }


def _estimate_columns(key: str, header: str) -> tuple[Column, ...]:
    """The columns of :func:`_estimate_cells`: the text for Markdown, the floats for JSON."""
    floats = (Column(k, k, Kind.APPROXIMATE, markdown=False) for k in (key, f"{key}_low"))
    return (
        Column(f"{key}_text", header, json=False),
        *floats,
        Column(f"{key}_high", f"{key}_high", Kind.APPROXIMATE, markdown=False),
        Column(f"{key}_interval", f"{key}_interval", markdown=False),
    )


def simulated_summary_table(
    sim: SimulatedExposure, top: Mapping[str, Fraction], exact_flat: FlatReturn | None
) -> Table:
    """Per bet: flat bettor per round, watcher and counter per shoe (estimates, 95%)."""
    exact = exact_flat.per_round if exact_flat is not None else None
    rows = []
    for b in sim.bets:
        flat = b.flat_per_round
        row: dict[str, Any] = {"bet": b.name, "title": b.title, "off_the_top": top[b.name]}
        row |= _estimate_cells("flat", flat)
        if exact is not None:  # the exact value replaces the estimate in Markdown
            row["flat_text"] = signed_percent(exact[b.name], 4) + " (exact)"
            row["flat_exact"] = exact[b.name]
        else:
            row["flat_text"] = percent_interval(flat)
        row["positive_rounds"] = b.positive_rounds.mean
        row |= _estimate_cells("watcher", b.watcher)
        row["counter_rounds"] = b.counter_rounds.mean
        row |= _estimate_cells("counter", b.counter)
        methods = {b.watcher.method, b.counter.method} | (
            set() if exact is not None else {flat.method}
        )
        row["intervals"] = ", ".join(sorted(methods))
        rows.append(row)
    return Table(
        key="exposure_players",
        title="Shoe: what watching is worth (simulated)",
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            _percent("off_the_top", "off the top"),
            *_estimate_columns("flat", "flat bettor, per round"),
            Column("flat_exact", "flat_exact", Kind.EXACT, markdown=False),
            Column("positive_rounds", "positive rounds per shoe", Kind.APPROXIMATE, places=3),
            *_estimate_columns("watcher", "watcher: units per shoe [95%]"),
            Column("counter_rounds", "counter bets per shoe", Kind.APPROXIMATE, places=3),
            *_estimate_columns("counter", "counter: units per shoe [95%]"),
            Column("intervals", "95% interval", json=False),
        ),
        rows=tuple(rows),
        note=(
            f"{sim.shoes:,} shoes (seed {sim.seed}), {sim.rounds.mean:.2f} rounds per shoe. The "
            "watcher stakes 1 when the exact EV is positive; the counter stakes 1 when the bet's "
            "true count reaches its break-even index; units are expected wins (the exact EVs of "
            "the rounds bet), per shoe, with 95% intervals over shoes: bootstrap-t (a "
            f"studentized bootstrap over shoes, {RESAMPLES:,} resamples, seeded by the study's "
            "seed), which keeps its coverage on rare events where the normal approximation "
            "does not; none where too few shoes differ (the cell says why)."
        ),
    )


def simulated_verdicts(sim: SimulatedExposure) -> list[str]:
    """One quotable line per bet."""
    lines = []
    for i, b in enumerate(sim.bets):
        if b.positive_rounds.mean == 0:
            lines.append(
                f"{b.title}: positive in no round of {sim.shoes:,} simulated shoes (seed "
                f"{sim.seed}); watching the cards gains nothing measurable."
            )
            continue
        # The deepest rounds are reached by few shoes: judge rounds most shoes reach.
        common = [d for d in sim.depths if 2 * d.shoes >= sim.shoes] or list(sim.depths)
        best = max(common, key=lambda d: (Fraction(d.positive[i], d.shoes), -d.number))
        share = Fraction(best.positive[i], best.shoes)
        w = b.watcher
        spread = (
            f"95% bootstrap-t: {w.low:.4f} to {w.high:.4f}"
            if w.low is not None and w.high is not None
            else f"no interval: {w.reason}"
        )
        lines.append(
            f"{b.title}: positive in {percent(share, 2)} of round-{best.number} states; a "
            f"watching player wins {w.mean:.4f} units per shoe per unit bet ({spread}; "
            f"{sim.shoes:,} shoes, seed {sim.seed})."
        )
    return lines


def flat_sentence(
    procedure: Any,
    top: Mapping[str, Fraction],
    exact_flat: FlatReturn | None,
    sim: SimulatedExposure | None,
    titles: Sequence[tuple[str, str]],
) -> str:
    """Whether the flat bettor's whole-shoe return equals the off-the-top RTP, and why."""
    if not procedure.rounds_depend_on_values():
        return (
            "Flat bettor: the number of rounds never depends on the cards' values, so by "
            "exchangeability every round's EV averages to the off-the-top EV and the whole-shoe "
            "return equals the off-the-top RTP exactly."
        )
    if exact_flat is not None and len(exact_flat.rounds) == 1:
        return (
            "Flat bettor: the first card's burn never changes the number of rounds here "
            f"({exact_flat.rounds[0]} rounds whatever the first card), so by exchangeability "
            "every round's EV averages to the off-the-top EV and the whole-shoe return equals "
            "the off-the-top RTP exactly."
        )
    if exact_flat is not None:
        per_round = exact_flat.per_round
        parts = [
            f"{title}: {signed_percent(per_round[name] - top[name], 6)} "
            f"({fraction_text(per_round[name] - top[name])})"
            for name, title in titles
        ]
        counts = " or ".join(str(r) for r in exact_flat.rounds)
        return (
            f"Flat bettor: the number of rounds ({counts}) depends on the first card's value "
            "(it sets the burn), so the whole-shoe return per round is exact but not the "
            "off-the-top one: "
            "given the first card every round is dealt from the shoe less that card, and the "
            "shoes with more rounds weigh more. Whole shoe − off the top: " + "; ".join(parts) + "."
        )
    if sim is None:
        return ""
    parts = []
    for b in sim.bets:
        flat = b.flat_per_round
        if flat.low is None or flat.high is None:
            parts.append(f"{b.title}: no interval ({flat.reason})")
            continue
        d_low, d_high = flat.low - float(top[b.name]), flat.high - float(top[b.name])
        parts.append(f"{b.title}: {100 * d_low:+.4f}% to {100 * d_high:+.4f}%")
    return (
        "Flat bettor: the number of rounds depends on the cards dealt (the cut-card effect); "
        "whole-shoe return per round minus the off-the-top EV, 95% bootstrap-t interval "
        "(studentized bootstrap over shoes) from the simulation: " + "; ".join(parts) + "."
    )
