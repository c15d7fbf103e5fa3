"""Tiles in the definition language: ``[definition.tiles]``, the paytable's ``[tiles]``, the checks.

A definition holding ``[definition.tiles]`` is dealt from a tile set instead of a card
shoe (docs/reference/definitions.md, "Tiles"). The definition gives the set it is
played with by default — copies per tile, points (halves allowed: ``W = "1/2"``),
names, the pair order and the single-tile order — and the paytable's ``[tiles]``
section may change any of them and list tiles already out (``removed``), exactly as
the ``[shoe]`` section of a card game gives its decks. The set is a
:class:`odds.core.shoe.Shoe` of :class:`odds.core.tiles.Tile` types (the tile types
carry their places in both orders), so the engine counts it as it counts cards.

A tile hand has no ranks or suits: the vocabulary it reads is a subset of the cards'
(:data:`PATTERN_KEYS`, :data:`TIEBREAKS`, :data:`POSITION_FEATURES`), checked here
once the definition is read, each refusal one line naming the key.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from dataclasses import dataclass, make_dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.core.frozen import FrozenMap
from odds.core.options import build, option, section, to_plain
from odds.core.shoe import Shoe
from odds.core.tiles import STANDARD_POINTS, Tile, normalise_code, tile_shoe
from odds.games.dealing import SetDealing

if TYPE_CHECKING:
    from odds.games.defined.schema import Definition, Locator

#: The dots, highest first: 9 … 1.
DOTS = tuple(str(n) for n in range(9, 0, -1))
#: The keys of ``[definition.tiles]`` (the paytable's ``[tiles]`` adds ``removed``).
TILE_KEYS = ("copies", "points", "names", "pair_order", "single_order")
#: Pattern keys a tile hand can match (``same_rank``: that many identical tiles).
PATTERN_KEYS = frozenset({"same_rank", "tiles", "points", "cards", "any", "not"})
#: Tie-breaks a tile hand has.
TIEBREAKS = frozenset({"points", "pair_order", "single_order", "equal", "cards"})
#: Tie-breaks only a tile hand has.
TILE_ONLY_TIEBREAKS = frozenset({"pair_order", "single_order"})
#: Features a bet may ask of a tile position (``pair``: two identical tiles).
POSITION_FEATURES = frozenset({"category", "points", "cards", "pair"})
#: Conditions on a tile round.
ROUND_FEATURES = frozenset({"winner", "identical", "margin", "total_points", "total_cards"})


@dataclass(frozen=True)
class TileSetOptions:
    """The tile set: which tiles, how many of each, what they count, how they rank.

    A tile game's paytable section ``[tiles]``; each key defaults to the definition's
    ``[definition.tiles]`` (:func:`tiles_field` makes the class of one definition), and
    these defaults, the definition's own, are the 40-tile set's (dots 1–9 and white
    dragons, four of each).
    """

    copies: FrozenMap[str, int] = option(
        {code: 4 for code in (*DOTS[::-1], "W")},
        "Tile set: copies of each tile type (one mahjong set holds at most 4 of a tile). "
        "Codes 1-9 (dots), W (white dragon) or a declared code such as T (a ten tile).",
        minimum=0,
        maximum=4,
    )
    points: FrozenMap[str, Fraction] = option(
        dict(STANDARD_POINTS),
        "Point value of each tile (a tile in the set must have one; entries for tiles "
        "outside the set are ignored).",
        minimum=0,
        maximum=Fraction(19, 2),
    )
    names: FrozenMap[str, str] = option(
        {}, "Display names of declared tiles (also accepted when tiles are typed)."
    )
    pair_order: tuple[str, ...] = option(
        ("W", *DOTS),
        "Pairs, highest first; must list every tile of the set that can form a pair.",
    )
    single_order: tuple[str, ...] = option(
        ("W", *DOTS),
        "Single tiles, highest first: between equal points the hand holding the higher "
        "single tile wins (then the higher second tile). Must list every tile of the set.",
    )
    removed: tuple[str, ...] = option((), "Tiles already out of the set (a partly dealt set).")

    def build(self) -> Shoe[Tile]:
        """The tile set as a shoe, each tile with its places in both orders (built once per
        set: shoes are immutable, and settling a round asks for it every time)."""
        return _tile_shoe(
            tuple(self.copies.items()),  # in order: the order is the shoe's types' order
            FrozenMap(self.points),
            FrozenMap(self.names),
            tuple(self.removed),
            tuple(self.pair_order),
            tuple(self.single_order),
        )

    @property
    def counts(self) -> FrozenMap[str, int]:
        """No composition beside the set itself (what a card shoe's ``counts`` overrides):
        the checks of impossible categories and outcomes apply unless tiles are removed."""
        return FrozenMap({})


@cached(maxsize=64)
def _tile_shoe(
    copies: tuple[tuple[str, int], ...],
    points: FrozenMap[str, Fraction],
    names: FrozenMap[str, str],
    removed: tuple[str, ...],
    pair_order: tuple[str, ...],
    single_order: tuple[str, ...],
) -> Shoe[Tile]:
    return tile_shoe(dict(copies), points, names, removed, pair_order, single_order)


@dataclass(frozen=True)
class TileDefinedConfig:
    """A tile game's paytable (a definition read alone, without its family's schema): the
    tile set, the payouts, dealing a set, the definition's digest."""

    tiles: TileSetOptions = section(TileSetOptions, "The tile set.")
    payouts: dict[str, Fraction] = option(
        {}, 'Payouts the definition\'s outcomes name (pays = "name"), to 1.', minimum=0
    )
    dealing: SetDealing = section(SetDealing, "How the set is dealt (shoe states only).")
    definition_sha256: str = option(
        "", "SHA-256 of the game definition (its canonical JSON): the rules counted."
    )

    @property
    def shoe(self) -> TileSetOptions:
        return self.tiles


