"""Blackjack (the rule book's drawing game), analysed exactly.

Blackjack is a drawing game: hands grow card by card, so the analysis is a
recursion over shoe *compositions* instead of a showdown of fixed hands. Suits
never matter, so the shoe is reduced to ten rank types (A, 2–9, ten-value).
"""

from odds.games.blackjack.game import Blackjack

GAME = Blackjack()
