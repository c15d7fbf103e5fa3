"""A bet riding on another's stake: ``rides_on = "ante-play"`` (Three Card Poker's Ante Bonus).

A rider is paid on the stake of the bet it rides on (its *carrier*), whatever the carrier's
result, and has no stake of its own: its outcomes only pay or push, per unit of the
carrier's initial stake. So it enters the figures as follows:

* **its own section** of the report: what it pays per unit of the carrier's stake (an EV
  that is never negative, and no element of risk: nothing of its own is at risk);
* **the carrier's section**: the carrier and its riders together, each round's nets added,
  the carrier's ``wagered`` stakes only (a rider adds none): EV, house edge, average wager
  and element of risk per unit of the carrier's stake, as the player who bets the carrier
  is paid;
* **a decision**: a rider on a bet that reads the action is played with it (the optimal
  action weighs the bonus), adding to the net but no initial unit and no wager.

The carrier's section is counted from the rounds of every feature the carrier and its
riders read (the decision's rounds where they read the action), each round settled by each
bet's own outcomes: nothing is counted twice, and every total is asserted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from odds.core.errors import OddsError
from odds.engine import check_total
from odds.stats.bets import Outcome as BetOutcome

if TYPE_CHECKING:
    from odds.games.defined.game import DefinedGame
    from odds.games.defined.options import DefinedConfig
    from odds.games.defined.schema import BetDefinition, Definition


def riders_of(definition: Definition, bet: BetDefinition) -> tuple[BetDefinition, ...]:
    """The bets riding on ``bet``, in the definition's order."""
    return tuple(b for b in definition.bets if b.rides_on == bet.name)


def stakes(bets: Sequence[BetDefinition]) -> int:
    """Initial units staked on these bets played together: riders add none."""
    return sum(b.rides_on is None for b in bets)


def with_riders(definition: Definition, values: list[Fraction]) -> list[Fraction]:
    """Per bet (the definition's order), a carrier's value with its riders' added: an EV or
    a net per unit of the carrier's stake is the carrier's plus each rider's (linear)."""
    index = {b.name: i for i, b in enumerate(definition.bets)}
    found = list(values)
    for i, bet in enumerate(definition.bets):
        if bet.rides_on is not None:
            found[index[bet.rides_on]] += values[i]
    return found


def carrier_title(definition: Definition, bet: BetDefinition) -> str | None:
    """The title of the bet ``bet`` rides on (None: it has a stake of its own)."""
    if bet.rides_on is None:
        return None
    return next(b.title for b in definition.bets if b.name == bet.rides_on)


def rider_sentence(bet: BetDefinition, definition: Definition) -> str:
    """The rider's report description begins so."""
    title = carrier_title(definition, bet)
    return (
        f"Paid on the stake of {title} whatever its result, with no stake of its own: "
        f"figures per unit of that stake ({title} adds them in). "
    )


def carried_outcomes(
    game: DefinedGame, config: DefinedConfig, bet: BetDefinition
) -> tuple[BetOutcome, ...]:
    """The carrier with its riders: one event per carrier outcome and riders' outcomes that
    happen together, the nets added, the carrier's stake alone wagered. A carrier outcome
    that never happens keeps its row (no ways), as a bet's own table lists it."""
    from odds.games.defined import continuation, decisions
    from odds.games.defined.options import payout_values
    from odds.games.defined.rounds import needs, net_of

    definition = game.definition
    riders = riders_of(definition, bet)
    group = (bet, *riders)
    if (
        continuation.decides_here(definition)
        or any(continuation.counted_here(game, b) for b in group)
        or definition.deal.seats > 1
    ):
        raise OddsError(
            f"{definition.source}: definition.bets.{riders[0].name} (line {riders[0].line}): "
            "rides_on: a bet riding on another's stake is not counted with a continuation or "
            "seats yet"
        )
    if decisions.reads_action(game, bet):  # the decision's rounds read every rider too
        rounds = game.solution(config).rounds
    else:
        shoe = config.shoe.build()
        positions = definition.deal.positions
        winner, reads = needs((o.when for b in group for o in b.outcomes), positions)
        rounds = game._rounds(shoe.types, tuple(shoe.counts), winner, reads)
    payouts = payout_values(config)
    outcomes = {(b.name, o.key): o for b in group for o in b.outcomes}
    index = {(b.name, o.key): i for b in group for i, o in enumerate(b.outcomes)}
    ways: Counter[tuple[str, ...]] = Counter()
    for key, n in rounds.items():
        ways[tuple(game.settled_outcome(b, key) for b in group)] += n
    check_total(ways, sum(rounds.values()), f"{bet.name} with its riders")
    found: list[BetOutcome] = []
    for outcome in bet.outcomes:
        combos = sorted(
            (c for c in ways if c[0] == outcome.key),
            key=lambda c: [index[b.name, k] for b, k in zip(riders, c[1:], strict=True)],
        )
        if not combos:
            found.append(BetOutcome(outcome.label, net_of(outcome, payouts), 0, outcome.wagered))
        for combo in combos:  # in the riders' outcome order
            combo_outcomes = [outcomes[b.name, k] for b, k in zip(group, combo, strict=True)]
            nets = [net_of(o, payouts) for o in combo_outcomes]
            label = outcome.label + "".join(
                f"; {rider.title}: {o.label}"
                for rider, o, net in zip(riders, combo_outcomes[1:], nets[1:], strict=True)
                if net
            )
            found.append(BetOutcome(label, sum(nets, Fraction(0)), ways[combo], outcome.wagered))
    return tuple(found)
