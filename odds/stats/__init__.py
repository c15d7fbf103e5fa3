"""Statistics: every figure of a bet from its weighted outcome table, and the tests.

:mod:`odds.stats.bets` derives a bet's statistics from one outcome table;
:mod:`odds.stats.analysis` is what a game's analysis hands to the outputs;
:mod:`odds.stats.chisquare` and :mod:`odds.stats.significance` are the exact and
large-sample tests the audit uses; :mod:`odds.stats.intervals` the bootstrap
intervals of simulated studies. Knows no game.
"""
