"""Reading a file the user names: exactly that file, a regular one, every byte hashed.

The counterpart of :mod:`odds.runtime.atomic` (outputs). A round log is evidence: an
audit must read the very file it names and say which bytes it read. So

* the file is opened here, by its name taken literally — never handed to a
  library that expands patterns (DuckDB reads ``table[1].csv`` as the glob
  ``table1.csv`` and ``~/x.csv`` as ``$HOME/x.csv``); readers get the bytes, a
  private copy, or lines, from this module;
* it must be a regular file: a named pipe would block forever, a device
  (``/dev/zero``) would never end, a folder or a symlink loop is named as what
  it is — each a one-line :class:`~odds.core.errors.OddsError`, checked on the open
  descriptor (opened without blocking), so nothing can be swapped in between;
* every byte read goes through one SHA-256, so the digest a report prints is
  of exactly the bytes that were parsed (no time-of-check/time-of-use gap:
  what was hashed is what was read, even if the file changes meanwhile).

:func:`text_blocks` turns the bytes of a text log (optionally gzipped) into
validated lines: UTF-8 (a BOM allowed), any of LF, CRLF or CR-only line
endings (chunk boundaries included), and a one-line error naming the line of
the first byte that is not text (UTF-16/32, a NUL or other control byte, a line
ending of another kind, a line longer than :data:`MAX_LINE`).

Small inputs read whole (a paytable): :func:`read_regular` opens without
blocking, checks what it opened (``fstat``: no race between a check and the
open) and reads at most ``limit`` bytes — a FIFO named as a paytable used to
block ``open`` forever, and ``/dev/zero`` was read until memory ran out.
"""

from __future__ import annotations

import errno
import gzip
import hashlib
import itertools
import os
import re
import shutil
import stat
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from odds.core.errors import OddsError

#: Bytes read at a time.
CHUNK = 1 << 22
#: The longest line a text log may have (a round log's line is well under 1 KiB).
MAX_LINE = 64 * 1024

Kind = Literal["text", "gzip", "parquet"]


@dataclass(frozen=True)
class Digest:
    """The bytes a reader consumed: how many, and their SHA-256 (hex)."""

    size: int
    sha256: str


class InputFile:
    """One regular file opened by its literal name; everything read is hashed.

    Use as a context manager. :meth:`read` returns the next bytes;
    :meth:`digest` reads whatever is left (hashing it) and returns the
    :class:`Digest` of the whole file as read.
    """

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.label = str(path)
        self._fd = _open_regular(self.path, self.label)
        self.size = os.fstat(self._fd).st_size  # for progress only: a file may still grow
        self._sha = hashlib.sha256()
        self._read = 0
        self._pending = b""

    def __enter__(self) -> InputFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    @property
    def bytes_read(self) -> int:
        return self._read

    def _raw(self, n: int) -> bytes:
        try:
            data = os.read(self._fd, n)
        except OSError as exc:
            raise OddsError(f"{self.label}: cannot read ({exc.strerror})") from None
        self._sha.update(data)
        self._read += len(data)
        return data

    def peek(self, n: int) -> bytes:
        """The first ``n`` bytes not yet returned by :meth:`read` (fewer at the end)."""
        while len(self._pending) < n:
            data = self._raw(max(n - len(self._pending), CHUNK))
            if not data:
                break
            self._pending += data
        return self._pending[:n]

    def read(self, n: int | None = CHUNK) -> bytes:
        """Up to ``n`` bytes (b"" at the end); ``n < 0`` reads a chunk (for file-like users)."""
        if n is None or n < 0:
            n = CHUNK
        if self._pending:
            data, self._pending = self._pending[:n], self._pending[n:]
            return data
        return self._raw(n)

    def readable(self) -> bool:  # for gzip.GzipFile
        return True

    def digest(self) -> Digest:
        """Read to the end (hashing), then the digest of every byte read."""
        self._pending = b""
        while self._raw(CHUNK):
            pass
        return Digest(self._read, self._sha.hexdigest())

    def kind(self) -> Kind:
        """What the bytes are, by their first bytes (not the name): text, gzip or Parquet.

        Formats a log is never written in are named (an Excel workbook, other
        compressors) rather than read as garbled text.
        """
        head = self.peek(8)
        if head.startswith(b"\x1f\x8b"):
            return "gzip"
        if head.startswith(b"PAR1"):
            return "parquet"
        for magic, what in _FOREIGN:
            if head.startswith(magic):
                raise OddsError(f"{self.label}: {what}, not a round log (CSV, gzip or Parquet)")
        return "text"

    def copy_to(self, target: Path) -> Digest:
        """Copy every byte (hashed) to ``target``, a private file; the digest of the bytes."""
        try:
            with target.open("wb") as out:
                while data := self.read(CHUNK):
                    out.write(data)
        except OSError as exc:
            raise OddsError(
                f"cannot copy {self.label} to {target} ({exc.strerror}); set TMPDIR to a folder "
                "with room for it"
            ) from None
        return self.digest()


