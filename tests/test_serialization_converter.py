"""The cattrs converter round-trips every public record and result type through JSON."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_asserts import EvalContext, RecordError, TrialRecord, run_case
from agent_asserts.matching import Mismatch
from agent_asserts.record import (
    BlockPayload,
    Button,
    DeclaredTool,
    DelegationPayload,
    Event,
    GuardrailPayload,
    MemoryPayload,
    MessagePayload,
    ModelCallPayload,
    ReasoningPayload,
    SkillPayload,
    ToolCallPayload,
    Usage,
)
from agent_asserts.results import AssertionResult, CaseResult, EvaluatorInfo, LogEntry
from agent_asserts.serialization import converter

USAGE = Usage(input_tokens=900, output_tokens=40)
PAYLOADS: list[Any] = [
    MessagePayload("pick one", "utter_pick", (Button("yes", "/yes"), Button("no"))),
    ToolCallPayload("refund", {"order": "A1", "amount": 5}, {"ok": True}, call_id="c1"),
    MemoryPayload("cart", ["sku-1"]),
    SkillPayload("returns", "s2"),
    BlockPayload("returns", "verify", "s1"),
    DelegationPayload("researcher", output={"summary": "done"}),
    ModelCallPayload("gpt-4o", "openai", USAGE, "stop"),
    ReasoningPayload("first check the order"),
    GuardrailPayload("pii_filter", True, output={"found": "email"}),
    Button("ok"),
    USAGE,
    DeclaredTool("search", "Search the web", {"type": "object"}),
]


def round_trip(value: Any) -> Any:
    text = json.dumps(converter.unstructure(value))
    return converter.structure(json.loads(text), type(value))


def sample_record() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("refund order A1")
        .tool("refund", {"order": "A1"}, result={"ok": True})
        .memory_set("refunded", True)
        .skill("activated", "returns")
        .block("entered", "returns", "verify")
        .subagent("researcher", output="done")
        .event("audit", payload={"text": "refund"}, operation_ref="op-7")
        .agent("Refunded.")
        .build()
    )


@pytest.mark.parametrize("payload", PAYLOADS, ids=lambda p: type(p).__name__)
def test_payload_round_trip(payload: Any) -> None:
    assert round_trip(payload) == payload


def test_record_round_trip_keeps_every_event() -> None:
    rec = sample_record()
    back = round_trip(rec)
    assert back == rec
    assert [e.kind for e in back.events] == [e.kind for e in rec.events]


def test_event_round_trip_with_and_without_turn() -> None:
    for event in sample_record().events:
        assert round_trip(event) == event
    loose = Event("tool_call", ToolCallPayload("lookup"), "e5", actor_ref="agent", group_id="g")
    assert round_trip(loose) == loose
    assert round_trip(loose).turn is None


def test_event_inside_a_list_structures_by_type() -> None:
    events = list(sample_record().events)
    data = json.loads(json.dumps(converter.unstructure(events)))
    assert converter.structure(data, list[Event]) == events


def test_results_round_trip() -> None:
    rec = sample_record()

    def case(ctx: EvalContext) -> None:
        ctx.log("checking", step=1)
        ctx.called_tool("refund", {"order": "A1"})
        ctx.called_tool("refund", {"order": "B2"})

    result = run_case(rec, case, name="refund")
    assert result.error is None
    assert [r.status.value for r in result.results] == ["pass", "fail"]
    assert round_trip(result) == result
    for assertion in result.results:
        assert round_trip(assertion) == assertion
    assert round_trip(result.results[0].evaluator) == result.results[0].evaluator


def test_small_result_types_round_trip() -> None:
    values: list[Any] = [
        LogEntry("branch", {"taken": "a"}),
        Mismatch("$.amount", 42, 40, "expected 42, got 40"),
        EvaluatorInfo(),
        AssertionResult(name="x", status="fail", score=0.0, message="no", expected=[1, 2]),
        CaseResult("c", "skipped", skip_reason="no sandbox"),
    ]
    for value in values:
        assert round_trip(value) == value


def test_unstructure_is_the_documented_json_form() -> None:
    rec = sample_record()
    assert converter.unstructure(rec) == rec.to_dict()
    assert converter.unstructure(rec.events[0]) == rec.events[0].to_dict()
    case = CaseResult("c", "passed")
    assert converter.unstructure(case) == case.to_dict()


def test_bad_event_names_the_path() -> None:
    with pytest.raises(RecordError) as info:
        converter.structure({"kind": "tool_call", "payload": {"arguments": {}}}, Event)
    assert "$.events[0].payload.name: required field missing" in str(info.value)


def test_bad_payload_names_the_path() -> None:
    with pytest.raises(RecordError) as info:
        converter.structure({"name": 3}, ToolCallPayload)
    assert str(info.value).splitlines()[0] == "invalid record: 1 problem(s)"
    assert "$.name" in str(info.value)
    with pytest.raises(RecordError, match=r"\$: must be an object"):
        converter.structure(["x"], SkillPayload)


def test_the_json_report_is_written_and_read_back_through_the_converter() -> None:
    from agent_asserts.report.json_report import render_json
    from agent_asserts.serialization import read_json_report

    rec = sample_record()
    result = run_case(rec, lambda ctx: ctx.called_tool("refund", {"order": "B2"}), name="r")
    doc = json.loads(render_json([result, result], records=[rec, rec], sources=["r.json"] * 2))
    assert doc["records"] == [{"source": "r.json", "data": converter.unstructure(rec)}]
    assert doc["cases"] == [{**converter.unstructure(result), "record": 0}] * 2
    rows = read_json_report(json.dumps(doc))
    assert [(row.case, row.record, row.source) for row in rows] == [(result, rec, "r.json")] * 2
    assert rows[0].record is rows[1].record  # one record entry, read once
