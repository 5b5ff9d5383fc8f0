"""A trace's interpreted spans (:class:`Step`) → one record, the same way for every span format.

* Events follow the spans' **start** order; each span's event has the span id as its id, its
  start as ``wall_time`` (epoch seconds), ``end - start`` as ``duration``, and the event of its
  nearest ancestor span that became an event as ``parent_id``.
* **Agents.** The first top-level agent span is the root agent (its events have ``agent``
  None); every event inside another agent span names that agent. A nested agent span is a
  ``delegation`` with ``mode`` ``tool`` (control returns); a handoff span, or a later
  top-level agent span no handoff named, is a ``delegation`` with ``mode`` ``handoff``.
* **Model spans** become ``model_call`` events with usage; their output messages give agent
  ``message``, ``reasoning`` and tool calls; their input messages give the user messages (the
  trace's first model call: all of them; later ones: those after the last assistant message,
  as each call repeats the history) and tool results. A sub-agent's input is its
  delegation's ``input``, never a user turn. Tool results never open a turn.
* **Tool calls** are the tool spans; a tool call a model asked for that has no tool span is an
  event of its own, after the model call. A call and its span are paired by call id, else by
  name and order within the agent; the calls of one model response share a ``group_id`` (the
  model call's event id).
* Usage is the sum over model calls only (never an agent's aggregate too), and only when every
  model call carries usage (a partial sum is no run usage: token budgets are ``invalid``).
* A trace whose model spans record no messages records no reply: its ``surfaces`` leave out
  ``message`` and ``reasoning``.
* The status comes from the run: ``failed`` when the root span ended in error, ``incomplete``
  when a call is still pending, else ``completed`` (:func:`run_status`).
* Any shape is read in time linear in the span count: ancestors are worked out once, in one
  parent-first pass without recursion (:func:`~._spans.forest`); a parent link that would
  close a cycle is cut and reported.

>>> from agent_asserts.record.adapters._spans import AgentInfo, Span, Step, ToolInfo
>>> steps = [Step(Span("a", None, "agent", "[0]", 0.0, 2.0), "agent", agent=AgentInfo("bot")),
...          Step(Span("t", "a", "lookup", "[1]", 0.5, 1.0), "tool", tool=ToolInfo("lookup"))]
>>> [(e.kind, e.event_id, e.wall_time) for e in build_record(steps).events]
[('tool_call', 't', 0.5)]

**Pairing** (:class:`Pairing`): which model request each tool span (or handoff) answers: by
call id, else by name and order within the agent (the OpenAI Agents SDK and Langfuse record no
call id on their tool spans).

>>> from agent_asserts.record.adapters._spans import ModelInfo
>>> ask = {"role": "assistant", "parts": [{"type": "tool_call", "name": "lookup", "id": "c1"}]}
>>> steps = [Step(Span("m", None, "chat", "[0]"), "model", model=ModelInfo(output=(ask,))),
...          Step(Span("t", None, "lookup", "[1]"), "tool", tool=ToolInfo("lookup"))]
>>> pairing = Pairing(lambda step: None)
>>> pairing.plan(steps)
>>> pairing.part_span
{('m', 0): 't'}

**Assembly** (:class:`Assembly`): the event list of one trace, assembled step by step by the
rules above. **Finishing** (:func:`finish`): the record of an assembled trace: the root
agent's part, status, usage, and the decoding that turns any event the record model rejects
into a parse error at its span.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import attrs

from agent_asserts._values import MISSING
from agent_asserts.record.adapters._spans import (
    AgentInfo,
    ModelInfo,
    Span,
    Step,
    ToolInfo,
    forest,
    start_positions,
)
from agent_asserts.record.adapters.toolkit import parse_arguments, record_of
from agent_asserts.record.errors import ParseError, RecordError
from agent_asserts.record.trial import TrialRecord

PartKey = tuple[str, int]
"""A model's tool_call part: (model span id, index among the tool_call parts of its output)."""

_Open = tuple[PartKey, Mapping[str, Any], str | None]


