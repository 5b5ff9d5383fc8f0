"""The ``pydantic-ai`` adapter on a message history written by Pydantic AI itself."""

from __future__ import annotations

from typing import Any

import pytest
from span_fixtures import REPLY, load

from agent_asserts import MISSING, RecordError
from agent_asserts.record.adapters import pydantic_ai


def _record() -> Any:
    return pydantic_ai.to_record(load("pydantic-ai", "refund_run.json"))


def test_the_reference_history() -> None:
    rec = _record()
    kinds = [e.kind for e in rec.events]
    assert kinds == [
        "message",
        "model_call",
        "reasoning",
        "tool_call",
        "tool_call",
        "model_call",
        "tool_call",
        "model_call",
        "tool_call",
        "model_call",
        "message",
    ]
    calls = {e.payload.call_id: e for e in rec.tool_calls}
    assert calls["call_1"].payload.result == {"status": "paid", "order_id": "A1049"}
    assert calls["call_1"].payload.outcome == "succeeded"
    refund = calls["call_2"].payload
    assert (refund.is_error, refund.outcome, refund.error_type) == (True, "retried", "model_retry")
    assert refund.error_message == "PaymentGatewayTimeout: gateway timed out"
    bad = calls["call_3"].payload
    assert bad.arguments is MISSING and bad.arguments_raw == '{"question": "refund over 40?"'
    assert bad.error_message.startswith("Invalid JSON: EOF while parsing")
    assert calls["call_1"].group_id == calls["call_2"].group_id is not None
    assert calls["call_3"].group_id is None  # a response with one call has no parallel group
    assert rec.reply == REPLY
    assert rec.user_turns() == (1,) or [e.turn for e in rec.events][-1] == 1
    assert rec.usage.input_tokens == 313 and rec.usage.reported_by == "the sum over the model calls"
    assert "cache_read_tokens" in rec.events[1].payload.usage.reported_by
    assert all(isinstance(e.wall_time, float) for e in rec.events)
    assert [p.position for p in rec.parse_errors] == ["[3].parts[0]"]


def test_conservation_every_part_is_an_event_part_of_one_or_a_parse_error() -> None:
    history = load("pydantic-ai", "refund_run.json")
    rec = pydantic_ai.to_record(history)
    parts = [(m["kind"], p["part_kind"]) for m in history for p in m["parts"]]
    responses = sum(1 for m in history if m["kind"] == "response")
    returns = sum(1 for kind, part in parts if part in ("tool-return", "retry-prompt"))
    # each response is a model call; each part an event, except returns, part of their call
    assert len(rec.events) == responses + len(parts) - returns
    assert returns == len(rec.tool_calls)


def test_retry_prompts_outcomes_orphans_and_unknown_parts() -> None:
    rec = pydantic_ai.to_record(
        [
            {
                "kind": "request",
                "parts": [
                    {"part_kind": "system-prompt", "content": "Be brief."},
                    {
                        "part_kind": "user-prompt",
                        "content": ["Refund ", "A1049", {"kind": "image-url"}],
                    },
                ],
            },
            {
                "kind": "response",
                "parts": [
                    {"part_kind": "tool-call", "tool_name": "refund", "args": {"id": "A1049"}},
                    {
                        "part_kind": "tool-call",
                        "tool_name": "notify",
                        "args": {},
                        "tool_call_id": "n1",
                    },
                    {"part_kind": "thinking", "content": "", "signature": "sig"},
                    {"part_kind": "video", "content": "?"},
                ],
            },
            {
                "kind": "request",
                "parts": [
                    {
                        "part_kind": "retry-prompt",
                        "tool_name": "refund",
                        "content": [{"loc": ["id"], "msg": "bad id", "type": "value_error"}],
                    },
                    {
                        "part_kind": "tool-return",
                        "tool_name": "audit",
                        "content": "ok",
                        "tool_call_id": "x",
                    },
                    {"part_kind": "retry-prompt", "content": "answer in JSON"},
                ],
            },
            "not a message",
        ]
    )
    calls = [e.payload for e in rec.tool_calls]
    assert [(c.name, c.outcome) for c in calls] == [
        ("refund", "retried"),
        ("notify", "pending"),
        ("audit", "succeeded"),  # an orphan result: its call's arguments are not recorded
    ]
    assert calls[0].error_message == "id: bad id"
    assert rec.events[0].actor_ref == "system" and rec.events[1].payload.text == "Refund A1049"
    assert next(e for e in rec.events if e.kind == "reasoning").payload.redacted
    assert rec.errors == ({"retry_prompt": "answer in JSON"},)
    assert [str(p) for p in rec.parse_errors] == [
        "[1].parts[3]: unsupported response part 'video'",
        "[3]: not a Pydantic AI message (kind request/response with parts)",
    ]


def test_histories_detect_and_wrong_shapes() -> None:
    history = load("pydantic-ai", "refund_run.json")
    assert [r.reply for r in pydantic_ai.to_records([history, history])] == [REPLY, REPLY]
    assert pydantic_ai.detect(history) and pydantic_ai.detect([history])
    assert not pydantic_ai.detect([{"role": "user", "content": "hi"}])
    with pytest.raises(RecordError, match="expected a Pydantic AI message history"):
        pydantic_ai.to_record({"kind": "request"})


def test_a_history_that_ends_on_a_request_is_incomplete_never_completed() -> None:
    from pydantic_ai.messages import (
        ModelMessagesTypeAdapter,
        ModelRequest,
        ModelResponse,
        ToolCallPart,
        UserPromptPart,
    )

    history = [
        ModelRequest(parts=[UserPromptPart("Refund order A1049")]),
        ModelResponse(parts=[ToolCallPart("lookup_order", {"order_id": "A1049"}, "call_1")]),
    ]
    data = ModelMessagesTypeAdapter.dump_python(history, mode="json")
    rec = pydantic_ai.to_record(data)
    assert [(c.payload.name, c.payload.outcome) for c in rec.tool_calls] == [
        ("lookup_order", "pending")
    ]
    assert rec.status == "incomplete"
    assert _record().status == "completed"
