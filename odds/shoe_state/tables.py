"""Tables for ``odds shoe``, ``odds eor``, ``odds exposure`` and the reports' Shoe section.

Every table is an :class:`odds.analysis.Table`: display rows for Markdown and a
JSON form with every exact number as a fraction string. Simulated figures are
labelled as estimates with their 95% intervals.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from odds.analysis import Table
from odds.numbers import decimal, fraction_text, percent
from odds.shoe_state.eor import EORTable
from odds.shoe_state.exact import QUANTILES, ExactExposure
from odds.shoe_state.model import StateEvaluator
from odds.shoe_state.simulate import Estimate, SimulatedExposure


def signed_percent(value: Fraction, digits: int = 4) -> str:
    """``+0.0163%`` / ``-2.5002%``: the sign always shown (EV changes)."""
    text = percent(value, digits)
    return text if text.startswith("-") or value == 0 else "+" + text


def _fraction(value: Fraction | None) -> str | None:
    return None if value is None else fraction_text(value)


# ---------------------------------------------------------------------------
# odds shoe


def state_table(
    evaluator: StateEvaluator, top: Mapping[str, Fraction], now: Mapping[str, Fraction]
) -> Table:
    """Every bet's exact EV for the state, beside its off-the-top EV."""
    rows, data = [], []
    for bet in evaluator.bets:
        a, b = now[bet.name], top[bet.name]
        rows.append(
            (
                bet.title,
                fraction_text(a),
                signed_percent(a),
                signed_percent(b),
                signed_percent(a - b),
            )
        )
        data.append(
            {
                "bet": bet.name,
                "ev": fraction_text(a),
                "off_the_top": fraction_text(b),
                "change": fraction_text(a - b),
                "positive": a > 0,
            }
        )
    return Table(
        key="state",
        title="Every bet for what is left",
        headers=("bet", "EV now (exact)", "EV now", "off the top", "change"),
        rows=tuple(rows),
        note="EV per unit staked for the next round, dealt from the unseen cards (burned cards "
        "are unseen: by exchangeability they change nothing the watcher can use).",
        json=data,
    )


# ---------------------------------------------------------------------------
# Effects of removal and counts


def eor_table(table: EORTable) -> Table:
    """EOR of every bet per group (rank or tile), in percent, with exact JSON."""
    bets = table.bets
    rows = []
    for g, group in enumerate(table.groups):
        rows.append((group.label, table.copies[g], *(signed_percent(b.eor[g], 4) for b in bets)))
    data = {
        "groups": [
            {"group": group.label, "copies": table.copies[g]}
            for g, group in enumerate(table.groups)
        ],
        "bets": [
            {
                "bet": b.bet.name,
                "ev": fraction_text(b.ev),
                "eor": [fraction_text(e) for e in b.eor],
                "eor_by_type": [_fraction(e) for e in b.eor_by_type],
            }
            for b in bets
        ],
    }
    zero = [b.bet.title for b in bets if not any(b.eor)]
    note = (
        "EOR: the exact change in a bet's EV (per unit staked) when one card of the group is "
        "out of the full shoe (the mean over the group's cards); copies-weighted, the EORs of "
        "every bet add up to exactly 0."
    )
    if zero:
        which, its = ("this bet", "its") if len(zero) == 1 else ("these bets", "their")
        note += (
            f" Zero for {', '.join(zero)}: every card (tile) of the shoe is alike to {which}, "
            f"so removing one changes nothing; what moves {its} EV is the spread of the counts "
            "(several copies of one type gone), which no linear count sees."
        )
    return Table(
        key="effect_of_removal",
        title="Shoe: effect of removal (EOR, % of a unit)",
        headers=("group", "copies", *(b.bet.title for b in bets)),
        rows=tuple(rows),
        note=note,
        json=data,
    )


def count_table(table: EORTable, unit_name: str) -> Table:
    """The balanced count of every bet: tags, betting correlation, break-even index."""
    rows, data = [], []
    for b in table.bets:
        c = b.count
        if not any(c.tags):
            rows.append((b.bet.title, "no count (every EOR is 0)", "—", "—", "—"))
        else:
            tags = " ".join(
                f"{g.label}:{'+' if t > 0 else ''}{t}"
                for g, t in zip(table.groups, c.tags, strict=True)
            )
            rows.append(
                (
                    b.bet.title,
                    tags,
                    f"{c.correlation:.4f}",
                    signed_percent(c.per_true_count, 4),
                    "—" if c.index is None else decimal(c.index, 2),
                )
            )
        data.append(
            {
                "bet": b.bet.name,
                "tags": dict(zip((g.label for g in table.groups), c.tags, strict=True)),
                "balanced": sum(n * t for n, t in zip(table.copies, c.tags, strict=True)) == 0,
                "betting_correlation": c.correlation,
                "betting_correlation_squared": fraction_text(c.correlation_squared),
                "ev_per_true_count": fraction_text(c.per_true_count),
                "break_even_true_count": _fraction(c.index),
            }
        )
    return Table(
        key="counts",
        title="Shoe: counting systems derived from the EORs",
        headers=(
            "bet",
            "tags (balanced)",
            "betting correlation",
            f"EV per true count (per {unit_name})",
            "break-even true count",
        ),
        rows=tuple(rows),
        note=(
            "Tags: each group's EOR scaled to small integers and rounded so that the whole shoe "
            "counts to 0 (Σ copies · tag = 0); the betting correlation is the copies-weighted "
            "correlation of tags and EORs. True count = running count (tags of the cards seen) "
            f"per {unit_name} unseen. The linear estimate EV ≈ EV₀ + slope · true count gives the "
            "break-even true count, where a counter starts betting; it is a guide, the exact "
            "per-state EV is what decides."
        ),
        json=data,
    )


