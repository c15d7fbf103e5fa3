"""What users do with the games: verify, solve, sweep, compare, audit, shoe studies.

Each tool works on a loaded :class:`odds.games.paytable.Paytable` (any game) and
returns plain data the CLI formats: :mod:`odds.tools.verify`,
:mod:`odds.tools.solve`, :mod:`odds.tools.sweep`, :mod:`odds.tools.compare`,
:mod:`odds.tools.shift`, :mod:`odds.tools.audit` (dealt rounds against the odds),
:mod:`odds.tools.shoe` (what each bet is worth as the shoe is dealt),
:mod:`odds.tools.catalogue` (``odds games``), :mod:`odds.tools.benchmark` and
:mod:`odds.tools.regenerate` (``odds reports``).
"""
