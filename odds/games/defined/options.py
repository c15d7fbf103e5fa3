"""The paytable of a defined game: the shoe, and the payouts its bets name.

One schema for every defined game, so paytables of defined games are read,
overridden (``--set payouts.two_cards=20``), described and solved like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.options import option, section
from odds.games.cardshoe import CardShoeOptions, decks_option


@dataclass(frozen=True)
class DefinedShoe(CardShoeOptions):
    """The shoe; its default number of decks is the definition's ``shoe.decks``."""

    decks: int = decks_option(8)


@dataclass(frozen=True)
class DefinedConfig:
    """A defined game's paytable: the shoe, the payouts, and the definition's digest."""

    shoe: DefinedShoe = section(DefinedShoe, "The shoe.")
    payouts: dict[str, Fraction] = option(
        {}, 'Payouts the definition\'s outcomes name (pays = "name"), to 1.', minimum=0
    )
    definition_sha256: str = option(
        "", "SHA-256 of the game definition (its canonical JSON): the rules counted."
    )
