"""Command models: the public JSON Lines / HTTP contract (design: Command contract).

Commands are imperative and can be rejected. Unknown fields and types are
refused (``extra="forbid"``) so that a typo never passes silently.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from commands.errors import InvalidCommand
from ledger.events import Actor, MatchResult, Penalty

Id = Annotated[str, Field(min_length=1, max_length=200)]


class CommandBase(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    tournament: Id
    actor: Actor | None = None
    command_id: Annotated[str, Field(min_length=1, max_length=200)] | None = None


class CreateTournament(CommandBase):
    type: Literal["create_tournament"]
    name: Annotated[str, Field(min_length=1, max_length=200)]
    ruleset: str
    options: dict[str, Any] = Field(default_factory=dict)


class RegisterPlayer(CommandBase):
    type: Literal["register_player"]
    player: Id
    name: Annotated[str, Field(min_length=1, max_length=200)] | None = None
    external_id: Annotated[str, Field(max_length=200)] | None = None


class DropPlayer(CommandBase):
    type: Literal["drop_player"]
    player: Id
    reason: str | None = None


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
    players: tuple[Id, Id]
    result: MatchResult


class CorrectResult(CommandBase):
    type: Literal["correct_result"]
    round: Annotated[int, Field(ge=1)]
    players: tuple[Id, Id]
    result: MatchResult
    reason: Annotated[str, Field(min_length=1, max_length=500)] | None = None


class DisqualifyPlayer(CommandBase):
    type: Literal["disqualify_player"]
    player: Id
    reason: Annotated[str, Field(min_length=1, max_length=500)]


class IssuePenalty(CommandBase):
    type: Literal["issue_penalty"]
    player: Id
    round: Annotated[int, Field(ge=1)]
    penalty: Penalty
    infraction: Annotated[str, Field(min_length=1, max_length=500)]
    points: Annotated[float, Field(gt=0)] | None = None


class RecordDeckCheck(CommandBase):
    type: Literal["record_deck_check"]
    player: Id
    round: Annotated[int, Field(ge=1)]
    timing: Literal["before_game_1", "between_games", "after_match"]
    outcome: Literal["legal", "illegal", "unfixable"]
    minutes: Annotated[int, Field(ge=0, le=180)]


class GrantTimeExtension(CommandBase):
    type: Literal["grant_time_extension"]
    round: Annotated[int, Field(ge=1)]
    players: tuple[Id, Id]
    minutes: Annotated[int, Field(ge=1, le=180)]
    reason: str | None = None


class MakeCut(CommandBase):
    type: Literal["make_cut"]
    size: Annotated[int, Field(ge=2)] | None = None


class FinishTournament(CommandBase):
    type: Literal["finish_tournament"]


Command = Annotated[
    CreateTournament
    | RegisterPlayer
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
    | FinishTournament,
    Field(discriminator="type"),
]

COMMAND_ADAPTER: TypeAdapter[Command] = TypeAdapter(Command)
COMMAND_TYPES: tuple[str, ...] = tuple(
    m.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    for m in CommandBase.__subclasses__()
)


def parse_command(data: Any) -> Command:
    """Validate one command, or raise InvalidCommand naming the first problem."""
    if not isinstance(data, dict):
        raise InvalidCommand("a command must be a JSON object")
    kind = data.get("type")
    if kind not in COMMAND_TYPES:
        raise InvalidCommand(
            f"unknown command type {kind!r} (supported: {', '.join(COMMAND_TYPES)})"
        )
    try:
        return COMMAND_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise InvalidCommand(f"{kind}: {describe(exc)}") from None


def describe(exc: ValidationError) -> str:
    """The first validation problem as 'field.path: message'."""
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"][1:]) or "command"
    msg = err["msg"]
    if err["type"] == "extra_forbidden":
        msg = "unknown field"
    return f"{loc}: {msg}"
