"""OpenTelemetry traces (OTLP/JSON) → :class:`~agent_asserts.record.TrialRecord`, one per trace.

Reads the spans of agent runs as the GenAI semantic conventions describe them (v1.31 to the
current ones, deprecated attribute names included: ``gen_ai.system``,
``gen_ai.usage.prompt_tokens``, message *events* as well as the ``gen_ai.input.messages`` /
``gen_ai.output.messages`` attributes), as OpenInference (Arize Phoenix) describes them
(``openinference.span.kind``, ``llm.*``, ``tool.*``, flattened message lists), and as Pydantic
AI's instrumentation writes them (versions 2 to 6: ``agent run`` / ``running tool`` /
``tool_arguments`` as well as ``invoke_agent`` / ``execute_tool``).

Both OTLP/JSON shapes are read: the specification's (hex ids, integer enums) and protobuf
``MessageToDict``'s (base64 ids, enum names); ``intValue`` strings; nanosecond times (to
seconds); spans in any order (exports list them as they *ended*). The mapping:

=======================================  =========================================================
span                                     record
=======================================  =========================================================
``execute_tool`` / ``running tool`` /    ``tool_call``: ``gen_ai.tool.name``, call id,
OpenInference ``TOOL``                   arguments (``gen_ai.tool.call.arguments``,
                                         ``tool_arguments``, ``input.value``; JSON text parsed),
                                         result; status ERROR / ``error.type`` → ``is_error``,
                                         ``outcome`` (``retried`` for a Pydantic AI retry),
                                         ``error_type``, ``error_message``
inference (``chat …``, ``LLM``)          ``model_call`` with usage; its messages give user and
                                         agent ``message``, ``reasoning`` and the tool calls that
                                         have no tool span
``invoke_agent`` / ``agent run`` /       the root agent (record ``metadata.agent``); nested: a
``AGENT``                                ``delegation`` (``mode`` ``tool``); events inside name
                                         the ``agent``
OpenInference ``GUARDRAIL``              ``guardrail``
anything else                            a ``span`` event (name and attributes)
=======================================  =========================================================

>>> export = {"resourceSpans": [{"scopeSpans": [{"spans": [
...     {"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331",
...      "name": "execute_tool lookup_order", "startTimeUnixNano": "1700000000000000000",
...      "endTimeUnixNano": "1700000000500000000", "attributes": [
...         {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
...         {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": "{\\"id\\": 7}"}}]}]}]}]}
>>> call = to_record(export).tool_calls[0]
>>> call.payload.name, call.payload.arguments, call.wall_time, call.duration
('lookup_order', {'id': 7}, 1700000000.0, 0.5)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from agent_asserts.record.adapters._otel_steps import interpret
from agent_asserts.record.adapters._otlp import (
    BadSpan,
    Broken,
    attributes,
    decode_span,
    iter_raw_spans,
    otlp_id,
)
from agent_asserts.record.adapters._span_tree import build_record
from agent_asserts.record.adapters._steps import Step
from agent_asserts.record.adapters._trace_files import only_record, read_documents
from agent_asserts.record.errors import Problem, RecordError
from agent_asserts.record.trial import TrialRecord

FORMAT: Final = "otel"
"""The name this module is registered under (the record-format registry finds it)."""
ORDER: Final = 100
"""Its place among the built-in formats (their listing and error-message order)."""

NAME = "otel"


def detect(data: Any) -> bool:
    """Whether ``data`` is an OTLP/JSON trace export (or a list of them, or of OTLP spans).

    >>> detect({"resourceSpans": []}), detect({"messages": []})
    (True, False)
    """
    if isinstance(data, list) and data:
        data = data[0]
        if isinstance(data, Mapping) and "spanId" in data and "traceId" in data:
            return True
    return isinstance(data, Mapping) and isinstance(data.get("resourceSpans"), list)


def _raw_spans(data: Any) -> Iterator[tuple[str, Any, dict[str, Any], Any]]:
    if isinstance(data, list) and data and isinstance(data[0], Mapping) and "spanId" in data[0]:
        for index, span in enumerate(data):
            yield f"[{index}]", span, {}, None
        return
    if not detect(data):
        keys = sorted(data)[:8] if isinstance(data, Mapping) else type(data).__name__
        message = f"expected an OTLP/JSON export {{'resourceSpans': [...]}} (got {keys})"
        raise RecordError([Problem("$", message)])
    yield from iter_raw_spans(data)


def _trace_key(raw: Any) -> str | None:
    try:
        return otlp_id(raw.get("traceId")) if isinstance(raw, Mapping) else None
    except BadSpan:
        return None


def to_records(data: Any, *, source: str | None = None) -> Iterator[TrialRecord]:
    """One record per trace id, in the order the traces first appear.

    >>> span = {"spanId": "b7ad6b7169203331", "name": "x"}
    >>> export = {"resourceSpans": [{"scopeSpans": [{"spans": [
    ...     {**span, "traceId": "0af7651916cd43dd8448eb211c80319c"},
    ...     {**span, "traceId": "1af7651916cd43dd8448eb211c80319c"}]}]}]}
    >>> [r.metadata["trace_id"][:4] for r in to_records(export)]
    ['0af7', '1af7']
    """
    traces: dict[str | None, list[tuple[str, Any, dict[str, Any], Any]]] = {}
    for item in _raw_spans(data):
        traces.setdefault(_trace_key(item[1]), []).append(item)
    for trace_id, items in traces.items():
        yield _record(items, trace_id, source)


def _record(
    items: Iterable[tuple[str, Any, dict[str, Any], Any]], trace_id: str | None, source: str | None
) -> TrialRecord:
    steps: list[Step] = []
    errors: list[tuple[str, str, Any]] = []
    services: set[str] = set()
    for position, raw, resource, scope in items:
        try:
            span = decode_span(raw, position, resource, scope)
        except BadSpan as exc:
            errors.append((position, str(exc), None if isinstance(raw, Broken) else raw))
            continue
        if isinstance(resource.get("service.name"), str):
            services.add(resource["service.name"])
        try:
            steps.append(interpret(span))
        except (TypeError, AttributeError, ValueError) as exc:
            errors.append((position, f"unreadable span: {type(exc).__name__}: {exc}", raw))
    metadata: dict[str, Any] = {}
    if trace_id is not None:
        metadata["trace_id"] = trace_id
    if services:
        metadata["service"] = sorted(services)[0] if len(services) == 1 else sorted(services)
    return build_record(steps, source=source, metadata=metadata, parse_errors=errors)


def to_record(data: Any, *, source: str | None = None) -> TrialRecord:
    """The record of an export holding one trace.

    Raises:
        RecordError: ``data`` is not an OTLP/JSON export, or it holds several traces (read
            those with :func:`to_records`).
    """
    return only_record(to_records(data, source=source), "traces", source)


def from_spans(
    spans: Iterable[Mapping[str, Any]],
    *,
    resource: Mapping[str, Any] | list[Any] | None = None,
    scope: str | None = None,
    source: str | None = None,
) -> TrialRecord:
    """The record of one trace from OTLP/JSON-shaped span dicts (the spans of one trace id).

    This is the function for a span processor that buffers a trace's spans: each span is a
    dict as in an OTLP/JSON export (``spanId``, ``parentSpanId``, ``name``,
    ``startTimeUnixNano``, ``attributes`` as key/value list or a plain dict, ``status``…).

    Args:
        spans: The trace's spans, in any order.
        resource: The resource attributes (key/value list or dict), if known.
        scope: The instrumentation scope's name, if known.
        source: A name shown in parse errors.

    >>> rec = from_spans([{"spanId": "00000000000000a1", "name": "invoke_agent bot",
    ...                    "attributes": {"gen_ai.operation.name": "invoke_agent"}}],
    ...                  resource={"service.name": "shop"})
    >>> rec.metadata
    {'service': 'shop', 'agent': 'bot'}
    """
    resource_attributes = attributes(resource) if resource is not None else {}
    items = [(f"spans[{i}]", span, resource_attributes, scope) for i, span in enumerate(spans)]
    trace_id = next((key for key in (_trace_key(item[1]) for item in items) if key), None)
    return _record(items, trace_id, source)


def read(path: str | os.PathLike[str], **options: Any) -> TrialRecord:
    """The record of an OTLP/JSON file holding one trace (JSON, or JSON Lines of exports)."""
    return to_record(read_documents(path, NAME), **options)


__all__ = ["NAME", "detect", "from_spans", "read", "to_record", "to_records"]
