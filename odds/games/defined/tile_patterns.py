"""The pattern vocabulary of a tile hand: its category, its strength key, its features.

The tile counterpart of :mod:`odds.games.defined.patterns` (which hands tile hands
here, so the counting's classifier and every plan take tiles unchanged), read from
the tiles themselves: each :class:`odds.core.tiles.Tile` carries its points and its
places in the set's pair and single-tile orders, so a hand's class depends on
nothing but its tiles.

* points: the tiles' points added, the tens dropped, halves kept (W + 9 = 9.5);
* patterns: ``same_rank = k`` (k identical tiles), ``tiles = [...]`` (exactly these
  tiles), ``points``, ``cards``, ``any``;
* tie-breaks: ``points``, ``pair_order`` (the pair's place), ``single_order`` (the
  tiles from the highest by the single order: the higher tile, then the second),
  ``cards``, ``equal``;
* features: ``category``, ``points``, ``cards``, ``pair`` (two identical tiles), and
  ``_hand`` (the tiles themselves, for the round's ``identical``).

Only identical hands tie when every tile has its own place in the single order;
a category with ``tiebreak = ["equal"]`` makes all its hands equal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.numbers import short_number
from odds.core.tiles import Tile

if TYPE_CHECKING:
    from odds.games.defined.schema import Category, Definition


def points(tiles: Sequence[Tile]) -> Fraction:
    """Sum of the tiles' points with the tens digit dropped (W + 9 = 9.5, 3 + 7 = 0)."""
    return sum((t.points for t in tiles), Fraction(0)) % 10


def by_single_order(tiles: Sequence[Tile]) -> list[Tile]:
    """The tiles from the highest by the single-tile order (then by code, for a fixed text)."""
    return sorted(tiles, key=lambda t: (t.single_rank, t.code), reverse=True)


def matches(tiles: Sequence[Tile], category: Category) -> bool:
    """Whether every key of the category's pattern holds for the tile hand."""
    return _matches(tiles, category.pattern)


def _matches(tiles: Sequence[Tile], pattern: tuple[tuple[str, Any], ...]) -> bool:
    codes = Counter(t.code for t in tiles)
    for key, value in pattern:
        if key == "any":
            ok = value
        elif key == "same_rank":
            ok = max(codes.values()) == value
        elif key == "tiles":
            ok = Counter(value) == codes
        elif key == "points":
            ok = points(tiles) in value
        elif key == "cards":
            ok = len(tiles) == value
        elif key == "not":  # a hand without every key of this pattern
            ok = not _matches(tiles, value)
        else:  # pragma: no cover - the schema refuses other keys for tiles
            raise AssertionError(key)
        if not ok:
            return False
    return True


def category_of(tiles: Sequence[Tile], definition: Definition) -> int | None:
    """Index of the first category whose pattern the hand matches, or ``None``."""
    for i, category in enumerate(definition.categories):
        if matches(tiles, category):
            return i
    return None


def tiebreak_key(tiles: Sequence[Tile], key: str) -> tuple[Any, ...]:
    """One tie-break as a comparable tuple (greater is stronger)."""
    if key == "points":
        return (points(tiles),)
    if key == "pair_order":  # the highest pair the hand holds
        counts = Counter(tiles)
        return (max((t.pair_rank for t, n in counts.items() if n >= 2), default=0),)
    if key == "single_order":
        return tuple(t.single_rank for t in by_single_order(tiles))
    if key == "cards":
        return (len(tiles),)
    if key == "equal":
        return ()
    raise AssertionError(key)  # pragma: no cover - the schema refuses other keys for tiles


def strength(
    tiles: Sequence[Tile], definition: Definition, index: int | None = None
) -> tuple[Any, ...]:
    """The comparison key (greater beats smaller, equal keys are equal hands), shaped as a
    card hand's: ``((category level, *tie-breaks), …)`` when comparing by category."""
    key: list[Any] = []
    for part in definition.compare:
        if part == "category":
            if index is None:
                index = category_of(tiles, definition)
            assert index is not None  # the counting checks every hand has a category
            category = definition.categories[index]
            key.append(
                (definition.level(index), *(tiebreak_key(tiles, t) for t in category.tiebreak))
            )
        else:
            key.append(tiebreak_key(tiles, part))
    return tuple(key)


def feature(tiles: Sequence[Tile], name: str, definition: Definition) -> Any:
    """One feature a bet's condition reads."""
    if name == "category":
        index = category_of(tiles, definition)
        return None if index is None else definition.categories[index].name
    if name == "points":
        return points(tiles)
    if name == "cards":
        return len(tiles)
    if name == "pair":
        return max(Counter(t.code for t in tiles).values()) >= 2
    if name == "_hand":
        return tuple(sorted(t.code for t in tiles))
    raise AssertionError(name)  # pragma: no cover - the schema refuses other features


def view(tiles: Sequence[Tile], names: Iterable[str], definition: Definition) -> tuple[Any, ...]:
    """The features ``names`` of a hand, as ``((name, value), …)`` in name order."""
    return tuple((name, feature(tiles, name, definition)) for name in sorted(names))


def hand_text(tiles: Sequence[Tile]) -> str:
    """``9-8``: the tiles from the highest by the single order."""
    return "-".join(t.code for t in by_single_order(tiles))


def points_text(value: Fraction) -> str:
    """``7 points``, ``9.5 points``, ``1 point``."""
    return f"{short_number(value)} point" + ("" if value == 1 else "s")


def label(tiles: Sequence[Tile], definition: Definition) -> str:
    """The hand's class: its category's ``class`` with ``{tiles}`` and ``{points}`` filled in.

    ``class = "pair {tiles}"`` reads ``pair W-W``, ``class = "{points}"`` reads
    ``7 points``; a category without ``class`` names its hands by its label (``2-8 Kong``).
    """
    index = category_of(tiles, definition)
    if index is None:
        return "no category"
    category = definition.categories[index]
    text = category.hand_class or category.label
    return text.replace("{tiles}", hand_text(tiles)).replace("{points}", points_text(points(tiles)))


def description(tiles: Sequence[Tile], definition: Definition) -> str:
    """The hand in words (``odds settle``): its class, and its tiles when the class does not
    name them (``7 points (9-8)``; ``pair W-W``; ``2-8 Kong``, whose pattern fixes its tiles)."""
    text = label(tiles, definition)
    index = category_of(tiles, definition)
    if index is None:
        return text
    category = definition.categories[index]
    if "{tiles}" in category.hand_class or any(key == "tiles" for key, _ in category.pattern):
        return text
    return f"{text} ({hand_text(tiles)})"
