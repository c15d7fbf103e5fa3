"""Hands as composition keys: every hand a context can hold, children before parents.

Shoe-independent, built once per process: the keys (``Σ R_i · 64^i`` of the
removed ranks), the multisets of ranks a hand can be, and for every context
(ordinary hands, or split hands of one pair) the nodes the engine's
bottom-up pass walks (:class:`odds.games.blackjack.player.Play`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from itertools import groupby, repeat
from operator import and_, mul, rshift
from typing import Any

from odds.core.caching import cached
from odds.games.blackjack.dealer import RANKS, Counts, total_of
from odds.games.blackjack.kept_layouts import kept_layout, of, restore, state

_BASE = 64  # composition keys: Σ R_i · 64^i
#: A composition key's step per rank: a hand with one more card of rank ``r`` is ``key + STEP[r]``.
STEP = tuple(_BASE**i for i in range(RANKS))
#: Room above the largest hand: the other pair card, up to four more pair cards
#: out of the shoe while valuing resplits (``a`` in :mod:`.splits`), a bust card.
EXTRA = 6


_SHIFTS = tuple(6 * i for i in range(RANKS))
_MASKS = (_BASE - 1,) * RANKS


def key_of(r: Counts) -> int:
    return sum(map(mul, r, STEP))


def counts_of(key: int) -> Counts:
    """The multiset of a composition key (:func:`key_of` inverted)."""
    return tuple(map(and_, map(rshift, repeat(key, RANKS), _SHIFTS), _MASKS))


@cached
def hand_multisets() -> tuple[Counts, ...]:
    """Every multiset of ranks with hard total ≤ 21 (aces counted 1)."""
    found: list[Counts] = []
    counts = [0] * RANKS

    def walk(start: int, total: int) -> None:
        found.append(tuple(counts))
        for r in range(start, RANKS):
            if total + r + 1 <= 21:
                counts[r] += 1
                walk(r, total + r + 1)
                counts[r] -= 1

    walk(0, 0)
    return tuple(found)


def hard_total(r: Counts) -> int:
    return sum((i + 1) * c for i, c in enumerate(r))


def add(r: Counts, rank: int, times: int = 1) -> Counts:
    return tuple(c + times if i == rank else c for i, c in enumerate(r))


@dataclass(frozen=True)
class Node:
    """A hand in a context, with what the bottom-up pass needs (shoe-independent).

    ``removed`` = the hand's cards (plus the other pair card for a split hand);
    ``kids`` are the keys of the hands one card later that do not bust, drawn
    by ``kid_ranks``; ``bust_ranks`` bust the hand.
    """

    key: int
    removed: Counts
    s: int
    hard: int
    total: int
    soft: bool
    kids: tuple[int, ...]
    kid_ranks: tuple[int, ...]
    bust_ranks: tuple[int, ...]


@cached
def context_nodes(ctx: int) -> tuple[Node, ...]:
    """Every hand of a context, children before parents (highest hard total first).

    ``ctx`` is −1 for ordinary hands, or the rank of a split pair (the hand
    holds one pair card; the other is removed too). Every context's nodes and
    groups are kept on disk (:mod:`.kept_layouts`).
    """
    return _contexts()[0][ctx + 1]


@cached
def _contexts() -> _Contexts:
    """``(nodes, groups)`` of every context (−1, then the pairs), kept on disk."""

    def build() -> tuple[tuple[tuple[Node, ...], ...], tuple[tuple[Group, ...], ...]]:
        nodes = tuple(_nodes(ctx) for ctx in range(-1, RANKS))
        return nodes, tuple(_groups(members) for members in nodes)

    return kept_layout("contexts", build, _contexts_data, _contexts_from_data)


def _nodes(ctx: int) -> tuple[Node, ...]:
    extra = (0,) * RANKS if ctx < 0 else add((0,) * RANKS, ctx)
    nodes = []
    for hand in hand_multisets():
        if sum(hand) < 2 or (ctx >= 0 and hand[ctx] < 1):
            continue
        removed = tuple(a + b for a, b in zip(hand, extra, strict=True))
        hard = hard_total(hand)
        total, soft = total_of(hard, hand[0] > 0)
        kids, kid_ranks, bust_ranks = [], [], []
        for r in range(RANKS):
            if hard + r + 1 > 21:
                bust_ranks.append(r)
            else:
                kids.append(key_of(removed) + STEP[r])
                kid_ranks.append(r)
        nodes.append(
            Node(
                key_of(removed),
                removed,
                sum(removed),
                hard,
                total,
                soft,
                tuple(kids),
                tuple(kid_ranks),
                tuple(bust_ranks),
            )
        )
    nodes.sort(key=lambda node: (-node.hard, node.total))
    return tuple(nodes)


@dataclass(frozen=True)
class Group:
    """Hands of a context with one hard total and one best total, in parallel tuples.

    Their next hands all have higher hard totals, so a whole group can be valued
    at once once the groups before it are (:meth:`~odds.games.blackjack.player.Play.context`).
    A card of rank ``first_bust`` or above busts every hand of the group.
    """

    hard: int
    total: int
    soft: bool
    keys: tuple[int, ...]
    sizes: tuple[int, ...]
    kids: tuple[tuple[int, ...], ...]  # per rank below first_bust: each hand's next hand
    removed: tuple[tuple[int, ...], ...]  # per rank: each hand's count of it (pair card too)
    bust_removed: tuple[int, ...]  # each hand's count of the busting ranks
    first_bust: int


@cached
def context_groups(ctx: int) -> tuple[Group, ...]:
    """:func:`context_nodes` as :class:`Group` s, children's groups first."""
    return _contexts()[1][ctx + 1]


