"""Mahjong 2-8's rules (docs/rules/mahjong-28.md): the hand order, the showdown, the bets.

Rules only: how a two-tile hand is valued and ranked, how a position's hand
meets the banker's, and which event of each bet that settles. No loops over
the tile set (the counting is :mod:`odds.games.mahjong.counting`'s) and no
report tables.

The ranking is declared as data: an ordered tuple of hand categories (pairs,
the 2-8 Kong, points), each with a membership test and a key inside the
category. A hand's *strength* is (category level, key); hands with equal
strength are equal, and the showdown readings then say whether equal hands
push or go to the banker.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from odds.core.errors import OddsError
from odds.core.numbers import short_number
from odds.core.shoe import Shoe
from odds.core.tiles import STANDARD_POINTS, Tile, normalise_code
from odds.engine import Hand
from odds.games.events import Event
from odds.games.mahjong.options import (
    COMMISSION_TAKERS,
    MahjongConfig,
    MahjongPayouts,
    MahjongRules,
    MahjongTiles,
)


class MahjongEvent(StrEnum):
    """A Mahjong 2-8 bet's event keys (a showdown's result, the Tie and Pair bets').

    A :class:`enum.StrEnum`: each prints, compares and serialises as its key, so tables and
    JSON read as before; :class:`odds.games.events.Event` keys are these members.
    """

    WIN = "win"
    LOSE = "lose"
    TIE = "tie"
    TIE_BANKER = "tie-banker"
    IDENTICAL = "identical"
    DIFFERENT = "different"
    PAIR = "pair"
    NO_PAIR = "no-pair"


#: What orders hands: (category level, key inside the category …); higher is better.
Strength = tuple[Fraction | int, ...]

# ---------------------------------------------------------------------------
# Hands


@dataclass(frozen=True, slots=True)
class HandInfo:
    """What the rules know about one two-tile hand.

    ``tiles`` are the codes, higher single tile first; ``strength`` orders
    hands (equal strength = equal hands); ``label`` is the hand class of
    :attr:`odds.stats.analysis.Analysis.hand_classes`.
    """

    tiles: tuple[str, str]
    category: str
    strength: Strength
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
    key: Callable[[Ranking, Tile, Tile], Strength]
    label: Callable[[Ranking, Tile, Tile], str]


def hand_points(a: Tile, b: Tile) -> Fraction:
    """Sum of the tiles' values with the tens digit dropped (W + 9 = 9.5)."""
    return (a.points + b.points) % 10


def _points_key(r: Ranking, hi: Tile, lo: Tile) -> Strength:
    value = hand_points(hi, lo)
    if value == 0 and r.rules.zero_points == "equal":
        return (value,)
    return (value, r.single_rank[hi.code], r.single_rank[lo.code])


def _points_label(r: Ranking, hi: Tile, lo: Tile) -> str:
    value = hand_points(hi, lo)
    return f"{short_number(value)} point" + ("" if value == 1 else "s")