_FOREIGN = (
    (b"PK\x03\x04", "a zip archive (an Excel workbook?): export the sheet as CSV"),
    (b"\xd0\xcf\x11\xe0", "an old-style Office file (Excel .xls?): export the sheet as CSV"),
    (b"BZh", "bzip2-compressed: only gzip is read"),
    (b"\xfd7zXZ\x00", "xz-compressed: only gzip is read"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed: only gzip is read"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"%PDF", "a PDF document"),
    (b"SQLite format 3", "an SQLite database"),
)


# ---------------------------------------------------------------------------
# Opening


def _open_regular(path: Path, label: str) -> int:
    """A descriptor of ``path`` if it is a regular file, else a one-line error saying what it is.

    Opened without blocking (a named pipe would wait for a writer), then
    checked with ``fstat`` on the descriptor itself.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise OddsError(f"{label}: cannot read ({_open_problem(path, exc)})") from None
    except ValueError:  # a NUL character in the name
        raise OddsError(f"{label!r}: cannot read (a NUL character in the name)") from None
    mode = os.fstat(fd).st_mode
    what = _not_regular(mode)
    if what is not None:
        os.close(fd)
        raise OddsError(f"{label}: cannot read ({what})")
    os.set_blocking(fd, True)
    return fd


def _not_regular(mode: int) -> str | None:
    """Why a file of this mode cannot be read as a log (None: it can)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a folder"
    if stat.S_ISFIFO(mode):
        return "is a named pipe (FIFO), not a regular file; save the log to a file first"
    return f"is {kind_of(mode)}, not a regular file"


def _open_problem(path: Path, exc: OSError) -> str:
    """Why ``open`` failed, saying what the path is rather than only the errno text."""
    if exc.errno == errno.ELOOP:
        return "a symbolic link loop (too many levels of symbolic links)"
    if exc.errno == errno.ENXIO:
        try:
            if stat.S_ISSOCK(os.stat(path).st_mode):
                return "is a socket, not a regular file"
        except OSError:
            pass
    if exc.errno == errno.ENOENT and os.path.islink(path):
        try:
            target = os.readlink(path)
        except OSError:  # pragma: no cover - it was a link a moment ago
            target = "?"
        return f"a broken symbolic link to {target!r}: no such file"
    if exc.errno == errno.ENOTDIR:
        return "a part of the path is a file, not a folder"
    return exc.strerror or str(exc)


def private_folder(prefix: str) -> Path:
    """A new private temporary folder whose path no reader can take for a pattern."""
    folder = Path(tempfile.mkdtemp(prefix=prefix)).resolve()
    if not is_literal_path(folder):
        shutil.rmtree(folder, ignore_errors=True)
        raise OddsError(
            f"the temporary folder {folder.parent} has pattern characters (* ? [ ] {{ }} ~) in "
            "its path; set TMPDIR to a plain folder"
        )
    return folder


_PATTERN = re.compile(r"[*?\[\]{}]")


def is_literal_path(path: Path | str) -> bool:
    """Whether a path means itself to a reader that expands globs and a leading ``~``."""
    text = str(path)
    return os.path.isabs(text) and not _PATTERN.search(text) and "~" not in text


# ---------------------------------------------------------------------------
# Text lines


@dataclass(frozen=True)
class TextBlock:
    """Consecutive complete lines of a text input, validated: UTF-8, each ended by ``\\n``.

    ``first`` is the number (from 1) of the first line, ``count`` how many lines
    ``data`` holds (CR and CRLF line ends are already ``\\n``; a final line
    without a line end has been given one).
    """

    first: int
    data: bytes
    count: int

    def lines(self) -> list[str]:
        """The lines' texts, without their line ends."""
        return self.data.decode("utf-8").split("\n")[:-1]


def text_blocks(
    source: InputFile, what: str = "log", chunk: int | None = None, encoding: str | None = None
) -> Iterator[TextBlock]:
    """The lines of a text or gzipped text input, in validated blocks (see the module doc).

    ``what`` names the input in messages ("log"). The input's kind must be
    "text" or "gzip" (:meth:`InputFile.kind`); ``chunk`` is the read size
    (default :data:`CHUNK`; small in tests, to put chunk boundaries everywhere);
    ``encoding`` the text's encoding when it is not UTF-8 (UTF-16 is told by itself:
    :func:`_transcoded`).
    """
    label = source.label
    size = CHUNK if chunk is None else chunk
    lines = _Lines(label, what)
    if source.kind() == "gzip":
        stream = gzip.GzipFile(fileobj=source, mode="rb")  # type: ignore[call-overload]
        chunks = _gunzip(stream, label, size)
    else:
        chunks = iter(lambda: source.read(size), b"")
    yield from lines.blocks(_transcoded(chunks, label, what, encoding))


#: The encodings ``--encoding`` names (Python's codec names are accepted too).
ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "cp1252", "latin-1")


