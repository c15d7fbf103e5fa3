"""Writing a file the user keeps without ever losing the old one.

Every output the tool writes (a simulated log, a regenerated report, a chart)
goes to a temporary file in the target's own folder and is renamed over the
target only once it is complete: an error, a full disk, Ctrl-C, SIGTERM or
SIGHUP leaves the old file exactly as it was and no partial file behind.

The target is checked first, so a bad ``--out`` is a one-line error before any
work is done. A target is replaced only when it is missing or a **regular,
writable file that is not an input** of the same command:

* a device, FIFO or socket is refused, not written through (``--out /dev/null``
  as root would otherwise replace the system's null device with a file; a
  FIFO would block). Refusing is simpler and safer than writing through, and
  stdout already covers "write it somewhere that is not a file";
* a symbolic link is refused (the rename would replace the link with a file
  and leave its target stale): give the real file;
* a file without write permission bits is refused (root may write anything,
  so :func:`os.access` says yes: the mode bits say what the owner meant);
* a file that *is* an input (compared by device and inode, so ``./x.toml``,
  ``x.toml`` and a hard link are one file) is refused;
* a folder without write permission bits is not written into, by the same
  rule as a file (root may, but ``chmod 555`` says what the owner meant).

A run killed outright (SIGKILL, a power cut) cannot remove its temporary file:
the next write to the same target removes such leftovers of ours (our name
pattern, older than the writing process, held by no running writer —
:func:`remove_stale_temporaries`), and nothing else.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import stat
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import IO, Any

from odds.core.errors import OddsError
from odds.runtime.inputs import kind_of

#: What a caller may pass as the inputs of a command: paths (missing ones are ignored).
Inputs = Iterable[Path | str | None]


def check_output_path(path: Path, inputs: Inputs = ()) -> None:
    """A one-line error unless ``path`` can be (over)written as a file.

    >>> check_output_path(Path("/"))
    Traceback (most recent call last):
    odds.OddsError: /: is a directory (give a file name)
    >>> check_output_path(Path("/dev/null"))
    Traceback (most recent call last):
    odds.OddsError: /dev/null: exists and is not a regular file (a character device): refused
    """
    if str(path) == "" or path.is_dir():
        raise OddsError(f"{path}: is a directory (give a file name)")
    try:
        found = path.lstat()
    except FileNotFoundError:
        found = None
    except OSError as exc:
        raise OddsError(f"{path}: cannot write ({exc.strerror})") from None
    if found is not None:
        if stat.S_ISLNK(found.st_mode):
            raise OddsError(
                f"{path}: is a symbolic link (to {os.readlink(path)}); give the real file "
                "(replacing it would replace the link)"
            )
        if not stat.S_ISREG(found.st_mode):
            raise OddsError(
                f"{path}: exists and is not a regular file ({kind_of(found.st_mode)}): refused"
            )
        if not found.st_mode & 0o222 or not os.access(path, os.W_OK):
            raise OddsError(f"{path}: is read-only (make it writable to replace it)")
        for source in inputs:
            if source is not None and _same_file(path, Path(source)):
                raise OddsError(f"{path}: is an input of this command (give another output)")
    folder = path.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise OddsError(f"{path}: the folder {folder} {what}")
    if not folder.stat().st_mode & 0o222:
        raise OddsError(f"{path}: the folder {folder} is read-only (make it writable first)")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OddsError(f"{path}: cannot write in the folder {folder} (permission denied)")


def _same_file(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


@contextlib.contextmanager
def atomic_path(path: Path, inputs: Inputs = ()) -> Iterator[Path]:
    """A temporary path next to ``path``; renamed over ``path`` when the block succeeds.

    ``path`` is checked first (:func:`check_output_path`, ``inputs`` included).
    On any exception (KeyboardInterrupt, and SIGTERM/SIGHUP once
    :func:`signals_as_interrupts` is in force) the temporary file is removed and
    ``path`` is left untouched. OS errors become one-line errors.
    """
    check_output_path(path, inputs)
    prefix, suffix = f".{path.name}.", ".part"
    remove_stale_temporaries(path.parent, prefix, suffix)
    try:
        handle, name = tempfile.mkstemp(prefix=prefix, suffix=suffix, dir=path.parent)
    except OSError as exc:
        raise OddsError(f"{path}: cannot write ({exc.strerror})") from None
    temporary = Path(name)
    try:
        _hold(handle)  # while the block runs: a live temporary file is never stale
        yield temporary
        _keep_mode(temporary, path)
        check_output_path(path, inputs)  # still a file we may replace (not swapped meanwhile)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise OddsError(f"{path}: cannot write ({exc.strerror or exc})") from None
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    finally:
        os.close(handle)


@contextlib.contextmanager
def atomic_open(
    path: Path, mode: str = "w", *, inputs: Inputs = (), **options: Any
) -> Iterator[IO[Any]]:
    """``open(path, mode)`` through :func:`atomic_path`: the file appears whole or not at all."""
    with atomic_path(path, inputs) as temporary:
        try:
            with temporary.open(mode, **options) as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            raise OddsError(f"{path}: cannot write ({exc.strerror or exc})") from None


def write_text(path: Path, text: str, inputs: Inputs = ()) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically."""
    with atomic_open(path, "w", inputs=inputs, encoding="utf-8", newline="") as handle:
        handle.write(text)


