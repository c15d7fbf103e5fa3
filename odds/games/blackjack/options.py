"""What a blackjack paytable can say: the shoe, and the house rules as one frozen dataclass.

The house rules are one frozen, documented dataclass (hhoppe's style), with the
small predicates the rules ask of them (may this total double, how many hands
may this pair make).

The rule book's fragment fixes: draw while under 21, dealer draws to 16 and
stands on 17, one split per round, split aces one card each, A+10 after a split
is 21 (not blackjack), a win pays 1:1 (docs/rules/blackjack.md §Rules the rule
book fixes). Everything else is an option; the defaults are the common
live-casino ones (docs/rules/blackjack.md §Readings, §Options).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.caching import hash_once
from odds.core.options import option, section
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.dealing import PenetrationDealing

BLACKJACK_PAYS = {"3:2": Fraction(3, 2), "6:5": Fraction(6, 5), "1:1": Fraction(1)}

#: Two-card totals that may be doubled, per ``double`` reading.
DOUBLE_TOTALS = {
    "any-two": frozenset(range(4, 22)),
    "9-11": frozenset({9, 10, 11}),
    "10-11": frozenset({10, 11}),
    "none": frozenset(),
}


@dataclass(frozen=True)
class BlackjackRules:
    """How the round is played (docs/rules/blackjack.md §Options: live-casino defaults)."""

    dealer_hits_soft_17: bool = option(
        False, "The dealer hits a soft 17 (H17); off = stands on every 17 (S17, default)."
    )
    blackjack_pays: str = option(
        "3:2",
        "A player blackjack (ace and ten-value as the first two cards) pays:",
        choices={
            "3:2": "3 to 2 (default).",
            "6:5": "6 to 5.",
            "1:1": "even money.",
        },
    )
    double: str = option(
        "any-two",
        "Doubling down (one more card for a second stake) is allowed on:",
        choices={
            "any-two": "any first two cards (default).",
            "9-11": "two-card totals 9, 10 and 11 (soft hands count high: A-8 is 19).",
            "10-11": "two-card totals 10 and 11 (soft hands count high).",
            "none": "never.",
        },
    )
    double_after_split: bool = option(
        False, "A split hand may be doubled on its first two cards (DAS), same totals as above."
    )
    split_hands: int = option(
        2,
        "Most hands a pair may be split into: 2 = one split per round (the rule book); "
        "3 or 4 = resplitting a pair card dealt to a split hand.",
        minimum=2,
        maximum=4,
    )
    resplit_aces: bool = option(
        False, "Aces may be resplit as well (only with split_hands above 2)."
    )
    split_strategy: str = option(
        "CDP1",
        "Split hands are played by (docs/rules/blackjack.md §Splitting conventions):",
        choices={
            "CDP1": "the best play for the first split, on every split hand (default).",
            "CDZ-": "every split hand by the pre-split strategy for the same cards (the "
            "other pair card not taken into account).",
            "CDP": "re-optimised for the number of further pair cards the round's other hands "
            "hold (Farmer's CDP; not a strategy a player can follow, a benchmark).",
            "CDPN": "re-optimised for the number of splits made so far in the round "
            "(1, 2 or 3: what the player has seen when the hand is played).",
        },
    )
    split_aces_one_card: bool = option(
        True, "Each split ace receives exactly one card (the rule book); off = split aces play on."
    )
    surrender: bool = option(
        False,
        "Late surrender of the first two cards for half the stake; a dealer blackjack "
        "still takes the whole stake.",
    )
    hole_card: str = option(
        "none",
        "The dealer's second card:",
        choices={
            "none": "European no hole card (default): dealt after the players act; a dealer "
            "blackjack takes every stake, doubles and splits included.",
            "peek": "US hole card: the dealer checks for blackjack first, so players act only "
            "when the dealer has none and lose just the original stake to a blackjack.",
            "obo": "European no hole card, original bets only (OBO): dealt after the players "
            "act, but a dealer blackjack takes only the original stake (doubles and splits "
            "are returned).",
        },
    )

    @property
    def blackjack_payout(self) -> Fraction:
        return BLACKJACK_PAYS[self.blackjack_pays]

    @property
    def peek(self) -> bool:
        """A dealer blackjack costs only the original stake: the hole-card game's values.

        True under a peek and under no hole card with original bets only (OBO): with
        OBO the player acts before the blackjack is known, but every action then loses
        exactly the original stake (a natural pushes), as under a peek where the player
        never acts. So every value, decision and outcome table is the peek game's; only
        the order of the cards differs (:attr:`dealer_checks_first`).
        """
        return self.hole_card in ("peek", "obo")

    @property
    def dealer_checks_first(self) -> bool:
        """The hole card is dealt and checked before the players act (US peek): a dealer
        blackjack ends the round at once. Under no hole card (either variant) the players
        act first and draw their cards from the shoe before the dealer's second card."""
        return self.hole_card == "peek"

    def may_double(self, total: int, after_split: bool = False) -> bool:
        """Whether a two-card hand of this (best) total may be doubled."""
        if after_split and not self.double_after_split:
            return False
        return total in DOUBLE_TOTALS[self.double]

    def split_limit(self, rank: int) -> int:
        """Most hands for a pair of rank index ``rank`` (0 = aces)."""
        if rank == 0 and not self.resplit_aces:
            return 2
        return self.split_hands


#: Fewest cards a shoe (or a shoe state) must hold so that one round can never run out.
MIN_CARDS = 40


@dataclass(frozen=True)
class BlackjackShoe(CardShoeOptions):
    """Eight decks by default (the live-casino default, docs/rules/blackjack.md §Readings)."""

    decks: int = decks_option(8)


@hash_once  # caches key by the config: hashed once per object
@dataclass(frozen=True)
class BlackjackConfig:
    """A blackjack paytable."""

    shoe: BlackjackShoe = section(BlackjackShoe, "The shoe.")
    # Named [house], not [rules]: these are table variants, not readings of an
    # ambiguous text, so `odds verify` (which tries every combination of the
    # [rules] readings) does not run 1,536 blackjack analyses.
    house: BlackjackRules = section(BlackjackRules, "House rules: how the round is played.")
    dealing: PenetrationDealing = section(
        PenetrationDealing, "How the shoe is dealt (shoe states only)."
    )
