"""The baccarat paytable: every rule and payout as a documented option (docs/rules/baccarat.md).

Sections: ``[shoe]`` (the cards), ``[tableau]`` (the drawing rules as data,
so a house variant is a file, not code), ``[rules]`` (the readings: how the
Banker bet is paid, what a perfect pair is), ``[payouts]`` and ``[bets]``
(which side bets the table offers), and ``[dealing]`` (how a shoe is dealt,
for shoe-state studies; it does not change the off-the-top odds).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.caching import hash_once
from odds.core.frozen import FrozenMap
from odds.core.options import option, section
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.dealing import CutCardDealing

#: Every bet, main bets first; the side bets are those after ``tie``.
MAIN_BETS: tuple[str, ...] = ("banker", "player", "tie")
SIDE_BETS: tuple[str, ...] = (
    "player-pair",
    "banker-pair",
    "either-pair",
    "perfect-pair",
    "dragon-7",
    "panda-8",
    "dragon-bonus-player",
    "dragon-bonus-banker",
    "super-6",
    "big",
    "small",
)

_ALL_VALUES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)

#: The standard Banker rows (Banker two-card total → Player third cards on which the Banker draws).
STANDARD_BANKER_DRAWS: dict[str, tuple[int, ...]] = {
    "0": _ALL_VALUES,
    "1": _ALL_VALUES,
    "2": _ALL_VALUES,
    "3": (0, 1, 2, 3, 4, 5, 6, 7, 9),
    "4": (2, 3, 4, 5, 6, 7),
    "5": (4, 5, 6, 7),
    "6": (6, 7),
    "7": (),
}


@dataclass(frozen=True)
class BaccaratShoe(CardShoeOptions):
    """Eight decks by default (1–8)."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class Tableau:
    """The drawing rules, as data. Totals and card values are 0–9 (10, J, Q, K count 0).

    A row missing from ``banker_draws`` is an error, not a default: a house
    tableau must say what the Banker does on every total.
    """

    naturals: tuple[int, ...] = option(
        (8, 9), "Two-card totals that are naturals: either side holding one ends the deal."
    )
    player_draws: tuple[int, ...] = option(
        (0, 1, 2, 3, 4, 5), "Player two-card totals on which the Player draws a third card."
    )
    banker_draws_player_stood: tuple[int, ...] = option(
        (0, 1, 2, 3, 4, 5),
        "Banker two-card totals on which the Banker draws when the Player stood.",
    )
    banker_draws: FrozenMap[str, tuple[int, ...]] = option(
        STANDARD_BANKER_DRAWS,
        "When the Player drew: for each Banker two-card total (one row per non-natural "
        "total), the Player third-card values on which the Banker draws.",
    )


@dataclass(frozen=True)
class BaccaratRules:
    """Readings of the rules that tables state differently (docs/rules/baccarat.md)."""

    banker_pays: str = option(
        "commission",
        "How a winning Banker bet is paid:",
        choices={
            "commission": "1:1 less the commission (payouts.commission) on every win (default).",
            "no-commission": "1:1 with no commission, but a Banker win with a total of 6 "
            "pays payouts.banker_six (1:2).",
            "ez": "EZ Baccarat: 1:1 with no commission, but a Banker win with a three-card 7 "
            "pushes.",
        },
    )
    perfect_pair: str = option(
        "identical",
        "What a perfect pair is (perfect-pair bet, either hand's first two cards):",
        choices={
            "identical": "two identical cards: same rank and same suit (default).",
            "same-colour": "same rank and same colour (both red or both black).",
        },
    )


