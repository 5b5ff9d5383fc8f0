"""Typed payloads of the known event kinds.

Kinds ``message``, ``tool_call``, ``memory``, ``skill``, ``ordered_block`` and ``delegation``
have a typed payload; every other kind keeps its payload as a plain JSON object. Payload keys
the typed form does not know are kept in ``extra`` so nothing is lost in a round trip.

>>> ToolCallPayload("refunds_lookup", {"orderId": "A1049"}).to_dict()
{'name': 'refunds_lookup', 'arguments': {'orderId': 'A1049'}, 'is_error': False, 'source': 'local'}

The kinds real traces add (``model_call``, ``reasoning``, ``guardrail``) are in
:mod:`agent_asserts.record.model_payloads`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from agent_asserts._values import MISSING
from agent_asserts.record._extra import merge_extra as _merge
from agent_asserts.record._extra import short_repr
from agent_asserts.record.model_payloads import (
    GuardrailPayload,
    ModelCallPayload,
    ReasoningPayload,
)

SKILL_TRANSITIONS: Final = ("activated", "completed", "cancelled", "interrupted", "resumed")
"""The ``event_type`` values of ``skill`` events."""

BLOCK_TRANSITIONS: Final = ("entered", "completed", "cancelled", "interrupted", "resumed")
"""The ``event_type`` values of ``ordered_block`` events."""

MEMORY_EVENT_TYPES: Final = ("set", "clear")
"""The ``event_type`` values of ``memory`` events."""

TOOL_SOURCES: Final = ("local", "mcp")
"""The values of ``ToolCallPayload.source``."""


TOOL_OUTCOMES: Final = ("succeeded", "failed", "retried", "denied", "interrupted", "pending")
"""The values of ``ToolCallPayload.outcome``."""

ERROR_OUTCOMES: Final = frozenset({"failed", "retried"})
"""The outcomes whose boolean view ``is_error`` is True (the call ran and returned an error)."""

DELEGATION_MODES: Final = ("handoff", "tool")
"""The values of ``DelegationPayload.mode``: control passes to the sub-agent, or the
sub-agent is called like a tool and returns."""


def _outcome_of(payload: ToolCallPayload) -> str:
    return "failed" if payload.is_error else "succeeded"


@attrs.frozen
class Button:
    """A button offered with an agent message.

    >>> Button("OK", "/ok").to_dict()
    {'title': 'OK', 'payload': '/ok'}
    """

    title: str
    payload: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (``payload`` omitted when None).

        >>> Button("Cancel").to_dict()
        {'title': 'Cancel'}
        """
        if self.payload is None:
            return {"title": self.title}
        return {"title": self.title, "payload": self.payload}


