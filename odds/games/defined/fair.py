"""The fair payout of a one-win bet: the stated payout that makes its EV exactly 0.

A bet with ``fair_payout = true`` (docs/reference/definitions.md) has one paying
outcome; the report's "Fair payouts" table gives, beside its stated payout, the
payout at which the bet would be even, exactly:

    p_win · X · share + Σ (other outcomes) p · net = 0,  X = −Σ p · net / (p_win · share),

where ``share`` is what a commission leaves of a win (the net over the stated
payout). With every other outcome losing 1 this is (1 − p) / (p · share), the
Tie and Pair bets' figure of Mahjong 2-8.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from odds.core.table import Column, Kind, Row, Table
from odds.games.defined.schema import BetDefinition, Definition, Outcome
from odds.stats.bets import Bet


def winning_outcome(bet: BetDefinition) -> int | None:
    """The index of the bet's one paying outcome (``None``: none, or more than one)."""
    paying = [i for i, o in enumerate(bet.outcomes) if _pays(o)]
    return paying[0] if len(paying) == 1 else None


def _pays(outcome: Outcome) -> bool:
    if isinstance(outcome.net, str):
        return not outcome.loses_named
    return outcome.net > 0


def stated_payouts(definition: Definition, payouts: Mapping[str, Fraction]) -> dict[str, Fraction]:
    """Each ``fair_payout`` bet's stated payout to 1: its paying outcome's number or name."""
    found = {}
    for bet in definition.bets:
        index = winning_outcome(bet) if bet.fair_payout else None
        if index is not None:
            net = bet.outcomes[index].net
            found[bet.name] = payouts[net] if isinstance(net, str) else net
    return found


def fair_table(
    definition: Definition, bets: Sequence[Bet], stated: Mapping[str, Fraction]
) -> Table | None:
    """The fair payouts of the definition's ``fair_payout`` bets, or ``None`` when none asks.

    ``stated`` is each asking bet's stated payout to 1 (before commission).
    """
    rows: list[Row] = []
    for spec, bet in zip(definition.bets, bets, strict=True):
        index = winning_outcome(spec) if spec.fair_payout else None
        if index is None:
            continue
        win = bet.outcomes[index]
        total = bet.stats.total
        p = Fraction(win.ways, total)
        if not p:  # the set never deals the win (no pairs): no payout makes the bet even
            continue
        rest = sum(
            (Fraction(o.ways, total) * o.net for i, o in enumerate(bet.outcomes) if i != index),
            Fraction(0),
        )
        pays = stated[spec.name]
        share = win.net / pays
        fair = -rest / (p * share)
        rows.append(
            {
                "bet": bet.name,
                "title": bet.title,
                "pays": pays,
                "win_probability": p,
                "fair_payout": fair,
                "fair_payout_decimal": fair,
                "house_edge": bet.stats.house_edge,
            }
        )
    if not rows:
        return None
    return Table(
        key="fair_payouts",
        title=f"Fair payouts ({' and '.join(str(r['title']) for r in rows)})",
        columns=(
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("pays", "pays", Kind.PAYOUT),
            Column("win_probability", "win probability", Kind.PROBABILITY),
            Column("fair_payout", "fair payout (to 1, exact)", Kind.EXACT),
            Column("fair_payout_decimal", "fair payout", Kind.PROBABILITY, json=False),
            Column("house_edge", "house edge", Kind.PERCENT, places=4),
        ),
        rows=tuple(rows),
        note="The fair payout makes the bet's EV exactly 0 (before commission, when the bet "
        "pays one): fair = (1 − p) / (p · (1 − commission)) when every other outcome loses 1.",
    )
