"""The game registry: every game package under ``odds/games/``, by its command-line name.

A game is a package here whose ``__init__`` exposes ``GAME``, an instance of
:class:`odds.games.base.Game`; it is found without a hand-kept list. A paytable in
``tables/`` that holds a ``[definition]`` is a game too (:mod:`odds.games.defined`). Games are
listed in the order of their names.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING, Any

from odds.core.caching import cached
from odds.core.errors import OddsError

if TYPE_CHECKING:  # imported where a game is checked: a script that imports one game's
    # counting (``from odds.games.blackjack import analyse_round``) need not load the base
    from odds.games.base import Game


@cache
def games() -> dict[str, Game[Any]]:
    """Every game, by name (discovered once per process)."""
    from odds.games.defined.registry import table_games

    found = [*_coded_games(), *table_games()]
    return {game.name: game for game in sorted(found, key=lambda g: g.name)}


def game_names() -> list[str]:
    """Every game's name in :func:`games`' order, without compiling the definitions (shell
    completion asks on every Tab; tests check that the two lists agree)."""
    return list(_game_names())


@cached
def _game_names() -> tuple[str, ...]:
    """Read once per run: an unknown name asks twice (is it a game? which games are there?)."""
    from odds.games.defined.tables import defined_game_names

    return tuple(sorted({*(g.name for g in _coded_games()), *defined_game_names()}))


def _coded_games() -> list[Game[Any]]:
    """The games written in Python: a package of ``odds.games`` with a ``GAME``."""
    from odds.games.base import Game

    found: list[Game[Any]] = []
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        game = getattr(module, "GAME", None)
        if isinstance(game, Game):
            found.append(game)
    return found


def game_named(name: str) -> Game[Any]:
    """The game called ``name``; a one-line error listing the games otherwise."""
    found = packaged_game(name)
    if found is None:
        raise OddsError(f"unknown game {name!r} (games: {', '.join(game_names())})")
    return found


def packaged_game(name: str) -> Game[Any] | None:
    """The game of ``odds`` called ``name`` (a package, or a definition in ``tables/``), found
    by its own package or file before every game is discovered; ``None`` if there is none."""
    found = _own_package(name)
    if found is None:
        from odds.games.defined.registry import table_game

        found = table_game(name)
    if found is None and name in game_names():  # an unknown name compiles no game
        found = games().get(name)
    return found


def _own_package(name: str) -> Game[Any] | None:
    """The game ``name`` from the package named after it (``pok-deng``: ``pok_deng``),
    importing that package only: one command about one game need not import them all
    (a tenth of a second). ``None`` when no package is so named (discovery decides)."""
    from odds.games.base import Game

    package = name.replace("-", "_")
    if not package.isidentifier() or package not in _package_names():
        return None
    game = getattr(importlib.import_module(f"{__name__}.{package}"), "GAME", None)
    return game if isinstance(game, Game) and game.name == name else None


@cache
def _package_names() -> frozenset[str]:
    return frozenset(info.name for info in pkgutil.iter_modules(__path__) if info.ispkg)


def __getattr__(name: str) -> Any:
    # ``GAMES`` stays importable for code written before discovery.
    if name == "GAMES":
        return games()
    raise AttributeError(name)
