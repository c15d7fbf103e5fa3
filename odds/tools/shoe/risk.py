r"""The player's risk for the exposure studies: bankroll for a risk of ruin, and N0.

An exposure study (:mod:`odds.tools.shoe.questions`) says what a watching player or a
counter wins per shoe on average. Whether that edge is usable depends on the
swings: how big a bankroll keeps the chance of going broke below 1%, and how
many rounds it takes for the expected win to outgrow one standard deviation.

Both come from the per-shoe mean μ and variance σ² of the player's result, in
units of one bet, through the **diffusion approximation** (Brownian motion with
the same drift and variance; an approximation for a game of discrete rounds):

* risk of ruin with bankroll B: R = exp(−2·μ·B / σ²), so the bankroll for a
  risk R is B = −ln(R) · σ² / (2·μ) (the same in any time unit: μ and σ²
  scale together);
* N0 = σ² / μ²: after N0 shoes (rounds) the expected win equals one SD.

μ per shoe is the study's (the EVs of the rounds bet, exact per state). σ² per
shoe is approximated as E[rounds bet] · (the bet's variance per unit staked, off
the top) + the variance over shoes of the EVs summed (the simulation's spread):
the variance of a round's result barely moves with the shoe's composition, and
the small covariance between earlier results and later EVs is left out.
With μ ≤ 0 no bankroll suffices (ruin is certain).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from odds.core.errors import OddsError
from odds.core.numbers import parse_rational
from odds.core.table import Column, Kind, Table

#: Risks of ruin the table gives a bankroll for, by default.
RISKS: tuple[Fraction, ...] = (Fraction(1, 100), Fraction(5, 100))
_Z95 = 1.959963984540054


def bankroll_for(mu: float, variance: float, risk: float) -> float:
    """B = −ln(R) · σ² / (2μ): the bankroll (units) whose risk of ruin is ``risk``.

    >>> round(bankroll_for(0.05, 1.0, 0.05), 4)
    29.9573
    """
    if mu <= 0:
        return math.inf
    return -math.log(risk) * variance / (2 * mu)


def n0(mu: float, variance: float) -> float:
    """N0 = σ² / μ²: periods until the expected win equals one standard deviation."""
    return math.inf if mu <= 0 else variance / mu**2


@dataclass(frozen=True)
class PlayerRisk:
    """One player (watcher or counter) on one bet: μ and σ² per shoe, rounds bet per shoe."""

    player: str
    bet: str
    title: str
    bets_per_shoe: float
    mean: float  # units won per shoe
    variance: float  # per shoe (approximation, see the module)

    def row(self, risks: Sequence[Fraction]) -> dict[str, object]:
        row: dict[str, object] = {
            "player": self.player,
            "bet": self.bet,
            "title": self.title,
            "bets_per_shoe": self.bets_per_shoe,
            "mean": self.mean,
            "sd": math.sqrt(self.variance),
        }
        if self.mean <= 0 or self.bets_per_shoe == 0:
            row["n0_shoes"] = row["n0_rounds"] = "never"
            for risk in risks:
                row[_risk_key(risk)] = "no edge" if self.bets_per_shoe else "never bets"
            return row
        shoes = n0(self.mean, self.variance)
        row["n0_shoes"] = shoes
        row["n0_rounds"] = shoes * self.bets_per_shoe
        for risk in risks:
            row[_risk_key(risk)] = bankroll_for(self.mean, self.variance, float(risk))
        return row


def _risk_key(risk: Fraction) -> str:
    return "bankroll_" + f"{float(risk * 100):g}".replace(".", "_")


def _shoe_variance(half_width: float, shoes: int) -> float:
    """The variance over shoes behind a 95% half-width (half = 1.96 · sd / √shoes)."""
    if not math.isfinite(half_width) or shoes < 2:
        return 0.0
    return (half_width / _Z95) ** 2 * shoes


def simulated_risks(sim: object, variances: Mapping[str, Fraction]) -> list[PlayerRisk]:
    """Watcher and counter of every bet, from a simulated exposure's per-shoe estimates."""
    found = []
    shoes: int = sim.shoes  # type: ignore[attr-defined]
    for b in sim.bets:  # type: ignore[attr-defined]
        per_round = float(variances[b.name])
        for player, rounds, won in (
            ("watching player", b.positive_rounds, b.watcher),
            ("counter", b.counter_rounds, b.counter),
        ):
            variance = rounds.mean * per_round + _shoe_variance(won.half_width, shoes)
            found.append(PlayerRisk(player, b.name, b.title, rounds.mean, won.mean, variance))
    return found


