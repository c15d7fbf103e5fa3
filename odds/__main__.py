"""``python -m odds`` and the ``odds`` console script."""

import sys

from odds.cli import main


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
