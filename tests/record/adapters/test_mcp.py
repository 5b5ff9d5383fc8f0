"""The mcp adapter: a JSON-RPC session log, JSON Lines, both kinds of error, the SDK's types."""

from __future__ import annotations

import json
from pathlib import Path

from adapter_checks import assert_conserved, fixture, load_json
from mcp.types import (
    CallToolRequest,
    CallToolRequestParams,
    CallToolResult,
    JSONRPCRequest,
    TextContent,
)

from agent_asserts import EvalContext, TrialRecord
from agent_asserts.record.adapters import mcp


def test_standard_run_through_load_auto() -> None:
    record = TrialRecord.load(fixture("mcp"))
    lookup, refund, cancel = record.tool_calls
    assert lookup.group_id == refund.group_id is not None and cancel.group_id is None
    assert (lookup.payload.result, lookup.payload.outcome) == ({"status": "paid"}, "succeeded")
    assert lookup.payload.extra["content"][0]["type"] == "text"
    assert (refund.payload.outcome, refund.payload.error_message) == (
        "failed",
        "PaymentGatewayTimeout: gateway timed out",
    )
    assert refund.payload.extra["meta"] == {"progressToken": "p-3"}
    assert (cancel.payload.error_type, cancel.payload.error_message) == (
        "-32602",
        "Unknown tool: cancel_order",
    )
    assert {e.payload.mcp_server for e in record.tool_calls} == {"billing"}
    assert [t.name for t in record.tools] == ["lookup_order", "issue_refund"]
    assert record.status == "completed"
    ctx = EvalContext(record)
    ctx.called_tool(
        "lookup_order", arguments={"order_id": "A1049"}, source="mcp", mcp_server="billing"
    )
    ctx.called_tool("issue_refund", is_error=True)
    assert [r.status.value for r in ctx.results] == ["pass", "pass"]


def test_conservation() -> None:
    data = load_json(fixture("mcp"))
    positions = [f"$.messages[{i}]" for i in range(len(data["messages"]))]  # type: ignore[index]
    assert_conserved(mcp.to_record(data), positions)


def test_json_lines_log_is_one_run(tmp_path: Path) -> None:
    lines = [json.dumps(m) for m in load_json(fixture("mcp"))["messages"]]  # type: ignore[index]
    path = tmp_path / "session.jsonl"
    path.write_text("\n".join([*lines, "{oops"]) + "\n")
    (record,) = list(__import__("agent_asserts").iter_records(path))
    assert len(record.tool_calls) == 3
    assert [(p.position, p.reason[:9]) for p in record.parse_errors] == [("line 13", "not JSON:")]
    assert TrialRecord.load(path, "mcp").tool_calls[0].payload.name == "lookup_order"


def test_unanswered_and_input_required_calls_are_pending() -> None:
    record = mcp.to_record(
        [
            {
                "jsonrpc": "2.0",
                "id": "a",
                "method": "tools/call",
                "params": {"name": "x", "arguments": {}},
            },
            {
                "jsonrpc": "2.0",
                "id": "b",
                "method": "tools/call",
                "params": {"name": "y", "arguments": {}},
            },
            {
                "jsonrpc": "2.0",
                "id": "b",
                "result": {"resultType": "input_required", "content": []},
            },
            {"jsonrpc": "2.0", "id": "zz", "result": {"content": []}},
        ]
    )
    x, y = record.tool_calls
    assert (x.payload.outcome, y.payload.outcome, record.status) == (
        "pending",
        "pending",
        "incomplete",
    )
    assert [e.kind for e in record.events] == ["tool_call", "tool_call", "mcp"]


def test_unreadable_items_are_parse_errors_with_where() -> None:
    record = mcp.to_record(
        [
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"arguments": {}}},
            {"jsonrpc": "2.0", "id": 7},
            {"id": 3},
        ]
    )
    assert [(p.position, p.reason) for p in record.parse_errors] == [
        ("$[0]", "a tools/call request without params.name"),
        ("$[1]", "a JSON-RPC message with neither a method nor a result"),
        ("$[2]", "not a JSON-RPC 2.0 message"),
    ]


def test_data_made_by_the_mcp_sdk() -> None:
    request = JSONRPCRequest(
        jsonrpc="2.0",
        id=5,
        method="tools/call",
        params=CallToolRequestParams(
            name="issue_refund", arguments={"order_id": "A1049"}
        ).model_dump(mode="json", exclude_none=True),
    )
    result = CallToolResult(
        content=[TextContent(type="text", text="gateway timed out")], isError=True
    )
    for by_alias in (True, False):  # the wire form, and the SDK's default dump
        messages = [
            json.loads(request.model_dump_json(exclude_none=True, by_alias=by_alias)),
            {
                "jsonrpc": "2.0",
                "id": 5,
                "result": json.loads(result.model_dump_json(exclude_none=True, by_alias=by_alias)),
            },
        ]
        (call,) = TrialRecord.from_trace(messages).tool_calls
        assert (call.payload.name, call.payload.outcome, call.payload.error_message) == (
            "issue_refund",
            "failed",
            "gateway timed out",
        )
    assert CallToolRequest.model_fields["method"].default == "tools/call"


def test_an_sdk_2_session_names_its_server_from_the_results_meta() -> None:
    """MCP Python SDK 2.x (protocol 2026-07-28): no initialize, a server/discover, and the
    server's name in each result's _meta (fixture made by make_discover_session.py)."""
    path = Path(fixture("mcp", "discover_run.jsonl"))
    record = TrialRecord.load(path)
    lookup, refund = record.tool_calls
    assert (lookup.payload.result, lookup.payload.outcome) == ({"status": "paid"}, "succeeded")
    assert (refund.payload.outcome, refund.payload.error_message) == (
        "failed",
        "Error executing tool issue_refund",
    )
    assert {e.payload.mcp_server for e in record.tool_calls} == {"billing"}
    assert [t.name for t in record.tools] == ["lookup_order", "issue_refund"]
    ctx = EvalContext(record)
    ctx.called_tool("lookup_order", source="mcp", mcp_server="billing")
    ctx.called_tool("issue_refund", is_error=True, mcp_server="billing")
    assert [r.status.value for r in ctx.results] == ["pass", "pass"]
    messages = [json.loads(line) for line in path.read_text().splitlines()]
    assert messages[0]["method"] == "server/discover"
    positions = [f"$[{i}]" for i in range(len(messages))]
    assert_conserved(mcp.to_record(messages), positions)


def test_the_server_option_and_an_earlier_name_win() -> None:
    meta = {"_meta": {mcp.SERVER_INFO: {"name": "late"}}}
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}},
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [], **meta}},
    ]
    assert mcp.to_record(messages).tool_calls[0].payload.mcp_server == "late"
    named = mcp.to_record(messages, server="given")
    assert named.tool_calls[0].payload.mcp_server == "given"
