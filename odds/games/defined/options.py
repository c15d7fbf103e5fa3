"""The paytable of a defined game: the shoe, the payouts its bets name, and how a shoe is dealt.

One schema for every defined game, so paytables of defined games are read,
overridden (``--set payouts.two_cards=20``), described and solved like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.options import option, section
from odds.games.cardshoe import CardShoeOptions, decks_option
from odds.games.dealing import CutCardDealing


@dataclass(frozen=True)
class DefinedShoe(CardShoeOptions):
    """The shoe; its default number of decks is the definition's ``shoe.decks``."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class DefinedDealing(CutCardDealing):
    """How a shoe is dealt (``odds shoe``/``eor``/``exposure`` only; off-the-top odds ignore it).

    The shared cut-card options (14 cards behind the cut card, the turned card's
    burn, no burn per round), or one round per shuffle (a one-deck game dealt
    from a freshly shuffled deck every round: the exposure is nil).
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
    reshuffle_every_round: bool = option(
        False,
        "The cards are reshuffled after every round (one-deck games dealt from a fresh deck: "
        "a watching player learns nothing, the exposure is nil).",
    )


@dataclass(frozen=True)
class DefinedConfig:
    """A defined game's paytable: the shoe, the payouts, dealing, and the definition's digest."""

    shoe: DefinedShoe = section(DefinedShoe, "The shoe.")
    payouts: dict[str, Fraction] = option(
        {}, 'Payouts the definition\'s outcomes name (pays = "name"), to 1.', minimum=0
    )
    dealing: DefinedDealing = section(DefinedDealing, "Dealing a shoe (shoe-state studies).")
    definition_sha256: str = option(
        "", "SHA-256 of the game definition (its canonical JSON): the rules counted."
    )
