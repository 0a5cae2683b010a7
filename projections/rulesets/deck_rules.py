"""What a regulation says about decks besides what a list holds: its deck-building
formats, when lists are due and shown, and what a deck check may find. Each ruleset
declares these as data (``RulesetDecks.deck_formats``, ``list_schedule``,
``deck_check``), and the commands and reads act on the declaration, never on the
ruleset's id.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DeckFormat:
    """One deck-building format a ruleset's events choose with the option ``deck_format``
    (swu-1.4 §2.3: Premier, Twin Suns, draft, sealed).

    ``name`` is the option's value, ``label`` the document's name of it and ``section`` its
    section number (the ruleset's id is put before it). ``limited``: decks are built at the
    event from the product opened there, and a player may change the deck between games,
    so deck and sideboard are one pool (swu-1.4 §2.3.2). ``pods``: the section under which
    the players draft seated in pods (swu-1.4 §2.3.2.1), None where nobody drafts.
    ``multiplayer``: a format of more than two players at a table, which this ledger does
    not run (swu-1.4 §2.3.1.2 Twin Suns).
    """

    name: str
    label: str
    section: str
    limited: bool = False
    pods: str | None = None
    multiplayer: bool = False


@dataclass(frozen=True, slots=True)
class ListSchedule:
    """When a ruleset's lists are due and who may see them, each the section saying so.

    ``due_before_event``: lists are handed in before the event (swu-1.4 §3.1.3, at
    competitive tier), so round 1's start locks them; None: only the organizer locks them.
    ``published``: the lists may be published after the event (swu-1.4 §7.1); None: the
    document is silent and they are shown after the event all the same.
    ``exchanged_in_cut``: the top cut's players see each other's lists while it runs
    (swu-1.4 §4.6.1); None: no list is shown before the event ends.
    """

    due_before_event: str | None = None
    published: str | None = None
    exchanged_in_cut: str | None = None


@dataclass(frozen=True, slots=True)
class DeckCheck:
    """When a deck check happens and what an illegal deck costs.

    ``section`` cites the rule. ``after_match_only``: checks are asked for after the
    match (lcg-2.1d "Decküberprüfung"), never before a game or between games (swu-1.4 §6
    allows both). ``annuls``: an illegal card annuls the game and earns a warning
    (lcg-2.1d), where otherwise an illegal deck costs a game loss (swu-1.4 §6).
    ``unfixable``: a deck that cannot be made legal disqualifies the player (lcg-2.1d),
    an outcome a check under another ruleset does not have.
    """

    section: str
    after_match_only: bool = False
    annuls: bool = False
    unfixable: bool = False
