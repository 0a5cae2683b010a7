"""Finding people: names as people read and type them.

Pure functions over the registry's names. An organizer types "elan" for "Élan" and
expects "Élan" between "Dana" and "Fay" on a printed list, so names are compared and
sorted *folded*: compatibility-decomposed (NFKD), combining marks removed, case folded.
Names are personal data, kept in the registry beside the log (where ``tledger forget``
erases them) and never in it, so every command of the contract names players by id; the
CLI lets a person type a unique name instead and turns it into the id here, before the
command is parsed. ``apply`` and the HTTP API stay ids-only: the contract is ids.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Mapping
from typing import Any

from commands.errors import Refused, UnknownPlayer
from ledger.store import PlayerEntry

#: Fields of a result that name a player.
RESULT_PLAYER_FIELDS = ("winner", "concession", "no_show")
#: words an LCG game result holds besides a player (lcg-2.1d: a drawn or annulled game)
GAME_WORDS = frozenset({"draw", "annulled"})


class AmbiguousName(Refused):
    """A name typed for a player is the name of several players: only an id tells them
    apart (exit 1, like an unknown player: the command is well-formed, the registry
    cannot answer it)."""

    def __init__(self, name: str, players: list[str]) -> None:
        super().__init__(f"{name!r} names {len(players)} players: {', '.join(players)}; use an id")
        self.name, self.players = name, players


def folded(text: str) -> str:
    """``text`` as compared and sorted: case folded, compatibility-decomposed, combining
    marks removed ("Élan" -> "elan", "ﬁn" -> "fin", "Straße" -> "strasse"). Case folding
    comes first so that what it produces ("İ" -> "i̇") loses its marks too."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def sort_key(name: str, player_id: str = "") -> tuple[Any, ...]:
    """How people read a list of names: folded first, so "Élan" sorts with "E" and "ada"
    with "Ada"; then the name as written, then the id as people count (p3 before p17)
    and as written, so that the order is total and the same on every run, as every
    projection is."""
    return folded(name), name, id_order(player_id), player_id


def matches(search: str | None, name: str, player_id: str) -> bool:
    """Whether a search finds a player: a folded substring of the name or of the id (an
    empty search finds everyone)."""
    wanted = folded((search or "").strip())
    return wanted in folded(name) or wanted in folded(player_id)


def id_order(player_id: str) -> tuple[Any, ...]:
    """Ids in the order people count them: p3 before p17 (digits compare as numbers)."""
    parts = re.split(r"(\d+)", player_id)
    return tuple(int(part) if i % 2 else part for i, part in enumerate(parts))


def named(entries: Mapping[str, PlayerEntry], name: str, but: str = "") -> list[str]:
    """The players (but ``but``) whose registered name is ``name``, folded, in id order."""
    wanted = folded(name.strip())
    found = [p for p, entry in entries.items() if p != but and folded(entry.name.strip()) == wanted]
    return sorted(found, key=id_order)


def resolve_player(
    entries: Mapping[str, PlayerEntry], text: str, known: Collection[str] = ()
) -> str:
    """The player id ``text`` names. A registered id wins (one in the registry, or in
    ``known``: the tournament's players, erased ones included); else a name that exactly
    one player has maps to that player's id; a name several players share is refused
    (``AmbiguousName``). Anything else comes back unchanged, so that the command is
    refused as naming an unknown player, exactly as without names."""
    if text in entries or text in known:
        return text
    found = named(entries, text)
    if len(found) > 1:
        raise AmbiguousName(text, found)
    return found[0] if found else text


def with_ids(
    data: Mapping[str, Any], entries: Mapping[str, PlayerEntry], known: Collection[str] = ()
) -> dict[str, Any]:
    """A command's data with every player it names given as an id: its ``player``, each
    of its ``players`` and the players its result names (``winner``, ``concession``,
    ``no_show``, each LCG game's winner). Values of another type are left for the
    command's validation."""

    def resolved(value: Any) -> Any:
        return resolve_player(entries, value, known) if isinstance(value, str) else value

    out = dict(data)
    if "player" in out:
        out["player"] = resolved(out["player"])
    if isinstance(out.get("players"), list):
        out["players"] = [resolved(p) for p in out["players"]]
    result = out.get("result")
    if isinstance(result, dict):
        out["result"] = {k: resolved(v) if k in RESULT_PLAYER_FIELDS else v
                         for k, v in result.items()}  # fmt: skip
        games = result.get("game_results")
        if isinstance(games, list):  # LCG: each game's winner, or "draw"
            out["result"]["game_results"] = [g if g in GAME_WORDS else resolved(g) for g in games]
    return out


def known_player(entries: Mapping[str, PlayerEntry], text: str, known: Collection[str] = ()) -> str:
    """The id of the player ``text`` names (``resolve_player``), for a read that filters
    by a player: there an unknown id or name would silently find nothing, so it is
    refused (``UnknownPlayer``), as a command naming one is."""
    found = resolve_player(entries, text, known)
    if found not in entries and found not in known:
        raise UnknownPlayer(text)
    return found


def named_sentence(sentence: str, names: Mapping[str, str],
                   shown: Callable[[str], str] = str) -> str:  # fmt: skip
    """A sentence that names players or teams by id, as people read it: each id that
    stands in it as a whole word and that ``names`` holds (player or team id -> name)
    is replaced by ``shown`` of its name. The lifecycle and the deciders refuse with
    ids, since they fold the log and names live in the registry beside it; a face
    puts the names in the sentence it renders (an erased player keeps the id). An id of
    digits alone is left as it is: in "round 2, table 8" the numbers are rounds and
    tables, whatever players an imported event numbered so."""
    found = sorted((i for i in names if i in sentence and not i.isdigit()), key=len,
                   reverse=True)  # fmt: skip
    if not found:
        return sentence
    ids = re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, found)) + r")(?![\w-])")
    return ids.sub(lambda m: shown(names[m.group(0)]), sentence)
