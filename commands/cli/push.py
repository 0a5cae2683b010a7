"""``tledger push T --to URL --token TOKEN [--follow]``: the venue's log to a hosted mirror;
``tledger verify T --against URL`` compares the two.

The venue stays the only writer: push asks the mirror for its head, then sends the
events after it in batches as the venue stored them, with their names and the venue's
erasures and its slip codes' hashes (:mod:`commands.cli.mirror_client`), one line per
batch. It then decides the players' reports the mirror holds for the venue, each as
that player's report, and answers the mirror (:mod:`commands.relay`). With ``--follow`` it
tails the local store and pushes each append within a second, and a mirror that does
not answer is asked again with a growing pause, resuming from the head it then
reports: a push cut off at any moment (either side killed) leaves no gap and no
duplicate. A fork (the venue's event at a seq is not the mirror's) exits 3.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Annotated, Any

import typer

from commands.cli.options import StoreOpt
from commands.cli.output import fail, print_json, reported_errors

if TYPE_CHECKING:
    from commands.cli.mirror_client import Mirror, Venue

app = typer.Typer()

#: how often --follow looks at the local store, at its erasures and slip codes, and at
#: the players' reports the mirror holds
TAIL_SECONDS = 0.05
ERASURE_SECONDS = 1.0
RELAY_SECONDS = 1.0
#: slip codes' hashes per push body at most (under the mirror's MAX_BATCH)
CODES_PER_BODY = 4000
#: the pauses between attempts to reach a mirror that does not answer
FIRST_PAUSE, LONGEST_PAUSE = 0.5, 10.0

To = Annotated[str, typer.Option("--to", help="The mirror's base URL, e.g. https://mirror.example")]
Token = Annotated[
    str,
    typer.Option(envvar="TLEDGER_PUSH_TOKEN",
                 help="A venue token the mirror's operator created (`token create --role venue`)."),
]  # fmt: skip


@app.command()
def push(
    tournament: Annotated[str, typer.Argument(help="Tournament id.")],
    to: To,
    token: Token,
    follow: Annotated[
        bool, typer.Option(help="Keep pushing each new event within a second, until stopped.")
    ] = False,
    batch: Annotated[int, typer.Option(min=1, max=5000, help="Events per batch at most.")] = 1000,
    store: StoreOpt = None,
) -> None:
    """Push the tournament's log to a hosted mirror (events after the mirror's head, in
    batches, with names and erasures); exit 3 on a fork."""
    from commands.cli.mirror_client import Forked, Mirror, Refused, Unreachable, Venue
    from ledger.url import open_store

    with reported_errors():
        venue = Venue(open_store(store, create=False), tournament, batch=batch)
        if venue.store.head(tournament)[0] == 0:
            fail(f"push: unknown tournament {tournament!r}", 1)
    mirror = Mirror(to, token)
    pause, last_erasure, last_relay = FIRST_PAUSE, 0.0, 0.0
    known: tuple[int, str] | None = None  # the mirror's head as its last answer said
    while True:
        try:
            with reported_errors():
                pushed, known = push_once(venue, mirror, quiet=follow, known=known)
                last_relay = time.monotonic()
                if relay_once(venue, mirror) and not follow:
                    pushed, known = push_once(venue, mirror, quiet=True, known=known)
            pause = FIRST_PAUSE
        except Forked as exc:
            fail(str(exc), 3)
        except Refused as exc:
            if str(exc).startswith("fork at seq"):
                fail(str(exc), 3)
            if not (follow and str(exc).startswith("gap:")):
                fail(f"push: {exc}", 1)
            known = None
            time.sleep(pause)  # the mirror went back (a restored backup): ask its head again
            continue
        except Unreachable as exc:
            if not follow:
                fail(f"push: the mirror at {to} does not answer: {exc}", 1)
            typer.echo(f"mirror unreachable ({exc}); trying again in {pause:g} s", err=True)
            time.sleep(pause)
            pause, known = min(pause * 2, LONGEST_PAUSE), None
            continue
        if not follow:
            return
        while venue.store.head(tournament)[0] == pushed:
            time.sleep(TAIL_SECONDS)
            if time.monotonic() - last_erasure >= ERASURE_SECONDS:
                last_erasure = time.monotonic()
                if venue.erased() or venue.slip_codes():
                    break
            if time.monotonic() - last_relay >= RELAY_SECONDS:
                break  # the loop pushes nothing new, then pulls the relayed reports


def push_once(
    venue: Venue, mirror: Mirror, quiet: bool, known: tuple[int, str] | None = None
) -> tuple[int, tuple[int, str]]:
    """Ask the mirror's head (unless its last answer, ``known``, said it) and push what
    follows; the venue's seq the mirror now holds, and the mirror's head. Raises Forked,
    Refused, Unreachable."""
    from commands.cli.mirror_client import Forked, first_difference

    tournament = venue.tournament
    seq, head = known if known is not None else mirror.head(tournament)
    mine = venue.store.head(tournament)[0]
    if seq > mine:
        raise Forked(mine + 1, f"(none: the venue's log ends at seq {mine})",
                     mirror.head(tournament, mine + 1)[1])  # fmt: skip
    if known is None and seq > 0 and venue.hash_at(seq) != head:
        where = first_difference(venue, mirror, seq) or seq
        raise Forked(where, venue.hash_at(where), mirror.head(tournament, where)[1])
    venue.learn(seq)
    rows = venue.rows(seq, head)
    bodies = venue.batches(rows, (seq, head))
    erased, lists, codes = venue.erased(), venue.published(), venue.slip_codes()
    if (erased or lists or codes or not quiet) and not bodies:  # an empty push proves the claim
        after = None if seq == 0 else {"seq": seq, "hash": head}
        bodies = [{"after": after, "events": [], "names": []}]
    if bodies:
        bodies[0]["forgotten"] = erased
        bodies[-1]["lists"] = lists  # after their events
        last = (rows[-1].seq, rows[-1].hash) if rows else (seq, head)
        after = None if last[0] == 0 else {"seq": last[0], "hash": last[1]}
        for start in range(0, len(codes), CODES_PER_BODY):  # after the rounds they report
            if start:
                bodies.append({"after": after, "events": [], "names": []})
            bodies[-1]["slip_codes"] = codes[start : start + CODES_PER_BODY]
    reached = (seq, head)
    for body in bodies:
        answer = mirror.push(tournament, body)
        reached = (int(answer["seq"]), str(answer["hash"]))
        first = (body["after"] or {"seq": 0})["seq"] + 1
        gone = f", erased {answer['erased']} names" if answer.get("erased") else ""
        gone += f", {len(body['lists'])} published lists" if body.get("lists") else ""
        gone += f", {len(body['slip_codes'])} slip codes" if body.get("slip_codes") else ""
        if not body["events"] and not gone:
            typer.echo(f"{tournament}: the mirror is up to date at seq {answer['seq']}")
            continue
        span = f"seq {first}-{first + len(body['events']) - 1}" if body["events"] else "no events"
        typer.echo(f"pushed {tournament} {span} ({answer['appended']} appended{gone}): "
                   f"mirror head seq {answer['seq']} {answer['hash'][:12]}")  # fmt: skip
    venue.erased_sent.update(erased)
    venue.lists_sent.update((e["seq"], e["list_hash"]) for e in lists)
    venue.codes_sent.update(c["code_hash"] for c in codes)
    return (rows[-1].seq if rows else seq), reached


def relay_once(venue: Venue, mirror: Mirror) -> int:
    """Decide the players' reports the mirror holds, in the order they came, and answer
    it for each (commands.relay); one line per report; how many were applied."""
    applied = 0
    for item, answer in venue.relay(mirror):
        command = item.get("command") or {}
        who = (command.get("actor") or {}).get("id", "?")
        if answer["status"] == "applied":
            applied += 1
            typer.echo(f"relayed report {item.get('id')} of {who} (round "
                       f"{command.get('round')}): applied at seq {answer['seq']}")  # fmt: skip
        else:
            typer.echo(f"relayed report {item.get('id')} of {who} (round "
                       f"{command.get('round')}): refused: {answer['reason']}")  # fmt: skip
    return applied


def verify_against(
    tournament: str, url: str, token: str | None, store: str | None, as_json: bool
) -> None:
    """``verify T --against URL``: the local log (its chain checked) head by head with the
    mirror's; exit 3 naming the first difference, 0 when the mirror holds the venue's log
    or a prefix of it."""
    from commands.cli.mirror_client import Mirror, Unreachable, Venue, first_difference
    from ledger.url import open_store

    with reported_errors():
        venue = Venue(open_store(store, create=False), tournament)
        rows = venue.store.load_raw(tournament)
        from ledger.chain import verify_stored

        local_head = verify_stored(tournament, rows)
        mine = len(rows)
        mirror = Mirror(url, token or "")
        try:
            seq, head = mirror.head(tournament)
            upto = min(seq, mine)
            differs = first_difference(venue, mirror, upto)
        except Unreachable as exc:
            fail(f"verify: the mirror at {url} does not answer: {exc}", 1)
        except Exception as exc:  # a refusal: the token, the scope
            fail(f"verify: {exc}", 1)
        report: dict[str, Any] = {"tournament": tournament, "venue": {"seq": mine, "hash":
                                  local_head}, "mirror": {"seq": seq, "hash": head}}  # fmt: skip
        if differs is not None:
            theirs = mirror.head(tournament, differs)[1]
            text = (f"first difference at seq {differs}: the venue's event has hash "
                    f"{venue.hash_at(differs)}, the mirror's {theirs}")  # fmt: skip
        elif seq > mine:
            text = f"the mirror holds {seq - mine} events after the venue's head (seq {mine})"
        else:
            text = None
    report["same"] = text is None
    report["difference"] = text
    if as_json:
        print_json(report)
    elif text is None:
        behind = f"; the mirror is {mine - seq} events behind" if seq < mine else ""
        typer.echo(f"{tournament}: the mirror holds the venue's log up to seq {seq}{behind}")
    if text is not None:
        fail(text, 3)
