"""Report codes of match slips, so that a printed slip reports its own match.

Each player of a match gets a code of their own, printed on their half of the slip with a
QR code of ``{base_url}/s/{code}``: a player opens it on a phone and reports, and the
opponent confirms with the code on their own half. A code reports as its holder only,
so a confirmed report proves that both players' codes were used, not merely that someone
held the slip. The code is the only credential, so it is treated like an API token: drawn
from the OS random source by the shell (``draw`` is an input), shown once on the slip,
stored only as its SHA-256, and good for one match of one round. Issuing again for a
match replaces its codes, so a lost or reprinted slip's old codes stop working.

Codes are 8 characters from 31 that cannot be mistaken for each other when read off
paper or typed on a phone (no 0/O, no 1/I/L): 31^8 is about 8.5 x 10^11 codes, and
``/s/`` bounds wrong guesses (commands.api.guesses). They are shown grouped
(``K7QX-3MPA``) and accepted in either case, with or without the dash.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import datetime

from commands.errors import InvalidCommand, WrongPhase
from ledger.store import SlipCodeEntry, Store
from projections.state import TournamentState

#: digits and capitals without look-alikes: no 0/O, no 1/I/L
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 8
GROUP = 4
Draw = Callable[[str], str]


def new_code(draw: Draw) -> str:
    """A code of ``LENGTH`` characters, each drawn from ``ALPHABET``, shown grouped."""
    return shown("".join(draw(ALPHABET) for _ in range(LENGTH)))


def shown(code: str) -> str:
    """A normalized code as printed and displayed: ``K7QX-3MPA``."""
    return f"{code[:GROUP]}-{code[GROUP:]}"


def normalized(text: str) -> str | None:
    """The code as typed or scanned (either case, with or without the dash and spaces),
    in its stored form; None when it cannot be a code (wrong length or a character
    no code has), so a mistyped code is refused without a lookup."""
    code = text.replace("-", "").replace(" ", "").upper()
    if len(code) != LENGTH or any(ch not in ALPHABET for ch in code):
        return None
    return code


def code_hash(code: str) -> str:
    """The SHA-256 that the store keeps of a normalized code (never the code)."""
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def hash_of(text: str) -> str | None:
    """The stored hash of a code as typed, or None when the text is no code."""
    code = normalized(text)
    return code_hash(code) if code is not None else None


def issue_codes(
    store: Store, state: TournamentState, round_number: int, *, now: datetime,
    draw: Draw = secrets.choice, table: int | None = None,
) -> dict[str, str]:  # fmt: skip
    """A fresh code for each player of every two-player match of a paired round, keyed by
    the player, in table order; the store keeps only the hashes, each with its holder.
    Issuing again replaces each player's earlier code (and a match's single code from
    before players held their own); a bye gets none. With ``table``, that table's match
    only: the other tables keep their codes. A round that was never paired is refused
    (WrongPhase), and so is a table the round does not have (InvalidCommand)."""
    rnd = state.round(round_number)
    if rnd is None:
        raise WrongPhase(f"round {round_number} is not paired")
    matches = [m for m in rnd.matches if not m.is_bye and table in (None, m.table)]
    if table is not None and not matches:
        raise InvalidCommand(f"round {round_number} has no table {table} with a match slip")
    codes: dict[str, str] = {}
    entries: list[SlipCodeEntry] = []
    taken: set[str] = set()
    for match in matches:
        first, second = match.players[0], match.players[1]
        for holder, opponent in ((first, second), (second, first)):
            code, digest = fresh_code(store, draw, taken)
            codes[holder] = code
            entries.append(SlipCodeEntry(digest, state.id, round_number, (holder, opponent),
                                         now, player=holder))  # fmt: skip
    store.put_slip_codes(entries)
    return codes


def fresh_code(store: Store, draw: Draw, taken: set[str]) -> tuple[str, str]:
    """A code (and its hash) that no other player has, in this batch or in the store: a
    collision is rare (31^8 codes) but would let one code report as another player."""
    while True:
        code = new_code(draw)
        digest = code_hash(code.replace("-", ""))
        if digest not in taken and store.slip_code(digest) is None:
            taken.add(digest)
            return code, digest
