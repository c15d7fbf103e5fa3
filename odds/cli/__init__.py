"""The ``odds`` command line (typer): a thin layer over the Python API.

Commands parse arguments, call the library and print; each group lives in its
own module and registers itself on :data:`odds.cli.app.app`:

* :mod:`odds.cli.analysis` — ``report``, ``settle``, ``strength``, ``crosscheck``
* :mod:`odds.cli.maintenance` — ``reports``, ``bench``
* :mod:`odds.cli.auditing` — ``verify``, ``audit``, ``simulate``, ``solve``
"""

from odds.cli import analysis, auditing, maintenance
from odds.cli.app import app, main

__all__ = ["analysis", "app", "auditing", "main", "maintenance"]
