"""Blackjack combinatorial analysis (RULES.md §4).

Blackjack is a drawing game: hands grow card by card, so the analysis is a
recursion over shoe *compositions* instead of a showdown of fixed hands. Suits
never matter, so the shoe is reduced to ten rank types (A, 2–9, ten-value).

* :mod:`odds.blackjack.rules` — the rule options (one frozen dataclass).
* :mod:`odds.blackjack.dealer` — the dealer's draw sequences, exact dealer
  probabilities for many compositions at once, and a plain reference recursion.
* :mod:`odds.blackjack.player` — exact player expectations (stand, hit,
  double, split, surrender), optimal and chart play, net-payout distributions.
* :mod:`odds.blackjack.hands` — hand totals and the settlement of a finished round.
* :mod:`odds.blackjack.simulate` — a seeded simulation of the same strategy.
"""
