"""An event of a record: the envelope (seed 002), the typed payloads of the known kinds and
:class:`Usage`, the token counts of one model call (or of the run), and the turn derivation
(:func:`derive_turns`: explicit ``turn`` values win, missing ones are derived).

Kinds ``message``, ``tool_call``, ``memory``, ``skill``, ``ordered_block`` and ``delegation``,
and the kinds real traces add (``model_call``, ``reasoning``, ``guardrail``), have a typed
payload; every other kind keeps its payload as a plain JSON object. Payload keys the typed form
does not know are kept in ``extra`` so nothing is lost in a round trip (:func:`merge_extra`
puts them back into the canonical JSON form).

>>> e = Event("message", MessagePayload("refund A1049"), "e0", actor_ref="user", turn=1)
>>> e.to_dict()  # doctest: +NORMALIZE_WHITESPACE
{'event_id': 'e0', 'actor_ref': 'user', 'turn': 1, 'kind': 'message',
 'payload': {'text': 'refund A1049'}}
>>> ToolCallPayload("refunds_lookup", {"orderId": "A1049"}).to_dict()
{'name': 'refunds_lookup', 'arguments': {'orderId': 'A1049'}, 'is_error': False, 'source': 'local'}
>>> ModelCallPayload("gpt-4o", usage=Usage(900, 120), finish_reason="tool_calls").to_dict()
{'model': 'gpt-4o', 'usage': {'input_tokens': 900, 'output_tokens': 120, 'total_tokens': 1020},
 'finish_reason': 'tool_calls'}
>>> merge_extra({"name": "t"}, {"vendor": 1})
{'vendor': 1, 'name': 't'}
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
from typing import Any, Final

import attrs

from agent_asserts._values import MISSING

# Token usage of a run or of one model call

USAGE_COUNTERS: Final = ("input_tokens", "output_tokens", "total_tokens")
"""The named counters of :class:`Usage` (any other counter goes to ``details``)."""


@attrs.frozen(repr=False, init=False)
class Usage:
    """Token counts; ``total_tokens`` defaults to input + output when both are given.

    Attributes:
        input_tokens: Prompt tokens, or None when not recorded.
        output_tokens: Completion tokens, or None when not recorded.
        total_tokens: All tokens; derived from the other two when not given.
        details: Further non-negative integer counters by name (``cached_input_tokens``,
            ``reasoning_tokens``… any key).
        reported_by: Free text on how the counts were obtained (whether cache tokens are
            inside ``input_tokens``, or that the run-level usage is a sum over model calls).

    >>> Usage(input_tokens=10, output_tokens=5)
    Usage(input_tokens=10, output_tokens=5, total_tokens=15)
    >>> Usage(total_tokens=7, details={"reasoning_tokens": 2}).to_dict()
    {'total_tokens': 7, 'details': {'reasoning_tokens': 2}}
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    details: Mapping[str, int] = attrs.field(factory=dict)
    reported_by: str | None = None

    def __init__(
        self,
        input_tokens: int | None = None,
        output_tokens: int | None = None,
        total_tokens: int | None = None,
        details: Mapping[str, int] = attrs.NOTHING,  # type: ignore[assignment]
        reported_by: str | None = None,
    ) -> None:
        # total_tokens is derived here, before the fields are set (a frozen instance is never
        # written after): attrs' own __init__ sets them
        if total_tokens is None and input_tokens is not None and output_tokens is not None:
            total_tokens = input_tokens + output_tokens
        given: Any = details  # attrs.NOTHING when not given, as attrs' own __init__ shows
        details = {} if given is attrs.NOTHING else given
        self.__attrs_init__(input_tokens, output_tokens, total_tokens, details, reported_by)

    def __repr__(self) -> str:
        parts = [
            f"input_tokens={self.input_tokens!r}",
            f"output_tokens={self.output_tokens!r}",
            f"total_tokens={self.total_tokens!r}",
        ]
        if self.details:
            parts.append(f"details={dict(self.details)!r}")
        if self.reported_by is not None:
            parts.append(f"reported_by={self.reported_by!r}")
        return f"Usage({', '.join(parts)})"

    def counter(self, name: str) -> int | None:
        """The value of a named counter or a ``details`` key; None when not recorded.

        >>> Usage(5, 1, details={"cached_input_tokens": 3}).counter("cached_input_tokens")
        3
        >>> Usage(5, 1).counter("total_tokens"), Usage(5, 1).counter("reasoning_tokens")
        (6, None)
        """
        if name in USAGE_COUNTERS:
            value: int | None = getattr(self, name)
            return value
        return self.details.get(name)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form, omitting counts that were not recorded.

        >>> Usage(1, 2).to_dict()
        {'input_tokens': 1, 'output_tokens': 2, 'total_tokens': 3}
        """
        out: dict[str, Any] = {}
        if self.input_tokens is not None:
            out["input_tokens"] = self.input_tokens
        if self.output_tokens is not None:
            out["output_tokens"] = self.output_tokens
        if self.total_tokens is not None:
            out["total_tokens"] = self.total_tokens
        if self.details:
            out["details"] = dict(self.details)
        if self.reported_by is not None:
            out["reported_by"] = self.reported_by
        return out


# The payloads


def merge_extra(out: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``out`` with the ``extra`` keys added (known keys win).

    >>> merge_extra({"a": 1}, {})
    {'a': 1}
    """
    if not extra:
        return out
    merged = dict(extra)
    merged.update(out)
    return merged