def exact_risks(
    exposure: object, titles: Sequence[tuple[str, str]], variances: Mapping[str, Fraction]
) -> list[PlayerRisk]:
    """The watching player of every bet from an exact exposure (per set of tiles)."""
    found = []
    for name, title in titles:
        rounds = exposure.rounds  # type: ignore[attr-defined]
        bets = float(sum(r.bets[name].p_positive for r in rounds))
        mean = float(exposure.per_set_gain(name))  # type: ignore[attr-defined]
        variance = bets * float(variances[name])
        found.append(PlayerRisk("watching player", name, title, bets, mean, variance))
    return found


def risk_table(
    risks: Sequence[PlayerRisk],
    unit: str,
    levels: Sequence[Fraction] = RISKS,
    spread: bool = True,
) -> Table:
    """Per player and bet: μ and σ per shoe, N0, and the bankroll for each risk of ruin.

    ``spread``: whether σ² includes the spread over shoes of the EVs summed (a
    simulation has it; an exact study gives each round's distribution, not their joint).
    """
    from odds.core.numbers import percent

    bankrolls = tuple(
        Column(_risk_key(r), f"bankroll, {percent(r, 0)} ruin", Kind.APPROXIMATE, places=1)
        for r in levels
    )
    return Table(
        key="player_risk",
        title="The player's risk (diffusion approximation)",
        columns=(
            Column("player", "player"),
            Column("bet", "bet", markdown=False),
            Column("title", "bet", json=False),
            Column("bets_per_shoe", f"bets per {unit}", Kind.APPROXIMATE, places=3),
            Column("mean", f"units won per {unit}", Kind.APPROXIMATE, places=4),
            Column("sd", f"SD per {unit}", Kind.APPROXIMATE, places=3),
            Column("n0_shoes", f"N0 ({unit}s)", Kind.APPROXIMATE, places=0),
            Column("n0_rounds", "N0 (rounds bet)", Kind.APPROXIMATE, places=0),
            *bankrolls,
        ),
        rows=tuple(r.row(levels) for r in risks),
        note=RISK_NOTE.format(
            unit=unit,
            spread=f" + the spread over {unit}s of the EVs summed" if spread else "",
        ),
    )


RISK_NOTE = (
    "Approximations. Bankroll B for a risk of ruin R: B = −ln(R) · σ² / (2μ), from "
    "R = exp(−2·μ·B/σ²) (the diffusion approximation: Brownian motion with the same drift μ "
    "and variance σ² per {unit}); N0 = σ²/μ², the {unit}s (and rounds bet) after which the "
    "expected win equals one standard deviation. μ is the study's win per {unit} (exact EVs "
    "of the rounds bet); σ² ≈ bets per {unit} × the bet's variance per unit staked off the "
    "top{spread}. Bankrolls are in units of one bet. "
    '"no edge": μ ≤ 0, ruin is certain with any bankroll.'
)


def parse_risks(text: str) -> tuple[Fraction, ...]:
    """``1%,5%`` (or ``0.01``): risks of ruin strictly between 0 and 1.

    >>> parse_risks("1%, 0.5%")
    (Fraction(1, 200), Fraction(1, 100))
    """
    found = []
    for part in text.split(","):
        risk = parse_rational(part.strip(), "--ruin")
        if not 0 < risk < 1:
            raise OddsError(f"--ruin: a risk of ruin is above 0 and below 100%, got {part.strip()}")
        found.append(risk)
    return tuple(sorted(set(found)))
