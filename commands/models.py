"""Command models: the public JSON Lines / HTTP contract that integrations rely on.

Commands are imperative and can be rejected. Unknown fields and types are
refused (``extra="forbid"``) so that a typo never passes silently. Input the
record must never hold is refused here too, so that the CLI and the HTTP API
refuse it alike: ids that are not short and printable, names that break a line,
a match naming one player twice, JSON nested deeper than any command needs.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
)

from commands.errors import InvalidCommand
from ledger.events import Actor, MatchResult, Penalty
from ledger.fields import (
    MAX_DEPTH,
    Id,
    MatchPlayers,
    Name,
    Text,
    printable_actor,
    printable_text,
)


class CommandBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tournament: Id
    actor: Annotated[Actor, AfterValidator(printable_actor)] | None = None
    command_id: Id | None = None


class CreateTournament(CommandBase):
    type: Literal["create_tournament"]
    name: Name
    ruleset: str
    options: dict[str, Any] = Field(default_factory=dict)


class RegisterPlayer(CommandBase):
    type: Literal["register_player"]
    player: Id
    name: Name | None = None
    external_id: Annotated[str, Field(max_length=200), AfterValidator(printable_text)] | None = None


#: A deck, squad or fleet list: checked against its game's shape when decided (the
#: tournament's ruleset names the game; projections.rulesets.decklists).
ListData = Annotated[dict[str, Any], Field(max_length=20)]


class TeamMember(BaseModel):
    """One of a team's two players: an id, and a name for the registry."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    player: Id
    name: Name | None = None


class RegisterTeam(CommandBase):
    """A team of two registers together (lcg-2.1d "Team-Turniere", "Anmeldung"), in a
    tournament created with the option ``"team": true``; ``list`` optionally carries
    the team's four decks at once (the shape of ``submit_list`` for a team)."""

    type: Literal["register_team"]
    team: Id
    name: Name | None = None
    members: tuple[TeamMember, TeamMember]
    list: ListData | None = None


class DropPlayer(CommandBase):
    type: Literal["drop_player"]
    player: Id
    reason: Text | None = None


class RejoinPlayer(CommandBase):
    type: Literal["rejoin_player"]
    player: Id


class PairRound(CommandBase):
    type: Literal["pair_round"]
    seed: int | None = None
    pairings: list[Annotated[list[Id], Field(min_length=1, max_length=2)]] | None = None
    avoid: list[Annotated[list[Id], Field(min_length=2, max_length=2)]] | None = None


class StartRound(CommandBase):
    type: Literal["start_round"]
    round: int | None = None


class ReportResult(CommandBase):
    type: Literal["report_result"]
    round: Annotated[int, Field(ge=1)]
    players: MatchPlayers
    result: MatchResult


class CorrectResult(CommandBase):
    type: Literal["correct_result"]
    round: Annotated[int, Field(ge=1)]
    players: MatchPlayers
    result: MatchResult
    reason: Text | None = None


class DisqualifyPlayer(CommandBase):
    type: Literal["disqualify_player"]
    player: Id
    reason: Text


class IssuePenalty(CommandBase):
    type: Literal["issue_penalty"]
    player: Id
    round: Annotated[int, Field(ge=1)]
    penalty: Penalty
    infraction: Text
    points: Annotated[float, Field(gt=0)] | None = None


class RecordDeckCheck(CommandBase):
    type: Literal["record_deck_check"]
    player: Id
    round: Annotated[int, Field(ge=1)]
    timing: Literal["before_game_1", "between_games", "after_match"]
    outcome: Literal["legal", "illegal", "unfixable"]
    minutes: Annotated[int, Field(ge=0, le=180)]
    #: what the player presented, in the game's list shape (as submit_list): compared
    #: with the list in force, the differences recorded
    presented: ListData | None = None


class GrantTimeExtension(CommandBase):
    type: Literal["grant_time_extension"]
    round: Annotated[int, Field(ge=1)]
    players: MatchPlayers
    minutes: Annotated[int, Field(ge=1, le=180)]
    reason: Text | None = None


class MakeCut(CommandBase):
    type: Literal["make_cut"]
    size: Annotated[int, Field(ge=2)] | None = None


class FinishTournament(CommandBase):
    """The end. ``without_cut``: the organizer's reason for finishing an event whose
    rules or options call for a top cut that was not made (refused without one)."""

    type: Literal["finish_tournament"]
    without_cut: Text | None = None


