"""Where the checkout is, for tests in any folder."""

from pathlib import Path

#: The repository's root: the folder holding ``pyproject.toml``.
ROOT = Path(__file__).resolve().parent.parent
