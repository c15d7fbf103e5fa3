"""Exact numbers: parsing paytable rationals and printing fractions.

Floats never enter a computation; they appear only in :func:`decimal`, which
formats an exact value for people to read.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from typing import Any

from odds.core.caching import cached
from odds.core.errors import OddsError, shortened

#: The largest size a paytable number, stake or share may have (a payout of 10^12 to 1 is
#: already absurd); bounds are checked on the text, before any Fraction is built, because
#: ``Fraction("1e999999999")`` would compute a billion-digit integer.
MAX_MAGNITUDE = 10**12
#: The most decimals a number may carry (1e-30 is exact enough for any share).
MAX_DECIMALS = 30
#: Numbers in the ASCII digits 0-9 alone (``\d`` would take ``٢`` and ``２`` as 2: issue 33).
_DECIMAL = re.compile(r"^[+-]?(?:([0-9]+)(?:\.([0-9]*))?|\.([0-9]+))(?:[eE]([+-]?[0-9]+))?$")
_RATIO = re.compile(r"^([+-]?[0-9]+)\s*/\s*([0-9]+)$")
_EXAMPLES = "a number such as 2, 1.5, '3/2' or '5%'"


def read_toml(text: str, where: str) -> dict[str, Any]:
    """TOML data with every float read exactly, as a :class:`~decimal.Decimal` of its text.

    ``tomllib`` would read ``11.123456789012345678901234567890`` as the nearest
    binary double (5561728394506173/500000000000000): read as written, the
    value then meets the documented limits (:data:`MAX_MAGNITUDE`,
    :data:`MAX_DECIMALS`) in :func:`parse_rational`. Input the reader cannot
    take is a one-line error naming ``where``: a syntax error, nesting deeper
    than Python's recursion allows, an integer longer than Python's limit for
    reading integers (4,300 digits).

    >>> read_toml("x = 0.1", "t")["x"]
    Decimal('0.1')
    >>> read_toml("x = " + "[" * 5000 + "]" * 5000, "t.toml")
    Traceback (most recent call last):
    odds.OddsError: t.toml: not valid TOML (nested too deeply)

    A text read again in the same run (a paytable and its definition, ``odds games``' every
    file) is parsed once: each caller gets its own copy of the tables and arrays.
    """
    data: dict[str, Any] = _copied(_parsed(text, where))
    return data


def _copied(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return [_copied(v) for v in value] if isinstance(value, list) else value


@cached(maxsize=64)
def _parsed(text: str, where: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise OddsError(f"{where}: not valid TOML ({exc})") from None
    except RecursionError:
        raise OddsError(f"{where}: not valid TOML (nested too deeply)") from None
    except ValueError as exc:  # int(): "Exceeds the limit (4300 digits) for integer string ..."
        if "digits" not in str(exc):
            raise
        limit = _int_digits_limit()
        raise OddsError(
            f"{where}: an integer with more than {limit:,} digits (the most Python reads; "
            f"paytable numbers are {_LIMITS})"
        ) from None


def _int_digits_limit() -> int:
    import sys

    return sys.get_int_max_str_digits() or sys.int_info.default_max_str_digits


#: The largest seed any command takes: seeds are labels, and 2^128 is numpy's SeedSequence
#: entropy; every command takes the same range (``exposure``'s needs it non-negative).
MAX_SEED = 2**128


def check_seed(seed: int, option: str = "--seed") -> int:
    """A seed from 0 to 2^128 − 1, the same for every command.

    >>> check_seed(-1)
    Traceback (most recent call last):
    odds.OddsError: --seed must be a whole number from 0 to 2^128 - 1, got -1
    """
    if not 0 <= seed < MAX_SEED:
        raise OddsError(f"{option} must be a whole number from 0 to 2^128 - 1, got {seed}")
    return seed


def check_count(value: int, option: str, most: int, why: str, least: int = 1) -> int:
    """A count of work (rounds, trials, repeats) within bounds, known before any work starts.

    >>> check_count(10**22, "--rounds", 10**9, "tens of GB")
    Traceback (most recent call last):
    odds.OddsError: --rounds 10000000000000000000000: at most 1,000,000,000 (tens of GB)
    """
    if value < least:
        raise OddsError(f"{option} must be at least {least}, got {value}")
    if value > most:
        shown = shortened(str(value)) if value < 10**4000 else "(thousands of digits)"
        raise OddsError(f"{option} {shown}: at most {most:,} ({why})")
    return value


def parse_rational(value: object, where: str, *, percent: bool = True) -> Fraction:
    """Read a paytable number exactly: ``2``, ``1.5``, ``"3/2"``, ``"5%"``.

    A TOML float is read through its decimal text (``0.05`` is 1/20, not the
    nearest binary double), so what the auditor wrote is what is computed.
    ``percent=False`` refuses ``5%`` (a stake is an amount, not a share).
    Infinity, NaN and numbers beyond :data:`MAX_MAGNITUDE` or
    :data:`MAX_DECIMALS` are one-line errors, found before any conversion.

    >>> parse_rational("5%", "x"), parse_rational(1.5, "x"), parse_rational("3/2", "x")
    (Fraction(1, 20), Fraction(3, 2), Fraction(3, 2))
    >>> parse_rational("1e999999999", "--stake")
    Traceback (most recent call last):
    odds.OddsError: --stake: 1e999999999 is out of range (at most 10^12 in size, 30 decimals)
    """
    if isinstance(value, bool):
        raise OddsError(f"{where}: expected a number, got {shortened(repr(value))}")
    if isinstance(value, int):
        if abs(value) > MAX_MAGNITUDE:  # before str(): a 5,000-digit int cannot be printed
            raise OddsError(f"{where}: a whole number beyond 10^12 is out of range ({_LIMITS})")
        return _bounded(Fraction(value), str(value), where)
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise OddsError(f"{where}: expected a finite number, got {value}")
        text = str(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise OddsError(f"{where}: expected a finite number, got {shortened(repr(value))}")
        text = repr(value)
    elif isinstance(value, str):
        text = value.strip()
    else:
        raise OddsError(f"{where}: expected {_EXAMPLES}, got {shortened(repr(value))}")
    scale = Fraction(1)
    if text.endswith("%"):
        if not percent:
            raise OddsError(
                f"{where}: expected an amount, not a percentage, got {shortened(repr(value))}"
            )
        text, scale = text[:-1].strip(), Fraction(1, 100)
    return _bounded(_exact(text, value, where) * scale, text, where)


def _exact(text: str, value: object, where: str) -> Fraction:
    """A decimal or ``a/b`` text as a Fraction, its size checked on the digits first."""
    ratio = _RATIO.match(text)
    if ratio:
        numerator, denominator = ratio.groups()
        if len(numerator) > 40 or len(denominator) > 40:
            raise OddsError(f"{where}: {shortened(text)} is out of range ({_LIMITS})")
        if int(denominator) == 0:
            raise OddsError(f"{where}: {shortened(text)} divides by zero")
        return Fraction(int(numerator), int(denominator))
    match = _DECIMAL.match(text)
    if not match:
        raise OddsError(f"{where}: expected {_EXAMPLES}, got {shortened(repr(value))}")
    whole, decimals, bare, exponent = match.groups()
    digits = (whole or "").lstrip("0") + (decimals or bare or "")
    shift = int(exponent) if exponent and len(exponent) <= 6 else (10**9 if exponent else 0)
    # The value's size is about 10^(len(whole) + shift) and its finest digit 10^-(decimals - shift).
    size = len((whole or "").lstrip("0")) + shift
    finest = len(decimals or bare or "") - shift
    if len(digits) > 60 or size > 13 or finest > MAX_DECIMALS:
        if digits.strip("0"):
            raise OddsError(f"{where}: {shortened(text)} is out of range ({_LIMITS})")
        return Fraction(0)
    return Fraction(text)


_LIMITS = f"at most 10^{len(str(MAX_MAGNITUDE)) - 1} in size, {MAX_DECIMALS} decimals"


def _bounded(result: Fraction, text: str, where: str) -> Fraction:
    if abs(result) > MAX_MAGNITUDE or result.denominator > 10**MAX_DECIMALS:
        raise OddsError(f"{where}: {shortened(text)} is out of range ({_LIMITS})")
    return result


def fraction_text(value: Fraction | int) -> str:
    """Python's ``Fraction`` string form, the JSON encoding of exact numbers.

    >>> fraction_text(Fraction(-43, 415)), fraction_text(Fraction(2))
    ('-43/415', '2')
    """
    return str(Fraction(value))


def decimal(value: Fraction | int, digits: int = 6) -> str:
    """Round an exact value half-even to ``digits`` decimals, for printing only.

    >>> decimal(Fraction(2, 3), 4), decimal(Fraction(-1, 8), 2), decimal(Fraction(-1, 2**21), 9)
    ('0.6667', '-0.12', '-0.000000477')
    """
    value = Fraction(value)
    with localcontext() as ctx:
        ctx.prec = 200
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        quantum = Decimal(1).scaleb(-digits)
        # Fixed-point always: str() would write -4.46E-7 for small values.
        text = format(exact.quantize(quantum, rounding=ROUND_HALF_EVEN), "f")
    if text.startswith("-") and Decimal(text) == 0:
        text = text[1:]
    return text


def grouped(text: str) -> str:
    """A printed decimal with thousands separators, as counts are printed: ``1,303.71``.

    Leaves anything that is not a plain decimal as it is.

    >>> grouped("1303.71"), grouped("-1234567"), grouped("0.000123"), grouped("≈ 5")
    ('1,303.71', '-1,234,567', '0.000123', '≈ 5')
    """
    sign = text[:1] if text[:1] in "+-" else ""
    whole, dot, decimals = text[len(sign) :].partition(".")
    if not whole.isdigit() or not whole.isascii() or (dot and not decimals.isdigit()):
        return text
    return f"{sign}{int(whole):,}{dot}{decimals}"


class Digits(int):
    """``--digits N`` as a user gave it: N decimals of every printed probability, in its unit.

    Renderers take ``digits`` as an int: the decimals of a probability printed as
    a decimal. Printed as a percentage, a plain int gets two fewer (the reports'
    default, 6: 0.172404 and 17.2404% say the same digits); a ``Digits`` gets
    exactly N (``--digits 2``: 1.06%, not 1%). See :func:`percent_places`.
    """


def percent_places(digits: int) -> int:
    """The decimals of a percentage printed in a document of ``digits`` decimals.

    >>> percent_places(6), percent_places(Digits(2)), percent_places(Digits(6))
    (4, 2, 6)
    """
    return int(digits) if isinstance(digits, Digits) else max(0, digits - 2)


def percent(value: Fraction | int, digits: int = 4) -> str:
    """An exact value as a percentage with ``digits`` decimals.

    >>> percent(Fraction(1, 3), 2)
    '33.33%'
    """
    return decimal(Fraction(value) * 100, digits) + "%"


def payout_ratio(net: Fraction | int) -> str:
    """A net win or loss per unit staked in casino notation.

    >>> payout_ratio(Fraction(2)), payout_ratio(Fraction(-1)), payout_ratio(Fraction(19, 20))
    ('wins 2:1', 'loses 1', 'wins 0.95:1')
    >>> payout_ratio(Fraction(0))
    'push'
    """
    net = Fraction(net)
    if net == 0:
        return "push"
    amount = abs(net)
    text = short_number(amount)
    return f"wins {text}:1" if net > 0 else f"loses {text}"


def short_number(value: Fraction | int) -> str:
    """An exact value as people write it: ``7``, ``9.5``, ``0.05``, or ``1/3`` when no decimal ends.

    >>> short_number(Fraction(19, 2)), short_number(Fraction(7)), short_number(Fraction(1, 3))
    ('9.5', '7', '1/3')
    """
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    if denominator != 1:
        return str(value)
    return format(Decimal(value.numerator) / Decimal(value.denominator), "f").rstrip("0")
