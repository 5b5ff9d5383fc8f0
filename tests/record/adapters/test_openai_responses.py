"""The openai-responses adapter: the standard run, the variants, data made by the openai SDK."""

from __future__ import annotations

import json

from adapter_checks import assert_conserved, assert_standard_run, fixture, load_json, suite_verdicts
from openai.types.responses import Response

from agent_asserts import TrialRecord
from agent_asserts.record.adapters import openai_responses

REPLY = "I couldn't issue the refund: the payment gateway timed out."


def _positions(data: list) -> list[str]:  # type: ignore[type-arg]
    out = []
    for i, item in enumerate(data):
        if item.get("object") == "response":
            out.extend(f"$[{i}].output[{j}]" for j in range(len(item["output"])))
        out.append(f"$[{i}]")
    return out


def test_standard_run_through_load_auto() -> None:
    record = TrialRecord.load(fixture("openai-responses"))
    assert_standard_run(record, subagent=False, timestamps=True)
    models = [e for e in record.events if e.kind == "model_call"]
    assert [m.duration for m in models] == [1.0, 1.0, 1.0]
    assert record.usage.details == {"cached_input_tokens": 40, "reasoning_tokens": 8}
    assert record.events[-1].payload.extra["phase"] == "final_answer"


def test_conservation() -> None:
    data = load_json(fixture("openai-responses"))
    assert_conserved(openai_responses.to_record(data), _positions(data))  # type: ignore[arg-type]


def test_items_without_response_objects_group_each_model_turn() -> None:
    record = openai_responses.to_record(
        {
            "input": [
                {"type": "message", "role": "user", "content": "go"},
                {"type": "function_call", "call_id": "a", "name": "x", "arguments": "{}"},
                {"type": "function_call", "call_id": "b", "name": "y", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "b", "output": "ok"},
                {"type": "function_call", "call_id": "c", "name": "z", "arguments": "{}"},
            ],
            "note": "kept",
        }
    )
    x, y, z = record.tool_calls
    assert x.group_id == y.group_id is not None and z.group_id is None
    assert (x.payload.outcome, y.payload.outcome, z.payload.outcome) == (
        "pending",
        "succeeded",
        "pending",
    )
    assert record.metadata == {"note": "kept"} and record.status == "incomplete"


def test_mcp_calls_and_hosted_tools() -> None:
    record = openai_responses.to_record(
        [
            {
                "type": "mcp_call",
                "id": "mcp_1",
                "server_label": "billing",
                "name": "issue_refund",
                "arguments": '{"order_id": "A1"}',
                "output": None,
                "status": "failed",
                "error": {
                    "type": "mcp_tool_execution_error",
                    "content": [{"type": "text", "text": "gateway timed out"}],
                },
            },
            {
                "type": "web_search_call",
                "id": "ws_1",
                "status": "completed",
                "action": {"type": "search", "query": "refund policy"},
            },
        ]
    )
    mcp, search = record.tool_calls
    assert (mcp.payload.source, mcp.payload.mcp_server, mcp.payload.outcome) == (
        "mcp",
        "billing",
        "failed",
    )
    assert mcp.payload.error_type == "mcp_tool_execution_error"
    assert mcp.payload.error_message == "gateway timed out"
    assert (search.payload.name, search.payload.outcome) == ("web_search_call", "succeeded")
    assert search.payload.arguments == {"action": {"type": "search", "query": "refund policy"}}


def test_unreadable_items_are_parse_errors_with_where() -> None:
    record = openai_responses.to_record(
        [
            {"type": "function_call", "call_id": "a", "arguments": "{}"},
            {"type": "message", "role": "robot", "content": "?"},
            {"type": "bogus"},
        ]
    )
    assert [(p.position, p.reason) for p in record.parse_errors] == [
        ("$[0]", "a call without a name"),
        ("$[1]", "a message with an unknown role 'robot'"),
        ("$[2]", "not a Responses API item (a known type)"),
    ]


def test_data_made_by_the_openai_sdk() -> None:
    first = Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 1785585600,
            "model": "gpt-5",
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "reasoning",
                    "id": "rs_1",
                    "summary": [{"type": "summary_text", "text": "Check."}],
                },
                {
                    "type": "function_call",
                    "id": "fc_1",
                    "call_id": "call_1",
                    "name": "lookup_order",
                    "arguments": '{"order_id": "A1049"}',
                    "status": "completed",
                },
                {
                    "type": "function_call",
                    "id": "fc_2",
                    "call_id": "call_2",
                    "name": "issue_refund",
                    "arguments": '{"order_id": "A1049"}',
                    "status": "completed",
                },
            ],
            "usage": {
                "input_tokens": 100,
                "output_tokens": 20,
                "total_tokens": 120,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            },
        }
    )
    last = Response.model_validate(
        {
            "id": "resp_2",
            "object": "response",
            "created_at": 1785585603,
            "model": "gpt-5",
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "message",
                    "id": "m",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": REPLY, "annotations": []}],
                }
            ],
            "usage": {
                "input_tokens": 150,
                "output_tokens": 15,
                "total_tokens": 165,
                "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0},
                "output_tokens_details": {"reasoning_tokens": 0},
            },
        }
    )
    items = [
        {"type": "message", "role": "user", "content": "Refund order A1049"},
        json.loads(first.model_dump_json()),
        {"type": "function_call_output", "call_id": "call_1", "output": '{"status": "paid"}'},
        {"type": "function_call_output", "call_id": "call_2", "output": "Error: gateway timed out"},
        json.loads(last.model_dump_json()),
    ]
    record = TrialRecord.from_trace(items)
    assert suite_verdicts(record) == ["pass", "pass", "pass", "pass", "pass", "fail"]
    assert_standard_run(record, subagent=False, invalid_arguments=False, timestamps=True)
