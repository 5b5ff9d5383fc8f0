"""SDK spans → OTLP/JSON: the shape the otel adapter reads."""

from __future__ import annotations

from typing import Any

from opentelemetry import trace
from opentelemetry.trace import SpanKind, Status, StatusCode

from agent_asserts.live.otlp import spans_to_otlp


def test_a_trace_as_otlp_json(pipeline: Any) -> None:
    tracer = pipeline.tracer
    attributes = {
        "gen_ai.usage.input_tokens": 120,
        "gen_ai.request.temperature": 0.2,
        "gen_ai.response.finish_reasons": ["stop"],
        "flag": True,
    }
    with (
        tracer.start_as_current_span("invoke_agent") as root,
        tracer.start_as_current_span("chat gpt-4o", kind=SpanKind.CLIENT) as chat,
    ):
        chat.set_attributes(attributes)
        chat.add_event("gen_ai.choice", {"index": 0})
        chat.set_status(Status(StatusCode.ERROR, "timeout"))
    doc = spans_to_otlp(pipeline.exporter.get_finished_spans())
    (resource,) = doc["resourceSpans"]
    keys = [a["key"] for a in resource["resource"]["attributes"]]
    assert "service.name" in keys
    (scope,) = resource["scopeSpans"]
    assert scope["scope"] == {"name": "app"}
    child, parent = scope["spans"]
    trace_id = format(root.get_span_context().trace_id, "032x")
    assert parent["traceId"] == child["traceId"] == trace_id
    assert "parentSpanId" not in parent
    span_id = format(root.get_span_context().span_id, "016x")
    assert child["parentSpanId"] == parent["spanId"] == span_id
    assert (child["kind"], parent["kind"]) == (3, 1)
    assert child["attributes"] == [
        {"key": "gen_ai.usage.input_tokens", "value": {"intValue": "120"}},
        {"key": "gen_ai.request.temperature", "value": {"doubleValue": 0.2}},
        {"key": "gen_ai.response.finish_reasons",
         "value": {"arrayValue": {"values": [{"stringValue": "stop"}]}}},
        {"key": "flag", "value": {"boolValue": True}},
    ]  # fmt: skip
    (event,) = child["events"]
    assert event["name"] == "gen_ai.choice"
    assert event["attributes"] == [{"key": "index", "value": {"intValue": "0"}}]
    assert child["status"] == {"code": 2, "message": "timeout"}
    assert parent["status"] == {}
    assert int(child["startTimeUnixNano"]) <= int(child["endTimeUnixNano"])
    assert child["flags"] & 0x100


def test_a_remote_parent_is_flagged(pipeline: Any) -> None:
    remote = trace.SpanContext(0x1234, 0x5678, is_remote=True,
                               trace_flags=trace.TraceFlags(1))  # fmt: skip
    context = trace.set_span_in_context(trace.NonRecordingSpan(remote))
    pipeline.tracer.start_span("server", context=context).end()
    (span,) = spans_to_otlp(pipeline.exporter.get_finished_spans())["resourceSpans"][0][
        "scopeSpans"][0]["spans"]  # fmt: skip
    assert span["parentSpanId"] == "0000000000005678"
    assert span["flags"] == 0x301
