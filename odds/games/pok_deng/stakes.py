"""What one position stakes on each Pok Deng bet when both are played together.

``odds report pok-deng --stakes player=1,player-pair=0.2`` and the Python API
(:func:`odds.games.pok_deng.positions.whole_table`) both take a :class:`Stakes`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from odds.core.errors import OddsError
from odds.core.numbers import parse_rational, short_number

PLAYER, PAIR = "player", "player-pair"
#: The bets ``--stakes`` names, as the reports and ``odds settle`` name them.
BETS = (PLAYER, PAIR)


@dataclass(frozen=True)
class Stakes:
    """What one position stakes on the Player bet and on the Player Pair bet.

    The paytable's stakes are one unit on each bet (the Player bet also
    withholds ``payouts.player_withholding`` per unit). ``Stakes.parse``
    reads the command line's ``player=1,player-pair=0.2``.
    """

    player: Fraction = Fraction(1)
    pair: Fraction = Fraction(1)

    def __post_init__(self) -> None:
        for name, value in ((PLAYER, self.player), (PAIR, self.pair)):
            if value < 0:
                raise OddsError(f"--stakes: the {name} stake must not be negative, got {value}")
        if self.player == 0 and self.pair == 0:
            raise OddsError("--stakes: at least one stake must be positive")

    @classmethod
    def parse(cls, text: str) -> Stakes:
        """``player=1,player-pair=0.2`` (a bet left out stakes 0).

        >>> Stakes.parse("player=1, player-pair=0.2")
        Stakes(player=Fraction(1, 1), pair=Fraction(1, 5))
        """
        found: dict[str, Fraction] = {}
        for part in text.split(","):
            name, sep, value = part.partition("=")
            name = name.strip()
            if not sep or not name or not value.strip():
                raise OddsError(
                    f"--stakes: expected bet=amount pairs such as 'player=1,player-pair=0.2', "
                    f"got {text!r}"
                )
            if name not in BETS:
                raise OddsError(f"--stakes: unknown bet {name!r} (bets: {', '.join(BETS)})")
            if name in found:
                raise OddsError(f"--stakes: {name} is given twice")
            found[name] = parse_rational(value.strip(), f"--stakes {name}", percent=False)
        return cls(found.get(PLAYER, Fraction(0)), found.get(PAIR, Fraction(0)))

    @property
    def text(self) -> str:
        """``player 1, player-pair 0.2``."""
        return f"{PLAYER} {short_number(self.player)}, {PAIR} {short_number(self.pair)}"

    @property
    def staked(self) -> Fraction:
        """Total stake per position."""
        return self.player + self.pair

    def per_position(self) -> dict[str, Fraction]:
        """``{bet: stake}`` for :meth:`odds.stats.bets.PositionMoments.selection`."""
        return {PLAYER: self.player, PAIR: self.pair}
