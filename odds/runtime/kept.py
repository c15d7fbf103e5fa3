"""Tables that depend on no input, built once per version and kept in the user's cache folder.

Some answers depend only on the code: blackjack's dealer draw sequences and the
layouts of its exact contractions take longer to build than the whole
analysis of a shoe takes afterwards. :func:`kept` builds such a value once,
writes it to the user's cache folder and reads it back in later processes.

No figure may depend on bytes the user did not write, so a kept file is read
only when all of this holds (anything else: the value is built, as if nothing
were kept, and the file replaced):

* **the folder is the user's**: owned by the user, not a symbolic link, writable
  by no one else (made with mode 0700; one that others may only read is made
  0700). It is checked on every open, through the descriptor the files are then
  opened from (as ssh and pip check theirs). A folder others may write, or
  another user's, is not used at all: one line on stderr says so, and every
  value is built in the process;
* **the file is a regular file of the user's**, opened without following a link
  and without waiting (``O_NOFOLLOW | O_NONBLOCK``: a named pipe or a link to
  ``/dev/zero`` is refused at once), writable by no one else, with one name, and
  at most :data:`MOST_BYTES` long;
* **it was written by odds under this account for this code**: its name holds
  the *fingerprint* of the code that builds the value, and its first line an
  HMAC-SHA256 of its name and contents under a random key kept in the folder
  (mode 0600). An edit whose checksum was recomputed, a file copied from another
  user or renamed from another value fails it;
* **it is data**: JSON of integers, strings, lists, tuples, dicts, sets and
  *gathers* (:class:`operator.itemgetter` of integer positions), its long runs of
  integers stored after it as 32-bit numbers, read by a decoder that makes nothing
  else — no class, no code. The caller turns that data into
  its objects and checks their shape (``from_data``); the tables' invariants
  (dealer probabilities that add up) are checked where they are used, and a
  failure there discards every kept file (:func:`distrust`).

The folder is ``$ODDS_CACHE_DIR``, else ``$XDG_CACHE_HOME/odds``, else
``~/.cache/odds`` — never the package's own folder (an installed package may be
read-only, shared between users, or checked into a wheel). ``ODDS_CACHE_DIR=none``
turns keeping off (every process builds). A folder that cannot be written is
no error: the value is built and used, just not kept.
"""

from __future__ import annotations

import contextlib
import gc
import os
import stat
import sys
from collections.abc import Callable
from operator import itemgetter
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: The environment variable naming the cache folder (``none``: keep nothing).
CACHE_VARIABLE = "ODDS_CACHE_DIR"
#: First bytes of a kept file, with the format's version.
MAGIC = b"odds-kept 2 "
#: The largest kept file read (blackjack's largest is about 3.5 MB).
MOST_BYTES = 32 * 1024 * 1024
#: The file holding the folder's key (32 random bytes, mode 0600).
KEY_NAME = "key"
KEY_BYTES = 32
#: What a kept file's name ends with.
SUFFIX = ".json"

#: Opening a file by name in a checked folder (``dir_fd``) and without following a link:
#: where the system cannot (Windows), nothing is kept.
_SUPPORTED = os.open in os.supports_dir_fd and hasattr(os, "O_NOFOLLOW")
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)

#: The names of the files this process read (:func:`distrust` removes them).
_READ: set[str] = set()
#: Set by :func:`distrust`: from then on every value is built, nothing read.
_DISTRUSTED: list[bool] = []
#: Notes already printed (each once per process).
_NOTED: set[str] = set()


def cache_folder() -> Path | None:
    """Where kept files live (``None``: keeping is turned off)."""
    named = os.environ.get(CACHE_VARIABLE, "")
    if named.lower() == "none":
        return None
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME", "") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "odds"


def kept(
    name: str,
    fingerprint: str,
    build: Callable[[], T],
    to_data: Callable[[T], Any] | None = None,
    from_data: Callable[[Any], T] | None = None,
) -> T:
    """``build()``, read from the cache folder when a sound file of this code holds it.

    ``name`` names the value (one file per name; files of other fingerprints are
    removed when a new one is written), ``fingerprint`` the code that builds it.
    ``to_data`` turns the value into data (what :func:`encode` writes) and
    ``from_data`` turns that data back, raising any exception on a shape it does
    not expect (the value is then built again).
    """
    file = f"{name}-{fingerprint[:20]}{SUFFIX}"
    if not _DISTRUSTED:
        data = _read(file)
        if data is not _MISSING:
            try:
                value = data if from_data is None else from_data(data)
            except Exception:  # a shape the caller does not expect: built again
                pass
            else:
                _READ.add(file)
                return value
    value = build()
    _write(file, name, value, to_data)
    return value


