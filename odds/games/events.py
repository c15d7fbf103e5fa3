"""Bet events, shared by every game: from settled classes to outcome tables and money.

A game's rules settle a round into an *event key* per bet (``"win-special"``,
``"push"`` …): for a coded game a member of its ``StrEnum`` declared beside its
events (``odds.games.pok_deng.rules.PokDengEvent`` …), which prints and compares as
the string. An :class:`Event` gives that key the label reports print and the
net payout per unit staked; the same events then make

* the bet's outcome table (:func:`outcomes`: label, net, ways, in the order the
  rules declare them — events that cannot happen show 0 ways), and
* one settled round in money (:func:`settled_bet`).

Games whose every bet settles a whole deal by a function (baccarat, Dragon
Tiger) declare their bets as :class:`BetSpec` s: events plus that function.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

from odds.core.errors import OddsError
from odds.core.numbers import payout_ratio
from odds.core.settlement import SettledBet
from odds.stats.bets import Bet, Outcome

K = TypeVar("K", bound=Hashable)
S = TypeVar("S")


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


@dataclass(frozen=True)
class BetSpec(Generic[S]):
    """A bet: name, title, description, events, and ``settle``, how the game settles it.

    ``S`` is the game's settling rule, e.g. ``Callable[[Round], str]`` (a
    round to an event key); baccarat's allows None for the pair bets, which
    look at the first two cards of each hand, not at the finished coup.
    """

    name: str
    title: str
    description: str
    events: tuple[Event, ...]
    settle: S


def spec_bets(
    specs: Iterable[BetSpec[Any]], ways: Mapping[str, Mapping[str, int]]
) -> tuple[Bet, ...]:
    """Every declared bet with its exact outcome table (``ways`` per bet and event key)."""
    return tuple(
        Bet(spec.name, spec.title, spec.description, outcomes(spec.events, ways[spec.name]))
        for spec in specs
    )


def check_side_bets(offered: Sequence[str], known: Iterable[str]) -> None:
    """Refuse an unknown side bet or one listed twice in ``bets.side_bets``."""
    known = tuple(known)
    for bet in offered:
        if bet not in known:
            raise OddsError(f"bets.side_bets: unknown side bet {bet!r} (known: {', '.join(known)})")
    if len(set(offered)) != len(offered):
        raise OddsError("bets.side_bets: a side bet is listed twice")


def by_key(events: Iterable[Event]) -> dict[str, Event]:
    """Events keyed by their key (for settling one round)."""
    return {e.key: e for e in events}


def settled_bet(
    bet: str, event: Event, stake: Fraction, debited: Fraction, reason: str
) -> SettledBet:
    """One bet of one round in money: ``debited`` taken, ``debited + net · stake`` returned."""
    return SettledBet(bet, stake, debited, debited + event.net * stake, reason, event.label)


def reason(event: Event) -> str:
    """``banker wins, no special pattern: loses 1``."""
    return f"{event.label}: {payout_ratio(event.net)}"


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
