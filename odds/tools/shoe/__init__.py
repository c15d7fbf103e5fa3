"""Shoe states: what every bet is worth as a shoe (or a tile set) is dealt.

The off-the-top analysis answers "what is a bet worth from a full shoe". Live
games deal many rounds from one shuffle, and a player who watches the table
knows which cards are gone. This package answers the game-protection
questions for every game that declares a
:class:`odds.games.features.ShoeStateFeature`:

* :mod:`~odds.games.shoe_state` — the two hooks a game implements: a
  :class:`~odds.games.shoe_state.StateEvaluator` (exact EV of every bet for any
  composition of unseen cards) and a dealing procedure
  (:mod:`~odds.games.dealing`, the paytable's ``[dealing]`` section).
* :mod:`~odds.tools.shoe.seen` — reading the cards a player has seen.
* :mod:`~odds.tools.shoe.eor` — effects of removal and the balanced count
  derived from them.
* :mod:`~odds.tools.shoe.exact` — the exact exposure where every reachable
  composition can be enumerated (tile sets).
* :mod:`~odds.tools.shoe.simulate` — seeded whole-shoe simulations where it
  cannot, on local processes or a Dask cluster, identical for any number of
  workers.
* :mod:`~odds.tools.shoe.report_tables` — the report section and command outputs.
* :mod:`~odds.tools.shoe.questions` — the questions as Python calls (the CLI and the
  reports format them); :mod:`~odds.tools.shoe.bench` — ``odds bench`` cases.

Nothing here knows a game's rules; numpy (and Dask) are imported only where
they are used, so ``odds report`` stays light until it builds the section.
"""
