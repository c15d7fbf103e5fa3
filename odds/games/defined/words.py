"""Small numbers and totals in words, as the report tables and settle texts of every
definition write them."""

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def in_words(n: int, most: int = 5) -> str:
    """A count in words from "no" to ``most`` (at most seven), else in digits."""
    return _WORDS[n] if 0 <= n <= most else str(n)


def points_text(points: int) -> str:
    """ "1 point", "7 points": how a hand's total reads."""
    return "1 point" if points == 1 else f"{points} points"
