"""Files, processes and the terminal: what the tool needs from the machine.

Reading inputs exactly as named (:mod:`odds.runtime.inputs`), writing outputs
whole or not at all (:mod:`odds.runtime.atomic`), worker processes with bounds
(:mod:`odds.runtime.pool`), progress on a terminal and nowhere else
(:mod:`odds.runtime.progress`), safe output encodings (:mod:`odds.runtime.console`).
Knows no game and no statistic.
"""
