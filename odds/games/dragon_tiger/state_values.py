"""Per-state EV: every Dragon Tiger bet's exact value for the cards still in the shoe.

The shoe-exposure hook: the round table (two cards over the 52 card types)
is built once and evaluated for any composition.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from odds.core.errors import OddsError
from odds.games.dragon_tiger.counting import ROUND_CARDS, event_nets, event_ways
from odds.games.dragon_tiger.options import DragonTigerConfig
from odds.stats.bets import expected_values


def state_ev(config: DragonTigerConfig, counts: Sequence[int]) -> dict[str, Fraction]:
    """Exact EV per unit staked of every offered bet when ``counts`` cards remain.

    ``counts`` has one count per card type of the paytable's shoe, in the
    shoe's order (:attr:`odds.core.shoe.Shoe.types`).
    """
    types = config.shoe.build().types
    if len(counts) != len(types):
        raise OddsError(
            f"a composition needs {len(types)} counts (one per card), got {len(counts)}"
        )
    if any(c < 0 for c in counts):
        raise OddsError("impossible composition: a negative count")
    if sum(counts) < ROUND_CARDS:
        raise OddsError(f"impossible composition: {sum(counts)} cards left, a round needs 2")
    return expected_values(event_ways(config, types, counts), event_nets(config))
