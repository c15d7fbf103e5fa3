"""Shoe states: what every bet is worth as a shoe (or a tile set) is dealt.

The off-the-top analysis answers "what is a bet worth from a full shoe". Live
games deal many rounds from one shuffle, and a player who watches the table
knows which cards are gone. This package answers the game-protection
questions for every game that declares a
:class:`odds.games.features.ShoeStateFeature`:

* :mod:`~odds.shoe_state.model` — the two hooks a game implements: a
  :class:`~odds.shoe_state.model.StateEvaluator` (exact EV of every bet for any
  composition of unseen cards) and a dealing procedure
  (:mod:`~odds.shoe_state.dealing`, the paytable's ``[dealing]`` section).
* :mod:`~odds.shoe_state.seen` — reading the cards a player has seen.
* :mod:`~odds.shoe_state.eor` — effects of removal and the balanced count
  derived from them.
* :mod:`~odds.shoe_state.exact` — the exact exposure where every reachable
  composition can be enumerated (tile sets).
* :mod:`~odds.shoe_state.simulate` — seeded whole-shoe simulations where it
  cannot, on local processes or a Dask cluster, identical for any number of
  workers.
* :mod:`~odds.shoe_state.tables` — the report section and command outputs.
* :mod:`~odds.shoe_state.api` — the questions as Python calls (the CLI and the
  reports format them); :mod:`~odds.shoe_state.bench` — ``odds bench`` cases.

Nothing here knows a game's rules; numpy (and Dask) are imported only where
they are used, so ``odds report`` stays light until it builds the section.
"""
