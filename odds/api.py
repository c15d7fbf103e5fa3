"""The Python API: what the command line does, for notebooks and scripts.

>>> import odds
>>> table = odds.load("pok-deng", decks=6, payouts={"pair": 12})
>>> analysis = table.analyse()
>>> analysis.bet("player-pair").ev
Fraction(-12, 311)
>>> table.replace(payouts={"pair": 11}).analyse().bet("player-pair").ev < 0
True

Options are given by section, as in the paytable file (``rules={…}``,
``payouts={…}``, ``shoe={…}``), or as ``"section.key=value"`` strings in
``overrides``; ``decks`` is every card game's shoe size. Everything is
validated once, exactly as a ``.toml`` file would be.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from odds.core.overrides import Override
from odds.games import games as _games
from odds.games.base import Game
from odds.games.paytable import Paytable
from odds.games.paytable import load as _load


def overrides_of(
    decks: int | None = None,
    overrides: Iterable[Override | str] = (),
    sections: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Override | str]:
    """Keyword options as typed overrides (``decks`` first, then sections, then the rest)."""
    result: list[Override | str] = []
    if decks is not None:
        result.append(Override(("decks",), decks, f"decks={decks!r}"))
    for section, values in (sections or {}).items():
        if not isinstance(values, Mapping):
            raise TypeError(f"{section}= takes a mapping of options, e.g. {section}={{...}}")
        result += Override.of(section, values)
    return result + list(overrides)


def load(
    game_or_path: str,
    *,
    decks: int | None = None,
    overrides: Iterable[Override | str] = (),
    **sections: Mapping[str, Any],
) -> Paytable:
    """A game (``"pok-deng"``), a paytable in ``tables/`` (``"mahjong-28-20"``) or a ``.toml``
    path, with options changed by section: ``load("pok-deng", rules={"eight_nine_override":
    False})``. Raises :class:`odds.core.errors.OddsError` with a one-line message for bad input.
    """
    return _load(game_or_path, overrides_of(decks, overrides, sections))


def all_games() -> dict[str, Game[Any]]:
    """Every game, by name."""
    return dict(_games())
