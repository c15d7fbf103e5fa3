"""The bets a baccarat table offers, assembled from the paytable: events, settlement, words.

Each :class:`BetSpec` joins a bet's events (:mod:`odds.games.events`, with
the paytable's payouts) to the rule that settles a coup into one of them
(:mod:`odds.games.baccarat.rules`); the pair bets have no coup rule (they
look at the first two cards of each hand). Built once per paytable (by value).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from odds.core.caching import cached
from odds.core.errors import OddsError
from odds.core.numbers import decimal, payout_ratio
from odds.games.baccarat import rules as r
from odds.games.baccarat.options import SIDE_BETS, BaccaratConfig, BaccaratPayouts
from odds.games.baccarat.rules import Coup, DrawingRules
from odds.games.events import BetSpec as GenericBetSpec
from odds.games.events import check_side_bets

#: A baccarat bet: settled from the finished coup, or (None) from the first two cards.
BetSpec = GenericBetSpec[Callable[[Coup], str] | None]


@cached(maxsize=32)
def bet_specs(config: BaccaratConfig) -> tuple[BetSpec, ...]:
    """Every offered bet in report order: Banker, Player, Tie, then the side bets."""
    specs = {**_main_bets(config), **_pair_bets(config), **_coup_side_bets(config)}
    offered = ("banker", "player", "tie", *(b for b in SIDE_BETS if b in config.bets.side_bets))
    return tuple(specs[name] for name in offered)


def _main_bets(config: BaccaratConfig) -> dict[str, BetSpec]:
    rules, p = config.rules, config.payouts
    return {
        "banker": BetSpec(
            "banker", "Banker", _banker_text(config), r.banker_events(rules, p),
            lambda c: r.settle_banker(c, rules),
        ),
        "player": BetSpec(
            "player", "Player", f"Pays {_to(p.player)} on a Player win; a tie pushes.",
            r.player_events(p), r.settle_player,
        ),
        "tie": BetSpec(
            "tie", "Tie", f"Pays {_to(p.tie)} when the totals are equal.", r.tie_events(p),
            r.settle_tie,
        ),
    }  # fmt: skip


def _pair_bets(config: BaccaratConfig) -> dict[str, BetSpec]:
    p = config.payouts
    return {
        "player-pair": BetSpec(
            "player-pair", "Player Pair",
            f"Pays {_to(p.pair)} when the Player's first two cards are of one rank.",
            r.pair_events(p), None,
        ),
        "banker-pair": BetSpec(
            "banker-pair", "Banker Pair",
            f"Pays {_to(p.pair)} when the Banker's first two cards are of one rank.",
            r.pair_events(p), None,
        ),
        "either-pair": BetSpec(
            "either-pair", "Either Pair",
            f"Pays {_to(p.either_pair)} when either hand's first two cards are of one rank.",
            r.either_pair_events(p), None,
        ),
        "perfect-pair": BetSpec(
            "perfect-pair", "Perfect Pair", _perfect_text(config), r.perfect_pair_events(p), None
        ),
    }  # fmt: skip


def _coup_side_bets(config: BaccaratConfig) -> dict[str, BetSpec]:
    p = config.payouts
    drawing = DrawingRules.of(config.tableau)
    return {
        "dragon-7": BetSpec(
            "dragon-7", "Dragon 7",
            f"Pays {_to(p.dragon_7)} when the Banker wins with a three-card 7.",
            r.dragon_7_events(p), r.settle_dragon_7,
        ),
        "panda-8": BetSpec(
            "panda-8", "Panda 8",
            f"Pays {_to(p.panda_8)} when the Player wins with a three-card 8.",
            r.panda_8_events(p), r.settle_panda_8,
        ),
        "dragon-bonus-player": BetSpec(
            "dragon-bonus-player", "Dragon Bonus, Player", _bonus_text("Player", p),
            r.dragon_bonus_events("player", p),
            lambda c: r.settle_dragon_bonus("player", c, drawing, p),
        ),
        "dragon-bonus-banker": BetSpec(
            "dragon-bonus-banker", "Dragon Bonus, Banker", _bonus_text("Banker", p),
            r.dragon_bonus_events("banker", p),
            lambda c: r.settle_dragon_bonus("banker", c, drawing, p),
        ),
        "super-6": BetSpec(
            "super-6", "Super 6",
            f"Pays {_to(p.super_6_two_cards)} when the Banker wins with a two-card 6, "
            f"{_to(p.super_6_three_cards)} with a three-card 6.",
            r.super_6_events(p), r.settle_super_6,
        ),
        "big": BetSpec(
            "big", "Big", f"Pays {_to(p.big)} when five or six cards are dealt.",
            r.big_events(p), r.settle_big,
        ),
        "small": BetSpec(
            "small", "Small", f"Pays {_to(p.small)} when only four cards are dealt.",
            r.small_events(p), r.settle_small,
        ),
    }  # fmt: skip


def _to(value: Fraction) -> str:
    return payout_ratio(value).removeprefix("wins ")


def _percent(value: Fraction) -> str:
    """``5%``, ``2.5%``: a share as people write it (exact, trailing zeros dropped)."""
    return decimal(value * 100, 6).rstrip("0").rstrip(".") + "%"


def _banker_text(config: BaccaratConfig) -> str:
    p = config.payouts
    reading = config.rules.banker_pays
    if reading == "commission":
        return (
            f"Pays {_to(p.banker)} less {_percent(p.commission)} commission on a Banker win "
            f"(net {_to(p.banker * (1 - p.commission))}); a tie pushes."
        )
    if reading == "no-commission":
        return (
            f"No commission: pays {_to(p.banker)} on a Banker win, {_to(p.banker_six)} on a "
            "Banker win with 6; a tie pushes."
        )
    return (
        f"EZ Baccarat: pays {_to(p.banker)} on a Banker win, no commission; a Banker win with "
        "a three-card 7 pushes; a tie pushes."
    )


def _perfect_text(config: BaccaratConfig) -> str:
    p = config.payouts
    what = (
        "two identical cards (same rank and suit)"
        if config.rules.perfect_pair == "identical"
        else "two cards of the same rank and colour"
    )
    return (
        f"Pays {_to(p.perfect_pair)} when the Player's or the Banker's first two cards are {what}, "
        f"{_to(p.perfect_pair_both)} when both are."
    )


def _bonus_text(side: str, p: BaccaratPayouts) -> str:
    margins = ", ".join(f"by {m} {_to(p.dragon_bonus[str(m)])}" for m in r.dragon_bonus_margins(p))
    return (
        f"On the {side}: a natural win pays {_to(p.dragon_bonus['natural'])}, a natural tie "
        f"pushes; a win without a natural pays by the margin ({margins}); anything else loses."
    )


@cached(maxsize=32)
def event_nets(config: BaccaratConfig) -> dict[str, dict[str, Fraction]]:
    """Net payout per unit staked of every event of every offered bet."""
    return {spec.name: {e.key: e.net for e in spec.events} for spec in bet_specs(config)}


_MARGINS = {"natural", *(str(m) for m in range(1, 10))}


def check_paytable(config: BaccaratConfig) -> None:
    """Refuse a contradictory paytable: a broken tableau, unknown side bets, a bad bonus table."""
    DrawingRules.of(config.tableau)
    check_side_bets(config.bets.side_bets, SIDE_BETS)
    keys = set(config.payouts.dragon_bonus)
    unknown = sorted(keys - _MARGINS)
    if unknown:
        raise OddsError(f"payouts.dragon_bonus: {unknown[0]!r} is not 'natural' or a margin 1-9")
    if "natural" not in keys:
        raise OddsError("payouts.dragon_bonus: the 'natural' entry (a natural win) is missing")
