"""Honest partial data in every message-based adapter (openai-chat, openai-responses, anthropic,
langchain, gemini): a token budget on a run where only some model calls carry usage is
``invalid``; a tool result whose call was trimmed from the history (an error result too) is a
call whose arguments are not recorded, with the result's outcome; tool results written as JSON
or Python-literal text become values with the text kept in ``result_raw``."""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from adapter_checks import fixture
from anthropic.types import Message, TextBlock, Usage
from google.genai import types as genai
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, trim_messages
from openai.types.chat import ChatCompletion, ChatCompletionMessage
from openai.types.chat.chat_completion import Choice
from openai.types.completion_usage import CompletionUsage

from agent_asserts import MISSING, EvalContext, TrialRecord
from agent_asserts.record.adapters import anthropic, gemini, langchain, openai_chat
from agent_asserts.record.adapters import openai_responses as responses

LITERAL = "{'refundable': True, 'amount': 42}"
"""How the OpenAI Agents SDK writes a tool's dict result (``str()`` of it)."""


def _openai_chat_completion() -> dict[str, Any]:
    completion = ChatCompletion(
        id="chatcmpl-1",
        object="chat.completion",
        created=1767323045,
        model="gpt-4o",
        choices=[
            Choice(
                index=0,
                finish_reason="stop",
                message=ChatCompletionMessage(role="assistant", content="Refund issued."),
            )
        ],
        usage=CompletionUsage(prompt_tokens=250, completion_tokens=25, total_tokens=275),
    )
    return completion.model_dump(mode="json")


# -- each adapter's run: a tool call, its result, a final answer; usage on the last call only --


def openai_chat_run(result: str = '{"status": "paid"}') -> Any:
    return {
        "messages": [
            {"role": "user", "content": "Refund A1049"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "lookup", "arguments": '{"id": "A1049"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": result},
            {"role": "assistant", "content": "Refund issued."},
        ],
        "response": _openai_chat_completion(),
    }


def openai_responses_run(result: str = '{"status": "paid"}') -> Any:
    return {
        "input": [
            {"role": "user", "content": "Refund A1049"},
            {
                "type": "function_call",
                "call_id": "c1",
                "name": "lookup",
                "arguments": '{"id": "A1049"}',
            },
            {"type": "function_call_output", "call_id": "c1", "output": result},
        ],
        "response": {
            "object": "response",
            "id": "resp_1",
            "model": "gpt-4o",
            "status": "completed",
            "output": [
                {
                    "type": "message",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": "Refund issued."}],
                }
            ],
            "usage": {"input_tokens": 250, "output_tokens": 25, "total_tokens": 275},
        },
    }


def anthropic_run(result: str = '{"status": "paid"}') -> Any:
    response = Message(
        id="msg_2",
        type="message",
        role="assistant",
        model="claude-sonnet-4-5",
        content=[TextBlock(type="text", text="Refund issued.")],
        stop_reason="end_turn",
        usage=Usage(input_tokens=250, output_tokens=25),
    )
    return {
        "messages": [
            {"role": "user", "content": "Refund A1049"},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "t1", "name": "lookup", "input": {"id": "A1049"}}
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": result}],
            },
        ],
        "response": response.model_dump(mode="json"),
    }


def langchain_run(result: str = '{"status": "paid"}') -> Any:
    messages = [
        HumanMessage("Refund A1049"),
        AIMessage("", tool_calls=[{"name": "lookup", "args": {"id": "A1049"}, "id": "c1"}]),
        ToolMessage(result, tool_call_id="c1", name="lookup"),
        AIMessage(
            "Refund issued.",
            usage_metadata={"input_tokens": 250, "output_tokens": 25, "total_tokens": 275},
        ),
    ]
    return [m.model_dump(mode="json") for m in messages]


def gemini_run(result: str = '{"status": "paid"}') -> Any:
    contents = [
        genai.Content(role="user", parts=[genai.Part(text="Refund A1049")]),
        genai.Content(
            role="model",
            parts=[
                genai.Part(
                    function_call=genai.FunctionCall(id="c1", name="lookup", args={"id": "A1049"})
                )
            ],
        ),
        genai.Content(
            role="user",
            parts=[
                genai.Part(
                    function_response=genai.FunctionResponse(
                        id="c1", name="lookup", response={"output": result}
                    )
                )
            ],
        ),
    ]
    response = genai.GenerateContentResponse(
        candidates=[
            genai.Candidate(
                content=genai.Content(role="model", parts=[genai.Part(text="Refund issued.")]),
                finish_reason=genai.FinishReason.STOP,
            )
        ],
        usage_metadata=genai.GenerateContentResponseUsageMetadata(
            prompt_token_count=250, candidates_token_count=25, total_token_count=275
        ),
    )
    return {
        "contents": [c.model_dump(mode="json", exclude_none=True) for c in contents],
        "response": response.model_dump(mode="json", exclude_none=True),
    }