#: The hand order, highest category first (docs/rules/mahjong-28.md, "Hand order").
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
    (higher = better); :meth:`hand` values a hand (cached: the counting asks
    for the same few dozen hands many times).
    """

    rules: MahjongRules
    pair_rank: dict[str, int]
    single_rank: dict[str, int]

    def __init__(self, tiles: MahjongTiles, rules: MahjongRules, shoe: Shoe[Tile]) -> None:
        self.rules = rules
        codes = [t.code for t in shoe.types]
        pairable = [
            t.code for t, n in zip(shoe.types, full_counts(tiles, shoe), strict=True) if n >= 2
        ]
        self.pair_rank = _order(tiles.pair_order, "tiles.pair_order", codes, pairable)
        self.single_rank = _order(tiles.single_order, "tiles.single_order", codes, codes)
        self._cache: dict[tuple[Tile, Tile], HandInfo] = {}

    def hand(self, a: Tile, b: Tile) -> HandInfo:
        """The hand ``a b`` valued by the first category it belongs to.

        The rule book's worked hands (docs/rules/mahjong-28.md, "Tile points"):

        >>> from odds.games.mahjong.options import MahjongConfig
        >>> from odds.core.tiles import parse_tiles
        >>> config = MahjongConfig()
        >>> shoe = config.tiles.build()
        >>> ranking = Ranking(config.tiles, config.rules, shoe)
        >>> [ranking.hand(*parse_tiles(t, shoe)).description for t in ("4 8", "3 7", "9 W", "2 8")]
        ['2 points (8-4)', '0 points (7-3)', '9.5 points (W-9)', '2-8 Kong']
        """
        found = self._cache.get((a, b))
        if found is not None:
            return found
        hi, lo = (a, b) if self.single_rank[a.code] >= self.single_rank[b.code] else (b, a)
        index, category = next((i, c) for i, c in enumerate(CATEGORIES) if c.test(self, hi, lo))
        value = hand_points(hi, lo)
        info = HandInfo(
            tiles=(hi.code, lo.code),
            category=category.name,
            strength=(len(CATEGORIES) - index, *category.key(self, hi, lo)),
            points=value,
            is_pair=hi.code == lo.code,
            zero=category.name == "points" and value == 0,
            label=category.label(self, hi, lo),
        )
        self._cache[a, b] = self._cache[b, a] = info
        return info


def hand_infos(config: MahjongConfig, shoe: Shoe[Tile]) -> dict[Hand, HandInfo]:
    """Every two-tile hand the set's types can form (type indices, low first), valued.

    The counting classifies hands by these keys; the values are the rules'.
    """
    ranking = Ranking(config.tiles, config.rules, shoe)
    types = shoe.types
    return {
        (i, j): ranking.hand(types[i], types[j])
        for i in range(len(types))
        for j in range(i, len(types))
    }


def strongest_first(info: HandInfo) -> tuple[Strength, tuple[str, str]]:
    """Sort key: strongest hand first; equal hands by their tiles (deterministic)."""
    return (tuple(-x for x in info.strength), info.tiles)


def full_counts(tiles: MahjongTiles, shoe: Shoe[Tile]) -> list[int]:
    """Copies per tile type before any tile was removed (what the set can pair)."""
    copies = {normalise_code(k, "tiles.copies"): n for k, n in tiles.copies.items()}
    return [copies[t.code] for t in shoe.types]


def _order(
    order: tuple[str, ...], where: str, codes: list[str], needed: list[str]
) -> dict[str, int]:
    """Rank numbers from a highest-first order (tiles outside the set are skipped)."""
    normalised = [normalise_code(c, where) for c in order]
    in_set = set(codes)  # sets throughout: the checks are linear in the tile types
    seen = set()
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


# ---------------------------------------------------------------------------
# Showdown


def showdown(player: HandInfo, banker: HandInfo, rules: MahjongRules) -> MahjongEvent:
    """``win``, ``lose`` (for the position), ``tie`` or ``tie-banker`` (equal, banker takes it).

    Equal hands and who takes them: docs/rules/mahjong-28.md §Ties.
    """
    if player.strength > banker.strength:
        return MahjongEvent.WIN
    if player.strength < banker.strength:
        return MahjongEvent.LOSE
    identical = player.tiles == banker.tiles
    if (identical and rules.exact_tie_to_banker) or (
        player.zero and banker.zero and rules.zero_tie_to_banker
    ):
        return MahjongEvent.TIE_BANKER
    return MahjongEvent.TIE


@dataclass(frozen=True, slots=True, order=True)
class Result:
    """One position's round against the banker: everything any bet settles on."""

    showdown: str
    identical: bool
    pair: bool


def result(player: HandInfo, banker: HandInfo, rules: MahjongRules) -> Result:
    """The position's :class:`Result` against the banker."""
    return Result(showdown(player, banker, rules), player.tiles == banker.tiles, player.is_pair)


