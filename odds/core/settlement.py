"""A settled round: what each hand is and what each bet paid, in money.

``odds settle`` prints it, ``odds audit`` counts its events and hand classes.
Games build it; renderers and the audit read it; it knows no game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class SettledBet:
    """One bet of one settled round, in money.

    ``debited`` is taken when the bet is placed; ``returned`` is paid back
    after the round (stake and withholding included); ``net`` = returned − debited.
    """

    bet: str
    stake: Fraction
    debited: Fraction
    returned: Fraction
    reason: str
    event: str = ""  # the label of this result's row in the bet's outcome table

    @property
    def net(self) -> Fraction:
        return self.returned - self.debited


@dataclass(frozen=True)
class SettledHand:
    """One hand of a settled round.

    ``hand_class`` is the hand's label in the analysis's ``hand_classes``
    (so observed hands can be counted against the exact class probabilities);
    ``description`` is what a person reads.
    """

    position: str
    cards: str
    description: str
    hand_class: str


@dataclass(frozen=True)
class Settlement:
    """A settled round: the hands as read, what each hand is, and every bet."""

    hands: tuple[SettledHand, ...]
    bets: tuple[SettledBet, ...]
    notes: tuple[str, ...] = ()