def check_encoding(name: str | None) -> str | None:
    """``--encoding``: a codec Python knows, by its canonical name; a one-line error otherwise."""
    if name is None:
        return None
    import codecs

    try:
        return codecs.lookup(name).name
    except LookupError:
        raise OddsError(
            f"--encoding: unknown encoding {name!r} (e.g. {', '.join(ENCODINGS)})"
        ) from None


def _transcoded(
    chunks: Iterator[bytes], label: str, what: str, encoding: str | None
) -> Iterator[bytes]:
    """The bytes as UTF-8: a UTF-16 file (by its byte-order mark or its zero bytes) or one in
    the ``encoding`` given (cp1252 from Excel on Windows …) is decoded as it is read.

    Without ``encoding``, text that is neither UTF-16 nor UTF-8 stops at the first byte that is
    not UTF-8 (:class:`_Lines`), with the remedy (``--encoding cp1252``); a byte the named
    encoding cannot decode is a one-line error naming the line.
    """
    import codecs

    first = b""
    for chunk in chunks:
        first += chunk
        if len(first) >= 8:
            break
    if encoding is None:
        wide = _wide_encoding(first)
        if wide == "UTF-16":
            if first.startswith((b"\xff\xfe", b"\xfe\xff")):
                encoding = "utf-16"
            else:  # an ASCII character's zero byte is second in little-endian order
                encoding = "utf-16-le" if first[1:2] == b"\x00" else "utf-16-be"
    if encoding is None or codecs.lookup(encoding).name == "utf-8":
        if first:
            yield first
        yield from chunks
        return
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    lines = 0
    for chunk in itertools.chain([first], chunks):
        try:
            text = decoder.decode(chunk)
        except UnicodeDecodeError as exc:
            line = lines + decoder_line(chunk, exc.start, encoding)
            raise OddsError(
                f"{label} line {line}: not {encoding} text (byte 0x{chunk[exc.start]:02x}); "
                f"give the {what}'s encoding with --encoding"
            ) from None
        lines += text.count("\n")
        yield text.encode("utf-8")
    try:
        tail = decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        raise OddsError(f"{label}: the {what} ends inside a {encoding} character") from None
    if tail:
        yield tail.encode("utf-8")


def decoder_line(chunk: bytes, offset: int, encoding: str) -> int:
    """The line (from 1, within ``chunk``) of the byte at ``offset`` (the bytes before decoded
    leniently)."""
    return chunk[:offset].decode(encoding, errors="replace").count("\n") + 1