def explain(player: HandInfo, banker: HandInfo, rules: MahjongRules) -> str:
    """Why the showdown went as it did, in the rule book's words (for a settled round)."""
    outcome = showdown(player, banker, rules)
    if outcome in ("win", "lose"):
        if outcome == "win":
            return _why_higher("player", player, banker)
        return _why_higher("banker", banker, player)
    if player.tiles == banker.tiles:
        text = f"identical tiles {player.text}: a tie"
        if rules.exact_tie_to_banker:
            return text + ", and exact ties go to the banker"
    else:
        text = f"both 0 points ({player.text}, {banker.text}) and all 0-point hands are equal"
    if outcome == "tie-banker":
        return text + ", and ties between 0-point hands go to the banker"
    return text


def _why_higher(who: str, winner: HandInfo, loser: HandInfo) -> str:
    """Why ``winner`` (held by ``who``) outranks ``loser``: category, pair order, points, tiles."""
    if winner.category != loser.category:
        return f"{who}'s {winner.description} outranks {loser.description}"
    if winner.category == "pair":
        return f"{who}'s pair {winner.text} outranks pair {loser.text} (pair order)"
    if winner.points != loser.points:
        return f"{who}'s {winner.description} beats {loser.description}"
    which = 0 if winner.tiles[0] != loser.tiles[0] else 1
    tile = "higher tile" if which == 0 else "higher second tile"
    return (
        f"both {winner.label}; {who}'s {winner.text} holds the {tile} "
        f"({winner.tiles[which]} over {loser.tiles[which]})"
    )


# ---------------------------------------------------------------------------
# Bets


@dataclass(frozen=True)
class BetRule:
    """A bet: its events (in table order) and how a :class:`Result` settles it.

    ``payout`` is the stated payout to 1 before commission (the events carry
    the nets after it); ``debited`` is what one unit staked puts at risk.
    """

    name: str
    title: str
    events: tuple[Event, ...]
    settle: Callable[[Result], str]
    payout: Fraction
    debited: Fraction = Fraction(1)

    def event(self, key: str) -> Event:
        """The event called ``key``."""
        return next(e for e in self.events if e.key == key)


def net_win(payout: Fraction, taker: str, p: MahjongPayouts) -> Fraction:
    """A win's net after commission when ``taker`` pays it."""
    return payout * (1 - p.commission) if taker in p.commission_on else payout


def bet_rules(config: MahjongConfig) -> tuple[BetRule, ...]:
    """The offered bets with their events and nets, for one paytable.

    Player wins, Player loses and the banker's side are always there; Tie and
    Pair only when their payout is not 0 (the paytable's "not offered").
    """
    p = config.payouts
    bets = [_player_wins(config), _player_loses(config)]
    if p.tie:
        bets.append(_tie(p))
    if p.pair:
        bets.append(_pair(p))
    bets.append(_banker(config))
    return tuple(bets)


def _tie_event(rules: MahjongRules) -> Event:
    """Equal hands for the Player bets: a push, or a loss under ``tie_result = "lose"``."""
    if rules.tie_result == "lose":
        return Event(MahjongEvent.TIE, "equal hands: the bet loses", Fraction(-1))
    return Event(MahjongEvent.TIE, "equal hands: push", Fraction(0))


TO_BANKER = "equal hands go to the banker"


def _player_wins(config: MahjongConfig) -> BetRule:
    p = config.payouts
    return BetRule(
        "player-wins",
        "Player wins",
        (
            Event(
                MahjongEvent.WIN,
                "position beats the banker",
                net_win(p.player_wins, "player-wins", p),
            ),
            _tie_event(config.rules),
            Event(MahjongEvent.TIE_BANKER, TO_BANKER, Fraction(-1)),
            Event(MahjongEvent.LOSE, "banker beats the position", Fraction(-1)),
        ),
        lambda r: r.showdown,
        p.player_wins,
    )


