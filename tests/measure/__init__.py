"""Scripts that measure the figures the docs quote, run from a source checkout.

``python -m tests.measure.power``, ``wager_power``, ``csm_alarms`` and ``scale`` print the
tables of docs/commands/audit.md (power and false alarms, time and memory); ``independent_dealer``
deals their logs apart from the games. They are not features of the ``odds`` command and are
not installed with it: they may import ``odds``, and nothing in ``odds`` imports them.
"""
