"""Pok Deng (live dealer, 8 decks): two cards each, every position against the Banker.

The rules, in the project's words: docs/rules/pok-deng.md. The package:
:mod:`~odds.games.pok_deng.options` (the paytable schema),
:mod:`~odds.games.pok_deng.rules` (hand values and settlement),
:mod:`~odds.games.pok_deng.counting` (the engine's counts → outcome tables),
:mod:`~odds.games.pok_deng.report_tables` (report tables),
:mod:`~odds.games.pok_deng.bench` (engine against brute force),
:mod:`~odds.games.pok_deng.game` (the :class:`~odds.games.base.Game` that ties them).
"""

from odds.games.pok_deng.game import PokDeng

GAME = PokDeng()
