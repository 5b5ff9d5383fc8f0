"""OpenTelemetry SDK spans as an OTLP/JSON ``ExportTraceServiceRequest`` document.

The ``otel`` record adapter reads OTLP/JSON; this module writes the same shape from the SDK's
``ReadableSpan`` objects, so a live trace and an exported trace file become a record through
the very same adapter code. Ids are lowercase hex, enums integers, times nanosecond strings
(the OTLP/JSON specification's encoding); spans are grouped by resource, then by
instrumentation scope.

>>> from opentelemetry.sdk.trace import TracerProvider
>>> from opentelemetry.sdk.trace.export import SimpleSpanProcessor
>>> from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
>>> exporter = InMemorySpanExporter()
>>> provider = TracerProvider()
>>> provider.add_span_processor(SimpleSpanProcessor(exporter))
>>> with provider.get_tracer("demo").start_as_current_span("execute_tool lookup") as span:
...     span.set_attribute("gen_ai.tool.name", "lookup")
>>> doc = spans_to_otlp(exporter.get_finished_spans())
>>> otlp_span = doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
>>> otlp_span["name"], otlp_span["kind"], otlp_span["attributes"]
('execute_tool lookup', 1, [{'key': 'gen_ai.tool.name', 'value': {'stringValue': 'lookup'}}])
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.trace import SpanContext

_IS_REMOTE_KNOWN = 0x100
_IS_REMOTE = 0x200


def any_value(value: Any) -> dict[str, Any]:
    """One attribute value as an OTLP ``AnyValue`` (``bool`` before ``int``; ints as strings).

    >>> any_value(True), any_value(3), any_value([1.5, "a"])
    ({'boolValue': True}, {'intValue': '3'}, {'arrayValue': {'values': [{'doubleValue': 1.5}, {'stringValue': 'a'}]}})
    """  # noqa: E501
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, bytes):
        return {"bytesValue": base64.b64encode(value).decode("ascii")}
    if isinstance(value, Mapping):
        return {"kvlistValue": {"values": key_values(value)}}
    if isinstance(value, Sequence):
        return {"arrayValue": {"values": [any_value(item) for item in value]}}
    return {"stringValue": str(value)}


def key_values(attributes: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """A mapping of attributes as a list of OTLP ``KeyValue``.

    >>> key_values({"n": 1})
    [{'key': 'n', 'value': {'intValue': '1'}}]
    """
    return [{"key": str(k), "value": any_value(v)} for k, v in (attributes or {}).items()]


def _flags(context: SpanContext, parent: SpanContext | None) -> int:
    flags = int(context.trace_flags) | _IS_REMOTE_KNOWN
    return flags | _IS_REMOTE if parent is not None and parent.is_remote else flags


def span_to_otlp(span: ReadableSpan) -> dict[str, Any]:
    """One ended span as an OTLP/JSON ``Span`` object."""
    context = span.get_span_context()
    if context is None:
        raise ValueError(f"span {span.name!r} has no span context")
    out: dict[str, Any] = {
        "traceId": format(context.trace_id, "032x"),
        "spanId": format(context.span_id, "016x"),
    }
    if span.parent is not None:
        out["parentSpanId"] = format(span.parent.span_id, "016x")
    out["name"] = span.name
    out["kind"] = span.kind.value + 1  # the SDK counts from INTERNAL = 0, OTLP from UNSPECIFIED
    out["startTimeUnixNano"] = str(span.start_time or 0)
    out["endTimeUnixNano"] = str(span.end_time or span.start_time or 0)
    out["attributes"] = key_values(span.attributes)
    if span.events:
        out["events"] = [
            {"timeUnixNano": str(e.timestamp), "name": e.name,
             "attributes": key_values(e.attributes)}
            for e in span.events
        ]  # fmt: skip
    if span.links:
        out["links"] = [
            {"traceId": format(link.context.trace_id, "032x"),
             "spanId": format(link.context.span_id, "016x"),
             "attributes": key_values(link.attributes)}
            for link in span.links
        ]  # fmt: skip
    status: dict[str, Any] = {}
    if span.status.status_code.value:
        status["code"] = span.status.status_code.value
    if span.status.description:
        status["message"] = span.status.description
    out["status"] = status
    out["flags"] = _flags(context, span.parent)
    return out


def spans_to_otlp(spans: Iterable[ReadableSpan]) -> dict[str, Any]:
    """An ``ExportTraceServiceRequest`` holding ``spans``, grouped by resource and scope."""
    resources: dict[int, tuple[Any, dict[tuple[str, str | None], list[dict[str, Any]]]]] = {}
    for span in spans:
        resource_key = id(span.resource)
        scopes = resources.setdefault(resource_key, (span.resource, {}))[1]
        scope = span.instrumentation_scope
        scope_key = ("", None) if scope is None else (scope.name, scope.version)
        scopes.setdefault(scope_key, []).append(span_to_otlp(span))
    resource_spans = []
    for resource, scopes in resources.values():
        scope_spans = []
        for (name, version), otlp_spans in scopes.items():
            scope_data: dict[str, Any] = {"name": name}
            if version:
                scope_data["version"] = version
            scope_spans.append({"scope": scope_data, "spans": otlp_spans})
        attributes = key_values(resource.attributes if resource is not None else None)
        resource_spans.append({"resource": {"attributes": attributes}, "scopeSpans": scope_spans})
    return {"resourceSpans": resource_spans}


__all__ = ["any_value", "key_values", "span_to_otlp", "spans_to_otlp"]
