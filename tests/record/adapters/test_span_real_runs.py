"""The span adapters on data the real libraries produce now, offline (not stored fixtures):
Pydantic AI runs instrumented with OpenTelemetry (instrumentation versions 2 to 6), exported
through the OTLP exporter's own encoder in both JSON shapes; Pydantic AI's message history;
the OpenAI Agents SDK's trace export."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
import span_runs

from agent_asserts.record.adapters import detect, openai_agents, otel, pydantic_ai

SHAPES: dict[str, Callable[[Any], Any]] = {
    "spec": span_runs.otlp_spec_json,
    "protobuf": span_runs.otlp_protobuf_json,
}


@pytest.fixture(scope="module")
def runs() -> dict[int, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # versions 2 to 4 are deprecated
        return {version: span_runs.run_pydantic_ai(version) for version in (2, 3, 4, 5, 6)}


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("version", [2, 3, 4, 5, 6])
def test_pydantic_ai_instrumentation_versions(
    runs: dict[int, Any], version: int, shape: str
) -> None:
    _, spans = runs[version]
    data = SHAPES[shape](spans)
    assert detect(data) == "otel"
    rec = otel.to_record(data)
    calls = {e.payload.call_id: e.payload for e in rec.tool_calls}
    assert list(calls) == ["call_1", "call_2", "call_3", "call_4"]
    assert calls["call_2"].is_error and calls["call_2"].error_message == span_runs.GATEWAY_ERROR
    assert calls["call_3"].arguments_raw == '{"question": "refund over 40?"'
    assert rec.reply == span_runs.REPLY
    assert [e.payload.subagent for e in rec.events if e.kind == "delegation"] == ["policy_agent"]
    assert [e.kind for e in rec.events].count("reasoning") == 1
    assert (
        len({e.group_id for e in rec.tool_calls if e.payload.call_id in ("call_1", "call_2")}) == 1
    )
    assert rec.usage.input_tokens == sum(
        e.payload.usage.input_tokens for e in rec.events if e.kind == "model_call"
    )


def test_pydantic_ai_history_of_the_same_run(runs: dict[int, Any]) -> None:
    messages, _ = runs[5]
    data = span_runs.history_json(messages)
    assert detect(data) == "pydantic-ai"
    rec = pydantic_ai.to_record(data)
    assert [e.payload.name for e in rec.tool_calls] == [
        "lookup_order",
        "issue_refund",
        "ask_policy",
        "ask_policy",
    ]
    assert rec.reply == span_runs.REPLY


def test_openai_agents_sdk_trace_export() -> None:
    data = {"data": span_runs.run_openai_agents()}
    assert detect(data) == "openai-agents"
    rec = openai_agents.to_record(data)
    assert rec.reply == span_runs.REPLY
    assert [(e.payload.subagent, e.payload.mode) for e in rec.events if e.kind == "delegation"] == [
        ("Refund agent", "handoff"),
        ("Policy agent", "tool"),
    ]
    assert [e.payload.is_error for e in rec.tool_calls] == [False, True, True, False]


def test_openai_agents_sdk_default_model_trace_does_not_record_the_reply() -> None:
    # The SDK's default model (the Responses API) writes response spans with usage only: the
    # trace holds the calls but no message, so reply checks are invalid, never failed.
    from agent_asserts import EvalContext

    rec = openai_agents.to_record({"data": span_runs.run_openai_agents("response")})
    assert [c.payload.name for c in rec.tool_calls] == [
        "lookup_order",
        "issue_refund",
        "ask_policy",
        "ask_policy",
    ]
    assert rec.surfaces is not None and not rec.records("message")
    assert rec.usage is not None and rec.usage.total_tokens == 720
    ctx = EvalContext(rec)
    ctx.message_includes("payment gateway timed out")
    ctx.called_tool("lookup_order", arguments={"order_id": "A1049"})
    assert [r.status.value for r in ctx.results] == ["invalid", "pass"]
