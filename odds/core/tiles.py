"""Tiles for the two-tile games: tile types with a point value, parsing, tile sets.

A tile's identity is its *code*: ``1`` … ``9`` for the dots, ``W`` for the
white dragon, or any code a paytable declares (a "ten" tile ``T``). Copies of
one tile are interchangeable, so a :class:`Tile` is a *tile type* and a tile
set is a :class:`odds.core.shoe.Shoe` of tiles with a count per type, exactly as a
card shoe is.

Point values are data: the paytable gives every tile's value (W = 1/2 and a
"ten" tile = 0 by the usual rules), so a :class:`Tile` carries its value and
the game never hard-codes one. So are the two orders of a set (which pair is
higher, which single tile is higher): a set built with them gives each tile its
places (:attr:`Tile.pair_rank`, :attr:`Tile.single_rank`), so a hand of tiles
carries everything its rules read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from odds.core.errors import OddsError
from odds.core.shoe import Shoe

#: The standard tiles' codes and their usual point values.
STANDARD_POINTS: dict[str, Fraction] = {str(n): Fraction(n) for n in range(1, 10)} | {
    "W": Fraction(1, 2)
}
#: Unicode mahjong tiles: 🀙 … 🀡 (one to nine dots), 🀆 (white dragon).
UNICODE: dict[str, str] = {chr(0x1F019 + n - 1): str(n) for n in range(1, 10)} | {"\U0001f006": "W"}
SYMBOLS: dict[str, str] = {code: symbol for symbol, code in UNICODE.items()}

_CODE = re.compile(r"^[A-Z0-9]+$")
DOT_CODES = tuple(str(n) for n in range(1, 10))


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile type: its code, its point value and its display name."""

    code: str
    points: Fraction
    name: str = ""
    #: The tile's place in the set's pair order (greater is higher; 0: not ordered).
    pair_rank: int = 0
    #: The tile's place in the set's single-tile order (greater is higher; 0: not ordered).
    single_rank: int = 0

    def __str__(self) -> str:
        return self.code

    @property
    def symbol(self) -> str:
        """The Unicode tile for a standard tile (``🀙``), otherwise the code."""
        return SYMBOLS.get(self.code, self.code)


def normalise_code(text: str, where: str) -> str:
    """A tile code as stored: upper case, Unicode tiles read as their codes."""
    code = text.strip().replace("\ufe0f", "")
    code = UNICODE.get(code, code).upper()
    if not _CODE.match(code):
        raise OddsError(f"{where}: {text!r} is not a tile code (letters and digits, e.g. 5, W, T)")
    return code


#: The most tile types a set may have: every analysis is polynomial in them, and a real
#: set has at most 42 (dots, bamboos, characters, winds, dragons, flowers).
MAX_TILE_TYPES = 64


