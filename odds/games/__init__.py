"""The game registry: every supported game by its command-line name.

A new game adds one module under ``odds/games/`` and one line here.
"""

from __future__ import annotations

from odds.errors import OddsError
from odds.games.baccarat.game import Baccarat
from odds.games.base import Game
from odds.games.blackjack.game import Blackjack
from odds.games.dragon_tiger.game import DragonTiger
from odds.games.goa_gae.game import GoaGae
from odds.games.mahjong.game import Mahjong28
from odds.games.pok_deng.game import PokDeng

GAMES: dict[str, Game] = {
    game.name: game
    for game in (PokDeng(), Mahjong28(), GoaGae(), Blackjack(), Baccarat(), DragonTiger())
}


def game_named(name: str) -> Game:
    """The game called ``name``; a one-line error listing the games otherwise."""
    try:
        return GAMES[name]
    except KeyError:
        raise OddsError(f"unknown game {name!r} (games: {', '.join(GAMES)})") from None
