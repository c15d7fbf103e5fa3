"""Exact numbers: parsing paytable rationals and printing fractions.

Floats never enter a computation; they appear only in :func:`decimal`, which
formats an exact value for people to read.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction

from odds.errors import OddsError


def parse_rational(value: object, where: str) -> Fraction:
    """Read a paytable number exactly: ``2``, ``1.5``, ``"3/2"``, ``"5%"``.

    A TOML float is read through its decimal text (``0.05`` is 1/20, not the
    nearest binary double), so what the auditor wrote is what is computed.

    >>> parse_rational("5%", "x"), parse_rational(1.5, "x"), parse_rational("3/2", "x")
    (Fraction(1, 20), Fraction(3, 2), Fraction(3, 2))
    """
    if isinstance(value, bool):
        raise OddsError(f"{where}: expected a number, got {value!r}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, str):
        text = value.strip()
        try:
            if text.endswith("%"):
                return Fraction(text[:-1].strip()) / 100
            return Fraction(text)
        except (ValueError, ZeroDivisionError):
            pass
    raise OddsError(f"{where}: expected a number such as 2, 1.5, '3/2' or '5%', got {value!r}")


def fraction_text(value: Fraction | int) -> str:
    """Python's ``Fraction`` string form, the JSON encoding of exact numbers.

    >>> fraction_text(Fraction(-43, 415)), fraction_text(Fraction(2))
    ('-43/415', '2')
    """
    return str(Fraction(value))


def decimal(value: Fraction | int, digits: int = 6) -> str:
    """Round an exact value half-even to ``digits`` decimals, for printing only.

    >>> decimal(Fraction(2, 3), 4), decimal(Fraction(-1, 8), 2)
    ('0.6667', '-0.12')
    """
    value = Fraction(value)
    with localcontext() as ctx:
        ctx.prec = 200
        exact = Decimal(value.numerator) / Decimal(value.denominator)
        quantum = Decimal(1).scaleb(-digits)
        text = str(exact.quantize(quantum, rounding=ROUND_HALF_EVEN))
    if text.startswith("-") and Decimal(text) == 0:
        text = text[1:]
    return text


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