class _OpenParts:
    """The requests no span answered yet, in order, indexed by call id, by agent scope and name,
    and by scope for handoff calls: each look-up is constant time (amortized), so pairing a trace
    is linear in its calls whatever their number per model response."""

    def __init__(self) -> None:
        self._alive: dict[PartKey, _Open] = {}
        self._by_id: dict[str, deque[_Open]] = {}
        self._by_name: dict[tuple[str | None, str], deque[_Open]] = {}
        self._transfers: dict[str | None, deque[_Open]] = {}
        self._with_id: dict[str | None, int] = {}  # scope -> open requests that carry an id

    def add(self, item: _Open) -> None:
        key, part, scope = item
        self._alive[key] = item
        call_id, name = part.get("id"), part.get("name")
        if isinstance(call_id, str):
            self._by_id.setdefault(call_id, deque()).append(item)
        if call_id is not None:
            self._with_id[scope] = self._with_id.get(scope, 0) + 1
        if isinstance(name, str):
            self._by_name.setdefault((scope, name), deque()).append(item)
            if name.startswith("transfer_to_"):
                self._transfers.setdefault(scope, deque()).append(item)

    def remove(self, item: _Open) -> None:
        del self._alive[item[0]]
        if item[1].get("id") is not None:
            self._with_id[item[2]] -= 1

    def _first(self, queue: deque[_Open] | None) -> _Open | None:
        while queue and queue[0][0] not in self._alive:
            queue.popleft()
        return queue[0] if queue else None

    def find(self, tool: ToolInfo, scope: str | None) -> _Open | None:
        """The request a tool span answers: by call id, else by name and order in its agent."""
        if tool.call_id is not None:
            for call_id in (tool.call_id, *tool.call_ids):
                by_id = self._first(self._by_id.get(call_id))
                if by_id is not None:
                    return by_id
            if self._with_id.get(scope, 0):
                return None
        return self._first(self._by_name.get((scope, tool.name)))

    def handoff(self, agent: str, scope: str | None) -> _Open | None:
        """The ``transfer_to_<agent>`` call (the OpenAI Agents SDK's handoff tool) a handoff
        answers, else the first open transfer call of its agent."""
        expected = "transfer_to_" + "_".join(agent.lower().split())
        exact = self._first(self._by_name.get((scope, expected)))
        return exact if exact is not None else self._first(self._transfers.get(scope))


class Pairing:
    """The pairs of one trace, planned before any event is built.

    Attributes:
        part_span: A model's tool_call part → the tool (or handoff) span that answers it.
        span_part: The reverse, with the part itself.
        handoff_targets: Agents that a handoff span named.
        handoff_calls: Call ids of the model requests that were handoffs.
    """

    def __init__(self, scope_of: Callable[[Step], str | None]) -> None:
        self.scope_of = scope_of
        self.part_span: dict[PartKey, str] = {}
        self.span_part: dict[str, tuple[PartKey, Mapping[str, Any]]] = {}
        self.handoff_targets: set[str] = set()
        self.handoff_calls: set[str] = set()

    def plan(self, steps: list[Step]) -> None:
        """Pair every tool and handoff step with the request it answers (steps in start order)."""
        open_parts = _OpenParts()
        for step in steps:
            scope = self.scope_of(step)
            if step.role == "handoff" and step.handoff is not None:
                self.handoff_targets.add(step.handoff[1])
                self._pair(step, open_parts.handoff(step.handoff[1], scope), open_parts)
            elif step.role == "model" and step.model is not None:
                for index, part in enumerate(tool_parts(step.model)):
                    open_parts.add(((step.span.span_id, index), part, scope))
            elif step.role == "tool" and step.tool is not None:
                self._pair(step, open_parts.find(step.tool, scope), open_parts)

    def _pair(self, step: Step, match: _Open | None, open_parts: _OpenParts) -> None:
        if match is None:
            return
        if step.role == "handoff" and isinstance(match[1].get("id"), str):
            self.handoff_calls.add(match[1]["id"])
        open_parts.remove(match)
        self.part_span[match[0]] = step.span.span_id
        self.span_part[step.span.span_id] = (match[0], match[1])

    def model_span_of(self, step: Step) -> str | None:
        """The span id of the model call whose request ``step`` answers, or None."""
        pair = self.span_part.get(step.span.span_id)
        return None if pair is None else pair[0][0]