@dataclass(frozen=True)
class BaccaratPayouts:
    """Payouts per unit staked ("to 1"). A losing bet loses its stake."""

    player: Fraction = option(Fraction(1), "Player bet: a Player win pays this.", minimum=0)
    banker: Fraction = option(
        Fraction(1), "Banker bet: a Banker win pays this before any commission.", minimum=0
    )
    commission: Fraction = option(
        Fraction(1, 20),
        "Banker bet, commission reading: the share of a Banker win kept by the house.",
        minimum=0,
        maximum=1,
    )
    banker_six: Fraction = option(
        Fraction(1, 2),
        "Banker bet, no-commission reading: a Banker win with a total of 6 pays this.",
        minimum=0,
    )
    tie: Fraction = option(Fraction(8), "Tie bet: equal totals pay this.", minimum=0)
    pair: Fraction = option(
        Fraction(11),
        "player-pair / banker-pair: that hand's first two cards are of one rank.",
        minimum=0,
    )
    either_pair: Fraction = option(
        Fraction(5),
        "either-pair: the Player's or the Banker's first two cards are a pair.",
        minimum=0,
    )
    perfect_pair: Fraction = option(
        Fraction(25), "perfect-pair: one hand's first two cards are a perfect pair.", minimum=0
    )
    perfect_pair_both: Fraction = option(
        Fraction(25),
        "perfect-pair: both hands' first two cards are perfect pairs (25 = one win, as on "
        "tables that pay the same; 200 or 250 where both pay more).",
        minimum=0,
    )
    dragon_7: Fraction = option(
        Fraction(40), "dragon-7: the Banker wins with a three-card 7.", minimum=0
    )
    panda_8: Fraction = option(
        Fraction(25), "panda-8: the Player wins with a three-card 8.", minimum=0
    )
    dragon_bonus: FrozenMap[str, Fraction] = option(
        {
            "natural": Fraction(1),
            "9": Fraction(30),
            "8": Fraction(10),
            "7": Fraction(6),
            "6": Fraction(4),
            "5": Fraction(2),
            "4": Fraction(1),
        },
        "dragon-bonus-player / -banker: the chosen side wins with a natural ('natural'), or "
        "without one by the margin given ('9' … '1'); margins not listed lose. A natural tie "
        "pushes.",
        minimum=0,
    )
    super_6_two_cards: Fraction = option(
        Fraction(12), "super-6: the Banker wins with a two-card 6.", minimum=0
    )
    super_6_three_cards: Fraction = option(
        Fraction(12), "super-6: the Banker wins with a three-card 6 (20 on some tables).", minimum=0
    )
    big: Fraction = option(
        Fraction(54, 100), "big: five or six cards are dealt in the coup.", minimum=0
    )
    small: Fraction = option(Fraction(3, 2), "small: four cards are dealt in the coup.", minimum=0)


@dataclass(frozen=True)
class BaccaratBets:
    """Which bets the table offers. Banker, Player and Tie are always offered."""

    side_bets: tuple[str, ...] = option(
        SIDE_BETS, f"The side bets offered and reported (any of: {', '.join(SIDE_BETS)})."
    )


@dataclass(frozen=True)
class BaccaratDealing(CutCardDealing):
    """How a shoe is dealt at the table (shoe-state studies only; off-the-top odds ignore it).

    The shared cut-card options with baccarat's defaults (14 cards behind the
    cut card, the turned card's burn, no burn per coup), and what happens when
    the cut card comes out.
    """

    cut_card: int = option(
        14,
        "Cards behind the cut card: when it comes out, the coup being dealt is finished "
        "(and, by last_round, one more is dealt); then the shoe is reshuffled.",
        minimum=0,
    )
    burn_per_round: int = option(
        0, "Cards burned face down at the start of every coup.", minimum=0, maximum=10
    )
    last_round: str = option(
        "one-more",
        "When the cut card comes out:",
        choices={
            "one-more": "the coup in progress is finished and one more coup is dealt (default).",
            "finish": "the coup in progress is the last.",
        },
    )


@hash_once  # caches key by the config: hashed once per object
@dataclass(frozen=True)
class BaccaratConfig:
    """A baccarat (punto banco) paytable."""

    shoe: BaccaratShoe = section(BaccaratShoe, "The shoe.")
    tableau: Tableau = section(Tableau, "The drawing rules.")
    rules: BaccaratRules = section(BaccaratRules, "Rule readings.")
    payouts: BaccaratPayouts = section(BaccaratPayouts, "Payouts.")
    bets: BaccaratBets = section(BaccaratBets, "Bets offered.")
    dealing: BaccaratDealing = section(BaccaratDealing, "Dealing a shoe.")
