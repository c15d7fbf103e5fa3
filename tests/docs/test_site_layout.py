"""The documentation site shows reports whole (issue 34, item 12).

The home page's excerpt of ``reports/pok-deng.md`` was a code block cut at the right, and
the reports' wide tables hid SD and VI until scrolled. ``mkdocs_hooks.py`` renders a
report excerpt as the report renders; ``docs/stylesheets/odds.css`` widens the page and
compacts tables (numbers never wrap).
"""

from __future__ import annotations

import importlib.util

import pytest

from tests.paths import ROOT


def _hooks():
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "mkdocs_hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_home_pages_excerpt_is_rendered_not_a_code_block():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "An excerpt of `reports/pok-deng.md`" in readme and "```text\n## Summary" in readme
    page = _hooks()._rendered_excerpts(readme)
    assert "```text\n## Summary" not in page
    assert "**Summary**\n\n| bet " in page  # a heading of the excerpt is bold, not a heading
    assert "\n## Summary" not in page  # the page's contents stay the page's


def test_an_excerpt_without_its_tables_header_stays_a_code_block():
    text = "From `reports/x.md`:\n\n```text\n| a | 1 |\n| b | 2 |\n```\n"
    assert _hooks()._rendered_excerpts(text) == text


def test_the_site_loads_the_stylesheet_that_keeps_numbers_whole():
    yaml = pytest.importorskip("yaml")  # with MkDocs, in the test extra
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    sheet = config["extra_css"][0]
    css = (ROOT / "docs" / sheet).read_text(encoding="utf-8")
    assert ".md-grid" in css and "white-space: nowrap" in css