class ReinstatePlayer(CommandBase):
    """Undo a drop made in error: a new event, never a deleted one."""

    type: Literal["reinstate_player"]
    player: Id
    reason: Text


class ReopenTournament(CommandBase):
    """Undo a finish made in error."""

    type: Literal["reopen_tournament"]
    reason: Text


class WithdrawRegistration(CommandBase):
    """Undo a registration made in error, before round 1 is paired."""

    type: Literal["withdraw_registration"]
    player: Id
    reason: Text


class ChangeOptions(CommandBase):
    """Change options before round 1 is paired (a key set to null: back to the default)."""

    type: Literal["change_options"]
    options: Annotated[dict[str, Any], Field(min_length=1)]
    reason: Text | None = None


class SubmitList(CommandBase):
    """A player's list, by the organizer or the player themself, until lists are locked."""

    type: Literal["submit_list"]
    player: Id
    list: ListData


class LockLists(CommandBase):
    type: Literal["lock_lists"]


class CorrectList(CommandBase):
    """A locked list replaced by a judge or the organizer, with a reason."""

    type: Literal["correct_list"]
    player: Id
    list: ListData
    reason: Text


class AssignPods(CommandBase):
    """Seat a draft event's players in pods at random (swu-1.4 §2.3.2.1):
    about ``pod_size`` per pod (8 recommended), from ``seed`` or one chosen and
    recorded; again until deck building starts (the last assignment counts)."""

    type: Literal["assign_pods"]
    pod_size: Annotated[int, Field(ge=2)] = 8
    seed: int | None = None
    reason: Text | None = None


class StartDeckBuilding(CommandBase):
    """The deck-building phase of a limited event begins now (swu-1.4 §2.3.2: 30
    minutes unless ``minutes`` says otherwise)."""

    type: Literal["start_deck_building"]
    minutes: Annotated[int, Field(ge=1, le=180)] = 30


Command = Annotated[
    CreateTournament
    | RegisterPlayer
    | RegisterTeam
    | DropPlayer
    | RejoinPlayer
    | PairRound
    | StartRound
    | ReportResult
    | CorrectResult
    | DisqualifyPlayer
    | IssuePenalty
    | RecordDeckCheck
    | GrantTimeExtension
    | MakeCut
    | FinishTournament
    | ReinstatePlayer
    | ReopenTournament
    | WithdrawRegistration
    | ChangeOptions
    | SubmitList
    | LockLists
    | CorrectList
    | AssignPods
    | StartDeckBuilding,
    Field(discriminator="type"),
]

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)
#: The command models of the union, in its order (what decide, the role table and
#: the tests iterate over).
COMMAND_CLASSES: tuple[type[CommandBase], ...] = get_args(get_args(Command)[0])


def type_of(model: type[CommandBase]) -> str:
    """The ``type`` a command model's JSON carries (``"pair_round"``)."""
    kind: str = get_args(model.model_fields["type"].annotation)[0]
    return kind


COMMAND_TYPES: tuple[str, ...] = tuple(type_of(model) for model in COMMAND_CLASSES)


def parse_command(data: Any) -> Command:
    """Validate one command, or raise InvalidCommand naming the first problem."""
    if not isinstance(data, dict):
        raise InvalidCommand("a command must be a JSON object")
    kind = data.get("type")
    if nested_deeper(data, MAX_DEPTH):
        named = f"{kind}: " if isinstance(kind, str) and kind in COMMAND_TYPES else ""
        raise InvalidCommand(f"{named}JSON nested deeper than {MAX_DEPTH} levels")
    if kind not in COMMAND_TYPES:
        raise InvalidCommand(
            f"unknown command type {kind!r} (supported: {', '.join(COMMAND_TYPES)})"
        )
    try:
        return COMMAND_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise InvalidCommand(f"{kind}: {describe(exc)}") from None


def nested_deeper(data: Any, limit: int) -> bool:
    """Whether ``data`` nests objects and arrays more than ``limit`` levels deep.

    Walked with a stack, not by recursion: the point is to refuse deep data
    before anything recursive (validation, serialization, repr) sees it.
    """
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: Any = value.values()
        elif isinstance(value, list | tuple):
            children = value
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def describe(exc: ValidationError) -> str:
    """The first validation problem as 'field.path: message'."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"][1:]) or "command"
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown field"
    return f"{loc}: {msg}"
