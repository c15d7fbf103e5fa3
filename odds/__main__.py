"""``python -m odds`` and the ``odds`` console script."""

import gc
import sys

from odds.cli import main


def run() -> None:
    code = main()
    # The process ends now. Python's shutdown runs the cycle collector over every object
    # still alive, and a blackjack report keeps millions of table entries for later
    # analyses (~0.4 s of a 4 s report); frozen objects are skipped. Reference counting
    # still frees them. Only here, not in ``main``: tests call ``main`` in one process.
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
