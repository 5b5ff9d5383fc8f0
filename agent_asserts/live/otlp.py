"""OpenTelemetry SDK spans as an OTLP/JSON ``ExportTraceServiceRequest`` document.

The ``otel`` record adapter reads OTLP/JSON; this module writes the same shape from the SDK's
``ReadableSpan`` objects, so a live trace and an exported trace file become a record through
the very same adapter code. Ids are lowercase hex, enums integers, times nanosecond strings
(the OTLP/JSON specification's encoding); spans are grouped by resource, then by
instrumentation scope. The conversion lives with the other objects the SDKs hand a user
(:mod:`agent_asserts.record.adapters.objects`, which ``TrialRecord.from_trace`` applies to
``InMemorySpanExporter`` spans); these are its names for the live processors.

The names stay importable from here (``agent_asserts.live.otlp.spans_to_otlp``, documented since
0.1.0); they are the objects step's own functions, with its examples:

>>> from agent_asserts.record.adapters import objects
>>> spans_to_otlp is objects.spans_to_otlp
True
"""

from __future__ import annotations

from agent_asserts.record.adapters.objects import any_value, key_values, span_to_otlp, spans_to_otlp

__all__ = ["any_value", "key_values", "span_to_otlp", "spans_to_otlp"]
