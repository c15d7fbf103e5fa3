"""The audit walk-through is whole: an honest log made, audited, doctored, flagged, rejected.

The documentation shows `odds simulate` making a log, `odds audit` passing it, `doctor.py` (a
Python block on the same page) doctoring it, the audit flagging that, and a 1-deck audit
rejecting rows. `tests/docs/test_readme.py` runs every ``$`` command of every page in order, in a
fresh folder per page, and requires each line shown and each exit code named; this test makes
sure the walk-through keeps all of its steps, on whichever page it lives.
"""

from __future__ import annotations

from tests.docs.doc_pages import pages, section

SECTION = "Audit dealt rounds"


def _walk_through() -> str:
    found = [text for page in pages() if (text := section(page, SECTION))]
    assert len(found) == 1, f"one section titled {SECTION!r} expected, found {len(found)}"
    return found[0]


def test_the_walk_through_has_its_steps():
    text = _walk_through()
    commands = [line[2:] for line in text.splitlines() if line.startswith("$ ")]
    assert any(c.startswith("odds simulate ") for c in commands)
    assert any("python doctor.py" in c for c in commands)
    assert sum("odds audit" in c for c in commands) == 3
    assert "```python\n# doctor.py" in text
    assert sum("# exit 1" in c for c in commands) == 2
