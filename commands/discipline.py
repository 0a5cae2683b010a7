"""Drops, rejoining, disqualification, penalties, deck checks and time extensions.

Penalties follow the regulation where it speaks (swu-1.4 §4.6.2, §6; lcg-2.1d
"Decküberprüfung", "Verhaltensgesetze") and otherwise a common model, that of the
Magic Infraction Procedure Guide: a match loss records the match as lost
without play; a game loss gives the opponent one game win in the current match
or, once the match has a result, in the match just finished (then it is a
correction of that result under swu-1.4 §5.8).
"""

from __future__ import annotations

from collections.abc import Sequence

from commands import models as m
from commands.context import (
    Base,
    by_official,
    match_of,
    open_match,
    player_of,
    require_role,
    round_of,
)
from commands.corrections import correction
from commands.errors import InvalidCommand, RuleViolation, WrongPhase
from commands.lists import presented_fields
from ledger.events import (
    DeckCheckRecorded,
    EventBase,
    PenaltyIssued,
    PlayerDisqualified,
    PlayerDropped,
    PlayerRejoined,
    ResultReported,
    TimeExtensionGranted,
)
from ledger.store import ListEntry
from projections.rulesets import registered
from projections.rulesets.deck_rules import DeckCheck
from projections.standings import ruleset_of
from projections.state import Match, TournamentState

JUDGES = ("organizer", "judge")


def forfeit(
    state: TournamentState, match: Match | None, loser: str, reason: str, base: Base
) -> list[EventBase]:
    """The open match of a player who leaves or is penalized is recorded as lost."""
    if match is None:
        return []
    players = (match.players[0], match.players[1])
    result = ruleset_of(state).forfeit(players, loser, match.stage)
    return [ResultReported(**by_official(base), round=match.round,
                           players=players, result=result, reason=reason)]  # fmt: skip


def drop_player(state: TournamentState, c: m.DropPlayer, base: Base, seed: int) -> list[EventBase]:
    """A dropped player finishes nothing more and is never paired again: an open match
    of the current round is recorded as lost, so a player may drop at any time."""
    if c.actor is not None and c.actor.role == "player" and c.actor.id != c.player:
        raise RuleViolation("a player may drop only themselves")
    player = player_of(state, c.player)
    if player.disqualified:
        raise WrongPhase(f"player {c.player!r} is disqualified and has left the tournament")
    if player.dropped:
        raise WrongPhase(f"player {c.player!r} has dropped already")
    dropped = PlayerDropped(**base, player=c.player, reason=c.reason)
    return [dropped, *forfeit(state, open_match(state, c.player), c.player, "dropped", base)]


def rejoin_player(
    state: TournamentState, c: m.RejoinPlayer, base: Base, seed: int
) -> list[EventBase]:
    """X-Wing/Armada "Drops": a dropped player may rejoin the same stage; each missed
    round counts as an unpaired loss. A disqualified player may not rejoin."""
    player = player_of(state, c.player)
    if player.disqualified:
        raise RuleViolation(f"player {c.player!r} was disqualified and may not rejoin")
    if not player.dropped:
        raise WrongPhase(f"player {c.player!r} has not dropped")
    if not ruleset_of(state).rejoin_allowed:
        raise RuleViolation(f"{state.ruleset} does not let a dropped player rejoin")
    if state.stage not in ("registration", "swiss"):
        raise RuleViolation("a dropped player may rejoin only in the same stage (Swiss)")
    return [PlayerRejoined(**base, player=c.player)]


def disqualify_player(
    state: TournamentState, c: m.DisqualifyPlayer, base: Base, seed: int
) -> list[EventBase]:
    require_role(c.actor, JUDGES, "disqualify a player")
    return disqualification(state, c.player, c.reason, base)


def disqualification(
    state: TournamentState, player_id: str, reason: str, base: Base
) -> list[EventBase]:
    """Removed for good, may not rejoin; a match in progress is recorded as lost."""
    player = player_of(state, player_id)
    if player.disqualified:
        raise WrongPhase(f"player {player_id!r} is disqualified already")
    match = open_match(state, player_id) if not player.dropped else None
    return [
        PlayerDisqualified(**base, player=player_id, reason=reason),
        *forfeit(state, match, player_id, "disqualified", base),
    ]


def issue_penalty(
    state: TournamentState, c: m.IssuePenalty, base: Base, seed: int
) -> list[EventBase]:
    require_role(c.actor, JUDGES, "issue a penalty")
    player_of(state, c.player)
    rnd = round_of(state, c.round)
    rules = ruleset_of(state)
    if (c.penalty == "point_deduction") != (c.points is not None):
        raise InvalidCommand("issue_penalty: points go with a point_deduction and only with it")
    if c.penalty == "point_deduction" and not rules.point_deductions:
        raise RuleViolation(f"{state.ruleset} has no point deductions (lcg-2.1d only)")
    issued = PenaltyIssued(**base, player=c.player, round=c.round, penalty=c.penalty,
                           infraction=c.infraction, points=c.points)  # fmt: skip
    match = rnd.match_for(c.player)
    reason = f"{c.penalty.replace('_', ' ')}: {c.infraction}"
    if c.penalty == "disqualification":
        return [issued, *disqualification(state, c.player, reason, base)]
    if c.penalty in ("game_loss", "match_loss") and match is not None and not match.is_bye:
        return [issued, *loss_penalty(state, match, c.player, c.penalty, reason, base, seed)]
    return [issued]


