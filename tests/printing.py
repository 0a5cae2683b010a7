"""Events to print in the printout tests (unit and browser): a tournament of any
ruleset and size driven through the real handler on a memory store, its names, and
each printout rendered from the read side as the CLI renders it."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime
from html import unescape
from html.parser import HTMLParser
from itertools import count
from typing import Any

from commands.handler import Handler
from commands.models import parse_command
from commands.pages import printouts
from commands.pages.printouts import SlipCode
from commands.reads import paper, podviews, views
from ledger.url import open_store
from projections.state import TournamentState

T = "t1"
PRINTED = datetime(2026, 5, 2, 14, 30, 15, tzinfo=UTC)
#: names as people type them: accents, case, a name that is markup
FIRST = ["Ada", "Élan", "bail", "Zeb", "Dana", "<script>alert(1)</script>", "Fay", "Cassian",
         "Östen", "Hera", "Ezra", "Kanan", "Sabine", "Zeb", "Mon", "Wedge"]  # fmt: skip
WON: dict[str, Any] = {
    "swu-1.4": {"games": [2, 1], "draws": 0}, "swu-1.0": {"games": [2, 0], "draws": 0},
    "xwing-2.0": {"points": [100, 38]}, "armada-2.0": {"points": [300, 120]},
}  # fmt: skip


def name_of(i: int) -> str:
    """A player's name: the list above, then numbered names (a 512-player field)."""
    return FIRST[i - 1] if i <= len(FIRST) else f"Player {i:03d}"


class Event:
    """A tournament run through the handler with a fixed clock and seeds."""

    def __init__(self, ruleset: str = "swu-1.4", players: int = 8, name: str = "Store Showdown",
                 store: str = "", **options: Any) -> None:  # fmt: skip
        seeds = count(1)
        self.store = store or f"memory://{uuid.uuid4().hex}"
        self.handler = Handler(open_store(self.store),
                               clock=lambda: datetime(2026, 5, 2, 9, tzinfo=UTC),
                               seeds=lambda: next(seeds))  # fmt: skip
        self.ruleset = ruleset
        self.do(type="create_tournament", name=name, ruleset=ruleset, options=options)
        self.players = [f"p{i}" for i in range(1, players + 1)]
        self.names = {p: name_of(i) for i, p in enumerate(self.players, start=1)}
        for p in self.players:
            self.do(type="register_player", player=p, name=self.names[p])

    def do(self, **command: Any) -> Any:
        return self.handler.handle(parse_command({"tournament": T, **command}))

    @property
    def state(self) -> TournamentState:
        return self.handler.folds.state(T)

    def win(self, a: str, b: str, rnd: int, winner: str) -> None:
        loser = b if winner == a else a
        result = WON.get(self.ruleset) or {"game_results": [winner] * (1 if self.state.cut else 2)}
        self.do(type="report_result", round=rnd, players=[winner, loser], result=result)

    def play(self, rounds: int = 1) -> None:
        """Pair, start and finish ``rounds`` rounds; the lower player number wins."""
        for _ in range(rounds):
            self.pair()
            rnd = self.state.current
            assert rnd is not None
            for m in rnd.matches:
                if len(m.players) == 2:
                    self.win(*m.players, rnd.number, winner=min(m.players, key=self.number))

    def pair(self) -> None:
        self.do(type="pair_round", seed=1)
        self.do(type="start_round")

    @staticmethod
    def number(player: str) -> int:
        return int(player[1:])

    # the printouts, as ``tledger print`` renders them ------------------------------
    def pairings(self, lang: str = "en", round_number: int | None = None, **kw: Any) -> str:
        model = paper.wall_pairings(self.state, round_number, self.names,
                                    self.handler.store.lists(T))  # fmt: skip
        return printouts.pairings_page(paper.letterhead(self.state), model, paper.seats(model),
                                       lang=lang, printed_at=PRINTED, **kw)  # fmt: skip

    def standings(self, lang: str = "en", **kw: Any) -> str:
        model = views.standings(self.state, self.names)
        return printouts.standings_page(paper.letterhead(self.state), model, lang=lang,
                                        printed_at=PRINTED, **kw)  # fmt: skip

    def slips(self, lang: str = "en", codes: Mapping[str, SlipCode] | None = None,
              **kw: Any) -> str:  # fmt: skip
        model = paper.slips(self.state, None, self.names)
        return printouts.slips_page(paper.letterhead(self.state), model, codes, lang=lang,
                                    printed_at=PRINTED, **kw)  # fmt: skip

    def pods(self, lang: str = "en", **kw: Any) -> str:
        model = podviews.pods(self.state, self.names)
        return printouts.pods_page(paper.letterhead(self.state), model, lang=lang,
                                   printed_at=PRINTED, **kw)  # fmt: skip

    def bracket(self, lang: str = "en", **kw: Any) -> str:
        model = paper.printable_bracket(self.state, self.names)
        return printouts.bracket_page(paper.letterhead(self.state), model, lang=lang,
                                      printed_at=PRINTED, **kw)  # fmt: skip


def swiss(ruleset: str = "swu-1.4", players: int = 8, played: int = 1, **options: Any) -> Event:
    """``played`` rounds finished and the next one paired and started."""
    event = Event(ruleset, players, **options)
    event.play(played)
    event.pair()
    return event


def with_bracket(ruleset: str = "swu-1.4", store: str = "") -> Event:
    """Two Swiss rounds, a top 4 cut, the semifinals played and the final paired."""
    event = Event(ruleset, 8, store=store, rounds=2)
    event.play(2)
    event.do(type="make_cut", size=4)
    event.play(1)
    event.pair()
    return event


def codes_for(event: Event, base_url: str = "http://192.168.1.10:8000") -> dict[str, SlipCode]:
    """A made-up report code per player of each match of the current round (the real ones
    come from ``commands.slipcodes.issue_codes``)."""
    rnd = event.state.current
    assert rnd is not None
    found = {}
    for m in rnd.matches:
        if len(m.players) == 2:
            for seat, player in enumerate(m.players):
                code = f"K{m.table:02d}{seat}-7Q"
                found[player] = SlipCode(code, f"{base_url}/s/{code}")
    return found


class Cells(HTMLParser):
    """The body rows of one ``<table id=...>`` as lists of cell texts (unescaped)."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id, self.inside, self.in_body = table_id, False, False
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and ("id", self.table_id) in attrs:
            self.inside = True
        elif self.inside and tag == "tbody":
            self.in_body = True
        elif self.in_body and tag == "tr":
            self.rows.append([])
        elif self.in_body and tag == "td":
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table" and self.inside:
            self.inside = self.in_body = False

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def rows(html: str, table_id: str) -> list[list[str]]:
    parser = Cells(table_id)
    parser.feed(html)
    return parser.rows


def text(html: str) -> str:
    """The page's visible words, tags removed and entities decoded (one space apart)."""
    body = html.split("<body>", 1)[1]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())
