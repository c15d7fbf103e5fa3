"""Output streams that never crash on a symbol they cannot carry.

Reports print suits (``♠ ♥ ♦ ♣``), tiles and signs (``×``, ``≈``, ``−``). When
standard output is a file or pipe in an encoding without them (``cp1252``,
``ascii``), each such character is written as its ASCII stand-in instead of
raising ``UnicodeEncodeError``: suits become ``s h d c`` (how cards are typed
anyway), signs their plain forms, anything else ``?``.
"""

from __future__ import annotations

import codecs
import sys
from typing import TextIO

#: ASCII stand-ins for the symbols the tool prints.
STAND_INS = {
    "♠": "s",
    "♥": "h",
    "♦": "d",
    "♣": "c",
    "×": "x",
    "≈": "~",
    "−": "-",
    "–": "-",
    "—": "-",
    "…": "...",
    "≤": "<=",
    "≥": ">=",
    "±": "+/-",
    "·": "*",
    "√": "sqrt",
    "→": "->",
    "‘": "'",
    "’": "'",
    "“": '"',
    "”": '"',
    "½": "1/2",
    "²": "^2",
    "χ": "chi",
    "α": "alpha",
    "Σ": "sum",
    "δ": "delta",
}

ERRORS = "odds-stand-in"


def _stand_in(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    text = error.object[error.start : error.end]
    return "".join(STAND_INS.get(ch, "?") for ch in text), error.end


codecs.register_error(ERRORS, _stand_in)


def can_carry(stream: TextIO, text: str = "♠♥♦♣") -> bool:
    """Whether ``stream``'s encoding can write ``text``."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def protect(stream: TextIO | None) -> None:
    """Make ``stream`` write stand-ins for characters its encoding lacks."""
    if stream is None or can_carry(stream, "♠♥♦♣×≈−"):
        return
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors=ERRORS)


def protect_standard_streams() -> None:
    """Protect stdout and stderr (called once by the CLI)."""
    protect(sys.stdout)
    protect(sys.stderr)


def terminal_width(stream: TextIO | None = None) -> int | None:
    """The width of the terminal ``stream`` (standard output) writes to; ``None``: not a terminal.

    ``COLUMNS`` wins when it holds a positive number (as for every program that lays
    out text: a user may set it, and ``less``, ``ls`` and rich read it); otherwise the
    window's own size. A terminal that reports no size is taken as 80 columns wide.
    """
    import os

    stream = sys.stdout if stream is None else stream
    try:
        if stream is None or not stream.isatty():
            return None
    except (AttributeError, ValueError):  # a closed or replaced stream
        return None
    given = os.environ.get("COLUMNS", "")
    if given.isascii() and given.isdigit() and int(given) > 0:
        return int(given)
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 80
    return columns if columns > 0 else 80
