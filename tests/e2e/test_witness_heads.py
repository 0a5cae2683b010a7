"""The head a player photographs from a slip page is a whole witness: the page prints
``seq N`` and all 64 hex digits, and ``verify --witness`` checks the line as copied."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.test_cli import cli
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