def tile_shoe(
    copies: Mapping[str, int],
    points: Mapping[str, Fraction],
    names: Mapping[str, str] | None = None,
    removed: Iterable[str] = (),
    pair_order: Sequence[str] | None = None,
    single_order: Sequence[str] | None = None,
) -> Shoe[Tile]:
    """The tile set a paytable describes, optionally partly dealt.

    ``copies`` lists every tile type of the set (in the order given) with its
    number of copies; ``points`` must give a value for each of them (extra
    entries for tiles outside the set are allowed, so the default values serve
    every set). ``removed`` are tiles already out of the set. ``pair_order`` and
    ``single_order`` (highest first), when given, set every tile's
    :attr:`Tile.pair_rank` and :attr:`Tile.single_rank` (:func:`order_ranks`).
    """
    if len(copies) > MAX_TILE_TYPES:
        raise OddsError(
            f"tiles.copies: {len(copies):,} tile types; at most {MAX_TILE_TYPES} "
            "(a full mahjong set has 42)"
        )
    names = dict(names or {})
    codes: list[str] = []
    known: set[str] = set()  # a set, not the list: 200,000 types took minutes to refuse
    counts: list[int] = []
    for text, n in copies.items():
        code = normalise_code(text, "tiles.copies")
        if code in known:
            raise OddsError(f"tiles.copies: tile {code} is listed twice")
        known.add(code)
        if n < 0:
            raise OddsError(f"impossible composition: {n} copies of tile {code}")
        codes.append(code)
        counts.append(n)
    if not codes or sum(counts) == 0:
        raise OddsError("tiles.copies: the tile set is empty")
    values = {normalise_code(k, "tiles.points"): Fraction(v) for k, v in points.items()}
    labels = {normalise_code(k, "tiles.names"): v for k, v in names.items()}
    for code, value in values.items():
        if not 0 <= value < 10:
            raise OddsError(f"tiles.points.{code}: {value} is not a point value from 0 to 9.5")
    for code in codes:
        if code not in values:
            raise OddsError(f"tiles.points: no point value for tile {code} (e.g. {code} = 0)")
    for code in labels:
        if code not in codes:
            raise OddsError(f"tiles.names: tile {code} is not in the tile set")
    _check_names(labels, codes)
    pairs: dict[str, int] = {}
    singles: dict[str, int] = {}
    if pair_order is not None:
        pairable = [c for c, n in zip(codes, counts, strict=True) if n >= 2]
        pairs = order_ranks(pair_order, "tiles.pair_order", codes, pairable)
    if single_order is not None:
        singles = order_ranks(single_order, "tiles.single_order", codes, codes)
    tiles = [
        Tile(code, values[code], labels.get(code, ""), pairs.get(code, 0), singles.get(code, 0))
        for code in codes
    ]
    shoe = Shoe(tuple(tiles), tuple(counts), _set_description(tiles, counts))
    removed = tuple(removed)
    if removed:
        shoe = shoe.without([parse_tile(text, shoe) for text in removed])
    return shoe


def order_ranks(
    order: Sequence[str], where: str, codes: Sequence[str], needed: Sequence[str]
) -> dict[str, int]:
    """Places from a highest-first order: the first tile gets the most (tiles of the order
    outside the set are skipped, so one order serves every set).

    Every tile of ``needed`` must be listed (the pair order: every tile the set holds
    twice; the single order: every tile); a tile listed twice, or one that is neither in
    the set nor a standard tile, is a one-line error.
    """
    normalised = [normalise_code(c, where) for c in order]
    in_set = set(codes)  # sets throughout: the checks are linear in the tile types
    seen: set[str] = set()
    for code in normalised:
        if code in seen:
            raise OddsError(f"{where}: tile {code} is listed twice")
        if code not in in_set and code not in STANDARD_POINTS:
            raise OddsError(f"{where}: tile {code} is not in the tile set")
        seen.add(code)
    missing = [c for c in needed if c not in seen]
    if missing:
        raise OddsError(f"{where}: tile {missing[0]} is missing from the order")
    used = [c for c in normalised if c in in_set]
    return {code: len(used) - i for i, code in enumerate(used)}


def _check_names(labels: Mapping[str, str], codes: Sequence[str]) -> None:
    """A display name may not be read as another tile, nor be unreadable as one tile.

    Names are accepted where tiles are typed, so ``names = { W = "5" }`` would make
    ``5 5`` mean ``W W``: a name that is a tile code (of this set or a standard
    one), a Unicode tile, another tile's name, or contains a separator is refused.
    """
    seen: dict[str, str] = {}
    for code, name in labels.items():
        key = UNICODE.get(name.strip(), name.strip()).upper()
        where = f"tiles.names.{code}"
        if not key:
            raise OddsError(f"{where}: the name is empty")
        if re.search(r"[\s,;\-]", key):
            raise OddsError(f"{where}: {name!r} holds a space, comma or dash (tiles split there)")
        if key != code and (key in codes or key in STANDARD_POINTS):
            raise OddsError(f"{where}: {name!r} is a tile's code; a name may not shadow a tile")
        if key in seen:
            raise OddsError(f"{where}: {name!r} is also the name of tile {seen[key]}")
        seen[key] = code