@attrs.frozen
class MessagePayload:
    """What was said: text, an optional response-template name and buttons.

    >>> MessagePayload("Refund issued", utter_name="utter_refund_done").to_dict()
    {'text': 'Refund issued', 'utter_name': 'utter_refund_done'}
    """

    text: str = ""
    utter_name: str | None = None
    buttons: tuple[Button, ...] = ()
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form.

        >>> MessagePayload("hi", buttons=(Button("OK"),)).to_dict()
        {'text': 'hi', 'buttons': [{'title': 'OK'}]}
        """
        out: dict[str, Any] = {"text": self.text}
        if self.utter_name is not None:
            out["utter_name"] = self.utter_name
        if self.buttons:
            out["buttons"] = [button.to_dict() for button in self.buttons]
        return _merge(out, self.extra)


@attrs.frozen(repr=False)
class ToolCallPayload:
    """One tool call with its arguments and result.

    ``source`` is ``"local"`` or ``"mcp"`` (then ``mcp_server`` names the server).
    ``arguments`` is ``MISSING`` when they were not recorded (no key in JSON; argument
    matchers are then ``invalid``), ``{}`` when the call had none. ``arguments_raw`` keeps the
    original text of arguments that were not valid JSON (``arguments`` is then ``MISSING``).
    ``outcome`` is one of :data:`TOOL_OUTCOMES`, derived from ``is_error`` when not given;
    ``is_error`` is its boolean view (True for ``failed`` and ``retried``).

    >>> ToolCallPayload("search", {"q": "x"}, result=[1], is_error=False).result
    [1]
    >>> ToolCallPayload("refund", is_error=True).outcome
    'failed'
    """

    name: str
    arguments: Any = MISSING
    result: Any = None
    is_error: bool = False
    source: str = "local"
    mcp_server: str | None = None
    skill_id: str | None = None
    call_id: str | None = None
    error_message: str | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)
    outcome: str = attrs.field(default=attrs.Factory(_outcome_of, takes_self=True))
    error_type: str | None = None
    arguments_raw: str | None = None

    def __repr__(self) -> str:
        return short_repr(self, ("outcome", "error_type", "arguments_raw"))

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (None-valued optionals omitted; ``arguments`` omitted when
        not recorded; ``outcome`` omitted when ``is_error`` says it).

        >>> ToolCallPayload("t", {}, source="mcp", mcp_server="files").to_dict()
        {'name': 't', 'arguments': {}, 'is_error': False, 'source': 'mcp', 'mcp_server': 'files'}
        >>> ToolCallPayload("t", arguments_raw="{bad", outcome="denied").to_dict()
        {'name': 't', 'is_error': False, 'source': 'local', 'outcome': 'denied',
         'arguments_raw': '{bad'}
        """
        out: dict[str, Any] = {"name": self.name}
        if self.arguments is not MISSING:
            out["arguments"] = self.arguments
        if self.result is not None:
            out["result"] = self.result
        out["is_error"] = self.is_error
        out["source"] = self.source
        if self.mcp_server is not None:
            out["mcp_server"] = self.mcp_server
        if self.skill_id is not None:
            out["skill_id"] = self.skill_id
        if self.call_id is not None:
            out["call_id"] = self.call_id
        if self.error_message is not None:
            out["error_message"] = self.error_message
        if self.outcome != ("failed" if self.is_error else "succeeded"):
            out["outcome"] = self.outcome
        if self.error_type is not None:
            out["error_type"] = self.error_type
        if self.arguments_raw is not None:
            out["arguments_raw"] = self.arguments_raw
        return _merge(out, self.extra)


@attrs.frozen
class MemoryPayload:
    """A memory (slot) write: ``value`` is ``MISSING`` for a clear.

    >>> MemoryPayload("refund.order_id", "A1049").to_dict()
    {'name': 'refund.order_id', 'value': 'A1049'}
    >>> MemoryPayload("refund.draft_id").to_dict()
    {'name': 'refund.draft_id'}
    """

    name: str
    value: Any = MISSING
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (``value`` omitted when ``MISSING``).

        >>> MemoryPayload("a", None).to_dict()
        {'name': 'a', 'value': None}
        """
        out: dict[str, Any] = {"name": self.name}
        if self.value is not MISSING:
            out["value"] = self.value
        return _merge(out, self.extra)


@attrs.frozen
class SkillPayload:
    """A skill (flow) transition; the transition itself is the event's ``event_type``.

    >>> SkillPayload("refund", step_id="confirm").to_dict()
    {'skill_id': 'refund', 'step_id': 'confirm'}
    """

    skill_id: str
    step_id: str | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form.

        >>> SkillPayload("refund").to_dict()
        {'skill_id': 'refund'}
        """
        out: dict[str, Any] = {"skill_id": self.skill_id}
        if self.step_id is not None:
            out["step_id"] = self.step_id
        return _merge(out, self.extra)