def tool_parts(model: ModelInfo) -> list[Mapping[str, Any]]:
    """The tool_call parts of a model call's output, in order."""
    return [
        part
        for message in model.output
        for part in message.get("parts") or ()
        if isinstance(part, Mapping) and part.get("type") == "tool_call"
    ]


_SPEAKERS: Final = {"user": "user", "human": "user", "system": "system", "developer": "system"}
"""Input roles that become messages (tool results are never messages, so never open a turn)."""


class Assembly:
    """Drafts of canonical event dicts, the pairing of calls and results, usage and errors."""

    def __init__(self, tree: _Tree, *, source: str | None) -> None:
        self.tree = tree
        self.source = source
        self.events: list[dict[str, Any]] = []
        self.positions: list[str] = []  # where each event came from (for parse errors)
        self.owners: list[Step] = []  # the step each event came from (for its parent_id)
        self.errors: list[dict[str, Any]] = []
        self.event_of: dict[str, str] = {}  # span id -> event id
        self.calls: dict[str, dict[str, Any]] = {}  # call id -> tool_call draft
        self.pairing = Pairing(tree.scope_id)
        self.seen_model = False  # whether a model call was added already
        self.usage: dict[str, Any] = {}
        self.without_usage = 0  # model calls that carry no usage
        self.with_messages = False  # whether any model call records messages
        self.reported_by: set[str] = set()
        self.counter = 0

    # -- events -----------------------------------------------------------------------------

    def _group(self, step: Step) -> str | None:
        model_span = self.pairing.model_span_of(step)
        return None if model_span is None else self.event_of.get(model_span)

    def parse_error(self, where: str, reason: str, item: Any = None) -> None:
        self.errors.append(ParseError(where, reason, item, self.source).to_dict())

    def _emit(self, step: Step, event: dict[str, Any], *, primary: bool = False) -> str:
        span = step.span
        if primary:
            event_id = span.span_id
            if span.duration is not None:
                event["duration"] = span.duration
        else:
            self.counter += 1
            event_id = f"{span.span_id}.{self.counter}"
        event["event_id"] = event_id
        if "wall_time" not in event and span.start is not None:
            event["wall_time"] = span.start
        self.owners.append(step)
        if step.conversation_id is not None:
            event["correlation_id"] = step.conversation_id
        self.events.append(event)
        self.positions.append(span.position)
        if primary:
            self.event_of[span.span_id] = event_id
        return event_id

    def link_parents(self) -> None:
        """Give every event the event of its step's nearest ancestor span that became one."""
        found = self.tree.event_parents(self.event_of)
        for event, step in zip(self.events, self.owners, strict=True):
            parent_span = self.tree.parent(step)
            if parent_span is not None:
                parent = self.event_of.get(parent_span, found.get(parent_span))
                if parent is not None:
                    event["parent_id"] = parent
        self.owners = []

    def _agent(self, step: Step, event: dict[str, Any]) -> dict[str, Any]:
        name = self.tree.agent_name(step) if step.role != "agent" else None
        if step.role == "agent":
            scope = self.tree.agent_ancestor(step)
            name = None if scope is None else self.tree.agent_name(scope)
        if name is not None:
            event["agent"] = name
        return event

    def add(self, step: Step) -> None:
        for where, reason, item in step.problems:
            self.parse_error(where, reason, item)
        handler = getattr(self, f"_add_{step.role}")
        try:
            handler(step)
        except (TypeError, AttributeError, ValueError, RecursionError) as exc:
            reason = f"unreadable {step.role} span: {type(exc).__name__}: {exc}"
            self.parse_error(step.span.position, reason, None)

    def _add_agent(self, step: Step) -> None:
        info = step.agent
        if info is None or step is self.tree.root:
            return
        parent = self.tree.agent_ancestor(step)
        if parent is None and info.name in self.pairing.handoff_targets:
            return
        root = self.tree.root
        from_step = parent if parent is not None else root
        payload: dict[str, Any] = {"subagent": info.name}
        if from_step is not None and from_step.agent is not None:
            payload["from_agent"] = from_step.agent.name
        payload["mode"] = "tool" if parent is not None else "handoff"
        if info.output is not None:
            payload["output"] = info.output
        if info.input is not None:
            payload["input"] = info.input
        event_type = "failed" if step.span.error else "completed"
        event = {"kind": "delegation", "event_type": event_type, "payload": payload}
        self._emit(step, self._agent(step, event), primary=True)

    def _add_handoff(self, step: Step) -> None:
        if step.handoff is None:
            return
        from_agent, to_agent = step.handoff
        payload: dict[str, Any] = {"subagent": to_agent, "mode": "handoff"}
        if from_agent is not None:
            payload["from_agent"] = from_agent
        event: dict[str, Any] = {
            "kind": "delegation",
            "event_type": "transferred",
            "payload": payload,
        }
        if (group := self._group(step)) is not None:
            event["group_id"] = group
        self._emit(step, self._agent(step, event), primary=True)

    def _add_guardrail(self, step: Step) -> None:
        if step.guardrail is None:
            return
        name, triggered, output = step.guardrail
        payload: dict[str, Any] = {"name": name, "triggered": triggered}
        if output is not None:
            payload["output"] = output
        self._emit(step, self._agent(step, {"kind": "guardrail", "payload": payload}), primary=True)

    def _add_other(self, step: Step) -> None:
        payload = dict(step.payload) or {"name": step.span.name}
        self._emit(step, self._agent(step, {"kind": "span", "payload": payload}), primary=True)

    def _add_tool(self, step: Step) -> None:
        tool = step.tool
        if tool is None:
            return
        pair = self.pairing.span_part.get(step.span.span_id)
        call_id = tool.call_id
        group = None
        if pair is not None:
            (model_span, _), part = pair
            group = self.event_of.get(model_span)
            if isinstance(part.get("id"), str) and (call_id is None or part["id"] in tool.call_ids):
                call_id = part["id"]
            if tool.arguments is MISSING and tool.arguments_raw is None and "arguments" in part:
                tool = _with_arguments(tool, part["arguments"], step, self)
        event = self._tool_event(tool, call_id, step)
        if group is not None:
            event["group_id"] = group
        self._emit(step, self._agent(step, event), primary=True)

    def _tool_event(self, tool: ToolInfo, call_id: str | None, step: Step) -> dict[str, Any]:
        payload: dict[str, Any] = {"name": tool.name}
        if tool.arguments is not MISSING:
            payload["arguments"] = tool.arguments
        if tool.arguments_raw is not None:
            payload["arguments_raw"] = tool.arguments_raw
        if tool.result is not None:
            payload["result"] = tool.result
        if tool.result_raw is not None:
            payload["result_raw"] = tool.result_raw
        payload["is_error"] = tool.is_error
        if tool.outcome is not None:
            payload["outcome"] = tool.outcome
        if tool.mcp_server is not None:
            payload["source"] = "mcp"
            payload["mcp_server"] = tool.mcp_server
        if call_id is not None:
            payload["call_id"] = call_id
        if tool.error_type is not None:
            payload["error_type"] = tool.error_type
        if tool.error_message is not None:
            payload["error_message"] = tool.error_message
        event = {"kind": "tool_call", "payload": payload}
        if call_id is not None:
            self.calls[call_id] = payload
        return event

    def _add_model(self, step: Step) -> None:
        model = step.model
        if model is None:
            return
        first = not self.seen_model
        self.seen_model = True
        self._inputs(step, model, first=first, sub_agent=self.tree.nested(step))
        model_id = self._emit(step, self._agent(step, self._model_event(step, model)), primary=True)
        self._outputs(step, model, model_id)

    def _model_event(self, step: Step, model: ModelInfo) -> dict[str, Any]:
        payload: dict[str, Any] = {}
        for key in ("model", "provider", "finish_reason"):
            if getattr(model, key) is not None:
                payload[key] = getattr(model, key)
        usage = _usage(model)
        if usage:
            payload["usage"] = usage
            self._add_usage(usage)
        else:
            self.without_usage += 1
        self.with_messages = self.with_messages or bool(model.input or model.output)
        payload["is_error"] = step.span.error
        if step.span.error and step.span.error_message is not None:
            payload["error_message"] = step.span.error_message
        return {"kind": "model_call", "payload": payload}

    def _add_usage(self, usage: Mapping[str, Any]) -> None:
        for key in ("input_tokens", "output_tokens", "total_tokens"):
            if key in usage:
                self.usage[key] = self.usage.get(key, 0) + usage[key]
        for key, value in (usage.get("details") or {}).items():
            details = self.usage.setdefault("details", {})
            details[key] = details.get(key, 0) + value
        if usage.get("reported_by"):
            self.reported_by.add(usage["reported_by"])

    def _inputs(self, step: Step, model: ModelInfo, *, first: bool, sub_agent: bool) -> None:
        messages = list(model.input)
        if first and model.system and not any(m.get("role") == "system" for m in messages):
            messages.insert(
                0, {"role": "system", "parts": [{"type": "text", "content": model.system}]}
            )
        if not first:
            last = max(
                (i for i, m in enumerate(messages) if m.get("role") == "assistant"), default=-1
            )
            messages = messages[last + 1 :]
        for message in messages:
            role = message.get("role")
            parts = [p for p in message.get("parts") or () if isinstance(p, Mapping)]
            for part in parts:
                if part.get("type") == "tool_call_response":
                    self._result(step, part)
            text = "".join(
                p["content"]
                for p in parts
                if p.get("type") == "text" and isinstance(p.get("content"), str)
            )
            speaker = _SPEAKERS.get(role) if isinstance(role, str) else None
            if speaker is not None and text and not sub_agent:
                event = {"kind": "message", "actor_ref": speaker, "payload": {"text": text}}
                self._emit(step, self._agent(step, event))

    def _result(self, step: Step, part: Mapping[str, Any]) -> None:
        call_id = part.get("id") if isinstance(part.get("id"), str) else None
        if call_id in self.pairing.handoff_calls:
            return  # the handoff's own acknowledgement: the delegation event stands for it
        response = part.get("response", part.get("result"))
        payload = self.calls.get(call_id) if isinstance(call_id, str) else None
        if payload is None:
            name = part.get("name") if isinstance(part.get("name"), str) else "<unknown>"
            event: dict[str, Any] = {"kind": "tool_call", "payload": {"name": name}}
            if response is not None:
                event["payload"]["result"] = response
            # a result whose request is not in the trace (a trimmed history): a call whose
            # arguments are not recorded, with the result's outcome, as the message formats do
            event["payload"]["outcome"] = "succeeded"
            event["payload"]["unpaired"] = True
            if isinstance(call_id, str):
                event["payload"]["call_id"] = call_id
            self._emit(step, self._agent(step, event))
            return
        if payload.get("outcome") == "pending":
            payload["outcome"] = "succeeded"
        if "result" not in payload and response is not None and not payload.get("is_error"):
            payload["result"] = response

    def _outputs(self, step: Step, model: ModelInfo, model_id: str) -> None:
        index = -1
        end = step.span.end
        for message in model.output:
            for part in message.get("parts") or ():
                if not isinstance(part, Mapping):
                    continue
                kind = part.get("type")
                if kind in ("reasoning", "thinking"):
                    text = part.get("content")
                    event = {
                        "kind": "reasoning",
                        "payload": {"text": text if isinstance(text, str) else ""},
                    }
                    self._emit(step, self._agent(step, _at(event, end)))
                elif kind == "text" and isinstance(part.get("content"), str):
                    event = {
                        "kind": "message",
                        "actor_ref": "agent",
                        "payload": {"text": part["content"]},
                    }
                    self._emit(step, self._agent(step, _at(event, end)))
                elif kind == "tool_call":
                    index += 1
                    if (step.span.span_id, index) not in self.pairing.part_span:
                        self._unspanned_call(step, part, model_id)

    def _unspanned_call(self, step: Step, part: Mapping[str, Any], model_id: str) -> None:
        name = part.get("name")
        tool = ToolInfo(name if isinstance(name, str) and name else "unknown")
        if "arguments" in part:
            tool = _with_arguments(tool, part["arguments"], step, self)
        call_id = part.get("id") if isinstance(part.get("id"), str) else None
        event = self._tool_event(tool, call_id, step)
        event["payload"]["outcome"] = "pending"
        event["group_id"] = model_id
        self._emit(step, self._agent(step, event))


