"""The anthropic adapter: the standard run, the variants, data made by the anthropic SDK."""

from __future__ import annotations

import json

from adapter_checks import assert_conserved, assert_standard_run, fixture, load_json, suite_verdicts
from anthropic.types import Message, TextBlock, ThinkingBlock, ToolUseBlock, Usage

from agent_asserts import TrialRecord
from agent_asserts.record.adapters import anthropic

REPLY = "I couldn't issue the refund: the payment gateway timed out."


def _positions(data: dict) -> list[str]:  # type: ignore[type-arg]
    out = ["$.system"]
    for i, item in enumerate(data["messages"]):
        content = item["content"]
        if isinstance(content, str):
            out.append(f"$.messages[{i}]")
        else:
            out.extend(f"$.messages[{i}].content[{j}]" for j in range(len(content)))
    return out


def test_standard_run_through_load_auto() -> None:
    record = TrialRecord.load(fixture("anthropic"))
    assert_standard_run(record, subagent=False, invalid_arguments=False)
    first = next(e for e in record.events if e.kind == "model_call").payload
    assert first.usage.input_tokens == 100  # input + cache reads, as the conventions count
    assert first.usage.details == {"cache_read_input_tokens": 40}
    assert (first.model, first.finish_reason) == ("claude-sonnet-4-5", "tool_use")
    assert record.events[0].actor_ref == "system"
    assert record.tools[0].parameters == {"type": "object"}


def test_conservation() -> None:
    data = load_json(fixture("anthropic"))
    assert_conserved(anthropic.to_record(data), _positions(data))  # type: ignore[arg-type]


def test_tool_results_in_a_user_message_open_no_turn() -> None:
    record = anthropic.to_record(
        [
            {"role": "user", "content": "one"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "a", "name": "t", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "a", "content": "x"}],
            },
            {"role": "assistant", "content": "done"},
            {"role": "user", "content": [{"type": "text", "text": "two"}]},
        ]
    )
    users = [e for e in record.events if e.kind == "message" and e.actor_ref == "user"]
    assert [(e.payload.text, e.turn) for e in users] == [("one", 1), ("two", 2)]
    assert record.tool_calls[0].turn == 1


def test_mcp_server_tools_and_redacted_thinking() -> None:
    record = anthropic.to_record(
        [
            {
                "role": "assistant",
                "content": [
                    {"type": "redacted_thinking", "data": "xyz"},
                    {
                        "type": "mcp_tool_use",
                        "id": "m1",
                        "name": "issue_refund",
                        "server_name": "billing",
                        "input": {"order_id": "A1"},
                    },
                    {
                        "type": "server_tool_use",
                        "id": "s1",
                        "name": "web_search",
                        "input": {"query": "q"},
                    },
                    {
                        "type": "web_search_tool_result",
                        "tool_use_id": "s1",
                        "content": {
                            "type": "web_search_tool_result_error",
                            "error_code": "max_uses_exceeded",
                        },
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "mcp_tool_result",
                        "tool_use_id": "m1",
                        "is_error": True,
                        "content": [{"type": "text", "text": "gateway timed out"}],
                    }
                ],
            },
        ]
    )
    reasoning = [e for e in record.events if e.kind == "reasoning"]
    assert reasoning[0].payload.redacted is True
    mcp, search = record.tool_calls
    assert (mcp.payload.source, mcp.payload.mcp_server, mcp.payload.outcome) == (
        "mcp",
        "billing",
        "failed",
    )
    assert (search.payload.outcome, search.payload.error_type) == ("failed", "max_uses_exceeded")
    assert search.payload.extra["server_tool"] is True


def test_pairing_by_order_and_unpaired_items() -> None:
    record = anthropic.to_record(
        [
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "a", "name": "t", "input": {}},
                    {"type": "tool_use", "name": "u", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "zz", "content": "?"}],
            },
        ]
    )
    a, u, orphan = record.tool_calls
    assert (a.payload.outcome, u.payload.outcome) == ("pending", "pending")
    assert orphan.payload.extra["unpaired"] is True and orphan.payload.call_id == "zz"
    assert record.status == "incomplete"


def test_unreadable_items_are_parse_errors_with_where() -> None:
    record = anthropic.to_record(
        {
            "messages": [
                {"role": "user", "content": [{"text": "no type"}]},
                {
                    "role": "assistant",
                    "content": [{"type": "tool_use", "id": "a"}, {"type": "bogus"}],
                },
                "text",
            ]
        }
    )
    assert [(p.position, p.reason) for p in record.parse_errors] == [
        ("$.messages[0].content[0]", "a content block without a type"),
        ("$.messages[1].content[0]", "a tool_use block without a name"),
        ("$.messages[1].content[1]", "unknown assistant content block 'bogus'"),
        ("$.messages[2]", "not an Anthropic message (role user/assistant and content)"),
    ]


def test_data_made_by_the_anthropic_sdk() -> None:
    first = Message(
        id="msg_1",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        stop_reason="tool_use",
        stop_sequence=None,
        usage=Usage(input_tokens=100, output_tokens=20),
        content=[
            ThinkingBlock(type="thinking", thinking="Check first.", signature="s"),
            ToolUseBlock(
                type="tool_use", id="toolu_1", name="lookup_order", input={"order_id": "A1049"}
            ),
            ToolUseBlock(
                type="tool_use",
                id="toolu_2",
                name="issue_refund",
                input={"order_id": "A1049", "amount": 42.0},
            ),
        ],
    )
    last = Message(
        id="msg_2",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        stop_reason="end_turn",
        stop_sequence=None,
        usage=Usage(input_tokens=150, output_tokens=15),
        content=[TextBlock(type="text", text=REPLY)],
    )
    messages = [
        {"role": "user", "content": "Refund order A1049"},
        json.loads(first.model_dump_json()),
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": '{"status": "paid"}'},
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_2",
                    "is_error": True,
                    "content": [{"type": "text", "text": "gateway timed out"}],
                },
            ],
        },
        json.loads(last.model_dump_json()),
    ]
    record = TrialRecord.from_trace(messages)
    assert suite_verdicts(record) == ["pass", "pass", "pass", "pass", "pass", "fail"]
    assert_standard_run(record, subagent=False, invalid_arguments=False)
