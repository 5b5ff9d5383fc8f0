"""OpenTelemetry SDK spans as an OTLP/JSON ``ExportTraceServiceRequest`` document.

The ``otel`` record adapter reads OTLP/JSON; this module writes the same shape from the SDK's
``ReadableSpan`` objects, so a live trace and an exported trace file become a record through
the very same adapter code. Ids are lowercase hex, enums integers, times nanosecond strings
(the OTLP/JSON specification's encoding); spans are grouped by resource, then by
instrumentation scope. The conversion lives with the other objects the SDKs hand a user
(:mod:`agent_asserts.record.adapters.objects`, which ``TrialRecord.from_trace`` applies to
``InMemorySpanExporter`` spans); these are its names for the live processors.

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

from agent_asserts.record.adapters.objects import any_value, key_values, span_to_otlp, spans_to_otlp

__all__ = ["any_value", "key_values", "span_to_otlp", "spans_to_otlp"]