def distrust(reason: str) -> bool:
    """A kept value failed a check where it was used: remove what this process read.

    Returns whether anything was read from the cache folder (then the caller
    builds again: from now on this process reads nothing and the files are
    written anew); ``False`` means the values were built here, so the failure
    is no kept file's. One line on stderr says what happened.
    """
    if not _READ:
        return False
    _DISTRUSTED.append(True)
    folder = _open_folder(create=False)
    if folder is not None:
        try:
            for file in _READ:
                with contextlib.suppress(OSError):
                    os.unlink(file, dir_fd=folder)
        finally:
            os.close(folder)
    _READ.clear()
    _note(f"odds: {reason}; the kept files were removed and every table is built again")
    return True


# ---------------------------------------------------------------------------
# The folder and its key


def _open_folder(create: bool) -> int | None:
    """A descriptor of the cache folder if it is the user's alone (else ``None``).

    Checked through the descriptor itself, so the folder the files are opened
    from is the folder that was checked (no swap between the check and the use).
    """
    path = cache_folder()
    if path is None or not _SUPPORTED:
        return None
    if create:
        try:
            path.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return None
    try:
        folder = os.open(path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
    except OSError:
        if os.path.islink(path):
            _note(f"odds: the cache folder {path} is a symbolic link: not used ({_UNUSED})")
        return None
    found = os.fstat(folder)
    problem = None
    if found.st_uid != os.geteuid():
        problem = f"belongs to another user (uid {found.st_uid})"
    elif found.st_mode & 0o022:
        problem = f"may be written by others (mode {stat.S_IMODE(found.st_mode):o})"
    if problem is not None:
        os.close(folder)
        _note(f"odds: the cache folder {path} {problem}: not used ({_UNUSED})")
        return None
    if found.st_mode & 0o077:  # only others' reading: nobody else could have written here
        with contextlib.suppress(OSError):
            os.fchmod(folder, 0o700)
    return folder


_UNUSED = "blackjack builds its tables in every run; chmod 700 it or set ODDS_CACHE_DIR"


def _note(text: str) -> None:
    if text not in _NOTED:
        _NOTED.add(text)
        with contextlib.suppress(OSError, ValueError):
            print(text, file=sys.stderr)


def _open_own_file(folder: int, file: str) -> tuple[int, os.stat_result] | None:
    """A descriptor of a regular file of the user's that only the user may write, or ``None``."""
    try:
        handle = os.open(file, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC, dir_fd=folder)
    except OSError:  # missing, a link (ELOOP), a device we may not open …
        return None
    found = os.fstat(handle)
    if (
        stat.S_ISREG(found.st_mode)
        and found.st_uid == os.geteuid()
        and not found.st_mode & 0o022
        and found.st_nlink == 1
        and found.st_size <= MOST_BYTES
    ):
        return handle, found
    os.close(handle)
    return None


def _read_exactly(handle: int, size: int) -> bytes | None:
    """The file's ``size`` bytes, or ``None`` when it holds more or fewer (it changed)."""
    chunks = []
    left = size + 1  # one more: a file that grew is refused, not read on
    while left > 0:
        chunk = os.read(handle, min(left, 1 << 20))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    data = b"".join(chunks)
    return data if len(data) == size else None


def _key(folder: int, create: bool) -> bytes | None:
    """The folder's key (made on first use when ``create``)."""
    key = _read_key(folder)
    if key is not None or not create:
        return key
    try:  # linked in, not renamed over: two processes making a key at once agree on one
        _write_file(folder, KEY_NAME, os.urandom(KEY_BYTES), replace=False)
    except FileExistsError:
        key = _read_key(folder)  # another process's, made meanwhile
        if key is not None:
            return key
        try:  # something that is no key of ours: replaced (every kept file is rebuilt)
            _write_file(folder, KEY_NAME, os.urandom(KEY_BYTES))
        except OSError:
            return None
    except OSError:
        return None
    return _read_key(folder)


def _read_key(folder: int) -> bytes | None:
    opened = _open_own_file(folder, KEY_NAME)
    if opened is None:
        return None
    handle, found = opened
    try:
        if found.st_mode & 0o077 or found.st_size != KEY_BYTES:
            return None
        return _read_exactly(handle, KEY_BYTES)
    finally:
        os.close(handle)


def _mac(key: bytes, file: str, payload: bytes) -> bytes:
    import hashlib
    import hmac

    return hmac.new(key, file.encode() + b"\0" + payload, hashlib.sha256).hexdigest().encode()


# ---------------------------------------------------------------------------
# Reading and writing one kept file

_MISSING: Any = object()


def _read(file: str) -> Any:
    """The data of a sound kept file, or ``_MISSING`` (missing, refused, damaged)."""
    folder = _open_folder(create=False)
    if folder is None:
        return _MISSING
    try:
        key = _key(folder, create=False)
        if key is None:
            return _MISSING
        opened = _open_own_file(folder, file)
        if opened is None:
            return _MISSING
        handle, found = opened
        try:
            data = _read_exactly(handle, found.st_size)
        finally:
            os.close(handle)
    except OSError:
        return _MISSING
    finally:
        os.close(folder)
    if data is None:
        return _MISSING
    header, _, payload = data.partition(b"\n")
    import hmac

    if not hmac.compare_digest(header, MAGIC + _mac(key, file, payload)):
        return _MISSING
    try:
        return decode(payload)
    except Exception:  # not our data format (the key checked out: a bug, or a forger's)
        return _MISSING


def _write(file: str, name: str, value: Any, to_data: Callable[[Any], Any] | None) -> None:
    """Write the kept file atomically; remove this name's files of other code, and our
    temporary files left by a killed process."""
    folder = _open_folder(create=True)
    if folder is None:
        return
    try:
        key = _key(folder, create=True)
        if key is None:
            return
        payload = encode(value if to_data is None else to_data(value))
        if len(payload) + 200 > MOST_BYTES:
            return
        _write_file(folder, file, MAGIC + _mac(key, file, payload) + b"\n" + payload)
        for other in os.listdir(folder):
            stale = other.startswith(f"{name}-") and other != file
            if stale and other.endswith((SUFFIX, ".pickle")):
                os.unlink(other, dir_fd=folder)
    except (OSError, TypeError, ValueError, RecursionError):
        return  # a folder we cannot write, a value that is not data: used, just not kept
    finally:
        os.close(folder)


def _write_file(folder: int, file: str, data: bytes, replace: bool = True) -> None:
    """``data`` as ``file`` (mode 0600), whole or not at all: a temporary file renamed
    over it (``replace``) or linked to its name (:class:`FileExistsError` if it exists)."""
    _remove_stale_temporaries(folder)
    temporary = f".{file}.{os.urandom(6).hex()}.tmp"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    handle = os.open(temporary, flags, 0o600, dir_fd=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view) :]
        finally:
            os.close(handle)
        if replace:
            os.replace(temporary, file, src_dir_fd=folder, dst_dir_fd=folder)
            return
        os.link(temporary, file, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder)
        raise
    os.unlink(temporary, dir_fd=folder)


