"""The record grown for real traces (docs/record.md): envelope, kinds, tool outcomes, usage,
delegations, declared tools; through from_dict, to_dict and the builder."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import MISSING
from agent_asserts.record import (
    DeclaredTool,
    DelegationPayload,
    GuardrailPayload,
    ModelCallPayload,
    ReasoningPayload,
    RecordBuilder,
    RecordError,
    ToolCallPayload,
    TrialRecord,
    Usage,
)

FULL: dict[str, Any] = {
    "usage": {
        "input_tokens": 900,
        "output_tokens": 120,
        "total_tokens": 1020,
        "details": {"cached_input_tokens": 300},
        "reported_by": "sum of model_call events",
    },
    "events": [
        {"event_id": "run", "kind": "agent_run", "wall_time": 10.0, "duration": 4.5,
         "payload": {}},
        {"event_id": "m1", "kind": "model_call", "parent_id": "run", "duration": 1.25,
         "payload": {"model": "gpt-4o", "provider": "openai", "finish_reason": "tool_calls",
                     "usage": {"input_tokens": 900, "output_tokens": 120,
                               "details": {"reasoning_tokens": 40}}}},
        {"event_id": "r1", "kind": "reasoning", "parent_id": "m1",
         "payload": {"summary": "look up first", "redacted": True}},
        {"event_id": "t1", "kind": "tool_call", "parent_id": "m1", "group_id": "m1",
         "payload": {"name": "lookup_order", "arguments": {"order_id": "A1"}}},
        {"event_id": "t2", "kind": "tool_call", "parent_id": "m1", "group_id": "m1",
         "payload": {"name": "issue_refund", "arguments_raw": "{\"order_id\": ", "is_error": True,
                     "outcome": "retried", "error_type": "JSONDecodeError"}},
        {"event_id": "t3", "kind": "tool_call", "agent": "billing",
         "payload": {"name": "issue_refund", "outcome": "denied"}},
        {"event_id": "d1", "kind": "delegation", "event_type": "completed",
         "payload": {"subagent": "billing", "from_agent": "triage", "mode": "handoff"}},
        {"event_id": "g1", "kind": "guardrail", "agent": "billing",
         "payload": {"name": "pii", "triggered": False, "output": {"found": []}}},
    ],
    "tools": [
        {"name": "lookup_order", "description": "Find an order",
         "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}}},
        {"name": "issue_refund"},
    ],
}  # fmt: skip


def test_every_new_field_decodes() -> None:
    rec = TrialRecord.from_dict(FULL)
    details = {"cached_input_tokens": 300}
    assert rec.usage == Usage(900, 120, 1020, details, "sum of model_call events")
    run, model, reasoning, t1, t2, t3, delegation, guardrail = rec.events
    assert (run.duration, run.wall_time) == (4.5, 10.0)
    assert (model.parent_id, model.duration) == ("run", 1.25)
    assert model.payload == ModelCallPayload(
        "gpt-4o", "openai", Usage(900, 120, details={"reasoning_tokens": 40}), "tool_calls"
    )
    assert reasoning.payload == ReasoningPayload(None, "look up first", True)
    assert (t1.group_id, t2.group_id) == ("m1", "m1")
    assert t2.payload.arguments is MISSING
    assert t2.payload.arguments_raw == '{"order_id": '
    assert (t2.payload.outcome, t2.payload.error_type) == ("retried", "JSONDecodeError")
    assert (t3.agent, t3.payload.outcome, t3.payload.is_error) == ("billing", "denied", False)
    assert delegation.payload == DelegationPayload("billing", None, {}, "triage", "handoff")
    assert guardrail.payload == GuardrailPayload("pii", False, {"found": []})
    assert rec.tools == (
        DeclaredTool("lookup_order", "Find an order", FULL["tools"][0]["parameters"]),
        DeclaredTool("issue_refund"),
    )


def test_round_trip_keeps_every_new_field() -> None:
    rec = TrialRecord.from_dict(FULL)
    again = TrialRecord.from_dict(rec.to_dict())
    assert again == rec
    assert again.to_dict() == rec.to_dict()
    t3 = rec.to_dict()["events"][5]
    assert t3["agent"] == "billing"
    assert t3["payload"] == {"name": "issue_refund", "is_error": False, "source": "local",
                             "outcome": "denied"}  # fmt: skip


def test_new_fields_are_written_only_when_set() -> None:
    data = {"events": [{"kind": "tool_call", "payload": {"name": "t", "arguments": {}}}]}
    assert TrialRecord.from_dict(data).to_dict() == {
        "events": [
            {"event_id": "e0", "turn": 0, "kind": "tool_call",
             "payload": {"name": "t", "arguments": {}, "is_error": False, "source": "local"}}
        ]
    }  # fmt: skip


def test_absent_arguments_are_not_recorded_and_empty_ones_are_empty() -> None:
    rec = TrialRecord.from_dict(
        {"events": [{"kind": "tool_call", "payload": {"name": "a"}},
                    {"kind": "tool_call", "payload": {"name": "b", "arguments": {}}}]}
    )  # fmt: skip
    built = RecordBuilder().tool("a").tool("b", {}).build()
    assert [e.payload.arguments for e in rec.events] == [MISSING, {}]
    assert [e.payload.arguments for e in built.events] == [MISSING, {}]
    assert rec.events == built.events


def test_outcome_is_derived_from_is_error_and_back() -> None:
    payloads = [
        TrialRecord.from_dict({"events": [{"kind": "tool_call", "payload": p}]}).events[0].payload
        for p in (
            {"name": "t", "is_error": True},
            {"name": "t"},
            {"name": "t", "outcome": "failed"},
            {"name": "t", "outcome": "pending"},
        )
    ]
    assert [(p.is_error, p.outcome) for p in payloads] == [
        (True, "failed"),
        (False, "succeeded"),
        (True, "failed"),
        (False, "pending"),
    ]
    assert ToolCallPayload("t", is_error=True).outcome == "failed"


def test_builder_makes_the_same_record_as_from_dict() -> None:
    b = RecordBuilder()
    b.event("agent_run", wall_time=10.0, duration=4.5, event_id="run")
    b.model_call(
        "gpt-4o",
        {"input_tokens": 900, "output_tokens": 120, "details": {"reasoning_tokens": 40}},
        provider="openai",
        finish_reason="tool_calls",
        event_id="m1",
        parent_id="run",
        duration=1.25,
    )
    b.reasoning(summary="look up first", redacted=True, event_id="r1", parent_id="m1")
    b.tool("lookup_order", {"order_id": "A1"}, event_id="t1", parent_id="m1", group_id="m1")
    b.tool(
        "issue_refund",
        arguments_raw='{"order_id": ',
        outcome="retried",
        error_type="JSONDecodeError",
        event_id="t2",
        parent_id="m1",
        group_id="m1",
    )
    b.tool("issue_refund", outcome="denied", event_id="t3", agent="billing")
    b.subagent("billing", from_agent="triage", mode="handoff", event_id="d1")
    b.guardrail("pii", False, {"found": []}, event_id="g1", agent="billing")
    rec = b.build(usage=FULL["usage"], tools=FULL["tools"])
    assert rec == TrialRecord.from_dict(FULL)


BAD: list[tuple[str, dict[str, Any], list[str]]] = [
    (
        "duration",
        {"events": [{"kind": "x", "duration": -1}, {"kind": "x", "duration": "2s"}]},
        ["$.events[0].duration: must be a non-negative number of seconds (got -1)",
         "$.events[1].duration: must be a non-negative number of seconds (got '2s')"],
    ),
    (
        "parent unknown and self",
        {"events": [{"kind": "x", "parent_id": "nope"}, {"kind": "x", "parent_id": "e1"}]},
        ["$.events[0].parent_id: no event has id 'nope'",
         "$.events[1].parent_id: must name another event (got the event's own id 'e1')"],
    ),
    (
        "parent cycle",
        {"events": [{"kind": "x", "parent_id": "e2"}, {"kind": "x", "parent_id": "e0"},
                    {"kind": "x", "parent_id": "e1"}]},
        ["$.events[0].parent_id: parent_id cycle: 'e0' -> 'e2' -> 'e1' -> 'e0'"],
    ),
    (
        "envelope strings",
        {"events": [{"kind": "x", "agent": 3, "group_id": [], "parent_id": 1.5}]},
        ["$.events[0].agent: must be a string (got 3)",
         "$.events[0].group_id: must be a string (got [])",
         "$.events[0].parent_id: must be a string (got 1.5)"],
    ),
    (
        "tool outcome",
        {"events": [{"kind": "tool_call", "payload": {
            "name": "t", "outcome": "lost", "arguments": {}, "arguments_raw": "{"}},
            {"kind": "tool_call",
             "payload": {"name": "t", "outcome": "denied", "is_error": True}}]},
        ["$.events[0].payload.outcome: must be one of 'succeeded', 'failed', 'retried', 'denied',"
         " 'interrupted', 'pending' (got 'lost')",
         "$.events[0].payload.arguments_raw: not allowed with 'arguments' (arguments_raw keeps"
         " arguments that were not valid JSON)",
         "$.events[1].payload.is_error: true contradicts outcome 'denied' (is_error is true"
         " exactly for 'failed' and 'retried')"],
    ),
    (
        "new kinds",
        {"events": [{"kind": "model_call", "payload": {"model": 4, "usage": {"total_tokens": -2}}},
                    {"kind": "reasoning", "payload": {"redacted": "yes"}},
                    {"kind": "guardrail", "payload": {}}]},
        ["$.events[0].payload.model: must be a string (got 4)",
         "$.events[0].payload.usage.total_tokens: must be a non-negative integer (got -2)",
         "$.events[1].payload.redacted: must be a boolean (got 'yes')",
         "$.events[2].payload.name: required field missing",
         "$.events[2].payload.triggered: required field missing"],
    ),
    (
        "delegation",
        {"events": [{"kind": "delegation", "payload": {"subagent": "b", "mode": "push",
                                                       "from_agent": 1}}]},
        ["$.events[0].payload.from_agent: must be a string (got 1)",
         "$.events[0].payload.mode: must be one of 'handoff', 'tool' (got 'push')"],
    ),
    (
        "usage",
        {"usage": {"details": {"cached": -1}, "reported_by": 3, "audio_tokens": 1.5,
                   "totl_tokens": 3}},
        ["$.usage.totl_tokens: unknown key (did you mean 'total_tokens'?)",
         "$.usage.details.cached: must be a non-negative integer (got -1)",
         "$.usage.audio_tokens: must be an integer (got 1.5)",
         "$.usage.reported_by: must be a string (got 3)"],
    ),
    (
        "tools",
        {"tools": [{"name": "a", "parameters": "x", "desc": "?"}, {"name": "a"}, "b"]},
        ["$.tools[0].desc: unknown key (did you mean 'description'?)",
         "$.tools[0].parameters: must be an object (got 'x')",
         "$.tools[1].name: duplicate tool 'a' (already declared at $.tools[0])",
         "$.tools[2]: must be an object (got 'b')"],
    ),
]  # fmt: skip


@pytest.mark.parametrize(("label", "data", "expected"), BAD, ids=[b[0] for b in BAD])
def test_bad_new_fields_name_their_path(label: str, data: Any, expected: list[str]) -> None:
    with pytest.raises(RecordError) as info:
        TrialRecord.from_dict(data)
    assert [str(p) for p in info.value.problems] == expected


def test_usage_accepts_any_further_counter() -> None:
    rec = TrialRecord.from_dict({"usage": {"input_tokens": 5, "cached_tokens": 2}})
    assert rec.usage == Usage(5, details={"cached_tokens": 2})
    assert rec.usage.counter("cached_tokens") == 2
    assert rec.to_dict()["usage"] == {"input_tokens": 5, "details": {"cached_tokens": 2}}


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda b: b.user("a", duration=-2), ValueError,
         "'duration' must be a non-negative number of seconds (got -2)"),
        (lambda b: b.user("a", agent=3), ValueError, "'agent' must be a string (got 3)"),
        (lambda b: b.tool("t", {}, arguments_raw="{"), ValueError,
         "'arguments_raw' is not allowed with 'arguments' (arguments_raw keeps arguments that"
         " were not valid JSON)"),
        (lambda b: b.tool("t", outcome="lost"), ValueError,
         "'outcome' must be one of 'succeeded', 'failed', 'retried', 'denied', 'interrupted',"
         " 'pending' (got 'lost')"),
        (lambda b: b.tool("t", is_error=False, outcome="failed"), ValueError,
         "'is_error' false contradicts outcome 'failed' (is_error is true exactly for 'failed'"
         " and 'retried')"),
        (lambda b: b.subagent("s", mode="push"), ValueError,
         "'mode' must be one of 'handoff', 'tool' (got 'push')"),
        (lambda b: b.guardrail("g", "yes"), ValueError,
         "'triggered' must be a boolean (got 'yes')"),
        (lambda b: b.model_call(3), ValueError, "'model' must be a string (got 3)"),
        (lambda b: b.reasoning(redacted=1), ValueError, "'redacted' must be a boolean (got 1)"),
        (lambda b: b.build(tools=[{"name": "a"}, {"name": "a"}]), ValueError,
         "'tools[1].name' duplicate tool 'a' (already declared at tools[0])"),
        (lambda b: b.build(usage={"cached": -1}), ValueError,
         "'usage.cached' must be a non-negative integer (got -1)"),
    ],
)  # fmt: skip
def test_builder_rejects_bad_new_arguments(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        call(RecordBuilder())
    assert str(info.value) == message


def test_builder_checks_parent_links_when_building() -> None:
    b = RecordBuilder().user("hi", event_id="a", parent_id="b").agent("yo", event_id="b",
                                                                       parent_id="a")  # fmt: skip
    with pytest.raises(RecordError) as info:
        b.build()
    assert [str(p) for p in info.value.problems] == [
        "$.events[0].parent_id: parent_id cycle: 'a' -> 'b' -> 'a'"
    ]
    ok = RecordBuilder().user("hi", parent_id="e1").agent("yo").build()
    assert ok.events[0].parent_id == "e1"


def test_unchanged_records_keep_their_shape() -> None:
    data = {
        "usage": {"input_tokens": 1, "output_tokens": 2},
        "events": [{"event_id": "e0", "turn": 0, "kind": "tool_call",
                    "payload": {"name": "t", "arguments": {"a": 1}, "is_error": True,
                                "source": "local"}}],
    }  # fmt: skip
    out = TrialRecord.from_dict(data).to_dict()
    assert out == {"usage": {"input_tokens": 1, "output_tokens": 2, "total_tokens": 3},
                   "events": data["events"]}  # fmt: skip
