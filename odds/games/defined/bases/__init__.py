"""Built-in definitions a definition may extend (``base = "baccarat"``): data files here."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from odds.core.caching import cached

_FOLDER = Path(__file__).resolve().parent


def base_names() -> list[str]:
    """The bases, by name (the files' stems)."""
    return sorted(path.stem for path in _FOLDER.glob("*.toml"))


@cached
def _read(name: str) -> dict[str, Any]:
    return tomllib.loads((_FOLDER / f"{name}.toml").read_text(encoding="utf-8"))


def base_definition(name: str) -> dict[str, Any] | None:
    """The base definition ``name`` as TOML data, or ``None`` when there is none."""
    if name not in base_names():
        return None
    return _read(name)
