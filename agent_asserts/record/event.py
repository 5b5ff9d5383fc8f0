"""The event envelope (seed 002) carrying a typed payload.

>>> from agent_asserts.record.payloads import MessagePayload
>>> e = Event("message", MessagePayload("refund A1049"), "e0", actor_ref="user", turn=1)
>>> e.to_dict()  # doctest: +NORMALIZE_WHITESPACE
{'event_id': 'e0', 'actor_ref': 'user', 'turn': 1, 'kind': 'message',
 'payload': {'text': 'refund A1049'}}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from agent_asserts.record.payloads import Payload

ENVELOPE_FIELDS: Final = (
    "event_id",
    "wall_time",
    "monotonic_time",
    "duration",
    "actor_ref",
    "agent",
    "surface",
    "audience",
    "turn",
    "phase",
    "kind",
    "event_type",
    "entity_refs",
    "operation_ref",
    "correlation_id",
    "caused_by_event_id",
    "parent_id",
    "group_id",
    "status",
    "payload",
)
"""The keys of an event in its canonical JSON form, in canonical order."""

STR_ENVELOPE_FIELDS: Final = (
    "actor_ref",
    "surface",
    "audience",
    "phase",
    "operation_ref",
    "correlation_id",
    "caused_by_event_id",
    "status",
    "parent_id",
    "group_id",
    "agent",
)
"""The envelope fields that hold a string or null (``event_id`` and ``event_type`` apart)."""


@attrs.frozen
class Event:
    """One recorded event: the common envelope and a payload.

    Attributes:
        kind: ``message``, ``tool_call``, ``memory``, ``skill``, ``ordered_block``,
            ``delegation`` (typed payloads) or any other kind (``mutation``, ``audit``…).
        payload: The typed payload of a known kind, else a plain JSON object.
        event_id: Unique within the record (``e0``, ``e1``… when the source had none).
        event_type: The sub-type (``set``/``clear`` for memory, the transition for skills…).
        wall_time: Wall-clock time (ISO string or epoch seconds).
        monotonic_time: Monotonic seconds, for ordering and elapsed-time checks.
        actor_ref: Who acted (``user``, ``agent``, a sub-agent id…).
        surface: Where the event happened (a channel, a UI…).
        audience: Who could observe it.
        turn: The conversation turn (explicit or derived).
        phase: A run phase label.
        entity_refs: Logical business entities the event concerns (``order:A1049``).
        operation_ref: The operation this event belongs to (mutation ↔ audit).
        correlation_id: Groups the events of one workflow.
        caused_by_event_id: The event that caused this one.
        status: Outcome of the event (``succeeded``, ``failed``…).
        duration: How long the event lasted, in seconds (>= 0): the event is the interval
            starting at its time. None when not recorded.
        parent_id: The ``event_id`` of the enclosing event (the agent invocation or model
            call that issued this one); it names another event of the same record.
        group_id: Events sharing a ``group_id`` were issued together (the parallel tool
            calls of one model response): they have no order among them.
        agent: The agent that acted: None for the root agent, a sub-agent's name otherwise
            (``actor_ref`` stays the speaker of a message).

    >>> Event("audit", {"text": "refund"}, "e9", operation_ref="op-7").payload
    {'text': 'refund'}
    """

    kind: str
    payload: Payload
    event_id: str
    event_type: str | None = None
    wall_time: str | float | None = None
    monotonic_time: float | None = None
    actor_ref: str | None = None
    surface: str | None = None
    audience: str | None = None
    turn: int | None = None
    phase: str | None = None
    entity_refs: tuple[str, ...] = ()
    operation_ref: str | None = None
    correlation_id: str | None = None
    caused_by_event_id: str | None = None
    status: str | None = None
    duration: float | None = None
    parent_id: str | None = None
    group_id: str | None = None
    agent: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form: None-valued envelope fields omitted, ``payload`` always present.

        >>> Event("step", {}, "e3", status="ok").to_dict()
        {'event_id': 'e3', 'kind': 'step', 'status': 'ok', 'payload': {}}
        """
        out: dict[str, Any] = {"event_id": self.event_id}
        if self.wall_time is not None:
            out["wall_time"] = self.wall_time
        if self.monotonic_time is not None:
            out["monotonic_time"] = self.monotonic_time
        if self.duration is not None:
            out["duration"] = self.duration
        if self.actor_ref is not None:
            out["actor_ref"] = self.actor_ref
        if self.agent is not None:
            out["agent"] = self.agent
        if self.surface is not None:
            out["surface"] = self.surface
        if self.audience is not None:
            out["audience"] = self.audience
        if self.turn is not None:
            out["turn"] = self.turn
        if self.phase is not None:
            out["phase"] = self.phase
        out["kind"] = self.kind
        if self.event_type is not None:
            out["event_type"] = self.event_type
        if self.entity_refs:
            out["entity_refs"] = list(self.entity_refs)
        if self.operation_ref is not None:
            out["operation_ref"] = self.operation_ref
        if self.correlation_id is not None:
            out["correlation_id"] = self.correlation_id
        if self.caused_by_event_id is not None:
            out["caused_by_event_id"] = self.caused_by_event_id
        if self.parent_id is not None:
            out["parent_id"] = self.parent_id
        if self.group_id is not None:
            out["group_id"] = self.group_id
        if self.status is not None:
            out["status"] = self.status
        payload = self.payload
        out["payload"] = dict(payload) if isinstance(payload, Mapping) else payload.to_dict()
        return out


__all__ = ["ENVELOPE_FIELDS", "STR_ENVELOPE_FIELDS", "Event"]
