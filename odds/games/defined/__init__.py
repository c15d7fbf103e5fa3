"""Games and bets as data: a definition (TOML) compiled to a :class:`~odds.games.base.Game`.

The package: :mod:`~odds.games.defined.schema` (the definition format, read and
checked with one-line errors), :mod:`~odds.games.defined.patterns` (the hand
vocabulary), :mod:`~odds.games.defined.rounds` (a round as the bets see it, and
conditions), :mod:`~odds.games.defined.counting` (the engine's counts),
:mod:`~odds.games.defined.game` (the ``Game``), :mod:`~odds.games.defined.registry`
(definitions in ``tables/``), :mod:`~odds.games.defined.bases` (built-in bases such
as baccarat's deal). The format: docs/reference/definitions.md.
"""
