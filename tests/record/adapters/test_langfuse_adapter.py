"""The ``langfuse`` adapter: a full trace (observations inside) and the v2 observations list."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any

import pytest
import span_runs
from span_fixtures import REPLY, load

from agent_asserts import MISSING, RecordError
from agent_asserts.record.adapters import langfuse, otel

SHAPES = ["trace_full.json", "observations_v2.json"]


@pytest.mark.parametrize("name", SHAPES)
def test_the_reference_run_in_both_shapes(name: str) -> None:
    rec = langfuse.to_record(load("langfuse", name))
    calls = {e.payload.call_id: e for e in rec.tool_calls}
    assert calls["call_1"].payload.result == {"status": "paid"}
    refund = calls["call_2"].payload
    assert refund.is_error and refund.outcome == "failed"
    assert refund.error_message == "PaymentGatewayTimeout: gateway timed out"
    assert calls["call_1"].group_id == calls["call_2"].group_id == "obs-gen1"
    assert calls["call_3"].payload.arguments is MISSING
    assert [p.reason.split(":")[0] for p in rec.parse_errors] == ["arguments are not valid JSON"]
    delegation = next(e for e in rec.events if e.kind == "delegation")
    assert (delegation.payload.subagent, delegation.payload.mode) == ("policy_agent", "tool")
    assert delegation.parent_id == "obs-tool4"
    assert [e.payload.text for e in rec.events if e.kind == "reasoning"] == [
        "Look the order up and refund it."
    ]
    assert next(e for e in rec.events if e.kind == "guardrail").payload.name == "pii_guardrail"
    assert rec.reply == REPLY
    assert rec.usage.total_tokens == 788
    assert rec.usage.details == {"input_cached_tokens": 100}
    assert rec.metadata["trace_id"] == "lf-trace-1" and rec.metadata["agent"] == "refund_agent"
    assert {e.correlation_id for e in rec.events} == {"conv_42"}
    assert next(e for e in rec.events if e.event_id == "obs-tool2").duration == pytest.approx(0.8)


@pytest.mark.parametrize("name", SHAPES)
def test_conservation_every_observation_is_an_event_part_of_one_or_a_parse_error(
    name: str,
) -> None:
    data = load("langfuse", name)
    observations = data.get("observations") or data.get("data")
    rec = langfuse.to_record(data)
    ids = {e.event_id for e in rec.events}
    missing = [o["id"] for o in observations if o["id"] not in ids]
    assert missing == ["obs-agent"]  # the root agent is the record itself


def test_trace_input_and_output_stand_in_when_no_generation_records_them() -> None:
    trace = load("langfuse", "trace_full.json")
    trace["observations"] = [o for o in trace["observations"] if o["type"] == "TOOL"]
    rec = langfuse.to_record(trace)
    assert rec.events[0].payload.text == "Refund order A1049"
    assert rec.reply == REPLY
    assert rec.usage is None


def test_several_traces_one_record_each_and_bad_items() -> None:
    v2 = load("langfuse", "observations_v2.json")
    other = copy.deepcopy(v2["data"])
    for item in other:
        item["traceId"] = "lf-trace-2"
    data: dict[str, Any] = {"data": [*v2["data"], *other, {"id": "x"}]}
    records = list(langfuse.to_records(data))
    assert [r.metadata.get("trace_id") for r in records] == ["lf-trace-1", "lf-trace-2", None]
    assert [p.reason for p in records[2].parse_errors] == [
        "not a Langfuse observation (no traceId or unknown type)"
    ]
    traces = [load("langfuse", "trace_full.json")] * 2
    assert [r.reply for r in langfuse.to_records(traces)] == [REPLY, REPLY]
    with pytest.raises(RecordError, match="traces; read them with to_records"):
        langfuse.to_record(traces)


def test_detect() -> None:
    assert langfuse.detect(load("langfuse", "trace_full.json"))
    assert langfuse.detect(load("langfuse", "observations_v2.json"))
    assert not langfuse.detect({"data": [{"object": "trace", "id": "t"}]})
    assert not langfuse.detect({"id": "t"})


# -- observations as today's SDKs write them (issue 23) ------------------------------------------


def _calls(rec: Any) -> list[tuple[str, Any, Any]]:
    return [(c.payload.name, c.payload.call_id, c.payload.outcome) for c in rec.tool_calls]


@pytest.mark.parametrize("version", [2, 5])
def test_pydantic_ai_spans_through_langfuse_pair_like_the_otel_export(version: int) -> None:
    # A real Pydantic AI run; its spans as Langfuse's OpenTelemetry ingestion stores them: TOOL
    # observations named "running tool: lookup_order", the tool and call id in
    # metadata.attributes. Each execution pairs with the model's request: 4 calls, not 8.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Pydantic AI: instrumentation v2 is deprecated
        _, spans = span_runs.run_pydantic_ai(version)
    trace = span_runs.langfuse_trace(spans)
    assert "running tool: lookup_order" in [o["name"] for o in trace["observations"]]
    rec = langfuse.to_record(trace)
    from_otel = otel.to_record(span_runs.otlp_spec_json(spans))
    # (Langfuse keeps times to the millisecond: two parallel calls may swap places)
    assert sorted(_calls(rec), key=str) == sorted(_calls(from_otel), key=str)
    assert sorted(_calls(rec), key=lambda call: str(call[1])) == [
        ("lookup_order", "call_1", "succeeded"),
        ("issue_refund", "call_2", "retried"),
        ("ask_policy", "call_3", "retried"),
        ("ask_policy", "call_4", "succeeded"),
    ]
    arguments = {c.payload.call_id: c.payload.arguments for c in rec.tool_calls}
    assert arguments == {c.payload.call_id: c.payload.arguments for c in from_otel.tool_calls}
    lookup = next(c.payload for c in rec.tool_calls if c.payload.name == "lookup_order")
    assert lookup.result == {"status": "paid", "order_id": "A1049"}
    assert rec.reply == from_otel.reply == REPLY
    assert rec.status == "completed"


def _observation(oid: str, kind: str, name: str, **fields: Any) -> dict[str, Any]:
    second = int(oid[-1])
    return {
        "id": oid,
        "traceId": "t1",
        "type": kind,
        "name": name,
        "startTime": f"2026-08-01T12:00:0{second}.000Z",
        "endTime": f"2026-08-01T12:00:0{second}.500Z",
        "parentObservationId": None,
        **fields,
    }


def test_agent_framework_list_shaped_call_ids_pair_with_the_request() -> None:
    # Microsoft Agent Framework writes gen_ai.tool.call.id as a JSON list ["run_…", "call_…"].
    ask = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "call_w1",
                "type": "function",
                "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
            },
        ],
    }
    attributes = {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": '["run_9f2", "call_w1"]',
        "gen_ai.tool.call.arguments": '{"city": "Paris"}',
        "gen_ai.tool.call.result": "sunny",
    }
    trace = {
        "id": "t1",
        "observations": [
            _observation(
                "o1",
                "GENERATION",
                "chat gpt-4o",
                input=[{"role": "user", "content": "Weather in Paris?"}],
                output=ask,
            ),
            _observation(
                "o2", "TOOL", "execute_tool get_weather", metadata={"attributes": attributes}
            ),
            _observation(
                "o3",
                "GENERATION",
                "chat gpt-4o",
                output={"role": "assistant", "content": "Sunny in Paris."},
            ),
        ],
    }
    rec = langfuse.to_record(trace)
    assert _calls(rec) == [("get_weather", "call_w1", "succeeded")]
    call = rec.tool_calls[0].payload
    assert (call.arguments, call.result) == ({"city": "Paris"}, "sunny")
    assert rec.status == "completed" and not rec.parse_errors


def test_langchain_callback_generation_definitions_are_no_calls_and_the_request_is_read() -> None:
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.utils.function_calling import convert_to_openai_tool

    def get_weather(city: str) -> str:
        """The weather in a city."""
        return "sunny"

    asked = AIMessage(
        content="",
        additional_kwargs={
            "tool_calls": [
                {
                    "id": "call_w1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city": "Paris"}'},
                }
            ]
        },
    )
    # The callback handler's message dicts: role and content, additional_kwargs when present;
    # the tools the model was offered appended as {"role": "tool", "content": definition}.
    human = HumanMessage("Weather in Paris?")
    given = [{"role": "user", "content": human.content}]
    given += [{"role": "tool", "content": convert_to_openai_tool(get_weather)} for _ in range(3)]
    output = {
        "role": "assistant",
        "content": asked.content,
        "additional_kwargs": asked.additional_kwargs,
    }
    trace = {
        "id": "t1",
        "observations": [
            _observation("o1", "GENERATION", "ChatOpenAI", input=given, output=output),
            _observation("o2", "TOOL", "get_weather", input={"city": "Paris"}, output="sunny"),
        ],
    }
    rec = langfuse.to_record(trace)
    assert _calls(rec) == [("get_weather", "call_w1", "succeeded")]
    assert [e.payload.text for e in rec.events if e.kind == "message"] == ["Weather in Paris?"]
    assert not rec.parse_errors


def test_a_response_object_and_gemini_contents_read_as_messages() -> None:
    from google.genai import types
    from openai.types.responses import Response

    response = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1785585600,
            "model": "gpt-4o",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_w1",
                    "name": "get_weather",
                    "arguments": '{"city": "Paris"}',
                    "status": "completed",
                },
            ],
        }
    ).model_dump(mode="json", exclude_none=True)
    contents = [
        types.Content(role="user", parts=[types.Part(text="Weather in Paris?")]),
        types.Content(
            role="model",
            parts=[
                types.Part(
                    function_call=types.FunctionCall(
                        id="call_w1", name="get_weather", args={"city": "Paris"}
                    )
                )
            ],
        ),
        types.Content(
            role="user",
            parts=[
                types.Part(
                    function_response=types.FunctionResponse(
                        id="call_w1", name="get_weather", response={"result": "sunny"}
                    )
                )
            ],
        ),
    ]
    history = [c.model_dump(mode="json", exclude_none=True) for c in contents]
    reply = types.Content(role="model", parts=[types.Part(text="Sunny in Paris.")])
    trace = {
        "id": "t1",
        "observations": [
            _observation(
                "o1", "GENERATION", "responses gpt-4o", input="Weather in Paris?", output=response
            ),
            _observation(
                "o2",
                "GENERATION",
                "gemini",
                input=history,
                output=[reply.model_dump(mode="json", exclude_none=True)],
            ),
        ],
    }
    rec = langfuse.to_record(trace)
    assert _calls(rec) == [("get_weather", "call_w1", "succeeded")]
    assert rec.tool_calls[0].payload.arguments == {"city": "Paris"}
    assert rec.tool_calls[0].payload.result == {"result": "sunny"}
    assert [(e.actor_ref, e.payload.text) for e in rec.events if e.kind == "message"] == [
        ("user", "Weather in Paris?"),
        ("agent", "Sunny in Paris."),
    ]
    assert rec.status == "completed" and not rec.parse_errors


def test_an_unanswered_request_makes_the_run_incomplete_never_completed() -> None:
    ask = {"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "f"}}]}
    trace = {"id": "t1", "observations": [_observation("o1", "GENERATION", "chat", output=ask)]}
    rec = langfuse.to_record(trace)
    assert _calls(rec) == [("f", "c1", "pending")]
    assert rec.status == "incomplete"


def test_the_trace_input_and_output_stand_in_and_what_is_not_text_is_a_parse_error() -> None:
    tool = _observation("o1", "TOOL", "lookup", input={"id": 1}, output="ok")
    trace = {
        "id": "t1",
        "input": {"args": ["Refund A1049"], "kwargs": {}},
        "output": {"answer": "Done."},
        "observations": [tool],
    }
    rec = langfuse.to_record(trace)
    assert [(e.actor_ref, e.payload.text) for e in rec.events if e.kind == "message"] == [
        ("user", "Refund A1049"),
        ("agent", "Done."),
    ]
    trace["output"] = {"score": 3}
    rec = langfuse.to_record(trace)
    assert rec.reply is None
    assert [(p.position, p.reason) for p in rec.parse_errors] == [
        ("output", "not read as a message: no text in it")
    ]


def test_a_generation_whose_messages_are_not_understood_is_a_parse_error() -> None:
    generation = _observation("o1", "GENERATION", "chat", input={"prompt_id": 7})
    rec = langfuse.to_record({"id": "t1", "observations": [generation]})
    assert [(p.position, p.reason) for p in rec.parse_errors] == [
        ("observations[0].input", "no messages read from it")
    ]


def test_a_trace_input_of_gemini_contents_and_an_agent_input_of_messages_stand_in() -> None:
    from google.genai import types

    asked = types.Content(role="user", parts=[types.Part(text="Weather in Paris?")])
    tool = _observation("o1", "TOOL", "execute_tool get_weather", output="sunny")
    trace = {
        "id": "t1",
        "input": [asked.model_dump(mode="json", exclude_none=True)],
        "output": "Sunny in Paris.",
        "observations": [tool],
    }
    rec = langfuse.to_record(trace)
    assert [(e.actor_ref, e.payload.text) for e in rec.events if e.kind == "message"] == [
        ("user", "Weather in Paris?"),
        ("agent", "Sunny in Paris."),
    ]
    del trace["input"]
    given = {"messages": [{"role": "user", "content": "Weather in Rome?"}]}
    trace["observations"] = [_observation("o0", "AGENT", "weather", input=given), tool]
    rec = langfuse.to_record(trace)
    assert rec.events[0].payload.text == "Weather in Rome?" and not rec.parse_errors


def test_openinference_tool_spellings_and_metadata_as_json_text() -> None:
    # OpenInference: tool.name, input.value / output.value; the v2 observations list writes
    # metadata (like input and output) as JSON text.
    ask = {"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "lookup"}}]}
    attributes = {
        "openinference.span.kind": "TOOL",
        "tool.name": "lookup",
        "tool_call.id": "c1",
        "input.value": '{"order_id": "A1049"}',
        "output.value": '{"status": "paid"}',
    }
    data = {
        "data": [
            _observation("o1", "GENERATION", "ChatCompletion", output=json.dumps(ask)),
            _observation("o2", "TOOL", "lookup", metadata=json.dumps({"attributes": attributes})),
        ]
    }
    rec = langfuse.to_record(data)
    assert _calls(rec) == [("lookup", "c1", "succeeded")]
    call = rec.tool_calls[0].payload
    assert (call.arguments, call.result) == ({"order_id": "A1049"}, {"status": "paid"})
    assert rec.status == "completed"