def _at(event: dict[str, Any], time: float | None) -> dict[str, Any]:
    if time is not None:
        event["wall_time"] = time
    return event


def _with_arguments(tool: ToolInfo, value: Any, step: Step, assembly: Assembly) -> ToolInfo:
    arguments, raw, problem = parse_arguments(value)
    if problem is not None:
        assembly.parse_error(f"{step.span.position}: {tool.name} arguments", problem, raw)
    return attrs.evolve(tool, arguments=arguments, arguments_raw=raw)


def _usage(model: ModelInfo) -> dict[str, Any]:
    usage: dict[str, Any] = {}
    if model.input_tokens is not None:
        usage["input_tokens"] = model.input_tokens
    if model.output_tokens is not None:
        usage["output_tokens"] = model.output_tokens
    if model.input_tokens is not None and model.output_tokens is not None:
        usage["total_tokens"] = model.input_tokens + model.output_tokens
    if model.details:
        usage["details"] = dict(model.details)
    if usage and model.reported_by:
        usage["reported_by"] = model.reported_by
    return usage


def finish(
    assembly: Assembly, metadata: dict[str, Any], fallback: AgentInfo | None = None
) -> TrialRecord:
    """The record: the root agent names the run, its error fails it; usage sums model calls."""
    assembly.link_parents()
    root = assembly.tree.root
    if root is not None and root.agent is not None:
        metadata.setdefault("agent", root.agent.name)
        _run_messages(assembly, root.agent, root.span)
    if fallback is not None:
        _run_messages(assembly, fallback, None)
    data: dict[str, Any] = {"events": assembly.events, "metadata": metadata}
    data["status"], errors = run_status(assembly)
    if errors:
        data["errors"] = errors
    if not assembly.with_messages and not any(e["kind"] == "message" for e in assembly.events):
        data["surfaces"] = list(SURFACES_WITHOUT_MESSAGES)  # so the reply is not recorded
    if assembly.usage and not assembly.without_usage:  # a partial sum is no run usage
        usage = dict(assembly.usage)
        if assembly.reported_by:
            usage["reported_by"] = "; ".join(sorted(assembly.reported_by))
        data["usage"] = usage
    return decode_record(
        data, assembly.positions, assembly.parse_error, assembly.errors, assembly.source
    )


