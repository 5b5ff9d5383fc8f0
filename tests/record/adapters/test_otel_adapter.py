"""The ``otel`` adapter: GenAI conventions (events and attributes forms), OpenInference, Pydantic
AI instrumentation; OTLP/JSON shapes; span tree → record; conservation; parse errors."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import span_runs
from span_fixtures import REPLY, load

from agent_asserts import MISSING, RecordError
from agent_asserts.record.adapters import otel
from agent_asserts.record.adapters.otel import iter_raw_spans, otlp_id

OTEL_FIXTURES = [
    "pydantic_ai_v5_spec.json",
    "pydantic_ai_v2_protobuf.json",
    "genai_events_v1_31.json",
    "genai_attributes_v1_41.json",
    "openinference.json",
]


def _calls(rec: Any) -> dict[str, Any]:
    return {e.payload.call_id: e for e in rec.tool_calls}


@pytest.mark.parametrize("name", OTEL_FIXTURES)
def test_the_reference_run_in_every_otel_variant(name: str) -> None:
    rec = otel.to_record(load("otel", name))
    calls = _calls(rec)
    lookup, refund = calls["call_1"], calls["call_2"]
    assert lookup.payload.arguments == {"order_id": "A1049"}
    assert lookup.payload.outcome == "succeeded" and not lookup.payload.is_error
    assert refund.payload.is_error and refund.payload.outcome in ("failed", "retried")
    assert "gateway timed out" in refund.payload.error_message
    # the parallel pair shares the group of the model call that asked for it
    assert lookup.group_id == refund.group_id == lookup.group_id
    assert rec.events[[e.event_id for e in rec.events].index(lookup.group_id)].kind == "model_call"
    # invalid argument JSON: no arguments, the text kept, a parse error
    bad = calls["call_3"].payload
    assert bad.arguments is MISSING and bad.arguments_raw == '{"question": "refund over 40?"'
    assert [p.reason.split(":")[0] for p in rec.parse_errors] == ["arguments are not valid JSON"]
    # the sub-agent ran inside the second ask_policy call
    delegation = next(e for e in rec.events if e.kind == "delegation")
    assert delegation.payload.subagent == "policy_agent"
    assert delegation.payload.mode == "tool" and delegation.payload.from_agent == "refund_agent"
    assert delegation.parent_id == calls["call_4"].event_id
    inner = [e for e in rec.events if e.agent == "policy_agent"]
    assert {e.kind for e in inner} >= {"model_call", "message"}
    assert all(e.parent_id == delegation.event_id for e in inner)
    # the reply, the one user turn, status, usage over model calls only
    assert rec.reply == REPLY
    assert [e.payload.text for e in rec.events if e.actor_ref == "user"] == ["Refund order A1049"]
    assert rec.status == "completed"
    model_calls = [e for e in rec.events if e.kind == "model_call"]
    assert len(model_calls) == 5
    assert rec.usage.input_tokens == sum(e.payload.usage.input_tokens for e in model_calls)
    assert "cached" in rec.usage.reported_by
    assert rec.metadata["agent"] == "refund_agent"


@pytest.mark.parametrize("name", OTEL_FIXTURES)
def test_times_are_seconds_and_events_follow_start_order(name: str) -> None:
    rec = otel.to_record(load("otel", name))
    times = [e.wall_time for e in rec.events if e.duration is not None]
    assert times == sorted(times)
    assert all(1.7e9 < t < 1.9e9 for t in times)
    assert all(e.duration >= 0 for e in rec.events if e.duration is not None)


@pytest.mark.parametrize("name", OTEL_FIXTURES)
def test_conservation_every_span_is_an_event_part_of_one_or_a_parse_error(name: str) -> None:
    data = load("otel", name)
    rec = otel.to_record(data)
    ids = {e.event_id for e in rec.events}
    assert rec.parse_errors  # the invalid arguments: part of their call, and a parse error
    root_span = None
    for position, raw, _, _ in iter_raw_spans(data):
        span_id = otlp_id(raw.get("spanId"))
        if span_id in ids:
            continue
        # only the root agent span is not an event: it is the record (its agent, its status)
        assert root_span is None, f"{position} is neither an event nor a parse error"
        root_span = span_id
    assert root_span is not None


def test_reasoning_and_cache_tokens_of_v1_41() -> None:
    rec = otel.to_record(load("otel", "genai_attributes_v1_41.json"))
    reasoning = [e for e in rec.events if e.kind == "reasoning"]
    assert [e.payload.text for e in reasoning] == ["Look the order up and refund it."]
    first = next(e for e in rec.events if e.kind == "model_call")
    assert first.payload.usage.details == {
        "cache_read_input_tokens": 100,
        "reasoning_output_tokens": 10,
    }
    assert first.payload.finish_reason == "tool_call"
    system = rec.events[0]  # from gen_ai.system_instructions: a message, never a turn
    assert (system.actor_ref, system.payload.text, system.turn) == (
        "system",
        "You are a refunds agent.",
        0,
    )
    # the agent span's own totals are never added to the model calls' sum
    assert rec.usage.input_tokens == 700
    assert rec.events[0].correlation_id == "conv_42"


def test_pydantic_ai_v2_and_v5_give_the_same_record_shape() -> None:
    v2 = otel.to_record(load("otel", "pydantic_ai_v2_protobuf.json"))
    v5 = otel.to_record(load("otel", "pydantic_ai_v5_spec.json"))

    def shape(rec: Any) -> list[Any]:
        return [
            (e.kind, e.actor_ref, e.agent, getattr(e.payload, "name", None)) for e in rec.events
        ]

    assert shape(v2) == shape(v5)
    assert _calls(v2)["call_2"].payload.outcome == "retried"
    assert _calls(v2)["call_3"].payload.error_type == "pydantic_core._pydantic_core.ValidationError"


def test_tool_arguments_come_from_the_model_call_when_the_span_lacks_them() -> None:
    rec = otel.to_record(load("otel", "genai_events_v1_31.json"))
    calls = _calls(rec)
    assert calls["call_2"].payload.arguments == {"order_id": "A1049", "amount": 42.0}
    assert calls["call_1"].payload.result == {"status": "paid"}  # from the tool message event


def test_openinference_guardrail_and_tool_spans() -> None:
    rec = otel.to_record(load("otel", "openinference.json"))
    guardrail = next(e for e in rec.events if e.kind == "guardrail")
    assert (guardrail.payload.name, guardrail.payload.triggered) == ("input_guardrail", False)
    refund = _calls(rec)["call_2"].payload
    assert refund.error_type == "PaymentGatewayTimeout"
    assert refund.error_message == "PaymentGatewayTimeout: gateway timed out"


def _two_traces() -> dict[str, Any]:
    data = load("otel", "pydantic_ai_v5_spec.json")
    other = copy.deepcopy(data)
    for span in other["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        span["traceId"] = "f" * 32
    data["resourceSpans"].extend(other["resourceSpans"])
    return data


def test_several_traces_are_one_record_each() -> None:
    records = list(otel.to_records(_two_traces()))
    assert [r.metadata["trace_id"] for r in records][1] == "f" * 32
    assert [r.reply for r in records] == [REPLY, REPLY]
    with pytest.raises(
        RecordError,
        match=r"the data holds 2 traces; read them with to_records\(\) or iter_records\(\)",
    ):
        otel.to_record(_two_traces())


def test_spans_in_any_order_give_the_same_record() -> None:
    data = load("otel", "genai_events_v1_31.json")
    shuffled = copy.deepcopy(data)
    spans = shuffled["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans.reverse()
    assert otel.to_record(shuffled).to_dict()["events"] == otel.to_record(data).to_dict()["events"]


def test_named_enums_base64_ids_and_integer_values_read_like_their_spec_forms() -> None:
    spec = otel.to_record(load("otel", "pydantic_ai_v5_spec.json"))
    assert all(len(e.event_id.split(".")[0]) == 16 for e in spec.events)
    v41 = otel.to_record(load("otel", "genai_attributes_v1_41.json"))  # base64 + enum names
    assert _calls(v41)["call_2"].event_id == "e000000000000002"
    assert _calls(v41)["call_2"].payload.is_error


def test_unreadable_spans_and_attributes_are_parse_errors_with_where() -> None:
    data = load("otel", "genai_attributes_v1_41.json")
    spans = data["resourceSpans"][0]["scopeSpans"][0]["spans"]
    spans.append({"traceId": spans[0]["traceId"], "name": "no id"})
    spans.append({"traceId": spans[0]["traceId"], "spanId": "zz", "name": "bad id"})
    chat = next(s for s in spans if s["name"] == "chat gpt-4o")
    for attribute in chat["attributes"]:
        if attribute["key"] == "gen_ai.input.messages":
            attribute["value"] = {"stringValue": "[{not json"}
    rec = otel.to_record(data)
    reasons = {p.position: p.reason for p in rec.parse_errors}
    n = len(spans)
    assert reasons[f"resourceSpans[0].scopeSpans[0].spans[{n - 2}]"] == "the span has no spanId"
    assert "neither hex nor base64" in reasons[f"resourceSpans[0].scopeSpans[0].spans[{n - 1}]"]
    assert any("attributes[gen_ai.input.messages]" in p for p in reasons)


def test_from_spans_reads_one_trace_of_span_dicts() -> None:
    data = load("otel", "pydantic_ai_v5_spec.json")
    spans = data["resourceSpans"][0]["scopeSpans"][0]["spans"]
    rec = otel.from_spans(spans, resource=data["resourceSpans"][0]["resource"]["attributes"])
    assert rec.reply == REPLY
    assert rec.metadata["service"] == "refund-service"


def test_detect_and_wrong_shapes() -> None:
    assert otel.detect(load("otel", "openinference.json"))
    assert not otel.detect({"data": []})
    with pytest.raises(RecordError, match="expected an OTLP/JSON export"):
        otel.to_record({"spans": []})


def test_read_accepts_json_lines_of_exports(tmp_path: Any) -> None:
    data = load("otel", "pydantic_ai_v5_spec.json")
    path = tmp_path / "traces.jsonl"
    path.write_text(json.dumps(data) + "\n\n" + json.dumps({"resourceSpans": []}) + "\n")
    assert otel.read(path).reply == REPLY


def test_malformed_containers_are_parse_errors_at_their_place() -> None:
    data = load("otel", "pydantic_ai_v5_spec.json")
    data["resourceSpans"].append(5)
    data["resourceSpans"].append({"scopeSpans": [True, {"spans": "none"}]})
    records = list(otel.to_records(data))
    reasons = {str(p) for r in records for p in r.parse_errors}
    assert "resourceSpans[1]: resourceSpans items must be objects" in reasons
    assert "resourceSpans[2].scopeSpans[0]: scopeSpans items must be objects" in reasons
    assert "resourceSpans[2].scopeSpans[1].spans[0]: expected a list (got 'none')" in reasons
    assert records[0].reply == REPLY


@pytest.mark.parametrize("written", ["list", "json text"])
def test_a_list_shaped_call_id_pairs_with_the_request_that_has_one_of_its_ids(
    written: str,
) -> None:
    # Microsoft Agent Framework gives a tool span ["run_…", "call_…"] as gen_ai.tool.call.id;
    # the spans here are made by the real OpenTelemetry SDK and encoded by the OTLP encoder.
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("agent_framework")
    call = {"type": "tool_call", "id": "call_w1", "name": "get_weather"}
    ask = [{"role": "assistant", "parts": [{**call, "arguments": {"city": "Paris"}}]}]
    ids = ["run_9f2", "call_w1"]
    with tracer.start_as_current_span("invoke_agent weather") as agent:
        agent.set_attribute("gen_ai.operation.name", "invoke_agent")
        with tracer.start_as_current_span("chat gpt-4o") as chat:
            chat.set_attribute("gen_ai.operation.name", "chat")
            chat.set_attribute("gen_ai.output.messages", json.dumps(ask))
        with tracer.start_as_current_span("execute_tool get_weather") as tool:
            tool.set_attribute("gen_ai.operation.name", "execute_tool")
            tool.set_attribute("gen_ai.tool.name", "get_weather")
            tool.set_attribute("gen_ai.tool.call.id", ids if written == "list" else json.dumps(ids))
            tool.set_attribute("gen_ai.tool.call.result", "sunny")
    provider.shutdown()
    rec = otel.to_record(span_runs.otlp_spec_json(exporter.get_finished_spans()))
    (call,) = rec.tool_calls
    assert (call.payload.name, call.payload.call_id, call.payload.outcome) == (
        "get_weather",
        "call_w1",
        "succeeded",
    )
    assert call.payload.arguments == {"city": "Paris"} and call.payload.result == "sunny"
    assert rec.status == "completed"


def test_a_request_no_span_answers_makes_the_run_incomplete() -> None:
    ask = [{"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "f"}]}]
    span = {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "b7ad6b7169203331",
        "name": "chat gpt-4o",
        "attributes": {"gen_ai.operation.name": "chat", "gen_ai.output.messages": json.dumps(ask)},
    }
    rec = otel.to_record({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})
    assert [(c.payload.name, c.payload.outcome) for c in rec.tool_calls] == [("f", "pending")]
    assert rec.status == "incomplete"
    span["status"] = {"code": 2, "message": "boom"}
    rec = otel.to_record({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})
    assert rec.status == "failed"


def _one_trace(*spans: dict[str, Any]) -> Any:
    for index, span in enumerate(spans):
        span.setdefault("traceId", "0af7651916cd43dd8448eb211c80319c")
        span.setdefault("spanId", f"{index + 1:016x}")
    return otel.to_record({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]})


def test_a_result_whose_request_was_trimmed_is_a_call_with_unrecorded_arguments() -> None:
    given = [
        {"role": "user", "parts": [{"type": "text", "content": "Refund A1049"}]},
        {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c9", "response": "ok"}]},
    ]
    attributes = {"gen_ai.operation.name": "chat", "gen_ai.input.messages": json.dumps(given)}
    rec = _one_trace({"name": "chat", "attributes": attributes})
    (call,) = rec.tool_calls
    assert (call.payload.name, call.payload.arguments, call.payload.outcome) == (
        "<unknown>",
        MISSING,
        "succeeded",
    )
    assert call.payload.result == "ok" and call.payload.extra["unpaired"] is True
    assert rec.status == "completed"


def test_run_usage_only_when_every_model_call_carries_usage() -> None:
    counted = {"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": 10}
    counted["gen_ai.usage.output_tokens"] = 5
    silent = {"gen_ai.operation.name": "chat"}
    both = _one_trace(
        {"name": "chat", "attributes": counted}, {"name": "chat", "attributes": counted}
    )
    assert both.usage is not None and both.usage.total_tokens == 30
    partial = _one_trace(
        {"name": "chat", "attributes": counted}, {"name": "chat", "attributes": silent}
    )
    assert partial.usage is None  # 15 of an unknown total is no run usage
    calls = [e for e in partial.events if e.kind == "model_call"]
    assert [e.payload.usage is not None for e in calls] == [True, False]


def test_a_trace_whose_spans_record_no_messages_does_not_record_the_reply() -> None:
    tool = {"name": "execute_tool lookup", "attributes": {"gen_ai.tool.name": "lookup"}}
    rec = _one_trace({"name": "chat", "attributes": {"gen_ai.operation.name": "chat"}}, tool)
    assert rec.surfaces is not None and "message" not in rec.surfaces
    assert rec.records("tool_call") and not rec.records("message")
    said = {"gen_ai.operation.name": "chat", "gen_ai.output.messages": json.dumps(
        [{"role": "assistant", "parts": [{"type": "text", "content": "Done."}]}])}  # fmt: skip
    rec = _one_trace({"name": "chat", "attributes": said}, tool)
    assert rec.surfaces is None and rec.reply == "Done."