@attrs.frozen
class BlockPayload:
    """An ordered-block transition inside a skill.

    >>> BlockPayload("refund", "main").to_dict()
    {'skill_id': 'refund', 'block_id': 'main'}
    """

    skill_id: str
    block_id: str
    step_id: str | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form.

        >>> BlockPayload("refund", "main", step_id="s1").to_dict()
        {'skill_id': 'refund', 'block_id': 'main', 'step_id': 's1'}
        """
        out: dict[str, Any] = {"skill_id": self.skill_id, "block_id": self.block_id}
        if self.step_id is not None:
            out["step_id"] = self.step_id
        return _merge(out, self.extra)


@attrs.frozen(repr=False)
class DelegationPayload:
    """A hand-off to a sub-agent; its outcome is the event's ``event_type``.

    ``from_agent`` is the delegating agent (None: the root agent, or not recorded); ``mode``
    is ``handoff`` (control passes to the sub-agent) or ``tool`` (the sub-agent is called
    like a tool and returns), or None when not recorded.

    >>> DelegationPayload("researcher", output={"notes": 3}).to_dict()
    {'subagent': 'researcher', 'output': {'notes': 3}}
    >>> DelegationPayload("billing", from_agent="triage", mode="handoff").to_dict()
    {'subagent': 'billing', 'from_agent': 'triage', 'mode': 'handoff'}
    """

    subagent: str
    output: Any = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)
    from_agent: str | None = None
    mode: str | None = None

    def __repr__(self) -> str:
        return short_repr(self, ("from_agent", "mode"))

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (``output``, ``from_agent``, ``mode`` omitted when None).

        >>> DelegationPayload("researcher").to_dict()
        {'subagent': 'researcher'}
        """
        out: dict[str, Any] = {"subagent": self.subagent}
        if self.output is not None:
            out["output"] = self.output
        if self.from_agent is not None:
            out["from_agent"] = self.from_agent
        if self.mode is not None:
            out["mode"] = self.mode
        return _merge(out, self.extra)


TypedPayload = (
    MessagePayload
    | ToolCallPayload
    | MemoryPayload
    | SkillPayload
    | BlockPayload
    | DelegationPayload
    | ModelCallPayload
    | ReasoningPayload
    | GuardrailPayload
)
"""The payload types of the known kinds."""

Payload = TypedPayload | Mapping[str, Any]
"""An event payload: a typed payload, or a plain JSON object for other kinds."""

PAYLOAD_TYPES: Final[Mapping[str, type[TypedPayload]]] = {
    "message": MessagePayload,
    "tool_call": ToolCallPayload,
    "memory": MemoryPayload,
    "skill": SkillPayload,
    "ordered_block": BlockPayload,
    "delegation": DelegationPayload,
    "model_call": ModelCallPayload,
    "reasoning": ReasoningPayload,
    "guardrail": GuardrailPayload,
}
"""The typed payload class of each known kind."""

PAYLOAD_KEYS: Final[Mapping[str, tuple[str, ...]]] = {
    kind: tuple(field.name for field in attrs.fields(cls) if field.name != "extra")
    for kind, cls in PAYLOAD_TYPES.items()
}
"""The keys of each typed payload in its canonical JSON form (its fields but ``extra``).

>>> PAYLOAD_KEYS["skill"]
('skill_id', 'step_id')
"""

KIND_EVENT_TYPES: Final[Mapping[str, tuple[str, ...]]] = {
    "memory": MEMORY_EVENT_TYPES,
    "skill": SKILL_TRANSITIONS,
    "ordered_block": BLOCK_TRANSITIONS,
}
"""The event types of the kinds that constrain them (any other kind takes any string)."""


def payload_to_dict(payload: Payload) -> dict[str, Any]:
    """The canonical JSON form of any payload.

    Args:
        payload: A typed payload or a plain mapping.

    Returns:
        A new dict.

    >>> payload_to_dict({"text": "refund"})
    {'text': 'refund'}
    >>> payload_to_dict(SkillPayload("refund"))
    {'skill_id': 'refund'}
    """
    if isinstance(payload, Mapping):
        return dict(payload)
    return payload.to_dict()


__all__ = [
    "BLOCK_TRANSITIONS",
    "DELEGATION_MODES",
    "ERROR_OUTCOMES",
    "KIND_EVENT_TYPES",
    "MEMORY_EVENT_TYPES",
    "PAYLOAD_KEYS",
    "PAYLOAD_TYPES",
    "SKILL_TRANSITIONS",
    "TOOL_OUTCOMES",
    "TOOL_SOURCES",
    "BlockPayload",
    "Button",
    "DelegationPayload",
    "GuardrailPayload",
    "MemoryPayload",
    "MessagePayload",
    "ModelCallPayload",
    "Payload",
    "ReasoningPayload",
    "SkillPayload",
    "ToolCallPayload",
    "TypedPayload",
    "payload_to_dict",
]