# ---------------------------------------------------------------------------
# Exact exposure


def exact_round_table(exposure: ExactExposure, evaluator: StateEvaluator, digits: int = 6) -> Table:
    """Per round and bet: P(EV > 0), E[max(EV, 0)], the edge when positive, quantiles."""
    titles = {b.name: b.title for b in evaluator.bets}
    rows, data = [], []
    for r in exposure.rounds:
        for name, d in r.bets.items():
            edge = d.edge_when_positive
            rows.append(
                (
                    r.number,
                    r.unseen,
                    titles[name],
                    d.p_positive,
                    d.gain,
                    "—" if edge is None else signed_percent(edge, 2),
                    signed_percent(d.minimum, 2),
                    signed_percent(d.quantiles[2], 2),
                    signed_percent(d.maximum, 2),
                )
            )
            data.append(
                {
                    "round": r.number,
                    "seen": r.seen,
                    "unseen": r.unseen,
                    "compositions": r.compositions,
                    "states_evaluated": r.orbits,
                    "bet": name,
                    "p_positive": fraction_text(d.p_positive),
                    "expected_positive_ev": fraction_text(d.gain),
                    "mean_ev": fraction_text(d.mean),
                    "edge_when_positive": _fraction(edge),
                    "min": fraction_text(d.minimum),
                    "max": fraction_text(d.maximum),
                    "quantiles": {
                        str(q): fraction_text(v)
                        for q, v in zip(QUANTILES, d.quantiles, strict=True)
                    },
                }
            )
    compositions = ", ".join(f"{r.compositions:,}" for r in exposure.rounds)
    return Table(
        key="exposure_rounds",
        title="Shoe: exact exposure by round",
        headers=(
            "round",
            "unseen",
            "bet",
            "P(EV > 0)",
            "E[max(EV, 0)]",
            "edge when positive",
            "lowest EV",
            "median EV",
            "highest EV",
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
        json=data,
    )


def exact_summary_table(exposure: ExactExposure, evaluator: StateEvaluator) -> Table:
    """Per bet: the watching player's exact win per set, against the flat bettor's loss."""
    rows, data = [], []
    rounds = len(exposure.rounds)
    for bet in evaluator.bets:
        gain = exposure.per_set_gain(bet.name)
        flat = rounds * exposure.off_the_top[bet.name]
        rows.append((bet.title, fraction_text(gain), decimal(gain, 6), decimal(flat, 6)))
        data.append(
            {
                "bet": bet.name,
                "watcher_gain_per_set": fraction_text(gain),
                "flat_bettor_per_set": fraction_text(flat),
                "rounds": rounds,
            }
        )
    return Table(
        key="exposure_sets",
        title="Shoe: a watching player's win per set (exact)",
        headers=(
            "bet",
            "watching player, per set (exact)",
            "watching player, per set",
            "flat bettor, per set",
        ),
        rows=tuple(rows),
        note=(
            f"Per unit bet on one position, over the {rounds} round(s) of a set: the watching "
            "player stakes 1 only when the exact EV is positive; the flat bettor stakes 1 every "
            "round (the number of rounds never depends on the tiles, so by exchangeability every "
            "round's EV averages to the off-the-top EV and the flat bettor's return is the "
            "off-the-top RTP)."
        ),
        json=data,
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


def _interval(e: Estimate, digits: int = 4) -> str:
    low, high = e.interval
    return f"{e.mean:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def depth_table(sim: SimulatedExposure, evaluator: StateEvaluator) -> Table:
    """Per round depth: shoes reaching it, and per bet the share positive and its mean edge."""
    bets = evaluator.bets
    rows, data = [], []
    for d in sim.depths:
        cells: list[Any] = [d.number, d.shoes]
        entry: dict[str, Any] = {"round": d.number, "shoes": d.shoes, "bets": {}}
        for b, bet in enumerate(bets):
            share = d.positive[b] / d.shoes
            edge = d.positive_ev[b] / d.positive[b] if d.positive[b] else None
            cells += [f"{100 * share:.2f}%", "—" if edge is None else f"{100 * edge:+.3f}%"]
            entry["bets"][bet.name] = {
                "positive": d.positive[b],
                "mean_edge_when_positive": edge,
                "mean_ev": d.mean_ev[b],
                "counter_bets": d.counted[b],
            }
        rows.append(tuple(cells))
        data.append(entry)
    headers: list[str] = ["round", "shoes"]
    for bet in bets:
        headers += [f"{bet.title}: EV > 0", f"{bet.title}: edge when > 0"]
    return Table(
        key="exposure_depths",
        title="Shoe: simulated exposure by round depth",
        headers=tuple(headers),
        rows=tuple(rows),
        note=(
            f"{sim.shoes:,} shoes (seed {sim.seed}); every round's EVs are exact for the state a "
            "watcher sees (every face-up card), the shares and means are estimates over the "
            "shoes that reached the round."
        ),
        json=data,
    )


def simulated_summary_table(
    sim: SimulatedExposure, top: Mapping[str, Fraction], exact_flat: Mapping[str, Fraction] | None
) -> Table:
    """Per bet: flat bettor per round, watcher and counter per shoe (estimates, 95%)."""
    rows, data = [], []
    for b in sim.bets:
        flat = (
            signed_percent(exact_flat[b.name], 4) + " (exact)"
            if exact_flat is not None
            else _interval(b.flat_per_round, 5)
        )
        rows.append(
            (
                b.title,
                signed_percent(top[b.name], 4),
                flat,
                f"{b.positive_rounds.mean:.3f}",
                _interval(b.watcher),
                f"{b.counter_rounds.mean:.3f}",
                _interval(b.counter),
            )
        )
        data.append(
            {
                "bet": b.name,
                "off_the_top": fraction_text(top[b.name]),
                "flat_per_round": (
                    fraction_text(exact_flat[b.name])
                    if exact_flat is not None
                    else _estimate_json(b.flat_per_round)
                ),
                "positive_rounds_per_shoe": _estimate_json(b.positive_rounds),
                "watcher_per_shoe": _estimate_json(b.watcher),
                "counter_rounds_per_shoe": _estimate_json(b.counter_rounds),
                "counter_per_shoe": _estimate_json(b.counter),
            }
        )
    return Table(
        key="exposure_players",
        title="Shoe: what watching is worth (simulated)",
        headers=(
            "bet",
            "off the top",
            "flat bettor, per round",
            "positive rounds per shoe",
            "watcher: units per shoe [95%]",
            "counter bets per shoe",
            "counter: units per shoe [95%]",
        ),
        rows=tuple(rows),
        note=(
            f"{sim.shoes:,} shoes (seed {sim.seed}), {sim.rounds.mean:.2f} rounds per shoe. The "
            "watcher stakes 1 when the exact EV is positive; the counter stakes 1 when the bet's "
            "true count reaches its break-even index; units are expected wins (the exact EVs of "
            "the rounds bet), per shoe, with 95% intervals over shoes."
        ),
        json=data,
    )


def _estimate_json(e: Estimate) -> dict[str, float]:
    low, high = e.interval
    return {"mean": e.mean, "low": low, "high": high}


def simulated_verdicts(sim: SimulatedExposure) -> list[str]:
    """One quotable line per bet."""
    lines = []
    for b in sim.bets:
        if b.positive_rounds.mean == 0:
            lines.append(
                f"{b.title}: positive in no round of {sim.shoes:,} simulated shoes (seed "
                f"{sim.seed}); watching the cards gains nothing measurable."
            )
            continue
        best = max(sim.depths, key=lambda d: (d.positive[_index(sim, b.name)] / d.shoes, -d.number))
        share = best.positive[_index(sim, b.name)] / best.shoes
        low, high = b.watcher.interval
        lines.append(
            f"{b.title}: positive in {100 * share:.2f}% of round-{best.number} states; a watching "
            f"player wins {b.watcher.mean:.4f} units per shoe per unit bet (95%: {low:.4f} to "
            f"{high:.4f}; {sim.shoes:,} shoes, seed {sim.seed})."
        )
    return lines


def _index(sim: SimulatedExposure, name: str) -> int:
    return [b.name for b in sim.bets].index(name)


def flat_sentence(
    procedure: Any,
    top: Mapping[str, Fraction],
    exact_flat: Mapping[str, Fraction] | None,
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
    if exact_flat is not None:
        parts = [
            f"{title}: {signed_percent(exact_flat[name] - top[name], 6)} "
            f"({fraction_text(exact_flat[name] - top[name])})"
            for name, title in titles
        ]
        return (
            "Flat bettor: the number of rounds depends on the first card's value (it sets the "
            "burn), so the whole-shoe return per round is exact but not the off-the-top one; the "
            "difference (whole shoe − off the top) is " + "; ".join(parts) + "."
        )
    if sim is None:
        return ""
    parts = []
    for b in sim.bets:
        low, high = b.flat_per_round.interval
        d_low, d_high = low - float(top[b.name]), high - float(top[b.name])
        parts.append(f"{b.title}: {100 * d_low:+.4f}% to {100 * d_high:+.4f}%")
    return (
        "Flat bettor: the number of rounds depends on the cards dealt (the cut-card effect); the "
        "whole-shoe return per round minus the off-the-top EV, 95% interval from the "
        "simulation: " + "; ".join(parts) + "."
    )
