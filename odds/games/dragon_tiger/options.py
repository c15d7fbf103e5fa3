"""The Dragon Tiger paytable: every rule and payout as an option (docs/rules/dragon-tiger.md)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.caching import hash_once
from odds.core.options import option, section
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.dealing import CutCardDealing

#: The side bets: the suited tie, and big/small and odd/even on each side's card.
SIDE_BETS: tuple[str, ...] = (
    "suited-tie",
    "dragon-big",
    "dragon-small",
    "dragon-odd",
    "dragon-even",
    "tiger-big",
    "tiger-small",
    "tiger-odd",
    "tiger-even",
)


@dataclass(frozen=True)
class DragonTigerShoe(CardShoeOptions):
    """Eight decks by default (1–8)."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class DragonTigerRules:
    """Readings of the rules that tables state differently (docs/rules/dragon-tiger.md)."""

    tie_on_main_bets: str = option(
        "lose-half",
        "What a Dragon or Tiger bet gets back when the cards tie:",
        choices={
            "lose-half": "the bet loses half its stake (default).",
            "lose-all": "the bet loses its whole stake.",
        },
    )


@dataclass(frozen=True)
class DragonTigerPayouts:
    """Payouts per unit staked ("to 1"). A losing bet loses its stake."""

    dragon: Fraction = option(Fraction(1), "dragon: the Dragon card ranks higher.", minimum=0)
    tiger: Fraction = option(Fraction(1), "tiger: the Tiger card ranks higher.", minimum=0)
    tie: Fraction = option(Fraction(8), "tie: the two cards have the same rank.", minimum=0)
    suited_tie: Fraction = option(
        Fraction(50), "suited-tie: the two cards have the same rank and suit.", minimum=0
    )
    big_small: Fraction = option(
        Fraction(1), "big / small on a side: its card is 8–K / A–6 (a 7 loses both).", minimum=0
    )
    odd_even: Fraction = option(
        Fraction(1),
        "odd / even on a side: its card is A 3 5 9 J K / 2 4 6 8 10 Q (a 7 loses both).",
        minimum=0,
    )


@dataclass(frozen=True)
class DragonTigerBets:
    """Which side bets the table offers. Dragon, Tiger and Tie are always offered."""

    side_bets: tuple[str, ...] = option(
        SIDE_BETS, f"The side bets offered and reported (any of: {', '.join(SIDE_BETS)})."
    )


@dataclass(frozen=True)
class DragonTigerDealing(CutCardDealing):
    """How a shoe is dealt (shoe-state studies only; off-the-top odds ignore it).

    The shared cut-card options with Dragon Tiger's defaults: 14 cards behind
    the cut card, the turned card's burn, no burn per round.
    """

    cut_card: int = option(
        14,
        "Cards behind the cut card: when it comes out, the round being dealt is the shoe's "
        "last, then the shoe is reshuffled.",
        minimum=0,
    )
    burn_per_round: int = option(
        0, "Cards burned face down at the start of every round.", minimum=0, maximum=10
    )


@hash_once  # caches key by the config: hashed once per object
@dataclass(frozen=True)
class DragonTigerConfig:
    """A Dragon Tiger paytable."""

    shoe: DragonTigerShoe = section(DragonTigerShoe, "The shoe.")
    rules: DragonTigerRules = section(DragonTigerRules, "Rule readings.")
    payouts: DragonTigerPayouts = section(DragonTigerPayouts, "Payouts.")
    bets: DragonTigerBets = section(DragonTigerBets, "Bets offered.")
    dealing: DragonTigerDealing = section(DragonTigerDealing, "Dealing a shoe.")
