"""Charts for reports and audits: SVG files drawn by this package, no plotting library.

Why our own SVG (see docs/guides/charts.md): the files are committed next to
the reports and ``odds reports --check`` compares them byte for byte, so the
bytes must depend on nothing but the figures and this code — not on a
plotting library's version, a font cache or a date. SVG images linked from
Markdown (``![…](charts/x.svg)``) render on GitHub, in VS Code's preview and
in any Markdown-to-HTML converter's output; Mermaid charts do not render in
the latter two.

* :mod:`odds.core.charts`: what a chart shows (exact figures, words, alt text);
* :mod:`odds.output.charts.build`: chart models from a bet, its confidence ranges,
  or an audit's counts;
* :mod:`odds.output.charts.report_charts`: a report's charts, their files and their links;
* :mod:`odds.output.charts.svg`, :mod:`odds.output.charts.bars`, :mod:`odds.output.charts.funnel`,
  :mod:`odds.output.charts.lines`: the drawing.
"""

from __future__ import annotations

from odds.core.charts import BarChart, Chart, FunnelChart, LineChart, ReportChart


def svg_text(chart: Chart, key: str) -> str:
    """The chart as an SVG document; ``key`` (a file name part) prefixes its element ids."""
    if isinstance(chart, FunnelChart):
        from odds.output.charts.funnel import funnel_svg

        return funnel_svg(chart, key)
    if isinstance(chart, LineChart):
        from odds.output.charts.lines import line_chart_svg

        return line_chart_svg(chart, key)
    from odds.output.charts.bars import bar_chart_svg

    return bar_chart_svg(chart, key)


__all__ = ["BarChart", "Chart", "FunnelChart", "LineChart", "ReportChart", "svg_text"]
