"""The head a player photographs from a slip page is a whole witness: the page prints
``seq N`` and all 64 hex digits, and ``verify --witness`` checks the line as copied; so
does ``tledger status``, on one line however narrow the terminal."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.test_cli import SWISS8, cli
from tests.e2e.test_slip_report import client, make_event


def test_the_slip_page_prints_the_whole_head_and_verify_takes_it_as_copied(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'slips.sqlite3'}"
    event = make_event(url)
    page = client(event).get(f"/s/{event.codes['p1']}").text
    found = re.search(r'class="witness">[^<]*<code>(seq \d+ [0-9a-f]+)</code>', page)
    assert found is not None, page
    line = found.group(1)
    state = event.handler.folds.state(event.id)
    assert line == f"seq {state.seq} {state.head}" and len(state.head) == 64
    done = cli("verify", event.id, "--witness", "-", "--store", url, stdin=line + "\n")
    assert done.exit_code == 0, done.stderr
    assert f"(seq {state.seq}): ok\n" in done.stdout


def test_status_prints_the_witness_whole_on_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'swiss8.sqlite3'}"
    assert cli("apply", str(SWISS8), "--store", url).exit_code == 0
    shown = cli("status", "swiss8", "--store", url).stdout.splitlines()
    line = shown[shown.index("witness (for verify --witness):") + 1]
    assert re.fullmatch(r"seq 27 [0-9a-f]{64}", line), line
    done = cli("verify", "swiss8", "--witness", "-", "--store", url, stdin=line + "\n")
    assert done.exit_code == 0 and "(seq 27): ok" in done.stdout
