"""The ``odds`` command line (typer): a thin layer over the Python API.

Commands parse arguments, call the library and print; each group lives in its
own module and registers itself on :data:`odds.cli.app.app`:

* :mod:`odds.cli.analysis` — ``report``, ``settle``, ``strength``, ``crosscheck``
* :mod:`odds.cli.maintenance` — ``reports``, ``bench``
* :mod:`odds.cli.auditing` — ``verify``, ``audit``, ``simulate``, ``solve``
* :mod:`odds.cli.info` — ``games``
* :mod:`odds.cli.shoe` — ``shoe``, ``eor``, ``exposure``
* :mod:`odds.cli.compare` — ``compare``, ``sweep``
* :mod:`odds.cli.splitting` — ``split`` (blackjack's pairs)
"""

from odds.cli import analysis, auditing, compare, info, maintenance, shoe, splitting
from odds.cli.app import app, main

__all__ = [
    "analysis",
    "app",
    "auditing",
    "compare",
    "info",
    "main",
    "maintenance",
    "shoe",
    "splitting",
]
