"""The openai-chat adapter: the standard run, the variants, data made by the openai SDK."""

from __future__ import annotations

import json

import pytest
from adapter_checks import assert_conserved, assert_standard_run, fixture, load_json, suite_verdicts
from openai.types.chat import ChatCompletion, ChatCompletionMessage
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_message_function_tool_call import (
    ChatCompletionMessageFunctionToolCall,
    Function,
)
from openai.types.completion_usage import CompletionUsage

from agent_asserts import MISSING, TrialRecord
from agent_asserts.record.adapters import openai_chat

ARGS = '{"order_id": "A1049"}'
REPLY = "I couldn't issue the refund: the payment gateway timed out."


def _positions(data: dict) -> list[str]:  # type: ignore[type-arg]
    out = []
    for i, item in enumerate(data["messages"]):
        out.append(f"$.messages[{i}]")
        message = item["choices"][0]["message"] if "choices" in item else item
        for j, _ in enumerate(message.get("tool_calls") or []):
            out.append(f"$.messages[{i}].tool_calls[{j}]")
    return out


def test_standard_run_through_load_auto() -> None:
    record = TrialRecord.load(fixture("openai-chat"))
    assert_standard_run(record, timestamps=True)
    assert record.usage.details == {"cached_input_tokens": 40, "reasoning_tokens": 8}
    assert record.tools[0].name == "lookup_order"
    assert record.metadata == {"model": "gpt-4o-2024-08-06", "format": "openai-chat"}


def test_conservation() -> None:
    data = load_json(fixture("openai-chat"))
    record = openai_chat.to_record(data)
    assert_conserved(record, _positions(data))  # type: ignore[arg-type]


def test_pairing_falls_back_to_name_and_order_and_keeps_the_unpaired() -> None:
    record = openai_chat.to_record([
        {"role": "user", "content": "go"},
        {"role": "assistant", "function_call": {"name": "a", "arguments": "{}"}},
        {"role": "function", "name": "a", "content": "1"},
        {"role": "assistant", "tool_calls": [
            {"id": "x", "type": "function", "function": {"name": "b", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "nope", "content": "orphan"},
    ])  # fmt: skip
    a, b, orphan = record.tool_calls
    assert (a.payload.name, a.payload.result, a.payload.outcome) == ("a", "1", "succeeded")
    assert (b.payload.name, b.payload.outcome) == ("b", "pending")
    # an orphan result is a call whose arguments are not recorded, with the result's outcome
    assert orphan.payload.outcome == "succeeded" and orphan.payload.extra["unpaired"] is True
    assert orphan.payload.arguments is MISSING
    assert orphan.payload.result == "orphan" and orphan.payload.call_id == "nope"
    assert record.status == "incomplete"


def test_errors_need_the_convention_and_can_be_turned_off() -> None:
    messages = [
        {"role": "assistant", "tool_calls": [
            {"id": "1", "type": "function", "function": {"name": "t", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "1", "content": '{"error": "denied by policy"}'},
    ]  # fmt: skip
    (call,) = openai_chat.to_record(messages).tool_calls
    assert (call.payload.outcome, call.payload.error_message) == ("failed", "denied by policy")
    (call,) = openai_chat.to_record(messages, detect_errors=False).tool_calls
    assert call.payload.outcome == "succeeded" and call.payload.result == {
        "error": "denied by policy"
    }


def test_unreadable_items_are_parse_errors_with_where() -> None:
    record = openai_chat.to_record({"messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "tool_calls": [{"id": "1", "type": "function", "function": {}}, 7]},
        {"role": "robot", "content": "?"},
    ]})  # fmt: skip
    assert [(p.position, p.reason) for p in record.parse_errors] == [
        ("$.messages[1].tool_calls[0]", "a tool call without a function name"),
        ("$.messages[1].tool_calls[1]", "a tool call must be an object"),
        ("$.messages[2]", "not an OpenAI Chat message (a role and content)"),
    ]


def test_custom_tools_and_refusals() -> None:
    record = openai_chat.to_record([
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c", "type": "custom", "custom": {"name": "shell", "input": "ls -la"}}]},
        {"role": "assistant", "content": None, "refusal": "I can't help with that."},
    ])  # fmt: skip
    assert record.tool_calls[0].payload.arguments == {"input": "ls -la"}
    assert record.reply == "I can't help with that."


def test_data_made_by_the_openai_sdk() -> None:
    calls = [
        ChatCompletionMessageFunctionToolCall(
            id=f"call_{i}", type="function", function=Function(name=name, arguments=args)
        )
        for i, (name, args) in enumerate(
            [("lookup_order", '{"order_id": "A1049"}'), ("issue_refund", '{"order_id": "A1049"}')],
            1,
        )
    ]
    first = ChatCompletion(
        id="c1", object="chat.completion", created=1785585600, model="gpt-4o",
        choices=[Choice(index=0, finish_reason="tool_calls", message=ChatCompletionMessage(
            role="assistant", content=None, tool_calls=calls))],
        usage=CompletionUsage(prompt_tokens=100, completion_tokens=20, total_tokens=120),
    )  # fmt: skip
    last = ChatCompletion(
        id="c2", object="chat.completion", created=1785585603, model="gpt-4o",
        choices=[Choice(index=0, finish_reason="stop", message=ChatCompletionMessage(
            role="assistant", content=REPLY))],
        usage=CompletionUsage(prompt_tokens=150, completion_tokens=15, total_tokens=165),
    )  # fmt: skip
    messages = [
        {"role": "user", "content": "Refund order A1049"},
        json.loads(first.model_dump_json()),
        {"role": "tool", "tool_call_id": "call_1", "content": '{"status": "paid"}'},
        {
            "role": "tool",
            "tool_call_id": "call_2",
            "content": "Error: PaymentGatewayTimeout: gateway timed out",
        },
        json.loads(last.model_dump_json()),
    ]
    record = TrialRecord.from_trace(messages)
    assert suite_verdicts(record) == ["pass", "pass", "pass", "pass", "pass", "fail"]
    assert_standard_run(
        record, subagent=False, reasoning=False, invalid_arguments=False, timestamps=True
    )


@pytest.mark.parametrize("bad", [{"messages": 5}, "text"])
def test_no_message_list_is_a_record_error(bad: object) -> None:
    with pytest.raises(ValueError, match="expected a list of OpenAI Chat messages"):
        openai_chat.to_record(bad)


@pytest.mark.parametrize("choices", [True, {"0": {}}, [], ["text"]])
def test_a_final_response_with_malformed_choices_is_a_parse_error_not_a_crash(
    choices: object,
) -> None:
    data = {
        "messages": [{"role": "user", "content": "hi"}],
        "response": {"object": "chat.completion", "choices": choices},
    }
    rec = TrialRecord.from_trace(data, "openai-chat")
    assert [(e.position, e.reason) for e in rec.parse_errors] == [
        ("$.response.choices", "a completion without a message")
    ]
