"""``python -m odds`` and the ``odds`` console script."""

import gc
import signal
import sys


def run() -> None:
    try:  # Ctrl-C while the command line loads: the same one line as later on
        from odds.cli import main
    except KeyboardInterrupt:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        sys.stderr.write("error: interrupted\n")
        sys.exit(130)
    code = main()
    # A second Ctrl-C while the interpreter shuts down (joining a pool's thread) would
    # print a ``threading`` traceback after the one line already given: ignored now.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The process ends now. Python's shutdown runs the cycle collector over every object
    # still alive, and a blackjack report keeps millions of table entries for later
    # analyses (~0.4 s of a 4 s report); frozen objects are skipped. Reference counting
    # still frees them. Only here, not in ``main``: tests call ``main`` in one process.
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
