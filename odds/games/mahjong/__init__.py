"""Mahjong 2-8 tiles ("Er Ba Gang"): two tiles each, every position against the banker.

The rules, in the project's words: docs/rules/mahjong-28.md. The package:
:mod:`~odds.games.mahjong.options` (the paytable schema: tile set, readings, payouts),
:mod:`~odds.games.mahjong.rules` (hand order, showdown and the bets' events),
:mod:`~odds.games.mahjong.counting` (the engine's counts → outcome tables),
:mod:`~odds.games.mahjong.positions` (several positions sharing one banker),
:mod:`~odds.games.mahjong.report_tables` (report tables),
:mod:`~odds.games.mahjong.bench` (engine against brute force),
:mod:`~odds.games.mahjong.game` (the :class:`~odds.games.base.Game` that ties them).
"""

from odds.games.mahjong.game import Mahjong28

GAME = Mahjong28()