def _remove_stale_temporaries(folder: int) -> None:
    """Temporary files a killed writer left in the folder (ours alone: the folder is the
    user's): those over a minute old, as a kept file is written in about a second and a
    younger one may be another process's."""
    import re
    import time

    pattern = re.compile(r"\..+\.[0-9a-f]{12}\.tmp")
    now = time.time()
    for other in os.listdir(folder):
        if pattern.fullmatch(other):
            try:
                found = os.stat(other, dir_fd=folder, follow_symlinks=False)
                if now - found.st_mtime > 60:
                    os.unlink(other, dir_fd=folder)
            except OSError:
                pass


# ---------------------------------------------------------------------------
# The data format: JSON, with tags for what JSON has no word for, and runs of integers
# (the bulk of the tables: positions, keys) as 32-bit little-endian numbers after it

#: One-key JSON objects stand for: a tuple (``t``, or ``T`` when later parts refer to it
#: by number, ``r``), a gather (``g``/``G``), a frozenset (``f``/``F``), a dict with keys
#: of any kind (``d``: keys and values alternating), a slice (``s``), and integers stored
#: after the JSON (``b``: ``[offset, length]`` in 32-bit numbers: the items of the ``t``
#: or ``g`` around it, or of a list, ``l``; or ``m``: ``[width, {"b": …}]``, tuples of
#: that many, the items of a list or of the ``t`` around it). Shared parts are written once
#: (``T``, ``G``, ``F``) and referred to (``{"r": n}``, the n-th shared part in the order
#: their JSON objects close; ``M`` numbers each of its rows), as the tables share them.
#: The payload is the JSON, a newline, then the integers.