SURFACES_WITHOUT_MESSAGES: Final = ("delegation", "guardrail", "model_call", "span", "tool_call")
"""What a span tree records when no span records messages (the OpenAI Agents SDK's default
model, GenAI content capture off): the record's ``surfaces``, so that reply and message checks
are ``invalid`` ("the trace does not record the reply"), never failed."""


def run_status(assembly: Assembly) -> tuple[str, list[dict[str, Any]]]:
    """The run's status and errors, from the run itself: ``failed`` when its root span (the root
    agent's, else any top-level span's) ended in error; ``incomplete`` when a tool call is still
    pending (a request no span or result answered); else ``completed``."""
    tree = assembly.tree
    roots = (
        [tree.root]
        if tree.root is not None
        else [step for step in tree.by_id.values() if tree.parent(step) is None]
    )
    errors = [
        {"span_id": step.span.span_id, "message": step.span.error_message}
        for step in roots
        if step.span.error
    ]
    if errors:
        return "failed", errors
    pending = any(
        event["kind"] == "tool_call" and event["payload"].get("outcome") == "pending"
        for event in assembly.events
    )
    return ("incomplete" if pending else "completed"), []


def _run_messages(assembly: Assembly, info: AgentInfo, span: Span | None) -> None:
    """The run's input and output as messages when no model call recorded them."""
    span_id = span.span_id if span is not None else "run"
    position = span.position if span is not None else "$"
    root_messages = [e for e in assembly.events if "agent" not in e and e["kind"] == "message"]
    has_user = any(e.get("actor_ref") == "user" for e in root_messages)
    has_agent = any(e.get("actor_ref") == "agent" for e in root_messages)
    if isinstance(info.input, str) and info.input and not has_user:
        event: dict[str, Any] = {"event_id": f"{span_id}.input", "kind": "message"}
        event.update(actor_ref="user", payload={"text": info.input})
        if span is not None and span.start is not None:
            event["wall_time"] = span.start
        assembly.events.insert(0, event)
        assembly.positions.insert(0, position)
    if isinstance(info.output, str) and info.output and not has_agent:
        event = {"event_id": f"{span_id}.output", "kind": "message"}
        event.update(actor_ref="agent", payload={"text": info.output})
        if span is not None and span.end is not None:
            event["wall_time"] = span.end
        assembly.events.append(event)
        assembly.positions.append(position)


