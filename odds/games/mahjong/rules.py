"""Mahjong 2-8 tiles (RULES.md §1): options, the hand ranking and the bet events.

Everything the rule book leaves open is an option here, and the ranking is
declared as data: an ordered tuple of hand categories (pairs, the 2-8 Kong,
points), each with a membership test and a key inside the category. A hand's
*strength* is (category level, key); hands with equal strength are equal, and
the showdown rules then say whether equal hands push or go to the banker.

The counting lives in :mod:`odds.engine`; the report in
:mod:`odds.games.mahjong`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from odds.config import option, section
from odds.errors import OddsError
from odds.shoe import Shoe
from odds.shoe_state.dealing import SetDealing
from odds.tiles import STANDARD_POINTS, Tile, normalise_code, tile_shoe

DOTS = tuple(str(n) for n in range(9, 0, -1))  # 9 … 1

# ---------------------------------------------------------------------------
# Options

BET_NAMES = ("player-wins", "player-loses", "tie", "pair")
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

    copies: dict[str, int] = option(
        {code: 4 for code in (*DOTS[::-1], "W")},
        "Tile set: copies of each tile type (one mahjong set holds at most 4 of a tile). "
        "Codes 1-9 (dots), W (white dragon) or a declared code such as T (a ten tile).",
        minimum=0,
        maximum=4,
    )
    points: dict[str, Fraction] = option(
        dict(STANDARD_POINTS),
        "Point value of each tile (a tile in the set must have one; entries for tiles "
        "outside the set are ignored).",
        minimum=0,
        maximum=Fraction(19, 2),
    )
    names: dict[str, str] = option(
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
    """The readings of the rule book's open points (RULES.md §1)."""

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


@dataclass(frozen=True)
class MahjongConfig:
    """A Mahjong 2-8 paytable."""

    tiles: MahjongTiles = section(MahjongTiles, "The tile set.")
    rules: MahjongRules = section(MahjongRules, "Rule readings and house variants.")
    payouts: MahjongPayouts = section(MahjongPayouts, "Payouts and commission.")
    dealing: SetDealing = section(SetDealing, "How a set is dealt (shoe states only).")


# ---------------------------------------------------------------------------
# Hands


def points_text(value: Fraction) -> str:
    """``9.5``, ``7``, ``1/3`` (a terminating decimal when there is one)."""
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    for prime in (2, 5):
        while d % prime == 0:
            d //= prime
    if d != 1:
        return str(value)
    return format(Decimal(value.numerator) / Decimal(value.denominator), "f")


@dataclass(frozen=True, slots=True)
class HandInfo:
    """What the rules know about one two-tile hand.

    ``tiles`` are the codes, higher single tile first; ``strength`` orders
    hands (equal strength = equal hands); ``label`` is the hand class of
    :attr:`odds.analysis.Analysis.hand_classes`.
    """

    tiles: tuple[str, str]
    category: str
    strength: tuple[object, ...]
    points: Fraction
    is_pair: bool
    zero: bool
    label: str

    @property
    def text(self) -> str:
        """``9-8``."""
        return "-".join(self.tiles)

    @property
    def description(self) -> str:
        """``pair W-W``, ``2-8 Kong``, ``7 points (9-8)``."""
        if self.category == "points":
            return f"{self.label} ({self.text})"
        return self.label if self.category == "kong" else f"pair {self.text}"


@dataclass(frozen=True)
class Category:
    """A hand category of the ranking: name, membership test, key inside the category."""

    name: str
    test: Callable[[Ranking, Tile, Tile], bool]
    key: Callable[[Ranking, Tile, Tile], tuple[object, ...]]
    label: Callable[[Ranking, Tile, Tile], str]


def _points(a: Tile, b: Tile) -> Fraction:
    """Sum of the tiles' values with the tens digit dropped (W + 9 = 9.5)."""
    return (a.points + b.points) % 10


def _points_key(r: Ranking, hi: Tile, lo: Tile) -> tuple[object, ...]:
    value = _points(hi, lo)
    if value == 0 and r.rules.zero_points == "equal":
        return (value,)
    return (value, r.single_rank[hi.code], r.single_rank[lo.code])


def _points_label(r: Ranking, hi: Tile, lo: Tile) -> str:
    value = _points(hi, lo)
    return f"{points_text(value)} point" + ("" if value == 1 else "s")


#: The hand order, highest category first (RULES.md §1, rules 1-3).
CATEGORIES: tuple[Category, ...] = (
    Category(
        "pair",
        lambda r, hi, lo: hi.code == lo.code,
        lambda r, hi, lo: (r.pair_rank[hi.code],),
        lambda r, hi, lo: f"pair {hi.code}-{lo.code}",
    ),
    Category(
        "kong",
        lambda r, hi, lo: r.rules.two_eight_special and {hi.code, lo.code} == {"2", "8"},
        lambda r, hi, lo: (),
        lambda r, hi, lo: "2-8 Kong",
    ),
    Category("points", lambda r, hi, lo: True, _points_key, _points_label),
)