#: The shortest run of integers stored after the JSON (shorter ones stay in it).
_RUN = 16


def _integers(values: Any) -> bool:
    """Whether a tuple, list or set holds integers alone (and something)."""
    return bool(values) and set(map(type, values)) == {int}


def _numbers() -> Any:
    from array import array

    made = array("i")
    if made.itemsize != 4:  # pragma: no cover - no such platform in use
        raise TypeError("no 32-bit integers here")
    return made


def encode(value: Any) -> bytes:
    """``value`` as the data format; a :class:`TypeError` for anything that is not data."""
    import json

    seen: dict[int, int] = {}  # id → how often an immutable part is met
    alive: list[Any] = []  # what the ids belong to, alive while encoding

    def count(o: Any) -> None:
        kind = type(o)
        if kind in (tuple, frozenset, itemgetter):
            key = id(o)
            if key in seen:
                seen[key] += 1
                return
            seen[key] = 1
            alive.append(o)
        if kind in (tuple, list, frozenset):
            if _integers(o):  # (most of the bulk: nothing to look into)
                return
            for x in o:
                count(x)
        elif kind is dict:
            for k, x in o.items():
                count(k)
                count(x)

    count(value)
    numbers: dict[int, int] = {}
    run = _numbers()

    def shared(o: Any, tag: str, body: Any) -> Any:
        if seen[id(o)] == 1:
            return {tag: body}
        numbers[id(o)] = len(numbers)  # numbered as its JSON object closes: after its parts
        return {tag.upper(): body}

    def items(values: Any) -> Any:
        """Items' JSON: stored after the JSON when they are a long run of small integers, or
        many tuples of such integers of one width (rows)."""
        stored = rows(values)
        if stored is not None:
            return stored
        if _integers(values):
            if len(values) >= _RUN and min(values) >= -(2**31) and max(values) < 2**31:
                offset = len(run)
                run.extend(values)
                return {"b": [offset, len(values)]}
            return list(values)
        return [convert(x) for x in values]

    def listed(values: list[Any]) -> Any:
        body = items(values)
        return {"l": body} if type(body) is dict and "b" in body else body

    def rows(values: Any) -> Any:
        """``{"m": [width, integers]}``, or ``M`` when later parts refer to the rows (then
        every row is numbered, in order, as the object closes); ``None`` if not rows."""
        if len(values) < _RUN or type(values[0]) is not tuple or not values[0]:
            return None
        width = len(values[0])
        for v in values:
            if type(v) is not tuple or len(v) != width or id(v) in numbers:
                return None
        flat = [x for v in values for x in v]
        if set(map(type, flat)) != {int} or min(flat) < -(2**31) or max(flat) >= 2**31:
            return None
        offset = len(run)
        run.extend(flat)
        body = [width, {"b": [offset, len(flat)]}]
        if all(seen[id(v)] == 1 for v in values):
            return {"m": body}
        for v in values:
            numbers[id(v)] = len(numbers)
        return {"M": body}

    def convert(o: Any) -> Any:
        kind = type(o)
        if kind is int or kind is str or kind is bool or o is None:
            return o
        number = numbers.get(id(o))
        if number is not None:
            return {"r": number}
        if kind is tuple:
            return shared(o, "t", items(o))
        if kind is list:
            return listed(o)
        if kind is dict:
            return {"d": [convert(x) for item in o.items() for x in item]}
        if kind is frozenset:
            return shared(o, "f", [convert(x) for x in o])
        if kind is itemgetter:
            positions = o.__reduce__()[1]
            if not set(map(type, positions)) <= {int, slice}:
                raise TypeError("a gather of something other than positions")
            return shared(o, "g", items(positions))
        if kind is slice:
            return {"s": [convert(o.start), convert(o.stop), convert(o.step)]}
        raise TypeError(f"{kind.__name__} is not data")

    text = json.dumps(convert(value), separators=(",", ":"), check_circular=False)
    if sys.byteorder == "big":  # pragma: no cover
        run.byteswap()
    return text.encode() + b"\n" + run.tobytes()


