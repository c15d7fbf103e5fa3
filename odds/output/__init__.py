"""Every format from the same data: Markdown, JSON, CSV, Excel, PDF and SVG charts.

Renderers read an :class:`odds.stats.analysis.Analysis`, an
:class:`odds.core.table.Table` or a chart model (:mod:`odds.output.charts`) and
never compute a figure. Deterministic: the same analysis gives byte-identical
text (no dates, no floats formatted by ``repr``, no dict-order surprises).
Knows no game: a game's own charts and tables arrive as data.
"""
