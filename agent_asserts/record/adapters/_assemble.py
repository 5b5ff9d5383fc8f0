"""The event list of one trace, assembled step by step (see :mod:`._span_tree` for the rules)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters._arguments import parse_arguments
from agent_asserts.record.adapters._pairing import Pairing
from agent_asserts.record.adapters._steps import ModelInfo, Step, ToolInfo
from agent_asserts.record.errors import ParseError

if TYPE_CHECKING:
    from agent_asserts.record.adapters._span_tree import _Tree


_SPEAKERS: Final = {"user": "user", "human": "user", "system": "system", "developer": "system"}
"""Input roles that become messages (tool results are never messages, so never open a turn)."""


class Assembly:
    """Drafts of canonical event dicts, the pairing of calls and results, usage and errors."""

    def __init__(self, tree: _Tree, *, source: str | None) -> None:
        self.tree = tree
        self.source = source
        self.events: list[dict[str, Any]] = []
        self.positions: list[str] = []  # where each event came from (for parse errors)
        self.errors: list[dict[str, Any]] = []
        self.event_of: dict[str, str] = {}  # span id -> event id
        self.calls: dict[str, dict[str, Any]] = {}  # call id -> tool_call draft
        self.pairing = Pairing(tree.scope_id)
        self.seen_model = False  # whether a model call was added already
        self.usage: dict[str, Any] = {}
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
        parent = next(
            (
                self.event_of[a.span.span_id]
                for a in self.tree.ancestors(step)
                if a.span.span_id in self.event_of
            ),
            None,
        )
        if parent is not None:
            event["parent_id"] = parent
        if step.conversation_id is not None:
            event["correlation_id"] = step.conversation_id
        self.events.append(event)
        self.positions.append(span.position)
        if primary:
            self.event_of[span.span_id] = event_id
        return event_id

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
        except (TypeError, AttributeError, ValueError) as exc:
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
            if call_id is None and isinstance(part.get("id"), str):
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
            name = part.get("name") if isinstance(part.get("name"), str) else "unknown"
            event: dict[str, Any] = {"kind": "tool_call", "payload": {"name": name}}
            if response is not None:
                event["payload"]["result"] = response
            event["payload"]["outcome"] = "pending"
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
    import attrs

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


__all__ = ["Assembly"]