def tiles_field(stem: str, rules: TileRules) -> tuple[str, type[Any], Any]:
    """The ``[tiles]`` section of one definition's paytable: the set options, their defaults the
    definition's set (so ``odds games`` and the rules table show the game's own set)."""
    defaults = build(TileSetOptions, dict(rules.defaults), "definition.tiles")
    hints = typing.get_type_hints(TileSetOptions)
    entries = [
        (
            f.name,
            hints[f.name],
            option(
                getattr(defaults, f.name),
                f.metadata["doc"],
                minimum=f.metadata.get("minimum"),
                maximum=f.metadata.get("maximum"),
            ),
        )
        for f in dataclasses.fields(TileSetOptions)
    ]
    cls = make_dataclass(f"{stem}Tiles", entries, bases=(TileSetOptions,), frozen=True)
    return ("tiles", cls, section(cls, "The tile set."))


@dataclass(frozen=True)
class TileRules:
    """``[definition.tiles]``: the set the game is played with unless the paytable says otherwise.

    ``defaults`` holds the keys given (TOML values as written; validated by building the
    set), which the paytable's ``[tiles]`` section starts from.
    """

    defaults: tuple[tuple[str, Any], ...]

    def copies(self) -> FrozenMap[str, int]:
        """The definition's set: copies per tile."""
        found: FrozenMap[str, int] = build(TileSetOptions, dict(self.defaults), "").copies
        return found


def read_tiles(table: Any, loc: Locator) -> TileRules:
    """``[definition.tiles]``, validated by building the set it describes."""
    after = loc.line("[definition.tiles")
    if not isinstance(table, Mapping):
        raise loc.error("definition.tiles", "expected a table (copies, points, …)", after)
    loc.known(table, TILE_KEYS, "definition.tiles", after)
    try:
        options = build(TileSetOptions, table, "definition.tiles")
        options.build()
    except OddsError as exc:
        raise loc.error("definition.tiles", str(exc), after) from None
    plain = to_plain(options)
    return TileRules(tuple((key, plain[key]) for key in TILE_KEYS if key in table))


