"""What a Pok Deng paytable can say: the shoe, the rule readings and the payouts.

Each option is documented where it is declared (see :mod:`odds.core.options`); the
readings are the rule book's ambiguous sentences (docs/rules/pok-deng.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.caching import hash_once
from odds.core.options import option, section
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.dealing import CutCardDealing


@dataclass(frozen=True)
class PokDengShoe(CardShoeOptions):
    """Eight decks by default."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class PokDengRules:
    """The readings of the rule book's ambiguous sentences (docs/rules/pok-deng.md §Readings)."""

    banker_zero_or_six: str = option(
        "ordinary",
        "When 'the Banker has 0 or 6 points' (a special-pattern win is then paid as an ordinary "
        "win):",
        choices={
            "ordinary": "the Banker's hand is an ordinary 0- or 6-point hand; "
            "a 7.1–7.5 combination is not '0 points' (default).",
            "raw-total": "the Banker's raw card total is 0 or 6, 7.1–7.5 combinations included.",
        },
    )
    eight_nine_override: bool = option(
        True,
        "A player with 8 or 9 points and a flush or a pair is paid as a special-pattern win "
        "even against a Banker 0 or 6 (on = the rule text, default; off = rule-book example "
        "9's arithmetic).",
    )


@dataclass(frozen=True)
class PokDengPayouts:
    """Payouts per unit staked."""

    player_win: Fraction = option(
        Fraction(1), "Player bet: an ordinary win pays this to 1.", minimum=0
    )
    player_win_special: Fraction = option(
        Fraction(2), "Player bet: a win with a special pattern pays this to 1.", minimum=0
    )
    player_lose: Fraction = option(
        Fraction(1), "Player bet: an ordinary loss costs this per unit staked.", minimum=0
    )
    player_lose_special: Fraction = option(
        Fraction(2),
        "Player bet: a loss to a Banker special pattern costs this per unit staked.",
        minimum=0,
    )
    player_withholding: Fraction = option(
        Fraction(1),
        "Player bet: debited on top of the stake, returned unless lost.",
        minimum=0,
    )
    pair: Fraction = option(Fraction(11), "Player Pair bet: a pair pays this to 1.", minimum=0)


@hash_once  # caches key by the config: hashed once per object
@dataclass(frozen=True)
class PokDengConfig:
    """A Pok Deng paytable."""

    shoe: PokDengShoe = section(PokDengShoe, "The shoe.")
    rules: PokDengRules = section(PokDengRules, "Rule readings.")
    payouts: PokDengPayouts = section(PokDengPayouts, "Payouts.")
    dealing: CutCardDealing = section(CutCardDealing, "How the shoe is dealt (shoe states only).")
