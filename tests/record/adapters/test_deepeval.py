"""The ``deepeval`` format: DeepEval test cases as records.

The fixture ``fixtures/deepeval/test_cases.json`` is two ``LLMTestCase``s written by DeepEval
itself (``model_dump(mode="json", by_alias=True, exclude_none=True)``, DeepEval 4.3.1)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from agent_asserts._values import MISSING
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters import detect, matching_formats
from agent_asserts.record.adapters.deepeval import reference_of, to_record, to_records
from agent_asserts.record.reading import iter_records

FIXTURE = Path(__file__).parent / "fixtures" / "deepeval" / "test_cases.json"


def _cases() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_a_test_case_file_is_detected_and_read_one_record_per_case() -> None:
    assert detect(_cases()) == "deepeval" and detect(_cases()[0]) == "deepeval"
    refund, no_reply = iter_records(FIXTURE)
    assert [e.kind for e in refund.events] == [
        "message", "reasoning", "tool_call", "tool_call", "message"
    ]  # fmt: skip
    lookup, issue = (call.payload for call in refund.tool_calls)
    assert (lookup.name, lookup.arguments, lookup.result) == (
        "lookup_order", {"order_id": "A1049"}, {"status": "paid", "total": 42}
    )  # fmt: skip
    assert issue.result == {"refund_id": "R1"}
    assert issue.extra["result_raw"] == '{"refund_id": "R1"}'
    assert issue.outcome == "succeeded"
    assert refund.events[1].payload.text == "Check the order first."
    assert (refund.status, refund.reply) == ("completed", "Refunded 42 for order A1049.")
    assert (refund.usage.input_tokens, refund.usage.output_tokens) == (120, 30)  # type: ignore[union-attr]
    assert refund.metadata["expected_tools"] == [
        {"name": "lookup_order"},
        {"name": "issue_refund", "arguments": {"order_id": "A1049", "amount": 42}},
    ]
    assert refund.metadata["expected_output"] == "A refund of 42."
    assert refund.metadata["completion_time"] == 1.5
    assert refund.metadata["metadata"] == {"customer": "c7"}
    # no output: no result recorded; no input_parameters: the arguments are not recorded
    [call] = no_reply.tool_calls
    assert (call.payload.outcome, call.payload.arguments) == ("pending", MISSING)
    assert (no_reply.status, no_reply.reply) == ("incomplete", None)


def test_python_field_names_read_like_the_wire_names() -> None:
    snake = {
        "input": "Refund order A1049",
        "actual_output": "Refunded 42 for order A1049.",
        "tools_called": [
            {"name": "lookup_order", "input_parameters": {"order_id": "A1049"},
             "output": {"status": "paid", "total": 42}, "reasoning": "Check the order first."},
            {"name": "issue_refund", "input_parameters": {"order_id": "A1049", "amount": 42},
             "output": '{"refund_id": "R1"}'},
        ],
    }  # fmt: skip
    wire, python = to_record(_cases()[0]), to_record(snake)
    assert [e.kind for e in python.events] == [e.kind for e in wire.events]
    assert [(c.payload.name, c.payload.arguments, c.payload.result) for c in wire.tool_calls] == [
        (c.payload.name, c.payload.arguments, c.payload.result) for c in python.tool_calls
    ]
    assert python.reply == wire.reply and python.status == wire.status


def test_the_test_case_object_itself_is_read() -> None:
    os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
    test_case = pytest.importorskip("deepeval.test_case")
    case = test_case.LLMTestCase(
        input="Refund A1",
        actual_output="Done.",
        tools_called=[test_case.ToolCall(name="refund", input_parameters={"id": "A1"})],
    )
    record = TrialRecord.from_trace(case)
    assert record.metadata["format"] == "deepeval"
    assert [(c.payload.name, c.payload.arguments) for c in record.tool_calls] == [
        ("refund", {"id": "A1"})
    ]


def test_what_cannot_be_read_is_a_parse_error_at_its_place() -> None:
    record = to_record({
        "input": 3,
        "actual_output": "ok",
        "tools_called": [{"input_parameters": {}}, "lookup"],
        "input_token_count": -1,
        "expected_tools": ["lookup"],
    })  # fmt: skip
    assert [str(p) for p in record.parse_errors] == [
        "$.input: expected text (got int)",
        "$.tools_called[0]: expected a tool call with a 'name'",
        "$.tools_called[1]: expected a tool call with a 'name'",
        "$.input_token_count: expected a token count (an integer >= 0)",
        "$.expected_tools: expected_tools[0]: expected a tool call with a name",
    ]
    assert list(to_records([{"input": "a", "actual_output": "b"}, 7]))[1].parse_errors
    with pytest.raises(ValueError, match="expected a list of tool calls"):
        reference_of("lookup")


def test_only_test_cases_are_detected() -> None:
    assert detect({"input": "hi", "actual_output": "hello"}) == "deepeval"
    assert detect({"input": "hi", "toolsCalled": []}) == "deepeval"
    assert "deepeval" not in matching_formats([{"input": "hi"}])
