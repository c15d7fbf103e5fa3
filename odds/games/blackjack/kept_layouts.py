"""Blackjack's shoe-independent layouts, kept on disk between processes under one fingerprint.

The dealer's draw sequences, the moment plans, every context's hands and the
removal set a round reaches depend on no shoe: building them costs more than
analysing a shoe does afterwards. They are kept with :func:`odds.runtime.kept.kept`
(the user's own cache folder, as data: no class or code is read; checked, and
rebuilt when damaged, stale or not the user's). The fingerprint hashes the
version, the Python version and the sources of every module of the package, so a
file made by other code is never read.

A kept object is written as the tuple of its attributes (:func:`state`) and made
again from it (:func:`restore`): the names come from the class's own list, never
from the file, and a tuple of another length is refused (the value is built).
Every table kept here serves exact sums whose totals the round checks (the
dealer's probabilities add up to 1 for every hand, :mod:`.shoes`); a failure
there discards the kept files and the round is counted again
(:func:`odds.runtime.kept.distrust`).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

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


def kept_layout(
    name: str,
    build: Callable[[], T],
    to_data: Callable[[T], Any] | None = None,
    from_data: Callable[[Any], T] | None = None,
) -> T:
    """``build()``, kept on disk as ``blackjack-<name>``: plain data as it is, an object
    through ``to_data`` and ``from_data`` (which raises on a shape it does not expect)."""
    return kept(f"blackjack-{name}", fingerprint(), build, to_data, from_data)


def state(obj: object, names: Sequence[str]) -> tuple[Any, ...]:
    """The attributes ``names`` of ``obj``, as a tuple (what is kept of it)."""
    return tuple(getattr(obj, name) for name in names)


C = TypeVar("C")


def restore(cls: type[C], names: Sequence[str], data: Any, **fresh: Any) -> C:
    """An object of ``cls`` with the attributes ``names`` from ``data`` (:func:`state`)
    and ``fresh`` ones (empty per-process caches); no ``__init__`` is run."""
    if type(data) is not tuple or len(data) != len(names):
        raise ValueError(f"not the state of a {cls.__name__}")
    made = cls.__new__(cls)
    attributes = made.__dict__
    attributes.update(zip(names, data, strict=True))
    attributes.update(fresh)
    return made


def of(kind: type, data: Any) -> Any:
    """``data`` if it is a ``kind`` (checking a kept value's shape), else a :class:`ValueError`."""
    if type(data) is not kind:
        raise ValueError(f"a {type(data).__name__} where a {kind.__name__} belongs")
    return data
