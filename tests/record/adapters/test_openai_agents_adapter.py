"""The ``openai-agents`` adapter on a trace exported by the real SDK (and hand-made variants)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from span_fixtures import REPLY, load

from agent_asserts import MISSING, RecordError
from agent_asserts.record.adapters import openai_agents


def _record() -> Any:
    return openai_agents.to_record(load("openai-agents", "agents_sdk_run.json"))


def test_handoff_tools_sub_agent_guardrail_and_reply() -> None:
    rec = _record()
    handoff, as_tool = [e for e in rec.events if e.kind == "delegation"]
    assert (handoff.payload.subagent, handoff.payload.from_agent, handoff.payload.mode) == (
        "Refund agent",
        "Triage agent",
        "handoff",
    )
    assert handoff.event_type == "transferred"
    assert (as_tool.payload.subagent, as_tool.payload.mode) == ("Policy agent", "tool")
    calls = {e.payload.call_id: e for e in rec.tool_calls}
    assert set(calls) == {"call_1", "call_2", "call_3", "call_4"}  # the handoff is no tool call
    # written by the SDK as str(dict): read as the value, the text kept
    assert calls["call_1"].payload.result == {"status": "paid"}
    assert calls["call_1"].payload.extra["result_raw"] == "{'status': 'paid'}"
    assert calls["call_2"].payload.is_error and calls["call_2"].payload.outcome == "failed"
    assert (
        calls["call_2"].payload.error_message
        == "Tool execution failed. Error details are redacted."
    )
    assert calls["call_1"].group_id == calls["call_2"].group_id is not None
    assert calls["call_3"].payload.arguments is MISSING
    assert calls["call_3"].payload.arguments_raw == '{"input": "refund over 40?"'
    assert all(e.agent == "Refund agent" for e in calls.values())
    guardrail = next(e for e in rec.events if e.kind == "guardrail")
    assert (guardrail.payload.name, guardrail.payload.triggered) == ("no_pii", False)
    assert rec.reply == REPLY
    assert [e.payload.text for e in rec.events if e.actor_ref == "user"] == ["Refund order A1049"]
    assert rec.metadata["agent"] == "Triage agent"
    assert rec.metadata["workflow_name"] == "Refund workflow"
    assert {e.correlation_id for e in rec.events} == {"conv_42"}
    assert rec.usage.total_tokens == 6 * 120


def test_conservation_every_span_is_an_event_part_of_one_or_a_parse_error() -> None:
    data = load("openai-agents", "agents_sdk_run.json")
    rec = openai_agents.to_record(data)
    ids = {e.event_id for e in rec.events}
    absorbed = []
    for item in data["data"]:
        if item["object"] == "trace":
            assert rec.metadata["trace_id"] == item["id"]
        elif item["id"] not in ids:
            absorbed.append(item["span_data"]["name"])
    # the root agent is the record; the agent handed off to is its handoff's delegation
    assert absorbed == ["Triage agent", "Refund agent"] or sorted(absorbed) == [
        "Refund agent",
        "Triage agent",
    ]


def test_spans_of_several_traces_and_bad_items() -> None:
    data = load("openai-agents", "agents_sdk_run.json")
    other = copy.deepcopy(data["data"])
    for item in other:
        if item["object"] == "trace":
            item["id"] = "trace_other"
        else:
            item["trace_id"] = "trace_other"
    items = [*data["data"], *other, 7, {"object": "trace.span", "trace_id": "trace_other"}]
    records = list(openai_agents.to_records({"data": items}))
    # the third trace records no message at all: its reply is not recorded (docs/record.md)
    assert [r.reply for r in records] == [REPLY, REPLY, MISSING][: len(records)]
    last = records[-1] if records[-1].metadata.get("trace_id") == "trace_other" else records[1]
    reasons = [p.reason for r in records for p in r.parse_errors]
    assert "not a trace or a trace.span object" in reasons
    assert "a span needs a string 'id' and a 'span_data' object" in reasons
    assert last.metadata["trace_id"] == "trace_other"
    with pytest.raises(RecordError, match="traces; read them with to_records"):
        openai_agents.to_record({"data": items})


def test_detect() -> None:
    assert openai_agents.detect(load("openai-agents", "agents_sdk_run.json"))
    assert not openai_agents.detect({"data": [{"id": "obs", "traceId": "t", "type": "SPAN"}]})
    assert not openai_agents.detect([{"role": "user", "content": "hi"}])


def test_a_tool_result_written_as_a_python_literal_is_read_as_a_value() -> None:
    # the Agents SDK writes a function tool's return value with str(): a dict is a Python
    # literal, which every result= check would otherwise compare as text
    data = {"data": [
        {"object": "trace", "id": "trace_1", "workflow_name": "w"},
        {"object": "trace.span", "id": "span_1", "trace_id": "trace_1", "parent_id": None,
         "started_at": "2026-01-01T00:00:00Z", "ended_at": "2026-01-01T00:00:01Z",
         "span_data": {"type": "function", "name": "check_refund", "input": '{"order": "A1"}',
                       "output": "{'refundable': True, 'amount': 42}"}}]}  # fmt: skip
    payload = openai_agents.to_record(data).tool_calls[0].payload
    assert payload.result == {"refundable": True, "amount": 42}
    assert payload.extra["result_raw"] == "{'refundable': True, 'amount': 42}"
