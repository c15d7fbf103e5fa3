"""The vocabulary every layer speaks: cards, tiles, shoes, exact numbers, options, tables.

Nothing here counts or knows a game. A shoe is a count per card (or tile) type
(:mod:`odds.core.shoe`); options are declared once as documented frozen
dataclasses (:mod:`odds.core.options`) and changed by typed overrides
(:mod:`odds.core.overrides`); a settled round (:mod:`odds.core.settlement`) and
the columnar table (:mod:`odds.core.table`) are the data every output renders.
"""
