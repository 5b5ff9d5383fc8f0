"""Turn derivation: explicit ``turn`` values win, missing ones are derived.

Rules: the turn is 0 before the first user message; a user message (kind ``message``,
``actor_ref`` ``"user"``) opens a new turn when its text, with surrounding whitespace removed,
is non-empty and does not start with ``/`` (so ``/session_start`` and button payloads stay in
the current turn). An explicit ``turn`` on any event sets the current turn for the events
after it.

>>> from agent_asserts.record.event import Event
>>> from agent_asserts.record.event import MessagePayload
>>> events = [
...     Event("message", MessagePayload("/session_start"), "e0", actor_ref="user"),
...     Event("message", MessagePayload("hi"), "e1", actor_ref="user"),
...     Event("message", MessagePayload("hello"), "e2", actor_ref="agent"),
... ]
>>> [e.turn for e in derive_turns(events)]
[0, 1, 1]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from agent_asserts.record.event import Event, MessagePayload


def opens_turn(kind: str, actor_ref: str | None, payload: Any) -> bool:
    """Whether an event opens a new turn: a user message with real (non-command) text.

    Args:
        kind: The event kind.
        actor_ref: The event's actor.
        payload: The event's payload (a ``MessagePayload`` or a mapping with ``text``).

    Returns:
        True for a user message whose stripped text is non-empty and does not start with ``/``.

    >>> opens_turn("message", "user", MessagePayload("refund please"))
    True
    >>> opens_turn("message", "user", MessagePayload("/restart"))
    False
    >>> opens_turn("message", "agent", MessagePayload("hi"))
    False
    """
    if kind != "message" or actor_ref != "user":
        return False
    if isinstance(payload, MessagePayload):
        text: Any = payload.text
    elif isinstance(payload, Mapping):
        text = payload.get("text")
    else:
        return False
    if not isinstance(text, str):
        return False
    text = text.strip()
    return bool(text) and not text.startswith("/")


class TurnTracker:
    """Assigns turns event by event, in order (one instance per pass over a record).

    >>> tracker = TurnTracker()
    >>> tracker.assign(None, False), tracker.assign(None, True), tracker.assign(5, False)
    (0, 1, 5)
    >>> tracker.assign(None, True)
    6
    """

    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current = 0

    def assign(self, explicit: int | None, opens: bool) -> int:
        """The turn of the next event.

        Args:
            explicit: The event's own ``turn`` (None when absent).
            opens: Whether the event opens a new turn (see :func:`opens_turn`).

        Returns:
            The explicit turn when given, else the derived one.

        >>> TurnTracker().assign(None, True)
        1
        """
        if explicit is not None:
            self.current = explicit
        elif opens:
            self.current += 1
        return self.current


def derive_turns(events: Sequence[Event]) -> tuple[Event, ...]:
    """The events with every missing ``turn`` derived (events that have one are kept as is).

    Args:
        events: Events in order of occurrence.

    Returns:
        A tuple of events, each with a ``turn``.

    >>> e = Event("message", MessagePayload("hi"), "e0", actor_ref="user")
    >>> derive_turns([e])[0].turn
    1
    """
    tracker = TurnTracker()
    out: list[Event] = []
    for event in events:
        turn = tracker.assign(event.turn, opens_turn(event.kind, event.actor_ref, event.payload))
        out.append(event if event.turn is not None else attrs.evolve(event, turn=turn))
    return tuple(out)


__all__ = ["TurnTracker", "derive_turns", "opens_turn"]
