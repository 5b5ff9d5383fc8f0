"""OpenAI Agents SDK traces (trace + spans export) → :class:`~agent_asserts.record.TrialRecord`.

Reads what the SDK's tracing exports (``Trace.export()`` and ``Span.export()``, the body it
posts to the traces ingest: ``{"data": [trace, span, …]}``, or a plain list of those items).
Spans may come in any order; times are ISO strings (read as epoch seconds). The mapping:

==============================  ================================================================
``span_data.type``              record
==============================  ================================================================
``agent``                       the agent of the events inside (the first top-level agent is the
                                root: ``metadata.agent``); a nested one is a ``delegation``
``function``                    ``tool_call``: ``name``, ``input`` (JSON text, parsed; invalid
                                text kept in ``arguments_raw``), ``output`` (JSON parsed when it
                                parses); ``error`` → ``is_error``, ``outcome`` ``failed``,
                                ``error_message`` (``error.data.error``); ``mcp_data`` → MCP
``generation``                  ``model_call`` (model, usage); its Chat-Completions messages
                                give the user and agent ``message`` events
``response``                    ``model_call`` (usage only: the export has no messages)
``handoff``                     ``delegation`` (``mode`` ``handoff``, ``from_agent``); the
                                ``transfer_to_…`` call the model made is that delegation
``guardrail``                   ``guardrail`` (``name``, ``triggered``)
anything else (``custom``…)     a ``span`` event with the span data
==============================  ================================================================

A function span has no tool-call id: it is paired with the call in the generation output by
name and order within its agent. The trace's ``group_id`` is every event's ``correlation_id``.

>>> rec = to_record({"data": [
...     {"object": "trace", "id": "trace_1", "workflow_name": "Refunds"},
...     {"object": "trace.span", "id": "span_a", "trace_id": "trace_1", "parent_id": None,
...      "started_at": "2026-01-01T00:00:00+00:00", "ended_at": "2026-01-01T00:00:02+00:00",
...      "span_data": {"type": "agent", "name": "Refund agent"}},
...     {"object": "trace.span", "id": "span_f", "trace_id": "trace_1", "parent_id": "span_a",
...      "started_at": "2026-01-01T00:00:01+00:00", "ended_at": "2026-01-01T00:00:01.5+00:00",
...      "span_data": {"type": "function", "name": "lookup_order", "input": "{\\"id\\": 7}",
...                    "output": "paid"}}]})
>>> call = rec.tool_calls[0]
>>> call.payload.arguments, call.payload.result, call.duration, rec.metadata["agent"]
({'id': 7}, 'paid', 0.5, 'Refund agent')
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters._span_tree import (
    AgentInfo,
    ModelInfo,
    Span,
    Step,
    ToolInfo,
    build_record,
    iso_seconds,
    messages,
)
from agent_asserts.record.adapters.toolkit import (
    count,
    json_or_text,
    only_record,
    parse_arguments,
    read_documents,
    result_as_written,
)
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "openai-agents"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 110
"""Its place among the built-in formats (their listing and error-message order)."""

REPORTED_BY: Final = "OpenAI Agents SDK: input_tokens include cached tokens"


def _items(data: Any) -> list[Any]:
    if isinstance(data, Mapping) and isinstance(data.get("data"), list):
        return list(data["data"])
    if isinstance(data, list):
        return list(data)
    keys = sorted(data)[:8] if isinstance(data, Mapping) else type(data).__name__
    message = f"expected an OpenAI Agents trace export {{'data': [...]}} or a list (got {keys})"
    raise RecordError([Problem("$", message)])


def detect(data: Any) -> bool:
    """Whether ``data`` is an OpenAI Agents trace export.

    >>> detect({"data": [{"object": "trace", "id": "trace_1"}]}), detect({"data": []})
    (True, False)
    """
    if (type(data) is dict or isinstance(data, Mapping)) and isinstance(data.get("data"), list):
        data = data["data"]
    return (
        isinstance(data, list)
        and bool(data)
        and all(
            isinstance(item, Mapping) and item.get("object") in ("trace", "trace.span")
            for item in data[:20]
        )
    )


def _tool(span: Span, data: Mapping[str, Any], error: Any) -> tuple[ToolInfo, list[Any]]:
    name = str(data.get("name") or "unknown")
    problems = []
    arguments, raw, problem = parse_arguments(data.get("input"))
    if problem is not None:
        problems.append((f"{span.position}.span_data.input", problem, raw))
    # the SDK writes a tool's return value with str(): a dict is a Python literal
    result, result_raw = result_as_written(data.get("output"))
    if result_raw is None:
        result = json_or_text(data.get("output"))
    message = None
    if isinstance(error, Mapping):
        detail = error.get("data")
        detail = detail.get("error") if isinstance(detail, Mapping) else None
        message = str(detail or error.get("message") or "error")
    mcp = data.get("mcp_data")
    server = mcp.get("server") if isinstance(mcp, Mapping) else None
    tool = ToolInfo(
        name=name,
        arguments=arguments,
        arguments_raw=raw,
        result=result,
        result_raw=result_raw,
        is_error=error is not None,
        outcome="failed" if error is not None else "succeeded",
        error_type=message.split(":", 1)[0] if message and ":" in message else None,
        error_message=message,
        mcp_server=str(server) if server is not None else None,
    )
    return tool, problems


def _usage(usage: Any) -> tuple[int | None, int | None, dict[str, int]]:
    if not isinstance(usage, Mapping):
        return None, None, {}
    details: dict[str, int] = {}
    for key in ("input_tokens_details", "output_tokens_details"):
        found = usage.get(key)
        for name, value in found.items() if isinstance(found, Mapping) else ():
            if (number := count(value)) is not None:
                details[str(name)] = number
    return count(usage.get("input_tokens")), count(usage.get("output_tokens")), details


def _model(span: Span, data: Mapping[str, Any]) -> ModelInfo:
    input_tokens, output_tokens, details = _usage(data.get("usage"))
    return ModelInfo(
        model=data.get("model") if isinstance(data.get("model"), str) else None,
        provider="openai",
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        details=details,
        reported_by=REPORTED_BY,
        input=tuple(messages(data.get("input")) or ()),
        output=tuple(messages(data.get("output")) or ()),
        response_id=data.get("response_id") if isinstance(data.get("response_id"), str) else None,
    )


def step(raw: Mapping[str, Any], position: str, conversation: str | None) -> Step:
    """The :class:`Step` of one exported span.

    Raises:
        ValueError: The span has no ``id`` or no ``span_data`` object.
    """
    data = raw.get("span_data")
    if not isinstance(raw.get("id"), str) or not isinstance(data, Mapping):
        raise ValueError("a span needs a string 'id' and a 'span_data' object")
    error = raw.get("error")
    message = error.get("message") if isinstance(error, Mapping) else None
    span = Span(
        span_id=raw["id"],
        parent_id=raw.get("parent_id") if isinstance(raw.get("parent_id"), str) else None,
        name=str(data.get("name") or data.get("type")),
        position=position,
        start=iso_seconds(raw.get("started_at")),
        end=iso_seconds(raw.get("ended_at")),
        trace_id=raw.get("trace_id") if isinstance(raw.get("trace_id"), str) else None,
        error=error is not None,
        error_message=str(message) if message is not None else None,
        kind=str(data.get("type")),
    )
    kind = data.get("type")
    if kind == "agent":
        handoffs = tuple(str(h) for h in data.get("handoffs") or ())
        info = AgentInfo(span.name, handoffs=handoffs)
        return Step(span, "agent", agent=info, conversation_id=conversation)
    if kind == "function":
        tool, problems = _tool(span, data, error)
        return Step(span, "tool", tool=tool, problems=tuple(problems), conversation_id=conversation)
    if kind in ("generation", "response"):
        return Step(span, "model", model=_model(span, data), conversation_id=conversation)
    if kind == "handoff" and isinstance(data.get("to_agent"), str):
        handoff = (data.get("from_agent"), data["to_agent"])
        return Step(span, "handoff", handoff=handoff, conversation_id=conversation)
    if kind == "guardrail":
        guardrail = (span.name, bool(data.get("triggered")), None)
        return Step(span, "guardrail", guardrail=guardrail, conversation_id=conversation)
    return Step(span, "other", payload=dict(data), conversation_id=conversation)


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per trace id, in the order the traces first appear."""
    traces: dict[str | None, dict[str, Any]] = {}
    for index, item in enumerate(_items(data)):
        where = f"data[{index}]" if isinstance(data, Mapping) else f"[{index}]"
        trace_id = None
        if isinstance(item, Mapping):
            found = item.get("id") if item.get("object") == "trace" else item.get("trace_id")
            trace_id = found if isinstance(found, str) else None
        entry = traces.setdefault(trace_id, {"trace": None, "spans": [], "errors": []})
        if isinstance(item, Mapping) and item.get("object") == "trace":
            entry["trace"] = item
        elif isinstance(item, Mapping) and item.get("object") == "trace.span":
            entry["spans"].append((where, item))
        else:
            entry["errors"].append((where, "not a trace or a trace.span object", item))
    for trace_id, entry in traces.items():
        yield _record(trace_id, entry, source)


def _record(trace_id: str | None, entry: dict[str, Any], source: str | None) -> TrialRecord:
    trace = entry["trace"] or {}
    group = trace.get("group_id")
    conversation = str(group) if group is not None else None
    steps, errors = [], list(entry["errors"])
    for where, raw in entry["spans"]:
        try:
            steps.append(step(raw, where, conversation))
        except ValueError as exc:
            errors.append((where, str(exc), raw))
        except (TypeError, AttributeError, RecursionError) as exc:
            errors.append((where, f"unreadable span: {type(exc).__name__}: {exc}", raw))
    metadata: dict[str, Any] = {}
    if trace_id is not None:
        metadata["trace_id"] = trace_id
    for key in ("workflow_name", "group_id", "metadata"):
        if trace.get(key) is not None:
            metadata[key] = trace[key]
    return build_record(steps, source=source, metadata=metadata, parse_errors=errors)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of an export holding one trace.

    Raises:
        RecordError: Not an OpenAI Agents export, or several traces (use :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "traces", source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of an exported trace file (JSON, or JSON Lines of items)."""
    return to_record(read_documents(path, FORMAT), **options)


__all__ = ["REPORTED_BY", "detect", "read", "step", "to_record", "to_records"]
