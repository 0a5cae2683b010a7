"""``tledger serve --venue`` as a real process on SQLite: the addresses phones reach, the
one line that says binding beyond loopback is a decision, a QR code of the public page,
slips printed from the console carrying the venue's address, and ``--tz`` (the venue's
zone named on the pages; an unknown one refused in one line). ``tledger print welcome``:
the sheet for the door, and its one-line errors."""

from __future__ import annotations

import re
import select
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from commands.cli.venue import DECISION, venue_addresses
from commands.pages.qr import qr_svg
from commands.tokens import create_token
from ledger.url import open_store

TLEDGER = str(Path(sys.executable).with_name("tledger"))
ROOT = Path(__file__).resolve().parents[2]
SWISS8 = ROOT / "examples" / "swiss8.jsonl"


@pytest.fixture
def store(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path}/venue.sqlite3"
    subprocess.run([TLEDGER, "apply", str(SWISS8), "--store", url], check=True,
                   capture_output=True)  # fmt: skip
    return url


@contextmanager
def serving(store: str, *options: str) -> Iterator[list[str]]:
    """``tledger serve --port 0`` with ``options``: the lines it prints before the first
    request (up to and with the QR code, or the caps line without one); read unbuffered,
    so that ``select`` never waits for a line already read into a buffer."""
    proc = subprocess.Popen([TLEDGER, "serve", "--port", "0", "--store", store, *options],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            bufsize=0)  # unbuffered: select sees each line  # fmt: skip
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        while True:
            ready, _, _ = select.select([proc.stdout], [], [], 20)
            line = proc.stdout.readline().decode() if ready else ""
            if not line:
                raise RuntimeError(f"the server stopped talking: {lines}")
            lines.append(line.rstrip("\n"))
            drawn = lines[-1] and set(lines[-1]) <= {"▀"}  # the QR code's last row
            if drawn or (lines[-1].startswith("at most") and "--venue" not in options):
                break
        yield lines
    finally:
        proc.kill()
        proc.wait()


def sign_in(base: str, store: str) -> httpx.Client:
    http = httpx.Client(base_url=base, timeout=30, follow_redirects=False)
    secret = create_token(open_store(store), "organizer", None, None, label="desk")
    assert http.post("/console/login", data={"token": secret}).status_code == 303
    return http


def test_serve_without_venue_stays_on_loopback_and_says_no_decision(store: str) -> None:
    with serving(store) as lines:
        assert re.match(r"tledger serving http://127\.0\.0\.1:\d+ \(store ", lines[0])
        assert DECISION not in lines and "times shown in " in "\n".join(lines)


def test_listening_beyond_loopback_without_venue_is_said_too(store: str) -> None:
    with serving(store, "--host", "0.0.0.0") as lines:
        assert re.match(r"tledger serving http://127\.0\.0\.1:\d+ ", lines[0])
        assert lines[1] == DECISION


def test_serve_venue_prints_the_addresses_the_decision_and_the_public_pages_qr(
    store: str,
) -> None:
    found = venue_addresses()
    if not found:
        pytest.skip("this machine has no address on a network besides loopback")
    with serving(store, "--venue", "--tz", "Europe/Berlin") as lines:
        said = "\n".join(lines)
        port = re.search(r"tledger serving http://[^:]+:(\d+)", lines[0])
        assert port is not None and lines[0].startswith(f"tledger serving http://{found[0]}:")
        base = f"http://{found[0]}:{port.group(1)}"
        assert lines[1] == DECISION, "said in one line, at once"
        assert f"phones on this network reach it at {base}" in said
        assert f"slips and the welcome sheet carry {base}" in said
        assert "times shown in Europe/Berlin" in said
        assert f"public page of swiss8: {base}/t/swiss8" in said
        assert sum(1 for line in lines if set(line) <= set("█▀▄ ") and line) > 10, "a QR code"
        console = sign_in(base, store)
        slips = console.post("/console/t/swiss8/print/slips", data={})
        assert slips.status_code == 200 and f"{base}/s/" in slips.text
        round_page = console.get("/console/t/swiss8/round").text
        assert f"Report codes will carry <code>{base}/s/…</code>" in round_page
        welcome = console.get("/console/t/swiss8/print/welcome")
        assert qr_svg(f"{base}/t/swiss8") in welcome.text
        assert re.search(r"printed \d{4}-\d\d-\d\d \d\d:\d\d CES?T", welcome.text)


def test_a_base_url_names_what_slips_carry_behind_a_proxy(store: str) -> None:
    with serving(store, "--base-url", "https://tables.example.org/") as lines:
        assert "slips and the welcome sheet carry https://tables.example.org" in lines
        assert DECISION not in lines, "still on loopback"
        base = re.search(r"http://[^ ]+", lines[0])
        assert base is not None
        slips = sign_in(base.group(0), store).post("/console/t/swiss8/print/slips", data={})
        assert slips.status_code == 200 and "https://tables.example.org/s/" in slips.text


@pytest.mark.parametrize(
    ("options", "error"),
    [(["--tz", "Mars/Olympus"], "error: serve: unknown time zone 'Mars/Olympus'"),
     (["--base-url", "tables.example.org"], "error: serve: --base-url 'tables.example.org' "
      "is not an http:// or https:// address")],
)  # fmt: skip
def test_a_bad_venue_option_is_one_line_and_no_server(
    store: str, options: list[str], error: str
) -> None:
    done = subprocess.run([TLEDGER, "serve", "--port", "0", "--store", store, *options],
                          capture_output=True, text=True, timeout=30)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(error) and done.stderr.count("\n") == 1


def test_print_welcome_writes_the_sheet_for_the_door(store: str, tmp_path: Path) -> None:
    out = tmp_path / "welcome.html"
    done = subprocess.run([TLEDGER, "print", "swiss8", "welcome", "--base-url",
                           "http://192.168.1.10:8000", "--wifi", "Guest / meeple42", "--tz",
                           "Europe/Berlin", "-o", str(out), "--store", store],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert qr_svg("http://192.168.1.10:8000/t/swiss8") in html and "Guest / meeple42" in html
    assert re.search(r"printed \d{4}-\d\d-\d\d \d\d:\d\d CES?T", html)
    assert "warning" not in done.stderr
    off = subprocess.run([TLEDGER, "public", "swiss8", "--off", "--store", store],
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert off.returncode == 0, off.stderr
    again = subprocess.run([TLEDGER, "print", "swiss8", "welcome", "--base-url",
                            "http://192.168.1.10:8000", "-o", str(out), "--store", store],
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert again.returncode == 0 and "warning: the public page of swiss8 is off" in again.stderr


@pytest.mark.parametrize(
    ("args", "error"),
    [(["welcome"], "error: print: welcome needs --base-url"),
     (["pairings", "--wifi", "x"], "error: print: --wifi applies to welcome, not to pairings"),
     (["standings", "--tz", "Nowhere/Land"], "error: print: unknown time zone 'Nowhere/Land'")],
)  # fmt: skip
def test_print_refuses_a_bad_venue_option_in_one_line(
    store: str, args: list[str], error: str
) -> None:
    done = subprocess.run([TLEDGER, "print", "swiss8", *args, "--store", store],
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 2 and done.stderr.startswith(error), done.stderr
    assert done.stderr.count("\n") == 1