def decode_record(
    data: dict[str, Any],
    positions: list[str],
    parse_error: Callable[[str, str, Any], None],
    errors: list[dict[str, Any]],
    source: str | None,
) -> TrialRecord:
    """``TrialRecord.from_dict(data)``; an event it rejects becomes a parse error at the
    position it came from (``positions[i]`` for ``data["events"][i]``), and the rest is read.

    Raises:
        RecordError: A problem outside the events (left to the record model's message).
    """
    events = data["events"]
    while True:
        data["parse_errors"] = list(errors)
        try:
            return record_of(data, source)
        except RecordError as exc:
            found = {_event_index(p.path) for p in exc.problems}
            bad = sorted((i for i in found if i is not None), reverse=True)
            if not bad:
                raise
            dropped: dict[str, Any] = {}
            for index in bad:
                problems = [p.message for p in exc.problems if _event_index(p.path) == index]
                event = events.pop(index)
                if isinstance(event, Mapping) and isinstance(event.get("event_id"), str):
                    dropped[event["event_id"]] = event.get("parent_id")
                parse_error(positions.pop(index), "; ".join(problems), event)
            _reattach(events, dropped)


def _reattach(events: list[Any], dropped: Mapping[str, Any]) -> None:
    """Give the children of dropped events the parent of the nearest event that stays, so one
    rejected span never takes its descendants with it (nor costs a decoding round per level)."""
    kept = {e.get("event_id") for e in events if isinstance(e, Mapping)}
    final: dict[str, Any] = {}
    for start in dropped:
        path, node = [], start
        while node in dropped and node not in kept and node not in final and node not in path:
            path.append(node)
            node = dropped[node]
        target = final.get(node, node if node not in path else None)
        for item in path:
            final[item] = target
    for event in events:
        if isinstance(event, dict) and event.get("parent_id") in final:
            parent = final[event["parent_id"]]
            if parent is None:
                del event["parent_id"]
            else:
                event["parent_id"] = parent


