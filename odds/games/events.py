"""Bet events, shared by every game: from settled classes to outcome tables and money.

A game's rules settle a round into an *event key* per bet (``"win-special"``,
``"push"`` …): a definition's outcome names, or a coded game's ``StrEnum`` member
(blackjack's), which prints and compares as the string. An :class:`Event` gives that key
the label reports print and the net payout per unit staked; the same events then make

* the bet's outcome table (:func:`outcomes`: label, net, ways, in the order the
  rules declare them — events that cannot happen show 0 ways), and
* one settled round in money (:func:`settled_bet`).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from odds.core.numbers import payout_ratio
from odds.core.settlement import SettledBet
from odds.stats.bets import Outcome

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Event:
    """A bet event: its key, the label reports print, and the net payout per unit staked."""

    key: str
    label: str
    net: Fraction


def outcomes(events: Iterable[Event], ways: Mapping[str, int]) -> tuple[Outcome, ...]:
    """The outcome table of one bet: every declared event with its ways (0 when impossible).

    An event key in ``ways`` that no event declares is a bug in the rules, not
    a row to drop silently.
    """
    events = tuple(events)
    unknown = set(ways) - {e.key for e in events}
    if unknown:
        raise AssertionError(f"events without a declaration: {sorted(unknown)}")
    return tuple(Outcome(e.label, Fraction(e.net), ways.get(e.key, 0)) for e in events)


def by_key(events: Iterable[Event]) -> dict[str, Event]:
    """Events keyed by their key (for settling one round)."""
    return {e.key: e for e in events}


def settled_bet(
    bet: str, event: Event, stake: Fraction, debited: Fraction, reason: str
) -> SettledBet:
    """One bet of one round in money: ``debited`` taken, ``debited + net · stake`` returned."""
    return SettledBet(bet, stake, debited, debited + event.net * stake, reason, event.label)


def reason(event: Event) -> str:
    """``banker wins, no special pattern: loses 1``; a label that already ends with what it
    pays (``equal hands: push``) is not followed by it again."""
    return labelled_ratio(event.label, event.net)


def labelled_ratio(label: str, net: Fraction) -> str:
    """An outcome's label and what it pays, the payout said once."""
    ratio = payout_ratio(net)
    return label if label.endswith(ratio) else f"{label}: {ratio}"


def probabilities(ways: Mapping[str, Mapping[K, int]]) -> dict[str, dict[K, Fraction]]:
    """Ways per bet and event as exact probabilities (events with no ways left out).

    What ``odds bench`` compares between the engine and the brute force: both
    count the same deals, possibly with different conventions (ordered or not).
    """
    result: dict[str, dict[K, Fraction]] = {}
    for bet, events in ways.items():
        total = sum(events.values())
        result[bet] = {event: Fraction(w, total) for event, w in events.items() if w}
    return result