RUNS = {
    "openai-chat": (openai_chat.to_record, openai_chat_run),
    "openai-responses": (responses.to_record, openai_responses_run),
    "anthropic": (anthropic.to_record, anthropic_run),
    "langchain": (langchain.to_record, langchain_run),
    "gemini": (gemini.to_record, gemini_run),
}


@pytest.mark.parametrize("fmt", RUNS)
def test_a_budget_on_usage_of_some_model_calls_is_invalid(fmt: str) -> None:
    read, run = RUNS[fmt]
    record = read(run())
    loaded = TrialRecord.from_trace(run(), format=fmt)
    assert attrs.evolve(loaded, metadata=record.metadata) == record  # from_trace adds "format"
    models = [e.payload for e in record.events if e.kind == "model_call"]
    assert [m.usage is not None for m in models] == [False, True]
    assert record.usage is None and record.run_usage is None
    ctx = EvalContext(record)
    for check in (ctx.total_tokens_at_most(500), ctx.tokens_at_most(500)):
        assert check.result.status.value == "invalid"
        assert check.result.message == "1 of 2 model calls carries no usage"


@pytest.mark.parametrize("fmt", RUNS)
def test_a_budget_on_usage_of_every_model_call_is_judged(fmt: str) -> None:
    read, run = RUNS[fmt]
    data = run()
    record = read(data)
    # the same run, the first model call given usage too: the sum is the run's usage
    with_usage = TrialRecord.from_dict(
        {
            **record.to_dict(),
            "events": [
                {**e, "payload": {**e["payload"], "usage": {"input_tokens": 100}}}
                if e["kind"] == "model_call" and "usage" not in e["payload"]
                else e
                for e in record.to_dict()["events"]
            ],
        }
    )
    ctx = EvalContext(with_usage)
    assert ctx.tokens_at_most(400, counter="input_tokens").result.message == (
        "used 350 input_tokens, limit 400 (sum over 2 model_call events)"
    )


ORPHANS = {
    "openai-chat": (
        openai_chat.to_record,
        [
            {"role": "tool", "tool_call_id": "c0", "content": "Error: gateway timed out"},
            {"role": "assistant", "content": "It failed."},
        ],
    ),
    "openai-responses": (
        responses.to_record,
        [
            {"type": "function_call_output", "call_id": "c0", "output": "Error: gateway timed out"},
            {"role": "assistant", "content": [{"type": "output_text", "text": "It failed."}]},
        ],
    ),
    "anthropic": (
        anthropic.to_record,
        [
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "c0",
                        "is_error": True,
                        "content": "gateway timed out",
                    }
                ],
            },
            {"role": "assistant", "content": "It failed."},
        ],
    ),
    "langchain": (
        langchain.to_record,
        [
            m.model_dump(mode="json")
            for m in (
                ToolMessage("gateway timed out", tool_call_id="c0", status="error"),
                AIMessage("It failed."),
            )
        ],
    ),
    "gemini": (
        gemini.to_record,
        [
            c.model_dump(mode="json", exclude_none=True)
            for c in (
                genai.Content(
                    role="user",
                    parts=[
                        genai.Part(
                            function_response=genai.FunctionResponse(
                                id="c0", name="refund", response={"error": "gateway timed out"}
                            )
                        )
                    ],
                ),
                genai.Content(role="model", parts=[genai.Part(text="It failed.")]),
            )
        ],
    ),
}


