"""The whole suite: the ``tledger`` command line run in process is built once.

``typer.testing.CliRunner.invoke`` turns the Typer app into its Click command on every
call, reading the signature and type hints of every command: about 0.1 s, more than
most commands take to run. The tests invoke the same app hundreds of times, so the
command is built once per app and reused (a Click command keeps no state between runs).
"""

from __future__ import annotations

from functools import cache

import typer.main
import typer.testing

typer.testing._get_command = cache(typer.main.get_command)
