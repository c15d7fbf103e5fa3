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

from odds.core.overrides import Override, keyword_overrides
from odds.games import games as _games
from odds.games.base import Game
from odds.games.paytable import Paytable
from odds.games.paytable import load as _load
from odds.stats.analysis import Analysis


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
    return _load(game_or_path, keyword_overrides(decks, overrides, sections))


def all_games() -> dict[str, Game[Any]]:
    """Every game, by name."""
    return dict(_games())


def report_data(analysis: Analysis) -> dict[str, Any]:
    """The analysis as plain data: exactly what ``odds report --format json`` prints.

    Exact numbers are fraction strings (``"-12/311"``), each with its decimal beside it.
    """
    from odds.output.data import to_json_data

    return to_json_data(analysis)


def report_markdown(analysis: Analysis) -> str:
    """The analysis as the Markdown report ``odds report`` prints (in a notebook,
    ``IPython.display.Markdown(odds.api.report_markdown(analysis))`` shows it)."""
    from odds.output.markdown_report import to_markdown

    return to_markdown(analysis)
