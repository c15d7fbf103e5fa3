"""Commission as paytable data: `payouts.commission` taken from the wins of some bets.

A house takes a share of some wins (Mahjong 2-8's 5% on the Player bets, a
player-banked table's on the banker's side too). The definition's outcomes say
what a bet pays; the paytable says which bets pay commission and how much, so a
house variant is a paytable, not another definition:

.. code-block:: toml

    [payouts]
    player_wins = 1
    commission = "5%"
    commission_on = ["player-wins", "player-loses"]   # bet names

Every winning outcome of a listed bet pays its net less the share (a 1:1 win nets
0.95); pushes and losses are unchanged. ``commission`` alone (no ``commission_on``)
takes nothing. Both keys are reserved in ``[payouts]``: no outcome may pay them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from odds.core.errors import OddsError

#: The share taken, and the bets it is taken from: reserved ``[payouts]`` keys.
COMMISSION = "commission"
COMMISSION_ON = "commission_on"
RESERVED = frozenset({COMMISSION, COMMISSION_ON})

#: A defined game's ``[payouts]``: named numbers, and ``commission_on`` (a list of bets).
PayoutTable = Mapping[str, Fraction | tuple[str, ...]]


def numbers(payouts: PayoutTable) -> dict[str, Fraction]:
    """The named payouts outcomes may name (``commission`` included, ``commission_on`` not)."""
    return {k: v for k, v in payouts.items() if isinstance(v, Fraction)}


def commission_on(payouts: PayoutTable) -> tuple[str, ...]:
    """The bets whose wins pay the commission (none when not given)."""
    found = payouts.get(COMMISSION_ON, ())
    return found if isinstance(found, tuple) else ()


def share(bet: str, payouts: PayoutTable) -> Fraction:
    """The share taken from a win of ``bet`` (0 unless it is listed)."""
    rate = payouts.get(COMMISSION, Fraction(0))
    if bet not in commission_on(payouts) or not isinstance(rate, Fraction):
        return Fraction(0)
    return rate


def after_commission(net: Fraction, rate: Fraction) -> Fraction:
    """A win less the commission; a push or a loss as it is."""
    return net * (1 - rate) if net > 0 else net


def check(payouts: PayoutTable, bets: Sequence[str], source: str) -> None:
    """``commission`` a share from 0 to 1, ``commission_on`` a list of this game's bets."""
    rate = payouts.get(COMMISSION)
    if isinstance(rate, tuple):
        raise OddsError(f'{source}: payouts.commission: expected a share such as "5%"')
    if rate is not None and rate > 1:
        raise OddsError(f"{source}: payouts.commission: {rate} is above the maximum 1")
    listed = payouts.get(COMMISSION_ON)
    if listed is None:
        return
    if not isinstance(listed, tuple):
        raise OddsError(
            f'{source}: payouts.commission_on: expected a list of bets, e.g. ["{bets[0]}"]'
        )
    for bet in listed:
        if bet not in bets:
            raise OddsError(
                f"{source}: payouts.commission_on: {bet!r} is not one of the bets "
                f"({', '.join(bets)})"
            )
    if len(set(listed)) != len(listed):
        raise OddsError(f"{source}: payouts.commission_on: a bet is listed twice")
