"""OpenAI Agents SDK run state → :class:`~agent_asserts.record.TrialRecord` (``openai-agents-run``).

Reads ``RunState.to_json()`` (the text of ``RunState.to_string()`` parsed): what
``result.to_state()`` holds after ``Runner.run``, or a run interrupted for a tool approval.
The run's items (``generated_items``, each with the agent that produced it), its model
responses (``model_responses``, each with its usage and output) and its input
(``original_input``). JSON data only; the SDK is not imported.

``RunResult.to_input_list()`` (the Responses-API input items of the run) needs no format of
its own: it is read by ``openai-responses``.

========================================  ===================================================
RunState                                  record
========================================  ===================================================
``original_input``                        ``message`` ``user`` (text, or the input items'
                                          messages, calls and results)
``model_responses[]``                     one ``model_call`` each (usage), before the first
                                          item of its output; the calls of one response
                                          share a ``group_id``
``message_output_item``                   ``agent`` message
``tool_call_item``                        ``tool_call`` (``call_id``, arguments parsed)
``tool_call_output_item``                 the call's ``result`` (``output``: the tool's own
                                          value; else the raw text, JSON parsed); text
                                          starting ``Error:`` or the SDK's default failure
                                          message → ``failed``
``handoff_call_item`` +                   ``delegation`` (``mode`` ``handoff``,
``handoff_output_item``                   ``from_agent`` → ``subagent``)
``reasoning_item``                        ``reasoning`` (summary and content text)
``*_guardrail_results``                   ``guardrail`` (``tripwireTriggered``)
``item.agent.name``                       the events' ``agent`` (the first agent: the root)
``context.usage``                         the run's usage
``interruptions`` / pending approvals     ``status`` ``incomplete``
========================================  ===================================================

>>> rec = to_record({"$schemaVersion": "1.21", "original_input": "Refund A1",
...     "current_agent": {"name": "bot"}, "model_responses": [], "generated_items": [
...     {"type": "tool_call_item", "agent": {"name": "bot"}, "raw_item": {"type":
...      "function_call", "call_id": "c1", "name": "refund", "arguments": "{\\"id\\": \\"A1\\"}"}},
...     {"type": "tool_call_output_item", "agent": {"name": "bot"}, "raw_item": {"type":
...      "function_call_output", "call_id": "c1", "output": "Error: timed out"}}]})
>>> call = rec.tool_calls[0].payload
>>> call.arguments, call.outcome, call.error_message, rec.events[0].payload.text
({'id': 'A1'}, 'failed', 'Error: timed out', 'Refund A1')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts._values import MISSING
from agent_asserts.record.adapters.toolkit import (
    TraceBuilder,
    content_text,
    items,
    json_or_text,
    mapping,
    openai_usage,
    read_with,
    tool_error,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "openai-agents-run"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 170
"""Its place among the built-in formats (their listing and error-message order)."""
TAGS_RECORDS: Final = True
"""``to_records`` takes ``format_name`` (the readers' ``metadata["format"]``)."""

SDK_TOOL_ERROR: Final = "An error occurred while running the tool"
"""The start of the text the SDK gives the model when a tool raises (its default
``failure_error_function``): read as a failure."""
REPORTED_BY: Final = "Agents SDK RunState context usage (the whole run)"
_GUARDRAILS: Final = (
    "input_guardrail_results",
    "output_guardrail_results",
    "tool_input_guardrail_results",
    "tool_output_guardrail_results",
)


def detect(data: Any) -> bool:
    """Whether ``data`` is a serialised ``RunState``.

    >>> detect({"$schemaVersion": "1.21", "generated_items": [], "original_input": "hi"})
    True
    >>> detect({"generated_items": []})
    False
    """
    return (
        (type(data) is dict or isinstance(data, Mapping))
        and "$schemaVersion" in data
        and isinstance(data.get("generated_items"), list)
        and "original_input" in data
    )


def _counts(raw: Any) -> dict[str, Any] | None:
    """A RunState usage (``*_details`` written as one-item lists) as canonical usage."""
    raw = mapping(raw)
    plain = {
        key: (value[0] if isinstance(value, list) and value else value)
        for key, value in raw.items()
        if key != "request_usage_entries"
    }
    plain = {k: v for k, v in plain.items() if not k.endswith("_details") or isinstance(v, Mapping)}
    for key in [k for k in plain if k.endswith("_details")]:
        plain[key] = {n: c for n, c in plain[key].items() if isinstance(c, int) and c}
    return openai_usage(plain)


def _agent(item: Mapping[str, Any]) -> str | None:
    name = mapping(item.get("agent")).get("name")
    return name if isinstance(name, str) else None


class _Reader:
    def __init__(
        self, state: Mapping[str, Any], source: str | None, format_name: str | None = None
    ) -> None:
        self.b = TraceBuilder(source=source, format_name=format_name)
        self.root: str | None = None
        self.responses: dict[str, int] = {}  # output item id / call id -> response index
        self.models: dict[int, dict[str, Any]] = {}  # response index -> model_call draft
        self.groups: dict[int, str] = {}
        self.handoffs: dict[str, str] = {}  # handoff call id -> where its call item was
        responses = items(state.get("model_responses"))
        self.model_list = responses
        for index, response in enumerate(responses):
            for output in items(mapping(response).get("output")):
                output = mapping(output)
                for key in ("id", "call_id"):
                    if isinstance(output.get(key), str):
                        self.responses.setdefault(output[key], index)

    def agent(self, item: Mapping[str, Any]) -> str | None:
        """The agent of an item as the record names it (None: the root agent)."""
        name = _agent(item)
        if self.root is None:
            self.root = name
        return None if name == self.root else name

    def model(self, raw: Mapping[str, Any], agent: str | None) -> tuple[str | None, str | None]:
        """The model call an output item came from (written before its first item), and the
        group of its calls."""
        index = next(
            (
                self.responses[raw[key]]
                for key in ("id", "call_id")
                if isinstance(raw.get(key), str) and raw[key] in self.responses
            ),
            None,
        )
        if index is None:
            return None, None
        if index not in self.models:
            self.open_model(index, agent)
        return self.models[index]["event_id"], self.groups[index]

    def open_model(self, index: int, agent: str | None) -> None:
        response = mapping(self.model_list[index])
        self.models[index] = self.b.model_call(
            where=f"$.model_responses[{index}]", usage=_counts(response.get("usage")), agent=agent
        )
        self.groups[index] = self.b.group()

    def user_input(self, value: Any) -> None:
        if isinstance(value, str):
            self.b.message("user", value, where="$.original_input")
            return
        for index, item in enumerate(items(value)):
            self.raw(f"$.original_input[{index}]", mapping(item), None, None, None)

    def raw(
        self,
        where: str,
        raw: Mapping[str, Any],
        agent: str | None,
        parent: str | None,
        group: str | None,
        value: Any = MISSING,
    ) -> None:
        kind = raw.get("type", "message" if "role" in raw else None)
        envelope: dict[str, Any] = {"agent": agent, "parent_id": parent}
        if kind == "message":
            role = raw.get("role")
            text = content_text(raw.get("content"))
            actor = {"user": "user", "system": "system", "developer": "system"}.get(str(role))
            self.b.message(actor or "agent", text, where=where, **envelope)
        elif kind in ("function_call", "custom_tool_call"):
            arguments = (
                raw.get("arguments", MISSING) if kind == "function_call" else raw.get("input")
            )
            name = raw.get("name")
            if not isinstance(name, str) or not name:
                self.b.error(where, "a tool call without a name", raw)
                return
            call_id = raw.get("call_id") if isinstance(raw.get("call_id"), str) else None
            self.b.call(name, arguments, where=where, call_id=call_id, group=group, **envelope)
        elif kind in ("function_call_output", "custom_tool_call_output"):
            output = raw.get("output")
            said = content_text(output) if isinstance(output, list) else output
            result = value if value is not MISSING else json_or_text(said)
            error = tool_error(said)
            if error is None and isinstance(said, str) and said.startswith(SDK_TOOL_ERROR):
                error = said
            call_id = raw.get("call_id")
            self.b.result(
                None if error is not None and result == said else result,
                where=where,
                call_id=call_id if isinstance(call_id, str) else None,
                is_error=error is not None,
                error_message=error,
            )
        elif kind == "reasoning":
            texts = [content_text([p]) for p in items(raw.get("summary"))]
            texts += [
                content_text([p], ("reasoning_text", "text")) for p in items(raw.get("content"))
            ]
            self.b.reasoning("\n".join(t for t in texts if t), where=where, **envelope)
        else:
            self.b.error(where, f"an item of type {kind!r} is not read", raw)

    def item(self, where: str, item: Any) -> None:
        if not isinstance(item, Mapping) or not isinstance(item.get("raw_item"), Mapping):
            self.b.error(where, "not a RunState item (a type and a raw_item)", item)
            return
        kind = item.get("type")
        raw = item["raw_item"]
        agent = self.agent(item)
        parent, group = self.model(raw, agent)
        at = f"{where}.raw_item"
        if kind == "handoff_call_item":
            call_id = raw.get("call_id")
            self.handoffs[str(call_id)] = at
            return
        if kind == "handoff_output_item":
            source = _agent(mapping({"agent": item.get("source_agent")}))
            target = _agent(mapping({"agent": item.get("target_agent")}))
            places = [p for p in (self.handoffs.pop(str(raw.get("call_id")), None), at) if p]
            self.b.delegation(
                target or "unknown",
                where=places,
                status="transferred",
                from_agent=None if source == self.root else source,
                mode="handoff",
                agent=agent,
                parent_id=parent,
                group_id=group,
            )
            return
        value = item.get("output", MISSING) if kind == "tool_call_output_item" else MISSING
        if kind in (
            "message_output_item",
            "tool_call_item",
            "tool_call_output_item",
            "reasoning_item",
        ):
            self.raw(at, raw, agent, parent, group, value)
        else:
            self.b.error(where, f"a RunState item of type {kind!r} is not read", item)

    def guardrails(self, state: Mapping[str, Any]) -> None:
        for key in _GUARDRAILS:
            for index, result in enumerate(items(state.get(key))):
                result = mapping(result)
                name = mapping(result.get("guardrail")).get("name")
                output = mapping(result.get("output"))
                triggered = output.get("tripwireTriggered", output.get("tripwire_triggered"))
                payload: dict[str, Any] = {"name": str(name or key), "triggered": triggered is True}
                info = output.get("outputInfo", output.get("output_info"))
                if info is not None:
                    payload["output"] = info
                agent = _agent(result)
                self.b.add(
                    "guardrail",
                    payload,
                    where=f"$.{key}[{index}]",
                    agent=None if agent == self.root else agent,
                )


def to_records(data: Any, *, source: str | None = None, **options: Any) -> Iterator[TrialRecord]:
    """The one run of a serialised ``RunState``. The option ``format_name`` (the readers pass
    it) is named in the record's ``metadata["format"]``.

    Raises:
        RecordError: ``data`` is not a serialised ``RunState``.
    """
    if not detect(data):
        keys = sorted(data)[:8] if isinstance(data, Mapping) else type(data).__name__
        message = f"expected a RunState.to_json() object (got {keys})"
        raise RecordError([Problem("$", message, source)])
    reader = _Reader(data, source, options.get("format_name"))
    reader.user_input(data.get("original_input"))
    for index, item in enumerate(data["generated_items"]):
        reader.item(f"$.generated_items[{index}]", item)
    for index in range(len(reader.model_list)):
        if index not in reader.models:
            reader.open_model(index, None)
    reader.guardrails(data)
    found = _counts(mapping(data.get("context")).get("usage"))
    usage = {**found, "reported_by": REPORTED_BY} if found else None
    metadata: dict[str, Any] = {}
    if reader.root is not None:
        metadata["agent"] = reader.root
    current = _agent({"agent": data.get("current_agent")})
    if current is not None:
        metadata["current_agent"] = current
    for key in ("current_turn", "max_turns", "conversation_id"):
        if data.get(key) is not None:
            metadata[key] = data[key]
    interrupted = bool(items(data.get("interruptions"))) or bool(
        items(mapping(data.get("current_step")).get("interruptions"))
    )
    yield reader.b.build(
        usage=usage, metadata=metadata, status="incomplete" if interrupted else None
    )


def to_record(data: Any, **options: Any) -> TrialRecord:
    """The record of a serialised ``RunState`` (``to_records``' one run)."""
    return next(to_records(data, **options))


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """Read a ``RunState.to_string()`` file."""
    return read_with(to_records, path, **options)


__all__ = ["REPORTED_BY", "SDK_TOOL_ERROR", "detect", "read", "to_record", "to_records"]