def _set_description(tiles: Sequence[Tile], counts: Sequence[int]) -> str:
    """``40 tiles: 1-9 and W, 4 each`` or ``20 tiles: 1 ×2, 2 ×2 …``."""
    total = sum(counts)
    present = [(t, n) for t, n in zip(tiles, counts, strict=True) if n]
    if len({n for _, n in present}) == 1:
        listed = " ".join(t.code for t, _ in present)
        return f"{total} tiles: {listed}, {present[0][1]} of each"
    listed = ", ".join(f"{t.code} ×{n}" for t, n in present)
    return f"{total} tiles: {listed}"


def _lookup(shoe: Shoe[Tile]) -> dict[str, Tile]:
    """Every text that names a tile of ``shoe``: its code and its name, upper case."""
    found = {}
    for tile in shoe.types:
        found[tile.code] = tile
        if tile.name:
            found[tile.name.upper()] = tile
    return found


def parse_tile(text: str, shoe: Shoe[Tile]) -> Tile:
    """One tile of ``shoe`` from ``5``, ``w``, ``🀝``, ``🀆`` or a declared code/name.

    Case-insensitive. A standard tile that the set does not use (W in a
    36-tile set) and an unknown text are one-line errors.
    """
    raw = text.strip().replace("\ufe0f", "")
    key = UNICODE.get(raw, raw).upper()
    known = _lookup(shoe)
    if key in known:
        return known[key]
    if key in STANDARD_POINTS:
        raise OddsError(f"tile {key} is not in this game's tile set ({shoe.description})")
    raise OddsError(f"unknown tile {text!r}: write {_spelling(shoe)}")


def _spelling(shoe: Shoe[Tile]) -> str:
    """How the set's tiles may be typed: ``1-9, W (or the tiles 🀙…🀡, 🀆)``, ``1-9, T (ten)``.

    Only tiles of this set are offered.
    """
    codes = [t.code for t in shoe.types]
    all_dots = all(c in codes for c in DOT_CODES)
    parts = ["1-9"] if all_dots else [c for c in codes if c in DOT_CODES]
    parts += [
        f"{t.code} ({t.name})" if t.name else t.code for t in shoe.types if t.code not in DOT_CODES
    ]
    symbols = [SYMBOLS[c] for c in codes if c in SYMBOLS and not (all_dots and c in DOT_CODES)]
    if all_dots:
        symbols.insert(0, f"{SYMBOLS['1']}…{SYMBOLS['9']}")
    return ", ".join(parts) + (f" (or the tiles {', '.join(symbols)})" if symbols else "")


def parse_tiles(text: str, shoe: Shoe[Tile]) -> tuple[Tile, ...]:
    """Tiles written ``"4 2"``, ``"4,2"``, ``"W9"`` or ``"🀜🀘"``.

    A token that is not a tile is split into characters when every character
    is a one-character tile (``42`` is 4 and 2); otherwise it is an error.
    """
    tokens = [t for t in re.split(r"[\s,;\-]+", text.strip().replace("\ufe0f", "")) if t]
    if not tokens:
        raise OddsError("empty hand: write tiles such as '4 2' or 'W 9'")
    known = _lookup(shoe)
    result: list[Tile] = []
    for token in tokens:
        key = UNICODE.get(token, token).upper()
        if key in known or len(token) == 1:
            result.append(parse_tile(token, shoe))
            continue
        chars = [UNICODE.get(c, c).upper() for c in token]
        if all(c in known or c in STANDARD_POINTS for c in chars):
            result.extend(parse_tile(c, shoe) for c in token)
        else:
            result.append(parse_tile(token, shoe))
    return tuple(result)
