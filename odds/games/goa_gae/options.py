"""What a Goa Gae paytable can say: the shoe, the rule readings and the payouts.

Each option is documented where it is declared (see :mod:`odds.core.options`); the
readings are the rule book's alternatives (docs/rules/goa-gae.md), each
defaulting to the rule text.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.caching import hash_once
from odds.core.frozen import FrozenMap
from odds.core.options import option, section
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.dealing import RoundDealing


@dataclass(frozen=True)
class GoaGaeShoe(CardShoeOptions):
    """One deck by default."""

    decks: int = decks_option(1)


@dataclass(frozen=True)
class GoaGaeRules:
    """The readings the rule book leaves open (defaults: the rule text)."""

    straight_above_jqk: bool = option(
        False,
        "Rank Straight above JQK (several Thai sources); no = JQK above Straight (default).",
    )
    kqj_mixed: str = option(
        "straight",
        "K-Q-J of mixed suits:",
        choices={
            "straight": "a Straight, second only to Q-K-A (default).",
            "jqk": "the JQK hand (its top card the K), not a Straight.",
        },
    )
    single_card_order: str = option(
        "ace-high",
        "Single-card order for the top-card tie-breaks:",
        choices={
            "ace-high": "A > K > Q > J > 10 > … > 2 (default).",
            "king-high": "K > Q > J > 10 > … > 2 > A (ace low).",
        },
    )
    straight_flush_above_triple: bool = option(
        False, "A Straight flush outranks a Triple; no = Triple highest (default)."
    )


@dataclass(frozen=True)
class GoaGaePayouts:
    """The Player bet: stake 1 against the dealer."""

    win: Fraction = option(Fraction(1), "A winning position is paid this to 1.", minimum=0)
    bonus: FrozenMap[str, Fraction] = option(
        {},
        "A win with a category listed here pays its multiple to 1 instead "
        "(categories: flush, straight, jqk, straight-flush, triple).",
        minimum=0,
    )
    dealer_bonus_costs_player: bool = option(
        False,
        "A loss to a dealer holding a bonus category costs that category's multiple "
        "(no = every loss costs 1).",
    )
    withholding: Fraction = option(
        Fraction(0),
        "Debited on top of the stake, returned unless lost (a loss may cost up to 1 + this).",
        minimum=0,
    )


@hash_once  # caches key by the config: hashed once per object
@dataclass(frozen=True)
class GoaGaeConfig:
    """A Goa Gae paytable."""

    shoe: GoaGaeShoe = section(GoaGaeShoe, "The shoe.")
    rules: GoaGaeRules = section(GoaGaeRules, "Rule readings.")
    payouts: GoaGaePayouts = section(GoaGaePayouts, "Payouts.")
    dealing: RoundDealing = section(RoundDealing, "How the rounds are dealt (shoe states only).")
