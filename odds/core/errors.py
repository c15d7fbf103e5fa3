"""The exceptions the CLI turns into one-line errors.

Domain code names what is wrong in the domain's words (a position, an option
path); the CLI maps those names to its flags (``--banker``), so the Python API
never speaks of command-line options it does not have.
"""


def shortened(text: str, most: int = 40) -> str:
    """A long input shown by its ends, so a one-line error stays one readable line.

    >>> shortened("9" * 250 + "%")
    '999999999999999…99999999999999% (251 characters)'
    """
    if len(text) <= most:
        return text
    half = most * 3 // 8
    return f"{text[:half]}…{text[-half:]} ({len(text)} characters)"


class OddsError(ValueError):
    """Bad input: an unknown card, an impossible hand or shoe, a broken paytable.

    The message is a single line that names the problem; the CLI prints it
    after ``error:`` and exits non-zero, never with a traceback. Python code
    catches it as ``odds.OddsError`` (its public name, which tracebacks show).
    """


OddsError.__module__ = "odds"


class NamedInputError(OddsError):
    """A problem with one named input: a position's hand, or a parameter such as ``opponents``.

    ``template`` holds ``{position}`` where the input is named: the API shows
    the name (``banker``), the CLI its flag (``--banker``).

    >>> error = PositionError("banker", "missing {position} (two cards, e.g. '9d 7c')")
    >>> str(error), error.for_flag("--banker")
    ("missing banker (two cards, e.g. '9d 7c')", "missing --banker (two cards, e.g. '9d 7c')")
    """

    def __init__(self, position: str, template: str) -> None:
        self.position = position
        self.template = template
        super().__init__(template.format(position=position))

    def for_flag(self, flag: str) -> str:
        """The message with the input named by its command-line flag."""
        return self.template.format(position=flag)


class PositionError(NamedInputError):
    """A problem with one position's hand (missing, wrong size, impossible)."""


class ParameterError(NamedInputError):
    """A parameter out of range (``opponents``, ``trials``, ``alpha`` …)."""


class ResourceError(OddsError):
    """The machine ran short (memory, temporary disk space): not a fault of the input.

    A subclass of :class:`OddsError`, so every layer that passes a one-line error
    through passes this one too; the CLI tells it apart by its exit status,
    :data:`EXIT_CODE`, because exit 2 says "bad input": a 200,000-round log that
    ran out of memory was honest, and a script must not read its exit status as
    a verdict on the log (issue 33).
    """

    #: The exit status of ``odds`` after a resource error (2 is bad input; 1 and 3 verdicts).
    EXIT_CODE = 4
