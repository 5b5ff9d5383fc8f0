"""The langchain adapter: the standard run, the three spellings, data made by langchain-core."""

from __future__ import annotations

from adapter_checks import assert_conserved, assert_standard_run, fixture, load_json, suite_verdicts
from langchain_core.load import dumpd
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, messages_to_dict

from agent_asserts import TrialRecord
from agent_asserts.record.adapters import langchain

REPLY = "I couldn't issue the refund: the payment gateway timed out."


def test_standard_run_through_load_auto() -> None:
    record = TrialRecord.load(fixture("langchain"))
    assert_standard_run(record)
    notify = next(e for e in record.tool_calls if e.payload.name == "notify_customer")
    assert notify.payload.extra["invalid_tool_call"] is True
    assert notify.payload.outcome == "failed"
    lookup = next(e for e in record.tool_calls if e.payload.name == "lookup_order")
    assert lookup.payload.extra["artifact"] == {"rows": 1}
    assert record.usage.details == {"input_cache_read": 40, "output_reasoning": 8}


def test_conservation() -> None:
    data = load_json(fixture("langchain"))
    positions = []
    for i, item in enumerate(data["messages"]):  # type: ignore[index]
        positions.append(f"$.messages[{i}]")
        for key in ("tool_calls", "invalid_tool_calls"):
            positions += [
                f"$.messages[{i}].{key}[{j}]" for j in range(len(item["data"].get(key) or []))
            ]
    assert_conserved(langchain.to_record(data), positions)


def _messages() -> list:  # type: ignore[type-arg]
    return [
        HumanMessage("Refund order A1049", id="m1"),
        AIMessage(
            "",
            id="m2",
            tool_calls=[
                {"name": "lookup_order", "args": {"order_id": "A1049"}, "id": "call_1"},
                {"name": "issue_refund", "args": {"order_id": "A1049"}, "id": "call_2"},
            ],
            usage_metadata={"input_tokens": 100, "output_tokens": 20, "total_tokens": 120},
            additional_kwargs={"reasoning_content": "Check first."},
        ),
        ToolMessage('{"status": "paid"}', tool_call_id="call_1", name="lookup_order"),
        ToolMessage(
            "gateway timed out", tool_call_id="call_2", name="issue_refund", status="error"
        ),
        AIMessage(
            REPLY,
            id="m5",
            usage_metadata={"input_tokens": 150, "output_tokens": 15, "total_tokens": 165},
        ),
    ]


def test_the_three_spellings_made_by_langchain_core_read_the_same() -> None:
    messages = _messages()
    spellings = {
        "dumpd": [dumpd(m) for m in messages],
        "messages_to_dict": messages_to_dict(messages),
        "model_dump": [m.model_dump(mode="json") for m in messages],
        "langgraph state": {"messages": [m.model_dump(mode="json") for m in messages]},
    }
    records = {name: TrialRecord.from_trace(data) for name, data in spellings.items()}
    for name, record in records.items():
        assert suite_verdicts(record) == ["pass", "pass", "pass", "pass", "pass", "fail"], name
        assert_standard_run(record, subagent=False, invalid_arguments=False)
    shapes = {name: [(e.kind, e.group_id) for e in r.events] for name, r in records.items()}
    assert len({tuple(s) for s in shapes.values()}) == 1


def test_unreadable_items_are_parse_errors_with_where() -> None:
    record = langchain.to_record(
        [
            {"type": "human", "content": "hi"},
            {"type": "ai", "content": "", "tool_calls": [{"args": {}, "id": "x"}]},
            {"type": "robot", "content": "?"},
        ]
    )
    assert [(p.position, p.reason) for p in record.parse_errors] == [
        ("$[1].tool_calls[0]", "a tool call without a name"),
        ("$[2]", "not a LangChain message (lc, {type, data} or plain)"),
    ]


def test_pairing_by_name_and_order_without_tool_call_ids() -> None:
    record = langchain.to_record(
        [
            {
                "type": "ai",
                "content": "",
                "tool_calls": [{"name": "a", "args": {}}, {"name": "a", "args": {}}],
            },
            {"type": "tool", "content": "1", "name": "a"},
        ]
    )
    first, second = record.tool_calls
    assert (first.payload.result, first.payload.outcome, second.payload.outcome) == (
        "1",
        "succeeded",
        "pending",
    )