class Ranking:
    """The hand ranking of one paytable over one tile set.

    ``pair_rank`` / ``single_rank`` turn the declared orders into numbers
    (higher = better); :meth:`hand` values a hand.
    """

    def __init__(self, tiles: MahjongTiles, rules: MahjongRules, shoe: Shoe[Tile]) -> None:
        self.rules = rules
        codes = [t.code for t in shoe.types]
        pairable = [
            t.code for t, n in zip(shoe.types, _full_counts(tiles, shoe), strict=True) if n >= 2
        ]
        self.pair_rank = _order(tiles.pair_order, "tiles.pair_order", codes, pairable)
        self.single_rank = _order(tiles.single_order, "tiles.single_order", codes, codes)
        self._cache: dict[tuple[Tile, Tile], HandInfo] = {}

    def hand(self, a: Tile, b: Tile) -> HandInfo:
        """The hand ``a b`` valued by the first category it belongs to."""
        found = self._cache.get((a, b))
        if found is not None:
            return found
        hi, lo = (a, b) if self.single_rank[a.code] >= self.single_rank[b.code] else (b, a)
        for index, category in enumerate(CATEGORIES):
            if category.test(self, hi, lo):
                level = len(CATEGORIES) - index
                value = _points(hi, lo)
                info = HandInfo(
                    tiles=(hi.code, lo.code),
                    category=category.name,
                    strength=(level, *category.key(self, hi, lo)),
                    points=value,
                    is_pair=hi.code == lo.code,
                    zero=category.name == "points" and value == 0,
                    label=category.label(self, hi, lo),
                )
                break
        self._cache[a, b] = self._cache[b, a] = info
        return info


def _full_counts(tiles: MahjongTiles, shoe: Shoe[Tile]) -> list[int]:
    """Copies per tile type before any tile was removed (what the set can pair)."""
    copies = {normalise_code(k, "tiles.copies"): n for k, n in tiles.copies.items()}
    return [copies[t.code] for t in shoe.types]


def _order(order: tuple[str, ...], where: str, codes: list[str], needed: list[str]) -> dict:
    """Rank numbers from a highest-first order (tiles outside the set are skipped)."""
    normalised = [normalise_code(c, where) for c in order]
    seen = set()
    for code in normalised:
        if code in seen:
            raise OddsError(f"{where}: tile {code} is listed twice")
        if code not in codes and code not in STANDARD_POINTS:
            raise OddsError(f"{where}: tile {code} is not in the tile set")
        seen.add(code)
    missing = [c for c in needed if c not in seen]
    if missing:
        raise OddsError(f"{where}: tile {missing[0]} is missing from the order")
    used = [c for c in normalised if c in codes]
    return {code: len(used) - i for i, code in enumerate(used)}


# ---------------------------------------------------------------------------
# Showdown and bet events


def showdown(player: HandInfo, banker: HandInfo, rules: MahjongRules) -> str:
    """``win``, ``lose`` (for the position), ``tie`` or ``tie-banker`` (equal, banker takes it)."""
    if player.strength > banker.strength:
        return "win"
    if player.strength < banker.strength:
        return "lose"
    identical = player.tiles == banker.tiles
    if (identical and rules.exact_tie_to_banker) or (
        player.zero and banker.zero and rules.zero_tie_to_banker
    ):
        return "tie-banker"
    return "tie"


@dataclass(frozen=True, slots=True, order=True)
class Result:
    """One position's round against the banker: everything any bet settles on."""

    showdown: str
    identical: bool
    pair: bool


def result(player: HandInfo, banker: HandInfo, rules: MahjongRules) -> Result:
    """The position's :class:`Result` against the banker."""
    return Result(showdown(player, banker, rules), player.tiles == banker.tiles, player.is_pair)


@dataclass(frozen=True)
class Event:
    """A row of a bet's outcome table: key, label and net payout per unit staked."""

    key: str
    label: str
    net: Fraction


@dataclass(frozen=True)
class BetRule:
    """A bet: its events (in table order) and how a :class:`Result` settles it."""

    name: str
    title: str
    description: str
    events: tuple[Event, ...]
    settle: Callable[[Result], str]
    payout: Fraction  # the stated payout to 1, before commission

    def event(self, key: str) -> Event:
        return next(e for e in self.events if e.key == key)


def _win(payout: Fraction, taker: str, p: MahjongPayouts) -> Fraction:
    """A win's net after commission when ``taker`` pays it."""
    return payout * (1 - p.commission) if taker in p.commission_on else payout