def _player_loses(config: MahjongConfig) -> BetRule:
    p = config.payouts
    net = net_win(p.player_loses, "player-loses", p)
    return BetRule(
        "player-loses",
        "Player loses",
        (
            Event(MahjongEvent.LOSE, "banker beats the position", net),
            Event(MahjongEvent.TIE_BANKER, TO_BANKER, net),
            _tie_event(config.rules),
            Event(MahjongEvent.WIN, "position beats the banker", Fraction(-1)),
        ),
        lambda r: r.showdown,
        p.player_loses,
    )


def _tie(p: MahjongPayouts) -> BetRule:
    return BetRule(
        "tie",
        "Tie",
        (
            Event(MahjongEvent.IDENTICAL, "identical tiles", net_win(p.tie, "tie", p)),
            Event(MahjongEvent.DIFFERENT, "tiles not identical", Fraction(-1)),
        ),
        lambda r: MahjongEvent.IDENTICAL if r.identical else MahjongEvent.DIFFERENT,
        p.tie,
    )


def _pair(p: MahjongPayouts) -> BetRule:
    return BetRule(
        "pair",
        "Pair",
        (
            Event(MahjongEvent.PAIR, "position holds a pair", net_win(p.pair, "pair", p)),
            Event(MahjongEvent.NO_PAIR, "no pair", Fraction(-1)),
        ),
        lambda r: MahjongEvent.PAIR if r.pair else MahjongEvent.NO_PAIR,
        p.pair,
    )


def _banker(config: MahjongConfig) -> BetRule:
    """The banker's side against one position staking 1 on Player wins.

    It risks the Player wins payout (at least 1) per position.
    """
    p, lost_tie = config.payouts, config.rules.tie_result == "lose"
    win = net_win(Fraction(1), "banker", p)
    tie = (
        Event(MahjongEvent.TIE, "equal hands: the position's stake is lost", win)
        if lost_tie
        else Event(MahjongEvent.TIE, "equal hands: push", Fraction(0))
    )
    return BetRule(
        "banker",
        "Banker's side (against one position)",
        (
            Event(MahjongEvent.LOSE, "banker beats the position", win),
            Event(MahjongEvent.TIE_BANKER, TO_BANKER, win),
            tie,
            Event(MahjongEvent.WIN, "position beats the banker", -p.player_wins),
        ),
        lambda r: r.showdown,
        Fraction(1),
        debited=max(Fraction(1), p.player_wins),
    )


# ---------------------------------------------------------------------------
# Paytable checks


def check_config(config: MahjongConfig) -> Shoe[Tile]:
    """Validate a paytable beyond single options; returns its tile set."""
    p = config.payouts
    for taker in p.commission_on:
        if taker not in COMMISSION_TAKERS:
            known = ", ".join(COMMISSION_TAKERS)
            raise OddsError(f"payouts.commission_on: {taker!r} is not one of {known}")
    shoe = config.tiles.build()
    full = full_counts(config.tiles, shoe)
    if p.pair and max(full) < 2:
        raise OddsError(
            f"the tile set ({shoe.description}) has no pairs but payouts.pair pays "
            f"{short_number(p.pair)}:1; set payouts.pair = 0 (not offered)"
        )
    doubled = sum(1 for n in full if n >= 2)
    if p.tie and doubled < 2 and max(full) < 4:
        raise OddsError(
            f"the tile set ({shoe.description}) cannot deal identical hands but payouts.tie "
            f"pays {short_number(p.tie)}:1; set payouts.tie = 0 (not offered)"
        )
    Ranking(config.tiles, config.rules, shoe)
    needed = 2 * (config.rules.positions + 1)
    if shoe.size < needed:
        raise OddsError(
            f"impossible composition: the tile set ({shoe.description}) has {shoe.size} tiles, "
            f"the banker and {config.rules.positions} position(s) need {needed}"
        )
    return shoe