def _groups(nodes: tuple[Node, ...]) -> tuple[Group, ...]:
    groups = []
    for (hard, total), grouped in groupby(nodes, key=lambda node: (node.hard, node.total)):
        members = list(grouped)
        first_bust = max(0, min(RANKS, 21 - hard))
        groups.append(
            Group(
                hard,
                total,
                total != hard,
                tuple(node.key for node in members),
                tuple(node.s for node in members),
                tuple(tuple(node.key + STEP[r] for node in members) for r in range(first_bust)),
                tuple(tuple(node.removed[r] for node in members) for r in range(RANKS)),
                tuple(sum(node.removed[first_bust:]) for node in members),
                first_bust,
            )
        )
    return tuple(groups)


_Contexts = tuple[tuple[tuple[Node, ...], ...], tuple[tuple[Group, ...], ...]]


def _contexts_data(contexts: _Contexts) -> Any:
    """Every context's nodes as columns (a node's children are its key plus a step per rank,
    so they are not written), and its groups' fields."""
    nodes, groups = contexts
    group_fields = [f.name for f in fields(Group)]
    return (
        tuple(_nodes_data(ctx) for ctx in nodes),
        tuple(tuple(state(group, group_fields) for group in ctx) for ctx in groups),
    )


def _nodes_data(nodes: tuple[Node, ...]) -> tuple[Any, ...]:
    ranks: dict[tuple[int, ...], int] = {}  # the few distinct rank lists, numbered
    return (
        [node.key for node in nodes],
        [node.removed for node in nodes],
        [node.s for node in nodes],
        [node.hard for node in nodes],
        [node.total for node in nodes],
        [int(node.soft) for node in nodes],
        [ranks.setdefault(node.kid_ranks, len(ranks)) for node in nodes],
        [ranks.setdefault(node.bust_ranks, len(ranks)) for node in nodes],
        list(ranks),
    )


def _contexts_from_data(data: Any) -> _Contexts:
    nodes, groups = of(tuple, data)
    group_fields = [f.name for f in fields(Group)]
    made = (
        tuple(_nodes_from_data(ctx) for ctx in of(tuple, nodes)),
        tuple(tuple(restore(Group, group_fields, g) for g in of(tuple, ctx)) for ctx in groups),
    )
    if not len(made[0]) == len(made[1]) == RANKS + 1:
        raise ValueError("not every context")
    return made


def _nodes_from_data(data: Any) -> tuple[Node, ...]:
    keys, removed, sizes, hards, totals, softs, kid_at, bust_at, ranks = of(tuple, data)
    columns = (keys, removed, sizes, hards, totals, softs, kid_at, bust_at)
    if len({len(of(list, column)) for column in columns}) != 1:
        raise ValueError("columns of different lengths")
    ranks = [tuple(r) for r in of(list, ranks)]
    if not all(0 <= r < RANKS for rank in ranks for r in rank):
        raise ValueError("not a rank")
    steps = [tuple(STEP[r] for r in rank) for rank in ranks]
    new = Node.__new__

    def node(
        key: int, removed: Counts, s: int, hard: int, total: int, soft: int, k: int, b: int
    ) -> Node:
        made = new(Node)
        made.__dict__.update(
            key=key,
            removed=removed,
            s=s,
            hard=hard,
            total=total,
            soft=bool(soft),
            kids=tuple(map(key.__add__, steps[k])),
            kid_ranks=ranks[k],
            bust_ranks=ranks[b],
        )
        return made

    return tuple(map(node, *columns))
