"""Full or small: every benchmark runs at its full size by default (``make bench``), and
at a small size with ``--small``.

The small run is a smoke run: ``make test`` runs every benchmark that way
(``test_benchmarks_run.py``) so that none can break unnoticed. It goes through the same
code, prints the same lines and takes a second or two; its figures mean nothing.
"""

from __future__ import annotations

import sys

SMALL = "--small" in sys.argv[1:]