def loss_penalty(
    state: TournamentState, match: Match, player: str, penalty: str, reason: str, base: Base,
    seed: int,
) -> list[EventBase]:  # fmt: skip
    """A match loss records the match as lost; a game loss gives the opponent a game win.

    While the match is being played a game loss needs nothing more: the reported result
    counts the game (a game loss before game 1 makes game 2 the first game, swu-1.4
    §4.6.2). Once the match has a result, the penalty corrects it (swu-1.4 §6).
    """
    rules = ruleset_of(state)
    players = (match.players[0], match.players[1])
    if match.status != "confirmed" or match.result is None:
        if penalty == "match_loss":
            return forfeit(state, match, player, reason, base)
        return []
    if penalty == "match_loss":
        new = rules.forfeit(players, player, match.stage)
    else:
        played = rules.effective(players, match.result, match.stage)
        new = rules.after_game_loss(players, played, player, match.stage)
    if new == match.result:
        return []
    return correction(state, match, new, reason, base, seed)


def record_deck_check(
    state: TournamentState, c: m.RecordDeckCheck, base: Base, seed: int,
    kept: Sequence[ListEntry] = (), salt: bytes = b"",
) -> list[EventBase]:  # fmt: skip
    """A deck check as the ruleset's ``deck_check`` says (swu-1.4 §6: before game 1,
    between games or after the match, the time spent plus the ruleset's extra minutes,
    ``RoundTime.deck_check_extra``: 3 for shuffling, added to that match, an illegal deck
    a game loss, at the end of a match in the match just finished; lcg-2.1d
    "Decküberprüfung": after a match only, an illegal card annuls the game and earns a
    warning, a deck that cannot be made legal disqualifies the player). What was
    presented, when given, is compared with the list in force (``kept``: the
    ``tledger_lists`` rows) and the differences recorded, what was presented committed to
    by its hash with ``salt``; the outcome stays the judge's."""
    require_role(c.actor, JUDGES, "record a deck check")
    player_of(state, c.player)
    rnd = round_of(state, c.round)
    match = rnd.match_for(c.player)
    if match is None or match.is_bye:
        raise WrongPhase(f"player {c.player!r} has no match in round {c.round} to check")
    rules = ruleset_of(state)
    check_timing_and_outcome(rules.deck_check, c)
    presented = presented_fields(state, c, kept, salt)
    events: list[EventBase] = [DeckCheckRecorded(**base, player=c.player, round=c.round,
                                                 timing=c.timing, outcome=c.outcome,
                                                 minutes=c.minutes, **presented)]  # fmt: skip
    extra = rules.round_time().deck_check_extra
    if c.timing != "after_match" and match.status != "confirmed" and extra is not None:
        events.append(TimeExtensionGranted(
            **base, round=c.round, players=match.players,
            minutes=c.minutes + extra, reason=f"deck check ({rules.deck_check.section})",
        ))  # fmt: skip
    return events + deck_check_consequences(state, c, match, base, seed)


def check_timing_and_outcome(rule: DeckCheck, c: m.RecordDeckCheck) -> None:
    """A check after the match where the ruleset asks for no other; the outcome
    'unfixable' where the ruleset has it."""
    if rule.after_match_only and c.timing != "after_match":
        raise RuleViolation(f"{rule.section}: a deck check is requested after the match is over")
    if c.outcome == "unfixable" and not rule.unfixable:
        having = [cls.id for cls in registered() if cls.deck_check.unfixable]
        raise RuleViolation(
            f"outcome 'unfixable' is the {having[0]} rule; record 'illegal' and any further penalty"
        )


def deck_check_consequences(
    state: TournamentState, c: m.RecordDeckCheck, match: Match, base: Base, seed: int
) -> list[EventBase]:
    rules = ruleset_of(state)
    if c.outcome == "legal":
        return []
    if c.outcome == "unfixable":
        reason = f"deck cannot be made legal ({rules.id})"
        return disqualification(state, c.player, reason, base)
    penalty = "warning" if rules.deck_check.annuls else "game_loss"
    infraction = "illegal deck found in a deck check"
    issued = PenaltyIssued(**base, player=c.player, round=c.round, penalty=penalty,
                           infraction=infraction)  # fmt: skip
    if penalty == "warning":
        return [issued, *annulment(state, match, c.player, base, seed)]
    return [issued, *loss_penalty(state, match, c.player, "game_loss", infraction, base, seed)]


def annulment(
    state: TournamentState, match: Match, player: str, base: Base, seed: int
) -> list[EventBase]:
    """The games won with an illegal deck annulled (``Ruleset.annulled``), as a
    correction of the match's result; nothing where none was won."""
    if match.result is None:
        return []
    rules = ruleset_of(state)
    new = rules.annulled(match.result, player)
    if new == match.result:
        return []
    return correction(state, match, new, f"illegal card found: game annulled ({rules.id})", base,
                      seed)  # fmt: skip


def grant_time_extension(
    state: TournamentState, c: m.GrantTimeExtension, base: Base, seed: int
) -> list[EventBase]:
    require_role(c.actor, JUDGES, "grant a time extension")
    _, match = match_of(state, c.round, c.players)
    if match.status == "confirmed":
        raise WrongPhase(f"round {c.round} match {c.players[0]} v {c.players[1]} is finished")
    return [TimeExtensionGranted(**base, round=c.round, players=c.players, minutes=c.minutes,
                                 reason=c.reason)]  # fmt: skip
