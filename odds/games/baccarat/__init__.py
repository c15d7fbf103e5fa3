"""Baccarat (punto banco): two- or three-card hands drawn by a fixed tableau, 8-deck shoe.

The rules, in the project's words: docs/rules/baccarat.md. The package:
:mod:`~odds.games.baccarat.options` (the paytable schema, the tableau as data),
:mod:`~odds.games.baccarat.rules` (card values, the tableau, the coup, settlement),
:mod:`~odds.games.baccarat.bets` (the offered bets: events, settlement, words),
:mod:`~odds.games.baccarat.counting` (the engine's counts → outcome tables),
:mod:`~odds.games.baccarat.report_tables` (report tables),
:mod:`~odds.games.baccarat.bench` (engine against brute force),
:mod:`~odds.games.baccarat.state_values` (per-state EV of a partly dealt shoe),
:mod:`~odds.games.baccarat.dealing` (dealing a whole shoe),
:mod:`~odds.games.baccarat.game` (the :class:`~odds.games.base.Game` that ties them).
"""

from odds.games.baccarat.game import Baccarat

GAME = Baccarat()