@pytest.mark.parametrize("fmt", ORPHANS)
def test_an_orphan_error_result_is_a_failed_call_with_unrecorded_arguments(fmt: str) -> None:
    read, data = ORPHANS[fmt]
    record = read(data)
    (call,) = record.tool_calls
    payload = call.payload
    assert payload.arguments is MISSING
    assert (payload.outcome, payload.is_error, payload.extra["unpaired"]) == ("failed", True, True)
    assert "gateway timed out" in json.dumps(payload.result) + (payload.error_message or "")
    assert TrialRecord.from_dict(record.to_dict()) == record
    ctx = EvalContext(record)
    name = payload.name
    assert ctx.called_tool(name, is_error=True).result.passed
    on_arguments = ctx.called_tool(name, arguments={"id": "A1049"}).result
    assert on_arguments.status.value == "invalid"
    assert on_arguments.message.startswith("arguments not recorded")


def test_a_history_trimmed_by_langchain_trim_messages_loads() -> None:
    history = [
        HumanMessage("Refund A1049"),
        AIMessage("", tool_calls=[{"name": "refund", "args": {"id": "A1049"}, "id": "c1"}]),
        ToolMessage("gateway timed out", tool_call_id="c1", status="error"),
        AIMessage("It failed."),
    ]
    trimmed = trim_messages(history, max_tokens=2, token_counter=len, strategy="last")
    assert [type(m).__name__ for m in trimmed] == ["ToolMessage", "AIMessage"]
    record = TrialRecord.from_trace([m.model_dump(mode="json") for m in trimmed])
    (call,) = record.tool_calls
    assert (call.payload.arguments, call.payload.outcome) == (MISSING, "failed")
    assert record.reply == "It failed."


@pytest.mark.parametrize("fmt", RUNS)
def test_python_literal_and_json_results_become_values_the_text_kept(fmt: str) -> None:
    read, run = RUNS[fmt]
    for text, value in ((LITERAL, {"refundable": True, "amount": 42}), ("[1, 2]", [1, 2])):
        (call,) = read(run(text)).tool_calls
        assert call.payload.result == value
        assert call.payload.extra["result_raw"] == text
    ctx = EvalContext(read(run(LITERAL)))
    assert ctx.called_tool("lookup", result={"refundable": True}).result.passed
    (plain,) = read(run("paid")).tool_calls
    assert plain.payload.result == "paid" and "result_raw" not in plain.payload.extra


@pytest.mark.parametrize(
    "text",
    [
        "{'run': __import__('os').system('true')}",  # not a literal: never evaluated
        "{1, 2}",  # a set: no JSON value
        "{'a': b'x'}",  # bytes
        "{1: 'a'}",  # a key that is no string
        "{'v': 1e999}",  # infinite
        "[" * 150 + "'a'" + "]" * 150,  # deeper than the literal reader goes
        '{"v": NaN}',  # not JSON, and NaN is not a literal either
    ],
)
def test_text_that_is_no_json_data_stays_text(text: str) -> None:
    (call,) = openai_chat.to_record(openai_chat_run(text)).tool_calls
    assert call.payload.result == text and "result_raw" not in call.payload.extra


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ('{"v": NaN}', "NaN is not a JSON value"),
        ('{"v": -Infinity}', "-Infinity is not a JSON value"),
        ('{"v": ' + "9" * 5000 + "}", "a number too long to read"),
    ],
)
def test_argument_text_with_no_json_number_is_kept_as_text(arguments: str, reason: str) -> None:
    data = openai_chat_run()
    data["messages"][1]["tool_calls"][0]["function"]["arguments"] = arguments
    record = openai_chat.to_record(data)
    payload = record.tool_calls[0].payload
    assert payload.arguments is MISSING and payload.arguments_raw == arguments
    assert [str(p) for p in record.parse_errors] == [
        f"$.messages[1].tool_calls[0]: arguments are not valid JSON: {reason}"
    ]
    text = json.dumps(record.to_dict(), allow_nan=False)  # strict JSON: no bare NaN
    assert TrialRecord.from_dict(json.loads(text)) == record


def test_an_mcp_log_does_not_record_the_reply() -> None:
    from agent_asserts.record.adapters import mcp

    record = mcp.read(fixture("mcp"))
    assert record.tool_calls and record.reply is MISSING
    assert record.surfaces == frozenset({"tool_call", "mcp"})
    ctx = EvalContext(record)
    for check in (
        ctx.bot_uttered(text_matches="refund"),
        ctx.message_includes("refund"),
        ctx.expect(record.reply).includes("refund"),
        ctx.model_calls_at_most(3),
    ):
        assert check.result.status.value == "invalid", check.result
    assert ctx.message_includes("refund").result.message == "the trace does not record the reply"
