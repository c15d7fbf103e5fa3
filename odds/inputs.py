"""Reading a file the user names, safely: only a regular file, and only so much of it.

A FIFO named as a paytable blocked ``open`` forever; ``/dev/zero`` was read
until memory ran out. :func:`read_regular` opens without blocking, checks what
it opened (``fstat``: no race between a check and the open) and reads at most
``limit`` bytes.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from odds.errors import OddsError

#: The largest paytable read (a real one is a few kilobytes).
PAYTABLE_BYTES = 1 << 20


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words."""
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def check_regular(path: Path, label: str) -> None:
    """A one-line error unless ``path`` is (or links to) a regular file; never blocks."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        raise OddsError(f"{label}: cannot read ({exc.strerror})") from None
    if not stat.S_ISREG(mode):
        raise OddsError(f"{label}: not a regular file ({kind_of(mode)})")


def read_regular(path: Path, label: str, limit: int, what: str = "file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; anything else one line."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise OddsError(f"{label}: cannot read ({exc.strerror})") from None
    with os.fdopen(descriptor, "rb") as handle:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            raise OddsError(f"{label}: not a regular file ({kind_of(mode)}); give a {what}")
        try:
            data = handle.read(limit + 1)
        except OSError as exc:
            raise OddsError(f"{label}: cannot read ({exc.strerror})") from None
    if len(data) > limit:
        raise OddsError(f"{label}: over {limit:,} bytes; too large for a {what}")
    return data