def _event_index(path: str) -> int | None:
    if not path.startswith("$.events["):
        return None
    return int(path[len("$.events[") :].split("]", 1)[0])


class _Tree:
    """Parent links, agent scopes and the root agent of one trace.

    Worked out once, in one pass over the spans in parent-first order (:func:`forest`): every
    question about a span's ancestors is then a look-up, so a trace is read in time linear in
    its span count whatever the tree's depth, and without recursion. A parent link that would
    close a cycle is cut (:attr:`cut` lists those spans), the same way as for the start order
    (:func:`start_positions`): walking the steps in their input order.
    """

    def __init__(self, steps: Sequence[Step], ordered: Sequence[Step]) -> None:
        self.by_id = {step.span.span_id: step for step in steps}
        links = {span_id: step.span.parent_id for span_id, step in self.by_id.items()}
        self.parent_of, self.order = forest(links)
        self.cut = [
            step
            for span_id, step in self.by_id.items()
            if self.parent_of[span_id] is None and links[span_id] in self.by_id
        ]
        self._scope: dict[str, Step | None] = {}  # span id -> nearest agent ancestor
        for span_id in self.order:
            parent = self.parent_of[span_id]
            self._scope[span_id] = None if parent is None else self._scope_below(parent)
        self.root: Step | None = next(
            (s for s in ordered if s.role == "agent" and self.agent_ancestor(s) is None), None
        )

    def _scope_below(self, parent: str) -> Step | None:
        """The agent that a child of ``parent`` runs in."""
        up = self.by_id[parent]
        return up if up.role == "agent" else self._scope[parent]

    def parent(self, step: Step) -> str | None:
        """The id of the step's parent span (None: a top-level span)."""
        span_id = step.span.span_id
        if self.by_id.get(span_id) is step:
            return self.parent_of[span_id]
        parent = step.span.parent_id  # a step whose id another step of the trace reuses
        return parent if parent in self.by_id and parent != span_id else None

    def agent_ancestor(self, step: Step) -> Step | None:
        """The nearest agent span above ``step`` (None: it runs in no agent)."""
        parent = self.parent(step)
        return None if parent is None else self._scope_below(parent)

    def agent_name(self, step: Step) -> str | None:
        """The agent a step belongs to (None: the root agent)."""
        scope = step if step.role == "agent" else self.agent_ancestor(step)
        if scope is None or scope is self.root or scope.agent is None:
            return None
        return scope.agent.name

    def nested(self, step: Step) -> bool:
        """Whether a step runs inside an agent that itself runs inside another agent."""
        scope = self.agent_ancestor(step)
        return scope is not None and self.agent_ancestor(scope) is not None

    def scope_id(self, step: Step) -> str | None:
        scope = self.agent_ancestor(step)
        return None if scope is None else scope.span.span_id

    def event_parents(self, event_of: Mapping[str, str]) -> dict[str, str | None]:
        """Span id -> the event of its nearest ancestor span that became an event."""
        found: dict[str, str | None] = {}
        for span_id in self.order:
            parent = self.parent_of[span_id]
            found[span_id] = None if parent is None else event_of.get(parent, found[parent])
        return found


