"""Writing a file the user keeps without ever losing the old one.

Every output the tool writes (a simulated log, a regenerated report) goes to a
temporary file in the target's own folder and is renamed over the target only
once it is complete: an error, a full disk or Ctrl-C leaves the old file exactly
as it was and no partial file behind. The target is checked first (an existing
folder, not a directory), so a bad ``--out`` is a one-line error before any
work is done.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from odds.errors import OddsError


def check_output_path(path: Path) -> None:
    """A one-line error unless ``path`` can be (over)written as a file.

    >>> check_output_path(Path("/"))
    Traceback (most recent call last):
    odds.errors.OddsError: /: is a directory (give a file name)
    """
    if path.is_dir():
        raise OddsError(f"{path}: is a directory (give a file name)")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OddsError(f"{path}: the folder {folder} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OddsError(f"{path}: cannot write in the folder {folder} (permission denied)")


@contextlib.contextmanager
def atomic_path(path: Path) -> Iterator[Path]:
    """A temporary path next to ``path``; renamed over ``path`` when the block succeeds.

    On any exception (KeyboardInterrupt included) the temporary file is removed
    and ``path`` is left untouched. OS errors become one-line errors.
    """
    check_output_path(path)
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise OddsError(f"{path}: cannot write ({exc.strerror})") from None
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
        _keep_mode(temporary, path)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise OddsError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_open(path: Path, mode: str = "w", **options: Any) -> Iterator[IO[Any]]:
    """``open(path, mode)`` through :func:`atomic_path`: the file appears whole or not at all."""
    with atomic_path(path) as temporary:
        try:
            with temporary.open(mode, **options) as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise OddsError(f"{path}: cannot write ({exc.strerror or exc})") from None


def write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically."""
    with atomic_open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


def _keep_mode(temporary: Path, target: Path) -> None:
    """Give the new file the old one's permissions, or the usual ones (mkstemp makes 0600)."""
    try:
        mode = target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)
