"""Checks on partial data: a reply the trace does not record, usage of some model calls only;
and the adapters' lenient readers on values of the wrong type (issue 25, item 12)."""

from __future__ import annotations

import pytest

from agent_asserts import MISSING, EvalContext, TrialRecord
from agent_asserts.loaders import load
from agent_asserts.record.adapters import gemini, langchain, openai_chat
from agent_asserts.record.adapters.toolkit import openai_usage

SILENT = {
    "surfaces": ["tool_call"],
    "events": [{"kind": "tool_call", "payload": {"name": "refund", "arguments": {"id": "A1"}}}],
}
"""A run whose trace records tool calls only (an MCP log, the Agents SDK's default model)."""


def test_a_record_without_messages_does_not_record_the_reply() -> None:
    record = TrialRecord.from_dict(SILENT)
    assert record.reply is MISSING
    assert TrialRecord.from_dict(record.to_dict()).reply is MISSING
    ctx = EvalContext(record)
    results = {
        "expect": ctx.expect(record.reply).includes("refund").result,
        "bot_uttered": ctx.bot_uttered(text_matches="refund").result,
        "message_includes": ctx.message_includes("refund").result,
        "output_equals": ctx.output_equals("Refunded").result,
        "output_matches": ctx.output_matches("Ref").result,
    }
    assert {name: r.status.value for name, r in results.items()} == dict.fromkeys(
        results, "invalid"
    )
    assert results["expect"].message == "the value is MISSING: the trace does not record it"
    assert results["message_includes"].message == "the trace does not record the reply"
    assert results["bot_uttered"].message == (
        "the record has no 'message' surface (recorded: 'tool_call')"
    )


def test_the_reply_field_of_a_suite_is_invalid_when_not_recorded() -> None:
    suite = load({"name": "s", "checks": [{"expect": {"value": "reply", "includes": "x"}}]})
    (case,) = suite.evaluate(TrialRecord.from_dict(SILENT))
    (result,) = case.results
    assert (result.status.value, result.message) == (
        "invalid",
        "the trace does not record the reply",
    )


def test_an_agent_that_sent_no_reply_still_fails_where_it_did() -> None:
    record = TrialRecord.builder().user("refund A1").tool("refund", {}).build()
    assert record.reply is None
    ctx = EvalContext(record)
    uttered = ctx.bot_uttered(text_matches="refund").result
    assert (uttered.status.value, uttered.message) == ("fail", "the agent sent no message")
    assert ctx.message_includes("x").result.message == "the record has no reply"
    # an agent message in a record whose surfaces leave out messages is still its reply
    spoke = TrialRecord.from_dict(
        {**SILENT, "events": [{"kind": "message", "actor_ref": "agent", "payload": {"text": "ok"}}]}
    )
    assert spoke.reply == "ok"


def test_a_budget_on_model_call_usage_is_judged_on_the_sum_when_every_call_has_usage() -> None:
    b = TrialRecord.builder().model_call("m", {"input_tokens": 300, "output_tokens": 20})
    record = b.model_call("m", {"input_tokens": 300, "output_tokens": 15}).build()
    result = EvalContext(record).total_tokens_at_most(500).result
    assert (result.status.value, result.message) == (
        "fail",
        "used 635 tokens, limit 500 (sum over 2 model_call events)",
    )
    partial = TrialRecord.builder().model_call("m").model_call("m")
    partial = partial.model_call("m", {"input_tokens": 250, "output_tokens": 25}).build()
    result = EvalContext(partial).total_tokens_at_most(500).result
    assert (result.status.value, result.message) == (
        "invalid",
        "2 of 3 model calls carry no usage",
    )


# -- issue 25, item 12: wrong types read leniently, never a Python exception ---------------


@pytest.mark.parametrize("detail", ["n/a", ["cached_tokens"], 7, None])
def test_openai_usage_details_of_any_type(detail: object) -> None:
    raw = {"prompt_tokens": 5, "completion_tokens": 1, "prompt_tokens_details": detail}
    assert openai_usage(raw) == {"input_tokens": 5, "output_tokens": 1}
    raw = {"input_tokens": 5, "output_tokens_details": detail}
    assert openai_usage(raw) == {"input_tokens": 5}


def test_a_usage_detail_named_like_a_counter_does_not_collide() -> None:
    raw = {"prompt_tokens": 5, "prompt_tokens_details": {"tokens": 9}}
    assert openai_usage(raw) == {"input_tokens": 5}
    usage = langchain.langchain_usage({"input_tokens": 5, "input_token_details": {"tokens": 9}})
    assert usage == {"input_tokens": 5}


@pytest.mark.parametrize("detail", ["n/a", ["reasoning"], 3])
def test_langchain_usage_details_of_any_type(detail: object) -> None:
    raw = {"input_tokens": 4, "output_tokens": 2, "output_token_details": detail}
    assert langchain.langchain_usage(raw) == {"input_tokens": 4, "output_tokens": 2}


@pytest.mark.parametrize("created", [True, "soon", 1e400])
def test_a_completion_time_that_is_no_timestamp_is_a_parse_error(created: object) -> None:
    completion = {
        "object": "chat.completion",
        "created": created,
        "model": "gpt-4o",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}}],
    }
    record = openai_chat.to_record([{"role": "user", "content": "hi"}, completion])
    assert record.reply == "hi" and record.events[1].wall_time is None
    assert [p.position for p in record.parse_errors] == ["$[1].created"]
    assert record.parse_errors[0].reason.startswith("not a timestamp: ")


def test_an_eval_case_whose_conversation_is_no_list_is_a_parse_error() -> None:
    data = {"eval_set_id": "s", "eval_cases": [{"eval_id": "c1", "conversation": 1.5}]}
    (record,) = gemini.to_records(data)
    assert [str(p) for p in record.parse_errors] == [
        "$.eval_cases[0].conversation: expected a list"
    ]
    assert record.metadata == {"eval_id": "c1"}


def test_an_adk_timestamp_that_is_no_timestamp_is_a_parse_error() -> None:
    event = {"author": "user", "timestamp": True, "content": {"role": "user", "parts": []}}
    record = gemini.to_record({"events": [event]})
    assert [str(p) for p in record.parse_errors] == ["$.events[0].timestamp: not a timestamp: True"]
