"""Markdown, JSON and CSV renderings of an :class:`odds.analysis.Analysis`.

Deterministic: the same analysis gives byte-identical text (no dates, no
floats formatted by ``repr``, no dict-order surprises).

The modules, each importable on its own; every public name is re-exported
here, so ``from odds.render import to_markdown`` keeps working:

- :mod:`odds.render.markdown`: the Markdown table writer (plain rows or a
  :class:`odds.table.Table`), used by every Markdown output of the tool;
- :mod:`odds.render.bet_tables`: the summary, top-award and outcome tables
  every report shows, whatever the game;
- :mod:`odds.render.confidence`: a bet's confidence ranges, as Markdown and JSON;
- :mod:`odds.render.report`: the Markdown report assembled from the above;
- :mod:`odds.render.data`: JSON and CSV (one tidy table per file), and the list of
  a report's tables every data format shares (:func:`report_tables`);
- :mod:`odds.render.settlement`: one settled round (``odds settle``);
- :mod:`odds.render.xlsx`: the Excel PAR sheet, formulas over the ways (the ``xlsx``
  extra; not imported here), with :mod:`odds.render.xlsx_cells` and
  :mod:`odds.render.xlsx_tables`;
- :mod:`odds.render.pdf`: the PDF PAR sheet, typeset by Typst (the ``pdf`` extra; not
  imported here).
"""

from odds.render.bet_tables import outcome_table, summary_table, top_award_table
from odds.render.confidence import confidence_json, confidence_section
from odds.render.data import (
    bet_json,
    csv_files,
    report_tables,
    table_csv,
    tables_csv,
    tables_json,
    to_csv,
    to_json,
    to_json_data,
    write_csv_folder,
)
from odds.render.markdown import markdown_table, table_markdown, tables_markdown
from odds.render.report import (
    HEADER_NOTE,
    VOLATILITY_NOTE,
    ChartLinks,
    bet_table,
    rules_doc,
    rules_link,
    to_markdown,
)
from odds.render.settlement import settlement_json, settlement_text

__all__ = [
    "HEADER_NOTE",
    "VOLATILITY_NOTE",
    "ChartLinks",
    "bet_json",
    "bet_table",
    "confidence_json",
    "confidence_section",
    "csv_files",
    "markdown_table",
    "outcome_table",
    "report_tables",
    "rules_doc",
    "rules_link",
    "settlement_json",
    "settlement_text",
    "summary_table",
    "table_csv",
    "table_markdown",
    "tables_csv",
    "tables_json",
    "tables_markdown",
    "to_csv",
    "to_json",
    "to_json_data",
    "to_markdown",
    "top_award_table",
    "write_csv_folder",
]
