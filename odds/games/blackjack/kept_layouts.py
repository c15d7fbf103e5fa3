"""Blackjack's shoe-independent layouts, kept on disk between processes under one fingerprint.

The dealer's draw sequences, the moment plans, every context's hands and the
removal set a round reaches depend on no shoe: building them costs more than
analysing a shoe does afterwards. They are kept with :func:`odds.runtime.kept.kept`
(the user's cache folder; checked, and rebuilt when damaged or stale). The
fingerprint hashes the version, the Python version and the sources of every
module of the package, so a file made by other code is never read.
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


@cached
def fingerprint() -> str:
    """A hash of what the kept layouts depend on: the versions and the code of every module
    of this package (all of them, not a list to keep up to date: a layout's builder may move,
    and one rebuild per change of the package costs about a second)."""
    digest = hashlib.sha256(f"{__version__} {sys.version_info[:2]}".encode())
    sources = sorted(Path(__file__).parent.glob("*.py"))
    if not sources:  # no source beside the module (a frozen install): the version decides
        digest.update(b"no sources")
    for path in sources:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def kept_layout(name: str, build: Callable[[], T], classes: Iterable[type] = ()) -> T:
    """``build()``, kept on disk as ``blackjack-<name>`` (``classes``: what its pickle makes)."""
    return kept(f"blackjack-{name}", fingerprint(), build, classes)
