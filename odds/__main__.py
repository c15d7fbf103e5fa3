"""``python -m odds`` and the ``odds`` console script."""

import contextlib
import gc
import os
import signal
import sys

#: Exit statuses of a run stopped by a signal (Ctrl-C, SIGHUP, SIGTERM).
STOPPED = (130, 129, 143)


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
    if code in STOPPED:
        # Stopped by Ctrl-C, SIGTERM or SIGHUP: the one line is printed and every temporary
        # file removed. Python's exit hooks would now wake and join a killed process pool's
        # thread (under load that raced and printed a traceback, or waited): skip them.
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)
    # The process ends now. Python's shutdown runs the cycle collector over every object
    # still alive, and a blackjack report keeps millions of table entries for later
    # analyses (~0.4 s of a 4 s report); frozen objects are skipped. Reference counting
    # still frees them. Only here, not in ``main``: tests call ``main`` in one process.
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