def _gunzip(stream: gzip.GzipFile, label: str, size: int) -> Iterator[bytes]:
    try:
        while chunk := stream.read(size):
            yield chunk
    except (OSError, EOFError, zlib.error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
        raise OddsError(f"{label}: not a readable gzip file ({reason})") from None


#: Bytes that are never in a text log: C0 controls other than tab, line feed and carriage return.
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
#: Every other byte (``bytes.translate`` deletes them: what is left is a control byte).
_NOT_CONTROL = bytes(b for b in range(256) if not _CONTROL.match(bytes([b])))


class _Lines:
    """The state of splitting a byte stream into validated lines (see :func:`text_blocks`)."""

    def __init__(self, label: str, what: str) -> None:
        self.label, self.what = label, what
        self.ending: bytes | None = None  # b"\n" (LF or CRLF) or b"\r" (CR alone)
        self.done = 0  # lines emitted

    def fail(self, body: bytes, offset: int, problem: str) -> OddsError:
        line = self.done + 1 + body.count(b"\n", 0, offset)
        return OddsError(f"{self.label} line {line}: {problem}")

    def blocks(self, chunks: Iterator[bytes]) -> Iterator[TextBlock]:
        carry = b""
        started = False
        for chunk, end in _with_end(chunks):
            data = carry + chunk
            if not started:
                if len(data) < 8 and not end:  # too little to tell the encoding yet
                    carry = data
                    continue
                data, started = self._start(data), True
            held = b""
            if not end and data.endswith(b"\r"):  # its \n may start the next chunk
                data, held = data[:-1], b"\r"
            if self.ending is None:
                self.ending = _ending(data, end)
            body = self._normalise(data)
            self._check(body, end)
            cut = len(body) if end else body.rfind(b"\n") + 1
            complete, carry = body[:cut], body[cut:] + held
            if len(carry) > MAX_LINE:
                raise self.fail(body, cut, self._too_long())
            if not complete:
                continue
            if not complete.endswith(b"\n"):
                complete += b"\n"
            self._check_lengths(complete)
            count = complete.count(b"\n")
            yield TextBlock(self.done + 1, complete, count)
            self.done += count

    def _start(self, data: bytes) -> bytes:
        """The first bytes: other encodings named, a UTF-8 byte-order mark dropped."""
        encoding = _wide_encoding(data)
        if encoding is not None:
            raise OddsError(f"{self.label}: {encoding} text; save the {self.what} as UTF-8")
        return data[3:] if data.startswith(b"\xef\xbb\xbf") else data

    def _normalise(self, data: bytes) -> bytes:
        """Line ends as \\n; a line end of the other kind than the file's is an error."""
        if self.ending == b"\r":
            body = data.replace(b"\r", b"\n")
            stray = data.find(b"\n")
            if stray >= 0:
                raise self.fail(
                    body,
                    stray,
                    "a line feed in a file whose lines end in a carriage return alone "
                    "(mixed line endings)",
                )
            return body
        return data.replace(b"\r\n", b"\n")

    def _check(self, body: bytes, end: bool) -> None:
        """The first byte that is not text: a control byte, a lone carriage return, bad UTF-8."""
        problems = []
        if body.translate(None, _NOT_CONTROL):
            found = _CONTROL.search(body)
            assert found is not None
            byte = found.group()
            name = "a NUL byte" if byte == b"\x00" else f"a control byte 0x{byte[0]:02x}"
            problems.append((found.start(), f"{name}: not a text {self.what}"))
        cr = body.find(b"\r")
        if cr >= 0:
            problems.append(
                (
                    cr,
                    "a carriage return inside a line (mixed line endings: the file's lines end "
                    "in a line feed)",
                )
            )
        stop = min(problems)[0] if problems else len(body)
        if not body.isascii():
            try:
                body[:stop].decode("utf-8")
            except UnicodeDecodeError as exc:
                cut_short = exc.reason == "unexpected end of data" and exc.end == stop
                if not cut_short or end or problems:  # else: a character the next chunk ends
                    problems = [(exc.start, self._utf8_problem(body, exc.start))]
        if problems:
            offset, problem = min(problems)
            raise self.fail(body, offset, problem)

    def _utf8_problem(self, body: bytes, offset: int) -> str:
        return (
            f"not UTF-8 text (byte 0x{body[offset]:02x}); give its encoding with --encoding "
            "(cp1252 for a file Excel saved on Windows) or save the "
            f"{self.what} as UTF-8"
        )

    def _too_long(self) -> str:
        return f"a line longer than {MAX_LINE // 1024} KiB: not a {self.what}"

    def _check_lengths(self, complete: bytes) -> None:
        if len(complete) <= MAX_LINE:
            return
        import numpy as np

        ends = np.flatnonzero(np.frombuffer(complete, dtype=np.uint8) == 10)
        lengths = np.diff(ends, prepend=-1) - 1
        longest = int(np.argmax(lengths))
        if lengths[longest] > MAX_LINE:
            start = int(ends[longest - 1]) + 1 if longest else 0
            raise self.fail(complete, start, self._too_long())


def _with_end(chunks: Iterator[bytes]) -> Iterator[tuple[bytes, bool]]:
    """Each chunk with whether it is the last."""
    previous = next(chunks, None)
    if previous is None:
        return
    for chunk in chunks:
        yield previous, False
        previous = chunk
    yield previous, True


def _ending(data: bytes, end: bool) -> bytes | None:
    """The file's line end, from its first one: b"\\n" (LF, CRLF) or b"\\r"; None: none yet."""
    found = re.search(rb"[\r\n]", data)
    if found is None:
        return None
    if found.group() == b"\n":
        return b"\n"
    after = data[found.start() + 1 : found.start() + 2]
    if after == b"\n":
        return b"\n"
    if after or end:
        return b"\r"
    return None  # pragma: no cover - a trailing \r is held back for the next chunk


def _wide_encoding(data: bytes) -> str | None:
    """UTF-32 or UTF-16 by their byte-order mark, or by the zero bytes of mostly-ASCII text."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "UTF-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "UTF-16"
    head = data[: min(len(data), 4096) // 4 * 4]
    if len(head) < 8 or b"\x00" not in head:
        return None
    if not (any(head[2::4]) or any(head[3::4])) or not (any(head[0::4]) or any(head[1::4])):
        return "UTF-32"  # every character below U+10000 has two zero bytes
    even, odd = (head[i::2].count(0) / (len(head) // 2) for i in (0, 1))
    if max(even, odd) >= 0.3 and min(even, odd) <= 0.05:
        return "UTF-16"  # ASCII characters have a zero byte, always on the same side
    return None


# ---------------------------------------------------------------------------
# Small inputs read whole (paytables)

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