def decode(payload: bytes) -> Any:
    """The data :func:`encode` wrote; :class:`ValueError` (or another exception) for
    anything else. It makes only the kinds above: no class is looked up, no code run."""
    import json

    text, newline, stored = payload.partition(b"\n")
    if not newline or len(stored) % 4:
        raise ValueError("not a kept payload")
    run = _numbers()
    Run = type(run)
    run.frombytes(stored)
    if sys.byteorder == "big":  # pragma: no cover
        run.byteswap()
    parts: list[Any] = []
    share = parts.append

    def bad(why: str) -> Any:
        raise ValueError(why)

    def stored_run(body: Any) -> Any:
        """Integers stored after the JSON (an array: the ``t``, ``g`` or ``l`` around it
        makes them a tuple, a gather or a list)."""
        if type(body) is not list or len(body) != 2 or {type(b) for b in body} != {int}:
            raise ValueError("not a run of integers")
        offset, length = body
        if offset < 0 or length < 0 or offset + length > len(run):
            raise ValueError("a run of integers beyond the stored ones")
        return run[offset : offset + length]

    def gather(body: Any) -> Any:
        kind = type(body)
        if kind is not Run:  # (integers alone by construction)
            kinds = set(map(type, body)) if kind is list else {dict}
            if not kinds <= {int, slice} or (slice in kinds and len(body) != 1):
                raise ValueError("a gather of something other than positions")
        if not body:
            raise ValueError("a gather of nothing")
        return itemgetter(*body)

    def matrix(body: Any) -> list[tuple[int, ...]]:
        if type(body) is not list or len(body) != 2 or type(body[1]) is not Run:
            raise ValueError("not rows of integers")
        width, stored = body
        if type(width) is not int or width < 1 or len(stored) % width:
            raise ValueError("rows of integers of no one width")
        return list(zip(*[iter(stored)] * width, strict=True))

    def shared_matrix(body: Any) -> list[tuple[int, ...]]:
        made = matrix(body)
        parts.extend(made)
        return made

    def stored_list(body: Any) -> Any:
        if type(body) is not Run:
            raise ValueError("not integers stored after the JSON")
        return body.tolist()

    def shared_gather(body: Any) -> Any:
        made = gather(body)
        share(made)
        return made

    def shared_tuple(body: Any) -> Any:
        made = tuple(body) if type(body) in (list, Run) else bad("not a list")
        share(made)
        return made

    def shared_set(body: Any) -> Any:
        made = frozenset(body) if type(body) is list else bad("not a list")
        share(made)
        return made

    def mapping(body: Any) -> Any:
        if type(body) is not list or len(body) % 2:
            raise ValueError("not keys and values alternating")
        pairs = iter(body)
        return dict(zip(pairs, pairs, strict=True))

    def bounds(body: Any) -> Any:
        if type(body) is not list or len(body) != 3:
            raise ValueError("not a slice")
        if not all(b is None or type(b) is int for b in body):
            raise ValueError("a slice of something other than positions")
        return slice(*body)

    def reference(body: Any) -> Any:
        if type(body) is not int or not 0 <= body < len(parts):
            raise ValueError("a reference to no part")
        return parts[body]

    makers: dict[str, Any] = {
        "t": lambda body: tuple(body) if type(body) in (list, Run) else bad("not a list"),
        "T": shared_tuple,
        "r": reference,
        "b": stored_run,
        "l": stored_list,
        "m": matrix,
        "M": shared_matrix,
        "g": gather,
        "G": shared_gather,
        "d": mapping,
        "f": lambda body: frozenset(body) if type(body) is list else bad("not a list"),
        "F": shared_set,
        "s": bounds,
    }

    def tagged(obj: dict[str, Any]) -> Any:
        ((tag, body),) = obj.items()  # (a ValueError for an object of several keys)
        return makers.get(tag, bad)(body)

    def no_float(text: str) -> Any:
        raise ValueError(f"a number that is not an integer: {text[:20]}")

    enabled = gc.isenabled()
    gc.disable()  # hundreds of thousands of small objects, no cycles
    try:
        return json.loads(text, object_hook=tagged, parse_float=no_float, parse_constant=no_float)
    finally:
        if enabled:
            gc.enable()
