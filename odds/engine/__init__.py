"""The exact enumeration engine shared by every game.

Vocabulary
----------
* A *composition* is a tuple of counts, one per card or tile type (see
  :class:`odds.core.shoe.Shoe`; the engine sees only the counts).
* A *hand* is a multiset of types, stored as a sorted tuple of type indices.
  Its *weight* is the number of ways to deal it from a composition:
  ``∏_t C(n_t, a_t)`` (unordered within the hand).
* A *deal* of several hands takes them one after the other with card removal;
  its ways multiply the hands' weights, each from what the earlier hands left.
  Hands are unordered inside, ordered between each other ("first hand, second
  hand"); every probability is a ratio of such counts.
* A game supplies a *classifier* that maps a hand to the class its rules care
  about (a hashable value). The engine returns integer ways per class, or per
  pair of classes for two hands dealt from one shoe, and the game settles
  classes into bet events.

The totals are asserted: the ways of every distribution add up to the number
of possible deals, exactly.

The engine is a package of small modules; everything a game needs is
importable from ``odds.engine`` itself:

* :mod:`~odds.engine.counting` — hands, weights, deal counts, totals, class distributions
* :mod:`~odds.engine.joint` — two (and three) hands from one shoe, with symmetry
* :mod:`~odds.engine.showdown` — every hand against a second hand, by prefix sums
* :mod:`~odds.engine.sequential` — several hands dealt one after another
* :mod:`~odds.engine.arrays` — the array work of the three-hand joint (numpy)
* :mod:`~odds.engine.polynomial` — the one polynomial type: a bet's ways as a polynomial in
  falling factorials of the counts, built once and evaluated exactly, in floating point with a
  rigorous bound, or modulo a prime, for any composition; two hands and a payoff as one
* :mod:`~odds.engine.drawing` — ordered deals with drawing (baccarat's tableau): a deal as a
  state machine over card types, counted once as such a polynomial
"""

from odds.engine.counting import (
    Composition,
    Hand,
    check_total,
    class_distribution,
    deal_count,
    hand_weight,
    hands,
    paused_gc,
    settle_distribution,
)
from odds.engine.drawing import (
    DealProcedure,
    DealtMoments,
    card_moments,
    dealt_moments,
    group_counts,
    ordered_deal_polynomial,
    two_hand_pair_ways,
)
from odds.engine.joint import (
    joint_class_distribution,
    orbits,
    triple_class_array,
    triple_class_distribution,
)
from odds.engine.polynomial import (
    FallingPolynomial,
    falling,
    falling_polynomial,
    falling_row,
    two_hand_polynomial,
)
from odds.engine.sequential import sequential_distribution

#: The name ordered deals' polynomials had before the engine had one polynomial type
#: (kept: game definitions written against ``odds.engine`` use it).
DealPolynomial = FallingPolynomial

__all__ = [
    "Composition",
    "DealPolynomial",
    "DealProcedure",
    "DealtMoments",
    "FallingPolynomial",
    "Hand",
    "card_moments",
    "check_total",
    "class_distribution",
    "deal_count",
    "dealt_moments",
    "falling",
    "falling_polynomial",
    "falling_row",
    "group_counts",
    "hand_weight",
    "hands",
    "joint_class_distribution",
    "orbits",
    "ordered_deal_polynomial",
    "paused_gc",
    "sequential_distribution",
    "settle_distribution",
    "triple_class_array",
    "triple_class_distribution",
    "two_hand_pair_ways",
    "two_hand_polynomial",
]
