"""The one exception type the CLI turns into a one-line error."""


class OddsError(ValueError):
    """Bad input: an unknown card, an impossible hand or shoe, a broken paytable.

    The message is a single line that names the problem; the CLI prints it
    after ``error:`` and exits non-zero, never with a traceback.
    """