def check_vocabulary(definition: Definition, loc: Locator) -> None:
    """Refuse what a tile hand cannot be asked (ranks, suits, a tableau), or tile keys on cards.

    Called once the whole definition is read; every refusal names the key and its line.
    """
    tiles = definition.tiles is not None
    for category in definition.categories:
        where = f"definition.categories.{category.name}"
        for key, value in _pattern_items(category.pattern):
            if tiles and key not in PATTERN_KEYS:
                raise loc.error(
                    f"{where}.pattern",
                    f"{key}: a tile hand has no ranks or suits (tile patterns: "
                    f"{', '.join(sorted(PATTERN_KEYS))})",
                    category.line,
                )
            if not tiles and key == "tiles":
                raise loc.error(
                    f"{where}.pattern",
                    "tiles: the definition deals cards (tiles need [definition.tiles]); "
                    "name cards with ranks = [...]",
                    category.line,
                )
            if tiles and key == "tiles":
                _known_codes(value, definition, f"{where}.pattern.tiles", loc, category.line)
        for key in category.tiebreak:
            _check_tiebreak(key, tiles, f"{where}.tiebreak", loc, category.line)
        if tiles and category.rank_order:
            raise loc.error(
                where, "rank_order: tiles are ordered by [definition.tiles]", category.line
            )
        if not tiles and category.hand_class:
            raise loc.error(f"{where}.class", "class: names a tile category's hands", category.line)
    for key in definition.compare:
        if key != "category":
            _check_tiebreak(key, tiles, "definition.compare.by", loc, loc.line("by"))
    if not tiles:
        return
    deal = definition.deal
    if deal.tableau is not None or deal.draw_at_most:
        raise loc.error(
            "definition.deal",
            "a tile game deals every position its tiles (no tableau, no draw_at_most)",
            loc.line("[definition.deal"),
        )
    for bet in definition.bets:
        for outcome in bet.outcomes:
            if outcome.when is not None:
                _check_condition(outcome.when, f"definition.bets.{bet.name}", loc, outcome.line)


def _pattern_items(pattern: tuple[tuple[str, Any], ...]) -> list[tuple[str, Any]]:
    """A pattern's keys and values, a negated part's (``not``) included."""
    found = []
    for key, value in pattern:
        found.append((key, value))
        if key == "not":
            found += _pattern_items(value)
    return found


def _check_tiebreak(key: str, tiles: bool, where: str, loc: Locator, line: int) -> None:
    if tiles and key not in TIEBREAKS:
        raise loc.error(
            where,
            f"{key}: a tile hand has no ranks or suits (tile tie-breaks: "
            f"{', '.join(sorted(TIEBREAKS))})",
            line,
        )
    if not tiles and key in TILE_ONLY_TIEBREAKS:
        raise loc.error(where, f"{key}: a tile tie-break; the definition deals cards", line)


def _check_condition(condition: Any, where: str, loc: Locator, line: int) -> None:
    for position, name, _ in condition.every_test():
        known = POSITION_FEATURES if position else ROUND_FEATURES
        if name not in known:
            raise loc.error(
                where,
                f"{name}: a tile {'hand' if position else 'round'} has no such feature "
                f"(known: {', '.join(sorted(known))})",
                line,
            )


def _known_codes(
    codes: tuple[str, ...], definition: Definition, where: str, loc: Locator, line: int
) -> None:
    """A pattern's tiles must be codes of the definition's set (or standard tiles)."""
    assert definition.tiles is not None
    copies = dict(definition.tiles.defaults).get("copies", {})
    for code in codes:
        if code not in copies and code not in STANDARD_POINTS:
            raise loc.error(where, f"tile {code} is not in the definition's tile set", line)


def tile_codes(value: Any, where: str, loc: Locator, line: int) -> tuple[str, ...]:
    """A pattern's ``tiles = ["2", "8"]``: tile codes (upper case, Unicode tiles read)."""
    if not isinstance(value, list) or not value:
        raise loc.error(where, f'expected a list of tiles such as ["2", "8"], got {value!r}', line)
    try:
        return tuple(normalise_code(str(v), where) for v in value)
    except OddsError as exc:
        raise loc.error(where, str(exc).removeprefix(f"{where}: "), line) from None
