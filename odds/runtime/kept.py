"""Tables that depend on no input, built once per version and kept in the user's cache folder.

Some answers depend only on the code: blackjack's dealer draw sequences and the
layouts of its exact contractions take longer to build than the whole
analysis of a shoe takes afterwards. :func:`kept` builds such a value once,
writes it to the user's cache folder and reads it back in later processes.

What makes a kept file safe to read:

* its name holds a *fingerprint* of the code that built it (the caller hashes
  the version and the sources), so a file from other code is never read;
* its first line holds the SHA-256 of the rest, so a truncated or damaged file
  is detected, then rebuilt and replaced (never trusted);
* it is read by an unpickler that makes only the classes the caller names
  (and ``operator.itemgetter`` and ``slice``): a file that asks for anything
  else is rebuilt, not run;
* it is written to a temporary file in the same folder and renamed, so a reader
  never sees half of one, and two processes building at once both succeed.

The folder is ``$ODDS_CACHE_DIR``, else ``$XDG_CACHE_HOME/odds``, else
``~/.cache/odds`` — never the package's own folder (an installed package may be
read-only, shared between users, or checked into a wheel). ``ODDS_CACHE_DIR=none``
turns keeping off (every process builds). A folder that cannot be written is
no error: the value is built and used, just not kept.
"""

from __future__ import annotations

import gc
import hashlib
import io
import os
import pickle
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: The environment variable naming the cache folder (``none``: keep nothing).
CACHE_VARIABLE = "ODDS_CACHE_DIR"
#: First bytes of a kept file, with the format's version.
MAGIC = b"odds-kept 1 "
#: Classes every kept file may hold besides the caller's: the gathers of the layouts.
_ALWAYS = (("operator", "itemgetter"), ("builtins", "slice"))


def cache_folder() -> Path | None:
    """Where kept files live (``None``: keeping is turned off)."""
    named = os.environ.get(CACHE_VARIABLE, "")
    if named.lower() == "none":
        return None
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME", "") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "odds"


def kept(name: str, fingerprint: str, build: Callable[[], T], classes: Iterable[type]) -> T:
    """``build()``, read from the cache folder when a sound file of this code holds it.

    ``name`` names the value (one file per name; files of other fingerprints are
    removed when a new one is written), ``fingerprint`` the code that builds it,
    ``classes`` every class the value's pickle may make.
    """
    folder = cache_folder()
    if folder is None:
        return build()
    path = folder / f"{name}-{fingerprint[:20]}.pickle"
    allowed = set(_ALWAYS) | {(c.__module__, c.__qualname__) for c in classes}
    found = _read(path, allowed)
    if found is not None:
        return found[0]
    value = build()
    _write(path, name, value)
    return value


class _Restricted(pickle.Unpickler):
    """An unpickler that makes only the allowed classes (anything else: the file is unsound)."""

    def __init__(self, data: bytes, allowed: set[tuple[str, str]]) -> None:
        super().__init__(io.BytesIO(data))
        self.allowed = allowed

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) not in self.allowed:
            raise pickle.UnpicklingError(f"{module}.{name} is not allowed in a kept file")
        return super().find_class(module, name)


def _read(path: Path, allowed: set[tuple[str, str]]) -> tuple[Any] | None:
    """``(value,)`` from a sound kept file, or ``None`` (missing, damaged, or not ours)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    header, _, payload = data.partition(b"\n")
    if header != MAGIC + hashlib.sha256(payload).hexdigest().encode():
        return None
    enabled = gc.isenabled()
    gc.disable()  # millions of small objects, no cycles: a collection would walk them all
    try:
        return (_Restricted(payload, allowed).load(),)
    except Exception:  # a damaged file of any kind is rebuilt
        return None
    finally:
        if enabled:
            gc.enable()


def _write(path: Path, name: str, value: Any) -> None:
    """Write the kept file atomically, and remove this name's files of other code."""
    import tempfile  # only when writing (a tenth of the imports of a read)

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        header = MAGIC + hashlib.sha256(payload).hexdigest().encode() + b"\n"
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{name}-", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(header)
                out.write(payload)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
        for old in path.parent.glob(f"{name}-*.pickle"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        return  # a folder we cannot write: the value is used, just not kept
