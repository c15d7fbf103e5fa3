"""A counted round as the bets see it, and a bet's conditions evaluated on it.

A *round key* is ``(winner, view of position 1, view of position 2 …)``: the
winner (a position, ``"tie"``, or ``None`` when no bet asks), and per position
only the features some condition reads (:func:`odds.games.defined.patterns.view`).
Rounds with equal keys settle alike, so the counting merges them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from odds.games.defined.continuation_schema import AGAINST_FIRST, against_first, continued_holds
from odds.games.defined.schema import (
    ACTION,
    BetDefinition,
    Condition,
    Definition,
    Outcome,
    cut_feature,
)

RoundKey = tuple[Any, ...]


def with_action(view: tuple[Any, ...], action: str | None) -> tuple[Any, ...]:
    """A hand's view with the action chosen, in name order (as every view is)."""
    return tuple(sorted((*view, (ACTION, action)), key=lambda item: item[0]))


def cut_key(
    who: Any, positions: Sequence[str], reads: Mapping[str, set[str]], views: Sequence[Any]
) -> RoundKey:
    """The round key of each position's whole view (``(feature, value)`` pairs), each cut to
    the features ``reads`` reads of its position."""
    seen = [dict(view) for view in views]
    return (
        who,
        *(tuple((n, s[n]) for n in sorted(reads[p])) for p, s in zip(positions, seen, strict=True)),
    )


#: What a round feature reads of every position's hand (``highest_value``: the coup's
#: highest card, on every view).
_ROUND_READS = {
    "spread": "rank",
    "margin": "points",
    "total_points": "points",
    "total_cards": "cards",
    "dealt": "cards",
    "same_suit": "_suits",
    "identical": "_hand",
    "highest_value": "_highest_value",
}


def needs(
    conditions: Iterable[Condition | None], positions: Sequence[str]
) -> tuple[bool, dict[str, set[str]]]:
    """Whether the winner is read, and the features read of each position."""
    winner = False
    read: dict[str, set[str]] = {p: set() for p in positions}
    for condition in conditions:
        for part in condition.walk() if condition is not None else ():
            for position, name, _ in part.tests:
                if position:
                    # A continued card read against the first deal: its rank (the first
                    # deal's ranks are read by the outer condition, below).
                    read[position].add("rank" if name in AGAINST_FIRST else name)
                elif name == "winner":
                    winner = True
                elif name in _ROUND_READS:
                    for p in positions:
                        read[p].add(_ROUND_READS[name])
            if isinstance(part.continued, Condition) and _reads_against(part.continued):
                for p in positions:  # the first deal's ranks, for between / matches
                    read[p].add("rank")
    return winner, read


def _reads_against(condition: Condition) -> bool:
    """Whether a condition on the continued deal reads a card against the first deal."""
    return any(name in AGAINST_FIRST for position, name, _ in condition.every_test() if position)


def bet_needs(bet: BetDefinition, positions: Sequence[str]) -> tuple[bool, dict[str, set[str]]]:
    """:func:`needs` of the bet's conditions, worked out once per bet and kept on it (as a
    definition keeps its hands' categories: settling a round asks it per bet, and an audit
    settles every seat of every round). A copy: callers may change it."""
    kept: dict[tuple[str, ...], tuple[bool, dict[str, set[str]]]]
    kept = bet.__dict__.setdefault("_needs", {})
    found = kept.get(tuple(positions))
    if found is None:
        found = kept[tuple(positions)] = needs((o.when for o in bet.outcomes), positions)
    return found[0], {p: set(names) for p, names in found[1].items()}


def bet_reading(bet: BetDefinition, positions: tuple[str, ...]) -> tuple[Any, ...]:
    """:func:`bet_needs` as one hashable value, kept on the bet: whether the winner is read,
    then the names of the features read of each position, sorted, in the positions' order
    (bets reading alike key a round alike)."""
    kept: dict[tuple[str, ...], tuple[Any, ...]] = bet.__dict__.setdefault("_reading", {})
    found = kept.get(positions)
    if found is None:
        winner, reads = bet_needs(bet, positions)
        found = kept[positions] = (winner, *(tuple(sorted(reads[p])) for p in positions))
    return found


def holds(condition: Condition, key: RoundKey, definition: Definition) -> bool:
    """Whether the condition holds for the round ``key``."""
    return bool(holding((condition,), key, definition))


def holding(
    conditions: Sequence[Condition | None], key: RoundKey, definition: Definition
) -> list[int]:
    """The indexes of the conditions (``None``: none) that hold for the round ``key``, its
    views read once for all of them (a bet's outcomes are tried on every round)."""
    positions = definition.deal.positions
    n = len(positions)
    views = {p: dict(v) for p, v in zip(positions, key[1 : 1 + n], strict=True)}
    # A deal that goes on (odds.games.defined.continuation): its key's last part is the
    # continued deal's key, or None when it did not go on.
    continued = key[1 + n] if len(key) > 1 + n else None
    return [
        i
        for i, condition in enumerate(conditions)
        if condition is not None and _holds(condition, key[0], views, definition, continued)
    ]