def bet_rules(config: MahjongConfig) -> tuple[BetRule, ...]:
    """The offered bets with their events and nets, for one paytable."""
    p, rules = config.payouts, config.rules
    lost_tie = rules.tie_result == "lose"
    tie_label = "equal hands: the bet loses" if lost_tie else "equal hands: push"
    tie_net = Fraction(-1) if lost_tie else Fraction(0)
    to_banker = "equal hands go to the banker"
    wins_net = _win(p.player_wins, "player-wins", p)
    loses_net = _win(p.player_loses, "player-loses", p)
    commission = f" less {points_text(p.commission * 100)}% commission"

    def note(taker: str) -> str:
        return commission if taker in p.commission_on and p.commission else ""

    bets = [
        BetRule(
            "player-wins",
            "Player wins",
            f"Stake 1 on the position beating the banker; pays {points_text(p.player_wins)}:1"
            f"{note('player-wins')}; on equal hands: {rules.tie_result}.",
            (
                Event("win", "position beats the banker", wins_net),
                Event("tie", tie_label, tie_net),
                Event("tie-banker", to_banker, Fraction(-1)),
                Event("lose", "banker beats the position", Fraction(-1)),
            ),
            lambda r: r.showdown,
            p.player_wins,
        ),
        BetRule(
            "player-loses",
            "Player loses",
            f"Stake 1 on the banker beating the position; pays {points_text(p.player_loses)}:1"
            f"{note('player-loses')}; on equal hands: {rules.tie_result}.",
            (
                Event("lose", "banker beats the position", loses_net),
                Event("tie-banker", to_banker, loses_net),
                Event("tie", tie_label, tie_net),
                Event("win", "position beats the banker", Fraction(-1)),
            ),
            lambda r: r.showdown,
            p.player_loses,
        ),
    ]
    if p.tie:
        bets.append(
            BetRule(
                "tie",
                "Tie",
                f"Stake 1; pays {points_text(p.tie)}:1{note('tie')} when the position and the "
                "banker hold identical tiles (rule 5).",
                (
                    Event("identical", "identical tiles", _win(p.tie, "tie", p)),
                    Event("different", "tiles not identical", Fraction(-1)),
                ),
                lambda r: "identical" if r.identical else "different",
                p.tie,
            )
        )
    if p.pair:
        bets.append(
            BetRule(
                "pair",
                "Pair",
                f"Stake 1; pays {points_text(p.pair)}:1{note('pair')} when the position "
                "holds a pair.",
                (
                    Event("pair", "position holds a pair", _win(p.pair, "pair", p)),
                    Event("no-pair", "no pair", Fraction(-1)),
                ),
                lambda r: "pair" if r.pair else "no-pair",
                p.pair,
            )
        )
    banker_win = _win(Fraction(1), "banker", p)
    bets.append(
        BetRule(
            "banker",
            "Banker's side (against one position)",
            "The banker's result against one position staking 1 on Player wins: collects "
            f"1{note('banker')} when the banker wins, pays {points_text(p.player_wins)} when the "
            "position wins. A house-banked table keeps this side; a player-banked table "
            "gives it to the player acting as banker.",
            (
                Event("lose", "banker beats the position", banker_win),
                Event("tie-banker", to_banker, banker_win),
                Event(
                    "tie",
                    "equal hands: the position's stake is lost" if lost_tie else tie_label,
                    banker_win if lost_tie else Fraction(0),
                ),
                Event("win", "position beats the banker", -p.player_wins),
            ),
            lambda r: r.showdown,
            Fraction(1),
        )
    )
    return tuple(bets)


def check_config(config: MahjongConfig) -> Shoe[Tile]:
    """Validate a paytable beyond single options; returns its tile set."""
    p = config.payouts
    for taker in p.commission_on:
        if taker not in COMMISSION_TAKERS:
            known = ", ".join(COMMISSION_TAKERS)
            raise OddsError(f"payouts.commission_on: {taker!r} is not one of {known}")
    shoe = config.tiles.build()
    full = _full_counts(config.tiles, shoe)
    if p.pair and max(full) < 2:
        raise OddsError(
            f"the tile set ({shoe.description}) has no pairs but payouts.pair pays "
            f"{points_text(p.pair)}:1; set payouts.pair = 0 (not offered)"
        )
    doubled = sum(1 for n in full if n >= 2)
    if p.tie and doubled < 2 and max(full) < 4:
        raise OddsError(
            f"the tile set ({shoe.description}) cannot deal identical hands but payouts.tie "
            f"pays {points_text(p.tie)}:1; set payouts.tie = 0 (not offered)"
        )
    Ranking(config.tiles, config.rules, shoe)
    needed = 2 * (config.rules.positions + 1)
    if shoe.size < needed:
        raise OddsError(
            f"impossible composition: the tile set ({shoe.description}) has {shoe.size} tiles, "
            f"the banker and {config.rules.positions} position(s) need {needed}"
        )
    return shoe


def settle_result(config: MahjongConfig, outcome: Result) -> Mapping[str, Event]:
    """Every offered bet's event for one position's result."""
    return {bet.name: bet.event(bet.settle(outcome)) for bet in bet_rules(config)}
