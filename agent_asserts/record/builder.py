"""``RecordBuilder``: write a record in code, one event per call.

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
from typing import Any

from typing_extensions import Unpack

from agent_asserts._missing import MISSING
from agent_asserts.record._builder_args import (
    CommonEnvelope,
    Envelope,
    StatusEnvelope,
    as_button,
    as_json,
    as_list,
    as_payload,
    as_surfaces,
    as_tools,
    as_usage,
    check,
    check_envelope,
    check_links,
    choice,
)
from agent_asserts.record._trace_builder import TraceEvents
from agent_asserts.record.declared_tools import DeclaredTool
from agent_asserts.record.event import Event
from agent_asserts.record.payloads import (
    BLOCK_TRANSITIONS,
    DELEGATION_MODES,
    KIND_EVENT_TYPES,
    SKILL_TRANSITIONS,
    TOOL_OUTCOMES,
    TOOL_SOURCES,
    BlockPayload,
    Button,
    DelegationPayload,
    MemoryPayload,
    MessagePayload,
    Payload,
    SkillPayload,
    ToolCallPayload,
)
from agent_asserts.record.trial import TrialRecord
from agent_asserts.record.turns import TurnTracker, opens_turn
from agent_asserts.record.usage import Usage
from agent_asserts.record.validators import (
    must_be_bool,
    must_be_int,
    must_be_str,
    resolve_outcome,
)


class RecordBuilder(TraceEvents):
    """Builds a :class:`TrialRecord` event by event; every method returns the builder.

    Turns follow the rule of ``TrialRecord.from_dict`` (:mod:`agent_asserts.record.turns`): a
    user message whose text is non-empty and does not start with ``/`` opens a new turn
    (numbered from 1; events before the first one are in turn 0), whichever method adds it;
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
        # The rule from_dict derives turns by (record/turns.py), so both give the same turns.
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


__all__ = ["Envelope", "RecordBuilder"]