def build_record(
    steps: Sequence[Step],
    *,
    source: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    parse_errors: Sequence[tuple[str, str, Any]] = (),
    fallback: AgentInfo | None = None,
) -> TrialRecord:
    """One record from a trace's steps (any order), plus the parse errors already found.

    Args:
        steps: The trace's interpreted spans.
        source: A file name shown in parse errors.
        metadata: Record metadata (the trace id, the service…).
        parse_errors: ``(where, reason, item)`` of spans that could not be read at all.
        fallback: The run's input and output when no agent span records them (a Langfuse
            trace's own ``input``/``output``).
    """
    ordered = _by_start(steps)
    tree = _Tree(steps, ordered)
    assembly = Assembly(tree, source=source)
    for where, reason, item in parse_errors:
        assembly.parse_error(where, reason, item)
    for step in tree.cut:
        reason = f"its parent {step.span.parent_id!r} closes a cycle of parent links"
        assembly.parse_error(step.span.position, reason + ": read as a top-level span")
    assembly.pairing.plan(ordered)
    for step in ordered:
        assembly.add(step)
    return finish(assembly, dict(metadata or {}), fallback)


def _by_start(steps: Sequence[Step]) -> list[Step]:
    return [steps[index] for index in start_positions([step.span for step in steps])]


__all__ = [
    "SURFACES_WITHOUT_MESSAGES",
    "Assembly",
    "Pairing",
    "PartKey",
    "build_record",
    "decode_record",
    "finish",
    "run_status",
    "tool_parts",
]
