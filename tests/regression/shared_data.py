"""Where the real tournaments live (``../shared/data/``), and how to replay them.

Tests skip with a reason when the folder is absent; its files are never copied
into this repository.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from commands.cli.main import app

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


def require_data(sub: str) -> Path:
    folder = DATA / sub
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent: the real-event regression data is not on this machine")
    return folder


def replay(commands: Iterable[dict[str, Any]], store: str, tournament: str) -> dict[str, Any]:
    """Run the commands through ``tledger apply`` and return ``standings --json``."""
    lines = "".join(json.dumps(c) + "\n" for c in commands)
    runner = CliRunner()
    applied = runner.invoke(app, ["apply", "-", "--store", store], input=lines)
    assert applied.exit_code == 0, applied.stderr
    shown = runner.invoke(app, ["standings", tournament, "--json", "--store", store])
    assert shown.exit_code == 0, shown.stderr
    result: dict[str, Any] = json.loads(shown.stdout)
    return result