def short_repr(payload: Any, optional: tuple[str, ...]) -> str:
    """The attrs-style repr of ``payload``, leaving out the ``optional`` fields (those added
    after ``extra``) while they hold their defaults, so older reprs read the same.

    >>> import attrs
    >>> @attrs.frozen(repr=False)
    ... class P:
    ...     a: int
    ...     b: int | None = None
    ...     def __repr__(self) -> str:
    ...         return short_repr(self, ("b",))
    >>> P(1), P(1, 2)
    (P(a=1), P(a=1, b=2))
    """
    parts = []
    for field in attrs.fields(type(payload)):
        value = getattr(payload, field.name)
        if field.name in optional and _is_default(payload, field, value):
            continue
        parts.append(f"{field.name}={value!r}")
    return f"{type(payload).__name__}({', '.join(parts)})"


def _is_default(payload: Any, field: Any, value: Any) -> bool:
    default = field.default
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        default = default.factory(payload) if default.takes_self else default.factory()
    return bool(value == default)


@attrs.frozen
class ModelCallPayload:
    """One request to a model and its response.

    Attributes:
        model: The model name (``gpt-4o``), or None when not recorded.
        provider: Who served it (``openai``, ``anthropic``…), or None.
        usage: The tokens of this call, or None when not recorded.
        finish_reason: Why the model stopped (``stop``, ``tool_calls``…), or None.
        is_error: Whether the call failed.
        error_message: The error text, or None.
        error_type: The error's type or code (``RateLimitError``, ``429``…), or None.
        extra: Keys the typed form does not know, kept for the round trip.

    >>> ModelCallPayload("claude", is_error=True, error_type="overloaded").to_dict()
    {'model': 'claude', 'is_error': True, 'error_type': 'overloaded'}
    """

    model: str | None = None
    provider: str | None = None
    usage: Usage | None = None
    finish_reason: str | None = None
    is_error: bool = False
    error_message: str | None = None
    error_type: str | None = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (None-valued fields and a false ``is_error`` omitted).

        >>> ModelCallPayload().to_dict()
        {}
        """
        out: dict[str, Any] = {}
        if self.model is not None:
            out["model"] = self.model
        if self.provider is not None:
            out["provider"] = self.provider
        if self.usage is not None:
            out["usage"] = self.usage.to_dict()
        if self.finish_reason is not None:
            out["finish_reason"] = self.finish_reason
        if self.is_error:
            out["is_error"] = True
        if self.error_message is not None:
            out["error_message"] = self.error_message
        if self.error_type is not None:
            out["error_type"] = self.error_type
        return merge_extra(out, self.extra)


@attrs.frozen
class ReasoningPayload:
    """A model's reasoning (thinking): its text, a summary, or only the fact it was redacted.

    >>> ReasoningPayload(summary="checked the order first").to_dict()
    {'summary': 'checked the order first'}
    >>> ReasoningPayload(redacted=True).to_dict()
    {'redacted': True}
    """

    text: str | None = None
    summary: str | None = None
    redacted: bool = False
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (None-valued fields and a false ``redacted`` omitted).

        >>> ReasoningPayload("a then b").to_dict()
        {'text': 'a then b'}
        """
        out: dict[str, Any] = {}
        if self.text is not None:
            out["text"] = self.text
        if self.summary is not None:
            out["summary"] = self.summary
        if self.redacted:
            out["redacted"] = True
        return merge_extra(out, self.extra)


@attrs.frozen
class GuardrailPayload:
    """A guardrail that ran: its name, whether it tripped, and what it reported.

    >>> GuardrailPayload("pii_filter", True, output={"found": "email"}).to_dict()
    {'name': 'pii_filter', 'triggered': True, 'output': {'found': 'email'}}
    """

    name: str
    triggered: bool = False
    output: Any = None
    extra: Mapping[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON form (``output`` omitted when None).

        >>> GuardrailPayload("jailbreak").to_dict()
        {'name': 'jailbreak', 'triggered': False}
        """
        out: dict[str, Any] = {"name": self.name, "triggered": self.triggered}
        if self.output is not None:
            out["output"] = self.output
        return merge_extra(out, self.extra)


_merge = merge_extra

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


# Turns: explicit ``turn`` values win, missing ones are derived. The turn is 0 before the first
# user message; a user message (kind ``message``, ``actor_ref`` ``"user"``) opens a new turn when
# its text, with surrounding whitespace removed, is non-empty and does not start with ``/`` (so
# ``/session_start`` and button payloads stay in the current turn). An explicit ``turn`` on any
# event sets the current turn for the events after it. The one rule the decoder, the builder and
# the adapters apply.


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


__all__ = [
    "BLOCK_TRANSITIONS",
    "DELEGATION_MODES",
    "ENVELOPE_FIELDS",
    "ERROR_OUTCOMES",
    "KIND_EVENT_TYPES",
    "MEMORY_EVENT_TYPES",
    "PAYLOAD_KEYS",
    "PAYLOAD_TYPES",
    "SKILL_TRANSITIONS",
    "STR_ENVELOPE_FIELDS",
    "TOOL_OUTCOMES",
    "TOOL_SOURCES",
    "USAGE_COUNTERS",
    "BlockPayload",
    "Button",
    "DelegationPayload",
    "Event",
    "GuardrailPayload",
    "MemoryPayload",
    "MessagePayload",
    "ModelCallPayload",
    "Payload",
    "ReasoningPayload",
    "SkillPayload",
    "ToolCallPayload",
    "TurnTracker",
    "TypedPayload",
    "Usage",
    "derive_turns",
    "merge_extra",
    "opens_turn",
    "payload_to_dict",
    "short_repr",
]
