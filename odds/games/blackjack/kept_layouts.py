"""Blackjack's shoe-independent layouts, kept on disk between processes under one fingerprint.

The dealer's draw sequences, the moment plans, every context's hands and the
removal set a round reaches depend on no shoe: building them costs more than
analysing a shoe does afterwards. They are kept with :func:`odds.runtime.kept.kept`
(the user's cache folder; checked, and rebuilt when damaged or stale). The
fingerprint hashes the version, the Python version and the sources of every
module that builds one, so a file made by other code is never read.
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

from odds.core.caching import cached
from odds.core.version import __version__
from odds.runtime.kept import kept

T = TypeVar("T")

#: The modules (beside this one) whose code builds a kept layout.
SOURCES = ("dealer.py", "moments.py", "dealer_batches.py", "nodes.py", "rounds.py")


@cached
def fingerprint() -> str:
    """A hash of what the kept layouts depend on: versions and the building modules' code."""
    digest = hashlib.sha256(f"{__version__} {sys.version_info[:2]}".encode())
    folder = Path(__file__).parent
    for name in (*SOURCES, "kept_layouts.py"):
        try:
            digest.update((folder / name).read_bytes())
        except OSError:  # no source beside the module (a frozen install): the version decides
            digest.update(name.encode())
    return digest.hexdigest()


def kept_layout(name: str, build: Callable[[], T], classes: Iterable[type] = ()) -> T:
    """``build()``, kept on disk as ``blackjack-<name>`` (``classes``: what its pickle makes)."""
    return kept(f"blackjack-{name}", fingerprint(), build, classes)
