"""The engine for sub-compositions: what a bet is worth for any composition below a shoe.

:mod:`odds.engine` counts the deals of one composition; shoe states ask the
same of thousands. Here the work that does not depend on the composition is
done once per paytable:

* :mod:`~odds.removal.polynomial` — bets on two hands as a polynomial in the
  counts (:func:`two_hand_polynomial`, :class:`RemovalPolynomial`);
* :mod:`~odds.removal.showdown` — showdown bets with three-card hands
  (:class:`SubShowdown`).
"""

from odds.removal.polynomial import RemovalPolynomial, falling, two_hand_polynomial
from odds.removal.showdown import SubShowdown

__all__ = ["RemovalPolynomial", "SubShowdown", "falling", "two_hand_polynomial"]
