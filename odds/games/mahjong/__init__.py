"""Mahjong 2-8 tiles ("Er Ba Gang"): two tiles each, every position against the banker."""

from odds.games.mahjong.game import Mahjong28

GAME = Mahjong28()
