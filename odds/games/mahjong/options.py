"""What a Mahjong 2-8 paytable can say: the tile set, the rule readings and the payouts.

Each option is documented where it is declared (see :mod:`odds.core.options`); the
readings are the rule book's open points (docs/rules/mahjong-28.md). The tile
set is data, not code: which tiles, how many of each, what each counts and how
each ranks, so a house set (36 tiles, 20 tiles with a ten tile) is a paytable.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.caching import hash_once
from odds.core.frozen import FrozenMap
from odds.core.options import option, section
from odds.core.shoe import Shoe
from odds.core.tiles import STANDARD_POINTS, Tile, tile_shoe
from odds.games.dealing import SetDealing

#: The dots, highest first: 9 … 1.
DOTS = tuple(str(n) for n in range(9, 0, -1))

#: Who may pay commission (``payouts.commission_on``), with what each entry means.
COMMISSION_TAKERS = {
    "player-wins": "a winning Player wins bet",
    "player-loses": "a winning Player loses bet",
    "tie": "a winning Tie bet",
    "pair": "a winning Pair bet",
    "banker": "the banker's win against a position (player-banked games)",
}


@dataclass(frozen=True)
class MahjongTiles:
    """The tile set: which tiles, how many of each, what they count, how they rank."""

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
        """The tile set as a shoe."""
        return tile_shoe(self.copies, self.points, self.names, self.removed)


@dataclass(frozen=True)
class MahjongRules:
    """The readings of the rule book's open points (docs/rules/mahjong-28.md)."""

    two_eight_special: bool = option(
        True, "2-8 Kong (tiles 2 and 8) is the highest non-pair hand; off: it is 0 points."
    )
    zero_points: str = option(
        "ranked",
        "0-point hands between themselves:",
        choices={
            "ranked": "ranked by the higher single tile like any other points (default).",
            "equal": "all 0-point hands are equal (tiles are not compared).",
        },
    )
    exact_tie_to_banker: bool = option(
        False, "Identical tiles (an exact tie) go to the banker instead of tying."
    )
    zero_tie_to_banker: bool = option(
        False,
        "Equal hands that are both 0-point hands go to the banker instead of tying "
        "(with ranked 0-point hands only identical ones are equal).",
    )
    tie_result: str = option(
        "push",
        "Player wins / Player loses bets when the position ties the banker:",
        choices={
            "push": "the stake is returned (default).",
            "lose": "the bet loses.",
        },
    )
    positions: int = option(
        3, "Player positions, each compared with the one banker hand.", minimum=1, maximum=9
    )


@dataclass(frozen=True)
class MahjongPayouts:
    """Payouts to 1 per unit staked, before commission; 0 = the bet is not offered."""

    player_wins: Fraction = option(Fraction(1), "Player wins bet pays this to 1.", minimum=0)
    player_loses: Fraction = option(Fraction(1), "Player loses bet pays this to 1.", minimum=0)
    tie: Fraction = option(
        Fraction(60), "Tie bet (identical tiles) pays this to 1; 0 = not offered.", minimum=0
    )
    pair: Fraction = option(
        Fraction(6),
        "Pair bet (the position holds a pair) pays this to 1; 0 = not offered.",
        minimum=0,
    )
    commission: Fraction = option(
        Fraction(1, 20), "Commission taken from a win, as a share of the win.", minimum=0, maximum=1
    )
    commission_on: tuple[str, ...] = option(
        ("player-wins", "player-loses"),
        "Which wins pay the commission: "
        + "; ".join(f"{k} = {v}" for k, v in COMMISSION_TAKERS.items())
        + ".",
    )


@hash_once  # caches key by the config: hashed once per object
@dataclass(frozen=True)
class MahjongConfig:
    """A Mahjong 2-8 paytable."""

    tiles: MahjongTiles = section(MahjongTiles, "The tile set.")
    rules: MahjongRules = section(MahjongRules, "Rule readings and house variants.")
    payouts: MahjongPayouts = section(MahjongPayouts, "Payouts and commission.")
    dealing: SetDealing = section(SetDealing, "How the set is dealt (shoe states only).")