def check_output_folder(folder: Path | str, option: str) -> Path:
    """A folder to write files into (``--charts DIR``): not an empty name, not a file.

    ``--charts ''`` would write into the working folder, which nobody means, so
    the option must reach here as text (a ``Path('')`` is already ``.``).
    """
    text = str(folder)
    if not text.strip():
        raise OddsError(f"{option}: give a folder name (an empty name would mean this folder)")
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise OddsError(f"{option} {path}: not a folder")
    return path


#: When this process began writing (about when it started): a temporary file of ours
#: last changed before it was not made by this process.
_STARTED = time.time()
#: The random part :func:`tempfile.mkstemp` puts between the prefix and the suffix.
_RANDOM_PART = "[a-z0-9_]{8}"


def _hold(handle: int) -> None:
    """Lock a temporary file for as long as its writer runs (the lock ends with the process,
    however it ends, so a killed writer's file is free and a running one's is not)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not on Windows: age alone decides
        return
    with contextlib.suppress(OSError):
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


def _is_held(handle: int) -> bool:
    try:
        import fcntl
    except ImportError:  # pragma: no cover
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    return False


def remove_stale_temporaries(folder: Path, prefix: str, suffix: str) -> list[str]:
    """Remove the temporary files a killed writer left in ``folder``; return their names.

    Only names of our own pattern (``prefix``, :func:`tempfile.mkstemp`'s eight random
    characters, ``suffix``), only regular files of this user last changed before this
    process started, and only those no running writer holds (:func:`_hold`): a file
    anyone else made, or one another odds process is still writing, is never touched.
    Best effort: a folder that cannot be listed leaves everything as it is.
    """
    pattern = re.compile(re.escape(prefix) + _RANDOM_PART + re.escape(suffix))
    removed: list[str] = []
    try:
        names = [n for n in os.listdir(folder) if pattern.fullmatch(n)]
    except OSError:
        return removed
    for name in names:
        candidate = folder / name
        try:
            handle = os.open(candidate, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW)
        except OSError:
            continue
        try:
            found = os.fstat(handle)
            if (
                stat.S_ISREG(found.st_mode)
                and found.st_uid == _EUID
                and found.st_mtime < _STARTED
                and not _is_held(handle)
                and os.path.samestat(found, os.lstat(candidate))
            ):
                candidate.unlink()
                removed.append(name)
        except OSError:
            pass
        finally:
            os.close(handle)
    return removed


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_EUID = os.geteuid() if hasattr(os, "geteuid") else -1


def _keep_mode(temporary: Path, target: Path) -> None:
    """Give the new file the old one's permissions, or the usual ones (mkstemp makes 0600)."""
    try:
        mode = target.stat().st_mode & 0o777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(temporary, mode)


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where Ctrl-C would be so the same clean-up runs."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


#: The ending signals received within :func:`signals_as_interrupts` (most recent last).
RECEIVED: list[int] = []


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    RECEIVED.append(signum)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Terminated(signum)


#: The signals that end a run as Ctrl-C does: ``kill``, a closed terminal.
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


@contextlib.contextmanager
def signals_as_interrupts() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise :class:`Terminated` (a KeyboardInterrupt).

    Every such signal and Ctrl-C is also noted in :data:`RECEIVED`, so that a
    caller can still tell that the run was stopped where a library swallowed
    the exception (Typer turns it into a silent exit status 130).

    Without this, ``kill`` ends the process at once and every temporary file of
    :func:`atomic_path` stays behind. Only the main thread may install handlers;
    elsewhere (a test runner's thread) this does nothing. Worker processes
    forked inside the block must call :func:`default_signals` first.
    """
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    RECEIVED.clear()
    previous = {s: signal.signal(s, _raise_terminated) for s in (*ENDING_SIGNALS, signal.SIGINT)}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def default_signals(ignore_ctrl_c: bool = True) -> None:
    """For a worker process: SIGTERM/SIGHUP end it at once; Ctrl-C is the parent's to handle."""
    for s in ENDING_SIGNALS:
        signal.signal(s, signal.SIG_DFL)
    if ignore_ctrl_c:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