def _holds(
    condition: Condition,
    winner: Any,
    views: dict[str, dict[str, Any]],
    definition: Definition,
    continued: Any = None,
) -> bool:
    if condition.never:  # an optional outcome the paytable's options leave out
        return False
    for position, name, wanted in condition.tests:
        if position:
            value = views[position][name]
        elif name == "winner":
            value = winner
        elif name == "margin":
            scores = [v["points"] for v in views.values()]
            value = abs(scores[0] - scores[1]) if len(scores) == 2 else 0
        elif name == "spread":  # the ranks strictly between two cards; a pair has none
            orders = [definition.shoe.order(v["rank"]) for v in views.values()]
            value = abs(orders[0] - orders[1]) - 1 if orders[0] != orders[1] else None
        elif name == "total_points":
            value = sum(v["points"] for v in views.values())
        elif name == "total_cards":
            value = sum(v["cards"] for v in views.values())
        elif name == "highest_value":
            value = max(v["_highest_value"] for v in views.values())
        elif name == "dealt":  # after the card turned up first (an until-match deal's)
            value = sum(v["cards"] for v in views.values()) - next(iter(views.values()))["cards"]
        elif name == "same_suit":
            suits = frozenset().union(*(v["_suits"] for v in views.values()))
            value = len(suits) == 1
        elif name == "identical":  # every position holds the same cards or tiles
            value = len({v["_hand"] for v in views.values()}) == 1
        else:  # pragma: no cover - the schema refuses other names
            raise AssertionError(name)
        if isinstance(wanted, bool):
            if bool(value) != wanted:
                return False
        elif value not in wanted:
            return False
    if not all(_holds(c, winner, views, definition, continued) for c in condition.all):
        return False
    if condition.any and not any(
        _holds(c, winner, views, definition, continued) for c in condition.any
    ):
        return False
    if condition.not_ is not None and _holds(condition.not_, winner, views, definition, continued):
        return False
    # Last: the continued deal (a settled round may not give its cards; a condition that
    # fails on the first deal, or on the action, never asks for them).
    if condition.continued is not None:
        if isinstance(condition.continued, bool):
            if (continued is not None) != condition.continued:
                return False
        elif continued is None or not continued_holds(
            condition.continued,
            continued,
            definition,
            lambda inner, key, _: _continued_holds(inner, key, definition, views),
        ):
            return False
    return True


def _continued_holds(
    condition: Condition, key: RoundKey, definition: Definition, first: dict[str, dict[str, Any]]
) -> bool:
    """A condition on the continued deal's key, its positions' cards read against the first
    deal's (``between``, ``matches``) where it asks."""
    continuation = definition.continuation
    assert continuation is not None
    positions = continuation.positions(definition.deal.positions)
    views = {p: dict(v) for p, v in zip(positions, key[1 : 1 + len(positions)], strict=True)}
    if _reads_against(condition):
        ranks = [v["rank"] for v in first.values()]
        for view in views.values():
            for name in AGAINST_FIRST:
                view[name] = against_first(name, view["rank"], ranks, definition.shoe.order)
    return _holds(condition, key[0], views, definition)


def round_text(key: RoundKey, definition: Definition) -> str:
    """A round key in words, for messages ("banker wins; banker points 6, cards 2")."""
    parts = []
    if key[0] is not None:
        parts.append("tie" if key[0] == "tie" else f"{key[0]} wins")
    n = len(definition.deal.positions)
    for position, view in zip(definition.deal.positions, key[1 : 1 + n], strict=True):
        shown = [
            _feature_text(name, value)
            for name, value in view
            if not name.startswith("_") and value is not None
        ]
        if shown:
            parts.append(f"{position} {', '.join(shown)}")
    if len(key) > 1 + n:  # a deal that may go on
        inner = key[1 + n]
        parts.append(
            "the deal does not go on"
            if inner is None
            else f"the deal goes on ({round_text(inner, definition)})"
            if isinstance(inner, tuple)
            else "the deal goes on"
        )
    return "; ".join(parts) or "any round"


def _feature_text(name: str, value: Any) -> str:
    """One feature of a round key in words ("at least Q-3-2", "not at least Q-3-2")."""
    cut = cut_feature(name)
    if cut is not None:
        return f"{'' if value else 'not '}{cut[0].replace('_', ' ')} {cut[1].replace(' ', '-')}"
    if name == "third_value" and value is None:
        return "no third card"
    return f"{name} {getattr(value, 'symbol', value)}"


def net_of(outcome: Outcome, payouts: Mapping[str, Fraction]) -> Fraction:
    """The outcome's net per unit staked: its number or named payout, less any commission."""
    net = payouts[outcome.net] if isinstance(outcome.net, str) else outcome.net
    net *= outcome.times
    if outcome.loses_named:
        return -net
    commission = (
        payouts[outcome.commission] if isinstance(outcome.commission, str) else outcome.commission
    )
    return net * (1 - commission) if net > 0 else net
