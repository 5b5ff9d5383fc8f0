"""Writing a record in code: :class:`RecordBuilder`, its methods for the kinds real traces add
(:class:`TraceEvents`), and the checks of their arguments (each raising ``ValueError`` naming
the argument, the value and what was expected).

>>> check_envelope("user", {"turn": 2, "entity_refs": ["order:1"]}, ())
{'turn': 2, 'entity_refs': ('order:1',)}
>>> choice("source", "remote", ("local", "mcp"))
Traceback (most recent call last):
...
ValueError: 'source' must be one of 'local', 'mcp' (got 'remote')

Builder methods of the kinds real traces add: ``model_call``, ``reasoning``, ``guardrail``.

:class:`TraceEvents` is a base of :class:`~agent_asserts.record.builder.RecordBuilder`.

>>> from agent_asserts.record.builder import RecordBuilder
>>> rec = (RecordBuilder().model_call("gpt-4o", usage={"input_tokens": 9, "output_tokens": 3})
...        .reasoning(summary="look up first").guardrail("pii", False).build())
>>> [e.kind for e in rec.events]
['model_call', 'reasoning', 'guardrail']

``RecordBuilder``: write a record in code, one event per call.

>>> rec = (
...     RecordBuilder(initial_state={"orders": {"A1": "paid"}})
...     .user("refund A1")
...     .tool("refund", {"id": "A1"}, result={"ok": True})
...     .agent("Refund issued")
...     .build(final_state={"orders": {"A1": "refunded"}}, status="completed")
... )
>>> [(e.event_id, e.kind, e.turn) for e in rec.events]
[('e0', 'message', 1), ('e1', 'tool_call', 1), ('e2', 'message', 1)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, Final, Self, TypedDict, Unpack

from agent_asserts._text import did_you_mean
from agent_asserts._values import MISSING
from agent_asserts.record.declared_tools import DeclaredTool, decode_tools
from agent_asserts.record.decoding import decode_payload, decode_usage, parent_problems
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.event import (
    BLOCK_TRANSITIONS,
    DELEGATION_MODES,
    KIND_EVENT_TYPES,
    PAYLOAD_TYPES,
    SKILL_TRANSITIONS,
    STR_ENVELOPE_FIELDS,
    TOOL_OUTCOMES,
    TOOL_SOURCES,
    BlockPayload,
    Button,
    DelegationPayload,
    Event,
    GuardrailPayload,
    MemoryPayload,
    MessagePayload,
    ModelCallPayload,
    Payload,
    ReasoningPayload,
    SkillPayload,
    ToolCallPayload,
    TurnTracker,
    Usage,
    opens_turn,
)
from agent_asserts.record.trial import TrialRecord
from agent_asserts.record.validators import (
    json_copy,
    must_be_bool,
    must_be_duration,
    must_be_int,
    must_be_list,
    must_be_number,
    must_be_str,
    one_of,
    resolve_outcome,
)


class CommonEnvelope(TypedDict, total=False):
    event_id: str
    wall_time: str | float | None
    monotonic_time: float | None
    actor_ref: str | None
    surface: str | None
    audience: str | None
    turn: int | None
    phase: str | None
    entity_refs: Iterable[str]
    operation_ref: str | None
    correlation_id: str | None
    caused_by_event_id: str | None
    duration: float | None
    parent_id: str | None
    group_id: str | None
    agent: str | None


class StatusEnvelope(CommonEnvelope, total=False):
    status: str | None


class Envelope(StatusEnvelope, total=False):
    """The envelope fields the builder methods accept as keyword arguments.

    ``event_type`` is fixed by ``memory_set``/``memory_clear``/``skill``/``block``/
    ``subagent`` (and a parameter of ``event``); ``status`` is ``subagent``'s outcome
    parameter there.

    >>> "turn" in Envelope.__optional_keys__
    True
    >>> check_envelope("agent", {"surface": "chat", "turn": 3}, ())["surface"]
    'chat'
    """

    event_type: str | None


ENVELOPE_KEYS: Final = tuple(sorted(Envelope.__optional_keys__))
_STR_KEYS: Final = ("event_type", *STR_ENVELOPE_FIELDS)


def check(name: str, message: str | None) -> None:
    if message is not None:
        raise ValueError(f"{name!r} {message}")


def as_json(name: str, value: Any) -> Any:
    problems: list[tuple[str, str]] = []
    copied = json_copy(value, name, problems)
    if problems:
        path, message = problems[0]
        raise ValueError(f"{path!r} {message}")
    return copied


def choice(name: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ValueError(f"{name!r} must be one of {one_of(allowed)} (got {value!r})")
    result: str = value
    return result


def as_button(value: Any) -> Button:
    if isinstance(value, Button):
        return value
    if isinstance(value, Mapping) and set(value) <= {"title", "payload"} and "title" in value:
        check("buttons", must_be_str(value["title"]))
        payload = value.get("payload")
        if payload is not None:
            check("buttons", must_be_str(payload))
        return Button(value["title"], payload)
    raise ValueError(
        f"'buttons' items must be Button objects or {{'title': ..., 'payload': ...}} mappings"
        f" (got {value!r})"
    )


def as_payload(kind: str, payload: Any, event_type: str | None) -> Payload:
    """The payload of ``RecordBuilder.event``: a typed payload of ``kind`` as it is, else a
    mapping (None is ``{}``) decoded like the payload of a record file.

    >>> as_payload("skill", {"skill_id": "refund"}, "activated")
    SkillPayload(skill_id='refund', step_id=None, extra={})
    >>> as_payload("audit", [1], None)
    Traceback (most recent call last):
    ...
    ValueError: 'payload' must be a mapping for kind 'audit' (got [1])
    """
    typed = PAYLOAD_TYPES.get(kind)
    if typed is not None and isinstance(payload, typed):
        return payload
    raw = {} if payload is None else payload
    if not isinstance(raw, Mapping):
        raise ValueError(f"'payload' must be a mapping for kind {kind!r} (got {raw!r})")
    problems: list[tuple[str, str]] = []
    decoded = decode_payload(kind, raw, "payload", problems, event_type)
    if problems or decoded is None:
        raise ValueError("; ".join(f"{path!r} {message}" for path, message in problems))
    return decoded


def as_usage(usage: Usage | Mapping[str, Any] | None) -> Usage | None:
    """A ``Usage`` from itself, a mapping in the canonical form (any further non-negative
    integer counter goes to ``details``), or None.

    >>> as_usage({"input_tokens": 2, "output_tokens": 1})
    Usage(input_tokens=2, output_tokens=1, total_tokens=3)
    >>> as_usage({"input_tokens": 2, "reasoning_tokens": 1}).details
    {'reasoning_tokens': 1}
    """
    if usage is None or isinstance(usage, Usage):
        return usage
    if not isinstance(usage, Mapping):
        raise ValueError(f"'usage' must be a Usage or a mapping (got {usage!r})")
    problems: list[tuple[str, str]] = []
    decoded = decode_usage(usage, "usage", problems)
    if problems or decoded is None:
        raise ValueError("; ".join(f"{path!r} {message}" for path, message in problems))
    return decoded


def as_tools(tools: Any) -> tuple[DeclaredTool, ...]:
    """The declared tools of ``build(tools=...)``: ``DeclaredTool`` objects or mappings in the
    canonical form.

    >>> as_tools([{"name": "search"}])
    (DeclaredTool(name='search', description=None, parameters=None),)
    >>> as_tools([{"name": ""}])
    Traceback (most recent call last):
    ...
    ValueError: 'tools[0].name' must be a non-empty string (got '')
    """
    items = as_list("tools", tools)
    raw = [item.to_dict() if isinstance(item, DeclaredTool) else item for item in items]
    problems: list[tuple[str, str]] = []
    decoded = decode_tools(raw, problems, "tools")
    if problems:
        raise ValueError("; ".join(f"{path!r} {message}" for path, message in problems))
    return decoded


def check_links(events: tuple[Event, ...]) -> None:
    """Raise :class:`RecordError` when a ``parent_id`` names no other event or makes a cycle.

    >>> check_links(())
    """
    links = [(i, e.event_id, e.parent_id) for i, e in enumerate(events) if e.parent_id is not None]
    if links:
        problems = parent_problems(links, {e.event_id: i for i, e in enumerate(events)})
        if problems:
            raise RecordError(Problem(path, message) for path, message in problems)


def as_list(name: str, value: Any) -> list[Any]:
    """An iterable argument as a list; a string, bytes, a mapping or a non-iterable is a
    ``TypeError`` naming the argument (``list("boom")`` would be four characters).

    >>> as_list("errors", ("timeout",))
    ['timeout']
    >>> as_list("errors", "boom")
    Traceback (most recent call last):
    ...
    TypeError: 'errors' must be a list (got 'boom')
    """
    if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
        raise TypeError(f"{name!r} {must_be_list(value)}")
    return list(value)


def as_surfaces(surfaces: Iterable[str]) -> frozenset[str]:
    """The recorded surfaces as a set of strings (a lone string is a mistake).

    >>> as_surfaces("message")
    Traceback (most recent call last):
    ...
    TypeError: 'surfaces' must be a list (got 'message')
    """
    found = frozenset(as_list("surfaces", surfaces))
    for surface in found:
        check("surfaces", must_be_str(surface))
    return found


def check_envelope(
    method: str, envelope: Mapping[str, Any], fixed: tuple[str, ...]
) -> dict[str, Any]:
    """Check the envelope keyword arguments of a builder method.

    Args:
        method: The method's name, for messages.
        envelope: The keyword arguments.
        fixed: Envelope keys the method sets itself (passing them is a ``TypeError``).

    Returns:
        The fields, with ``entity_refs`` as a tuple when given.

    Raises:
        TypeError: An unknown or fixed keyword argument.
        ValueError: A value of the wrong type.

    >>> check_envelope("agent", {"tunr": 1}, ())
    Traceback (most recent call last):
    ...
    TypeError: agent() got an unexpected keyword argument 'tunr' (did you mean 'turn'?)
    """
    for key in envelope:
        if key not in ENVELOPE_KEYS or key in fixed:
            if key in fixed:
                hint = f" ({method}() sets {key!r} itself)"
            else:
                hint = did_you_mean(key, ENVELOPE_KEYS, cutoff=0.5)
            raise TypeError(f"{method}() got an unexpected keyword argument {key!r}{hint}")
    fields = dict(envelope)
    for key in _STR_KEYS:
        if fields.get(key) is not None:
            check(key, must_be_str(fields[key]))
    if fields.get("wall_time") is not None and not isinstance(fields["wall_time"], str):
        check("wall_time", must_be_number(fields["wall_time"]))
    if fields.get("monotonic_time") is not None:
        check("monotonic_time", must_be_number(fields["monotonic_time"]))
    if fields.get("duration") is not None:
        check("duration", must_be_duration(fields["duration"]))
    entity_refs = fields.pop("entity_refs", ())
    if isinstance(entity_refs, str | Mapping):
        raise ValueError(f"'entity_refs' must be a list of strings (got {entity_refs!r})")
    entity_refs = tuple(entity_refs)
    for ref in entity_refs:
        check("entity_refs", must_be_str(ref))
    fields["entity_refs"] = entity_refs
    if fields.get("turn") is not None:
        check("turn", must_be_int(fields["turn"]))
    return fields


def _optional_strs(**values: Any) -> None:
    for label, value in values.items():
        if value is not None:
            check(label, must_be_str(value))


class TraceEvents:
    """The ``model_call``, ``reasoning`` and ``guardrail`` methods of the record builder."""

    if TYPE_CHECKING:

        def _add(
            self,
            method: str,
            kind: str,
            payload: Payload,
            envelope: Mapping[str, Any],
            *,
            event_type: str | None = None,
            fixed: tuple[str, ...] = (),
            actor_ref: str | None = None,
        ) -> Any: ...

    def model_call(
        self,
        model: str | None,
        usage: Usage | Mapping[str, Any] | None = None,
        *,
        provider: str | None = None,
        finish_reason: str | None = None,
        is_error: bool = False,
        error_message: str | None = None,
        error_type: str | None = None,
        **envelope: Unpack[Envelope],
    ) -> Self:
        """A request to a model and its response (``usage``: a ``Usage`` or a mapping).

        >>> from agent_asserts.record.builder import RecordBuilder
        >>> RecordBuilder().model_call("gpt-4o", finish_reason="stop").build().events[0].payload
        ModelCallPayload(model='gpt-4o', provider=None, usage=None, finish_reason='stop',
                         is_error=False, error_message=None, error_type=None, extra={})
        """
        _optional_strs(
            model=model,
            provider=provider,
            finish_reason=finish_reason,
            error_message=error_message,
            error_type=error_type,
        )
        check("is_error", must_be_bool(is_error))
        payload = ModelCallPayload(
            model, provider, as_usage(usage), finish_reason, is_error, error_message, error_type
        )
        self._add("model_call", "model_call", payload, envelope)
        return self

    def reasoning(
        self,
        text: str | None = None,
        summary: str | None = None,
        redacted: bool = False,
        **envelope: Unpack[Envelope],
    ) -> Self:
        """A model's reasoning: its text, a summary, or only that it was redacted.

        >>> from agent_asserts.record.builder import RecordBuilder
        >>> RecordBuilder().reasoning(redacted=True).build().events[0].payload.redacted
        True
        """
        _optional_strs(text=text, summary=summary)
        check("redacted", must_be_bool(redacted))
        self._add("reasoning", "reasoning", ReasoningPayload(text, summary, redacted), envelope)
        return self

    def guardrail(
        self,
        name: str,
        triggered: bool,
        output: Any = None,
        **envelope: Unpack[Envelope],
    ) -> Self:
        """A guardrail that ran: whether it tripped, and what it reported.

        >>> from agent_asserts.record.builder import RecordBuilder
        >>> RecordBuilder().guardrail("pii", True, {"found": "email"}).build().events[0].payload
        GuardrailPayload(name='pii', triggered=True, output={'found': 'email'}, extra={})
        """
        check("name", must_be_str(name, non_empty=True))
        check("triggered", must_be_bool(triggered))
        payload = GuardrailPayload(name, triggered, as_json("output", output))
        self._add("guardrail", "guardrail", payload, envelope)
        return self


class RecordBuilder(TraceEvents):
    """Builds a :class:`TrialRecord` event by event; every method returns the builder.

    Turns follow the rule of ``TrialRecord.from_dict``
    (:func:`~agent_asserts.record.event.derive_turns`): a user message whose text is non-empty
    and does not start with ``/`` opens a new turn (numbered from 1; events before the first
    one are in turn 0), whichever method adds it;
    an explicit ``turn=`` sets the current turn. Events get ids ``e0``,
    ``e1``… by position unless ``event_id=`` is given. Every method also takes the envelope
    fields (:class:`Envelope`) as keyword arguments. Bad arguments raise ``ValueError`` (or
    ``TypeError`` for unknown keyword arguments) naming the argument.

    Args:
        initial_state: S0 (JSON data), or None when not recorded.

    >>> b = RecordBuilder().user("hi", wall_time="2024-05-01T10:00:00Z")
    >>> b.skill("started", "refund")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'transition' must be one of 'activated', 'completed', ... (got 'started')
    """

    def __init__(self, initial_state: Any = None) -> None:
        self._initial_state = as_json("initial_state", initial_state)
        self._events: list[Event] = []
        self._ids: set[str] = set()
        self._turns = TurnTracker()

    # -- the one path every method takes ------------------------------------------------------

    def _add(
        self,
        method: str,
        kind: str,
        payload: Payload,
        envelope: Mapping[str, Any],
        *,
        event_type: str | None = None,
        fixed: tuple[str, ...] = (),
        actor_ref: str | None = None,
    ) -> RecordBuilder:
        fields = check_envelope(method, envelope, fixed)
        entity_refs = fields.pop("entity_refs", ())
        explicit_turn = fields.pop("turn", None)
        event_id = fields.pop("event_id", None)
        if event_id is None:
            event_id = f"e{len(self._events)}"
        else:
            check("event_id", must_be_str(event_id, non_empty=True))
        if event_id in self._ids:
            raise ValueError(f"'event_id' {event_id!r} is already used by another event")
        if event_type is not None:
            fields["event_type"] = event_type
        if actor_ref is not None:
            fields.setdefault("actor_ref", actor_ref)
        # The rule from_dict derives turns by (derive_turns in record/event.py), so both give
        # the same turns.
        opens = opens_turn(kind, fields.get("actor_ref"), payload)
        turn = self._turns.assign(explicit_turn, opens)
        event = Event(kind, payload, event_id, turn=turn, entity_refs=entity_refs, **fields)
        self._ids.add(event_id)
        self._events.append(event)
        return self

    # -- events -------------------------------------------------------------------------------

    def user(self, text: str, **envelope: Unpack[Envelope]) -> RecordBuilder:
        """A user message; it opens a new turn when its text is non-empty and does not start
        with ``/`` (the rule of ``from_dict``: ``/session_start`` and button payloads stay in
        the current turn).

        >>> [e.turn for e in RecordBuilder().user("/session_start").user("hi").build().events]
        [0, 1]
        """
        check("text", must_be_str(text))
        return self._add("user", "message", MessagePayload(text), envelope, actor_ref="user")

    def agent(
        self,
        text: str,
        utter_name: str | None = None,
        buttons: Iterable[Button | Mapping[str, Any]] | None = None,
        **envelope: Unpack[Envelope],
    ) -> RecordBuilder:
        """An agent message (what ``reply`` and ``bot_uttered`` read).

        >>> RecordBuilder().agent("Pick one", buttons=[{"title": "OK", "payload": "/ok"}]).build(
        ...     ).events[0].payload.buttons
        (Button(title='OK', payload='/ok'),)
        """
        check("text", must_be_str(text))
        if utter_name is not None:
            check("utter_name", must_be_str(utter_name))
        if isinstance(buttons, str | Mapping):
            raise ValueError(f"'buttons' must be a list (got {buttons!r})")
        payload = MessagePayload(text, utter_name, tuple(as_button(b) for b in buttons or ()))
        return self._add("agent", "message", payload, envelope, actor_ref="agent")

    def tool(
        self,
        name: str,
        arguments: Any = None,
        result: Any = None,
        is_error: bool | None = None,
        source: str = "local",
        mcp_server: str | None = None,
        skill_id: str | None = None,
        call_id: str | None = None,
        error_message: str | None = None,
        outcome: str | None = None,
        error_type: str | None = None,
        arguments_raw: str | None = None,
        **envelope: Unpack[Envelope],
    ) -> RecordBuilder:
        """A tool call with its arguments and result.

        ``arguments=None`` means "not recorded" (argument matchers are then ``invalid``),
        ``{}`` a call without arguments: the rule of ``from_dict``, where no ``arguments``
        key means not recorded. ``arguments_raw`` keeps arguments that were not valid JSON
        (then ``arguments`` must be None). ``outcome`` (``succeeded``, ``failed``,
        ``retried``, ``denied``, ``interrupted``, ``pending``) and ``is_error`` are each
        derived from the other when not given (``is_error`` is True exactly for ``failed``
        and ``retried``).

        >>> rec = RecordBuilder().tool("search", {"q": "x"}, result=[1]).build()
        >>> rec.tool_calls[0].payload.result
        [1]
        >>> p = RecordBuilder().tool("refund", outcome="denied").build().tool_calls[0].payload
        >>> p.arguments, p.is_error, p.outcome
        (MISSING, False, 'denied')
        """
        check("name", must_be_str(name, non_empty=True))
        if is_error is not None:
            check("is_error", must_be_bool(is_error))
        choice("source", source, TOOL_SOURCES)
        if outcome is not None:
            choice("outcome", outcome, TOOL_OUTCOMES)
        for label, value in (
            ("mcp_server", mcp_server),
            ("skill_id", skill_id),
            ("call_id", call_id),
            ("error_message", error_message),
            ("error_type", error_type),
            ("arguments_raw", arguments_raw),
        ):
            if value is not None:
                check(label, must_be_str(value))
        if arguments_raw is not None and arguments is not None:
            raise ValueError(
                "'arguments_raw' is not allowed with 'arguments' (arguments_raw keeps arguments"
                " that were not valid JSON)"
            )
        given = MISSING if is_error is None else is_error
        flag, outcome, conflict = resolve_outcome(given, outcome)
        check("is_error", conflict)
        payload = ToolCallPayload(
            name,
            MISSING if arguments is None else as_json("arguments", arguments),
            as_json("result", result),
            flag,
            source,
            mcp_server,
            skill_id,
            call_id,
            error_message,
            {},
            outcome,
            error_type,
            arguments_raw,
        )
        return self._add("tool", "tool_call", payload, envelope)

    def memory_set(
        self, name: str, value: Any, **envelope: Unpack[StatusEnvelope]
    ) -> RecordBuilder:
        """A memory (slot) write.

        >>> RecordBuilder().memory_set("refund.reason", "dup").build().events[0].event_type
        'set'
        """
        check("name", must_be_str(name, non_empty=True))
        payload = MemoryPayload(name, as_json("value", value))
        return self._add(
            "memory_set", "memory", payload, envelope, event_type="set", fixed=("event_type",)
        )

    def memory_clear(self, name: str, **envelope: Unpack[StatusEnvelope]) -> RecordBuilder:
        """A memory (slot) clear.

        >>> RecordBuilder().memory_clear("refund.reason").build().events[0].payload.value
        MISSING
        """
        check("name", must_be_str(name, non_empty=True))
        return self._add(
            "memory_clear",
            "memory",
            MemoryPayload(name, MISSING),
            envelope,
            event_type="clear",
            fixed=("event_type",),
        )

    def skill(
        self,
        transition: str,
        skill_id: str,
        step_id: str | None = None,
        **envelope: Unpack[StatusEnvelope],
    ) -> RecordBuilder:
        """A skill transition: activated, completed, cancelled, interrupted or resumed.

        >>> RecordBuilder().skill("activated", "refund").build().events[0].payload
        SkillPayload(skill_id='refund', step_id=None, extra={})
        """
        transition = choice("transition", transition, SKILL_TRANSITIONS)
        check("skill_id", must_be_str(skill_id, non_empty=True))
        if step_id is not None:
            check("step_id", must_be_str(step_id))
        payload = SkillPayload(skill_id, step_id)
        return self._add(
            "skill", "skill", payload, envelope, event_type=transition, fixed=("event_type",)
        )

    def block(
        self,
        transition: str,
        skill_id: str,
        block_id: str,
        step_id: str | None = None,
        **envelope: Unpack[StatusEnvelope],
    ) -> RecordBuilder:
        """An ordered-block transition: entered, completed, cancelled, interrupted or resumed.

        >>> RecordBuilder().block("entered", "refund", "main").build().events[0].kind
        'ordered_block'
        """
        transition = choice("transition", transition, BLOCK_TRANSITIONS)
        check("skill_id", must_be_str(skill_id, non_empty=True))
        check("block_id", must_be_str(block_id, non_empty=True))
        if step_id is not None:
            check("step_id", must_be_str(step_id))
        payload = BlockPayload(skill_id, block_id, step_id)
        return self._add(
            "block",
            "ordered_block",
            payload,
            envelope,
            event_type=transition,
            fixed=("event_type",),
        )

    def subagent(
        self,
        name: str,
        status: str = "completed",
        output: Any = None,
        from_agent: str | None = None,
        mode: str | None = None,
        **envelope: Unpack[CommonEnvelope],
    ) -> RecordBuilder:
        """A delegation to a sub-agent; ``status`` (its outcome) becomes the ``event_type``.

        ``from_agent`` names the delegating agent; ``mode`` is ``handoff`` (control passes
        to the sub-agent) or ``tool`` (it is called like a tool and returns).

        >>> RecordBuilder().subagent("researcher", status="failed").build().events[0].event_type
        'failed'
        """
        check("name", must_be_str(name, non_empty=True))
        check("status", must_be_str(status, non_empty=True))
        if from_agent is not None:
            check("from_agent", must_be_str(from_agent))
        if mode is not None:
            choice("mode", mode, DELEGATION_MODES)
        payload = DelegationPayload(name, as_json("output", output), {}, from_agent, mode)
        return self._add(
            "subagent",
            "delegation",
            payload,
            envelope,
            event_type=status,
            fixed=("event_type", "status"),
        )

    def event(
        self,
        kind: str,
        event_type: str | None = None,
        payload: Any = None,
        **envelope: Unpack[StatusEnvelope],
    ) -> RecordBuilder:
        """Any other event (``mutation``, ``audit``, ``ui_event``…), or a known kind from a dict.

        A payload for a known kind may be its typed payload or a mapping in the canonical
        form; other kinds take a JSON object (``None`` means ``{}``).

        >>> RecordBuilder().event("audit", payload={"text": "refund"}, operation_ref="op-7").build(
        ...     ).events[0].operation_ref
        'op-7'
        """
        check("kind", must_be_str(kind, non_empty=True))
        if event_type is not None:
            check("event_type", must_be_str(event_type))
        allowed = KIND_EVENT_TYPES.get(kind)
        if allowed is not None:
            event_type = choice("event_type", event_type, allowed)
        elif kind == "delegation" and event_type is None:
            event_type = "completed"
        value = as_payload(kind, payload, event_type)
        return self._add(
            "event", kind, value, envelope, event_type=event_type, fixed=("event_type",)
        )

    # -- the record ---------------------------------------------------------------------------

    def build(
        self,
        final_state: Any = None,
        status: str | None = None,
        reply: str | None = None,
        steps: int | None = None,
        usage: Usage | Mapping[str, Any] | None = None,
        errors: Iterable[Any] = (),
        surfaces: Iterable[str] | None = None,
        tools: Iterable[DeclaredTool | Mapping[str, Any]] | None = None,
    ) -> TrialRecord:
        """The record (the builder can keep going and build again).

        ``tools`` declares the tools the agent was offered (``DeclaredTool`` objects or
        ``{name, description?, parameters?}`` mappings). Every ``parent_id`` must name
        another event, without cycles, else :class:`RecordError` names the event.

        >>> RecordBuilder().build(steps=2, usage={"input_tokens": 5, "output_tokens": 1}).usage
        Usage(input_tokens=5, output_tokens=1, total_tokens=6)
        >>> RecordBuilder().user("hi", parent_id="e7").build()
        Traceback (most recent call last):
        ...
        agent_asserts.record.errors.RecordError: invalid record: 1 problem(s)
          $.events[0].parent_id: no event has id 'e7'
        """
        if status is not None:
            check("status", must_be_str(status))
        if reply is not None:
            check("reply", must_be_str(reply))
        if steps is not None:
            check("steps", must_be_int(steps))
        usage = as_usage(usage)
        errors = as_json("errors", as_list("errors", errors))
        surfaces = None if surfaces is None else as_surfaces(surfaces)
        declared = None if tools is None else as_tools(tools)
        events = tuple(self._events)
        check_links(events)
        return TrialRecord(
            events=events,
            initial_state=self._initial_state,
            final_state=as_json("final_state", final_state),
            status=status,
            reply=reply,
            steps=steps,
            usage=usage,
            errors=errors,
            surfaces=surfaces,
            tools=declared,
        )


__all__ = [
    "ENVELOPE_KEYS",
    "CommonEnvelope",
    "Envelope",
    "RecordBuilder",
    "StatusEnvelope",
    "TraceEvents",
    "as_button",
    "as_json",
    "as_payload",
    "as_surfaces",
    "as_tools",
    "as_usage",
    "check",
    "check_envelope",
    "check_links",
    "choice",
]
