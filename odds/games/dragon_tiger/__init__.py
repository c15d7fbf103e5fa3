"""Dragon Tiger: one card each to Dragon and Tiger from an 8-deck shoe; the higher rank wins.

The rules, in the project's words: docs/rules/dragon-tiger.md. The package:
:mod:`~odds.games.dragon_tiger.options` (the paytable schema),
:mod:`~odds.games.dragon_tiger.rules` (ranking, bets' events and settlement),
:mod:`~odds.games.dragon_tiger.counting` (the engine's counts → outcome tables),
:mod:`~odds.games.dragon_tiger.report_tables` (report tables),
:mod:`~odds.games.dragon_tiger.bench` (engine against brute force),
:mod:`~odds.games.dragon_tiger.state_values` (per-state EV of a partly dealt shoe),
:mod:`~odds.games.dragon_tiger.game` (the :class:`~odds.games.base.Game` that ties them).
"""

from odds.games.dragon_tiger.game import DragonTiger

GAME = DragonTiger()
