"""Goa Gae (Kao Gae, "9K"): three cards each, one position against the dealer.

The rules, in the project's words: docs/rules/goa-gae.md. The package:
:mod:`~odds.games.goa_gae.options` (the paytable schema),
:mod:`~odds.games.goa_gae.rules` (the six categories as data, the ranking, settlement),
:mod:`~odds.games.goa_gae.counting` (the engine's exact showdown → the Player bet),
:mod:`~odds.games.goa_gae.report_tables` (report tables),
:mod:`~odds.games.goa_gae.strength` (``odds strength``: one hand against one to five hands),
:mod:`~odds.games.goa_gae.bench` (engine against brute force),
:mod:`~odds.games.goa_gae.game` (the :class:`~odds.games.base.Game` that ties them).
"""

from odds.games.goa_gae.game import GoaGae

GAME = GoaGae()
