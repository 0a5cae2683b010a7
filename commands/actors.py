"""Who acts on the command line, so that the log says who did what.

Over HTTP the actor comes from the token. On the CLI it is ``--actor ROLE:ID`` (or
``TLEDGER_ACTOR``), so that two judges at one laptop can be told apart in the log;
without it the actor is the local organizer, as before. The id is an id like every
other (printable, at most ``MAX_ID`` characters: it is printed in logs and error
lines). Unlike a token's label, the id is kept in the hashed log and cannot be
erased: the help asks for initials or a judge number, not a full name (personal data
stays out of the log).
"""

from __future__ import annotations

from typing import Any, get_args

from ledger.events import Actor, Role

ROLES: tuple[str, ...] = get_args(Role)


class BadActor(ValueError):
    """An ``--actor`` value that does not name a role and an id."""


def parse_actor(text: str) -> Actor:
    """``judge:Anna`` as the actor (role judge, id Anna), or BadActor saying what is wrong."""
    from pydantic_core import PydanticCustomError

    from ledger.fields import MAX_ID, printable_id

    role, sep, ident = text.partition(":")
    if not sep:
        raise BadActor("must look like ROLE:ID, e.g. judge:Anna")
    if role not in ROLES:
        raise BadActor(f"role must be one of {', '.join(ROLES)}")
    if not ident:
        raise BadActor("the id after the role must not be empty")
    if len(ident) > MAX_ID:
        raise BadActor(f"the id must have at most {MAX_ID} characters")
    try:
        printable_id(ident)
    except PydanticCustomError as exc:
        raise BadActor(f"the id {exc.message()}") from None
    return Actor.model_validate({"role": role, "id": ident})


def with_actor(data: dict[str, Any], actor: Actor | None) -> dict[str, Any]:
    """The command with ``actor`` added when it names none (its own actor wins)."""
    if actor is None or data.get("actor") is not None:
        return data
    return {**data, "actor": actor.model_dump(mode="json")}


def check_sender(actor: Actor | None, kind: str) -> None:
    """An ``--actor`` may send what a token of that role may send over HTTP (one table,
    ``commands.roles.SENDERS``): a player reports results, a judge also corrects,
    penalizes, checks decks and extends time; the organizer does everything."""
    if actor is None:
        return
    from commands.errors import RuleViolation
    from commands.roles import SENDERS

    allowed = SENDERS[kind]
    if actor.role not in allowed:
        raise RuleViolation(
            f"a {actor.role} may not send {kind} (only {', '.join(sorted(allowed))})"
        )
