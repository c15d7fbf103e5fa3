"""odds: exact combinatorial odds for Asian live-casino games.

Integers count ways, :class:`fractions.Fraction` carries probabilities, floats
appear only when printing. The Python API (see :mod:`odds.api`):

* :func:`odds.load` — a game or paytable with options changed →
  :class:`odds.games.paytable.Paytable`
* ``paytable.analyse()`` → :class:`odds.stats.analysis.Analysis`; ``analysis.bet("player").ev``
* ``paytable.replace(payouts={...})`` — a what-if, validated again
* :func:`odds.all_games` — every game by name

Heavy modules are imported on first use, so ``import odds`` stays light.
"""

from __future__ import annotations

from typing import Any

from odds.core.version import __version__

__all__ = ["OddsError", "__version__", "all_games", "load"]


def __getattr__(name: str) -> Any:
    if name == "api":
        import odds.api

        return odds.api
    if name in ("load", "all_games"):
        from odds import api

        return getattr(api, name)
    if name == "OddsError":
        from odds.core.errors import OddsError

        return OddsError
    raise AttributeError(f"module 'odds' has no attribute {name!r}")
