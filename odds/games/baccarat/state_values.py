"""Per-state EV: every baccarat bet's exact value for the cards still in the shoe.

The shoe-exposure hook. The coup bets come from the tableau's counting table
(:func:`odds.games.baccarat.counting.coup_polynomial`), built once per tableau
and then evaluated for any composition in about a millisecond; the pair bets
from closed forms over the rank (and card) counts. Nothing is rebuilt between
states, so a simulation can ask after every coup of every shoe.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.games.baccarat.bets import event_nets
from odds.games.baccarat.counting import COUP_CARDS, TypeGroups, coup_event_ways
from odds.games.baccarat.options import BaccaratConfig
from odds.stats.bets import expected_values


@cached(maxsize=32)
def _shoe_groups(config: BaccaratConfig) -> tuple[int, TypeGroups]:
    """The number of card types of the paytable's shoe, and how they group (once per config)."""
    types = config.shoe.build().types
    return len(types), TypeGroups.of(types, config.rules.perfect_pair)


def state_event_ways(config: BaccaratConfig, counts: Sequence[int]) -> dict[str, dict[str, int]]:
    """Ordered ways (extended to six cards) of every event of every offered bet."""
    types, groups = _shoe_groups(config)
    if len(counts) != types:
        raise OddsError(f"a composition needs {types} counts (one per card), got {len(counts)}")
    if any(c < 0 for c in counts):
        raise OddsError("impossible composition: a negative count")
    if sum(counts) < COUP_CARDS:
        raise OddsError(
            f"impossible composition: {sum(counts)} cards left, a coup may need {COUP_CARDS}"
        )
    return coup_event_ways(config, counts, groups)


def state_ev(config: BaccaratConfig, counts: Sequence[int]) -> dict[str, Fraction]:
    """Exact EV per unit staked of every offered bet when ``counts`` cards remain.

    ``counts`` has one count per card type of the paytable's shoe, in the
    shoe's order (:attr:`odds.core.shoe.Shoe.types`: A♣ A♦ A♥ A♠ 2♣ …).
    """
    return expected_values(state_event_ways(config, counts), event_nets(config))
