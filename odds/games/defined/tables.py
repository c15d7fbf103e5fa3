"""Where the paytables are: :data:`odds.games.paytable.TABLES` finds them the same way.

That module sits above the registry (it imports the game list, which lists the
defined games), so the few lines that locate the folder are repeated here.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[2]  # the odds package


def tables_folder() -> Path:
    """``odds/tables`` (a link to the checkout's ``tables/`` or the wheel's files), or the
    checkout's folder where the link did not survive a clone."""
    inside = _PACKAGE / "tables"
    checkout = _PACKAGE.parent
    if inside.is_dir() or not (checkout / "pyproject.toml").is_file():
        return inside
    return checkout / "tables"
