"""What the command line writes besides grids: JSON on stdout, a file or standard output
for every ``-o`` (``-`` is standard output), and each named error as one line on stderr
with its exit code, the contract's: 0 ok, 2 input that does not fit the contract, 1 a
command the ledger refuses or an unknown tournament, 3 a store or integrity failure."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn

import typer


def fail(message: str, code: int) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


@contextmanager
def reported_errors(prefix: str = "", same: str = "") -> Iterator[None]:
    """Turn every named error into one line on stderr and its exit code.

    ``prefix`` names the CLI's own command ("report: "); a message that starts with
    ``same`` (the contract's name of that command, "report_result: ") says it once,
    in the CLI's words."""
    from commands.errors import CommandError
    from ledger.errors import InvalidExport, LedgerError
    from projections.errors import ProjectionError
    from replay.errors import ReplayError

    def said(exc: Exception) -> str:
        """The message with the prefix once (a command's own errors may start with it)."""
        text = str(exc)
        if same and text.startswith(same):
            text = text[len(same) :]
        return text if text.startswith(prefix) else f"{prefix}{text}"

    try:
        yield
    except CommandError as exc:
        fail(said(exc), exc.exit_code)
    except (ProjectionError, ReplayError) as exc:
        fail(said(exc), 1)
    except InvalidExport as exc:
        fail(said(exc), 2)
    except LedgerError as exc:
        fail(said(exc), 3)


def print_json(data: Any) -> None:
    import orjson

    sys.stdout.write(orjson.dumps(data).decode() + "\n")


def read_source(source: str) -> bytes:
    """FILE or standard input (``-``) as bytes, or a one-line error (exit 2). Callers
    decode per line, so that a byte that is not UTF-8 is reported with its line, and
    only a line feed or a carriage return ends a line (not a U+2028 inside a string)."""
    if source == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(source).read_bytes()
    except OSError as exc:
        fail(f"cannot read {source}: {exc.strerror}", 2)


def write_output(target: str, data: bytes, command: str) -> bool:
    """``data`` to standard output (``target`` ``-``, as ``read_source`` reads ``-`` from
    standard input), else to the file ``target``; True when a file was written.
    A file is written whole or not at all: a temporary file beside it, synced, then
    renamed over it (readable by all, as any file the organizer saves). A file that
    cannot be written is one error line naming it (exit 2)."""
    if target == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return False
    path = Path(target)
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.",
                                             suffix=".tmp")  # fmt: skip
    except OSError as exc:
        fail(f"{command}: cannot write {path}: {exc.strerror or exc}", 2)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        fail(f"{command}: cannot write {path}: {exc.strerror or exc}", 2)
    return True
