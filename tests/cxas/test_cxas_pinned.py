"""The behaviours issue 5 pins, through the cxas dialect (the same check classes as fluent)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from agent_asserts import EvalContext
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.trajectory import EndedSession, EveryCall, FollowedBy, TerminalTool
from agent_asserts.loaders import load
from agent_asserts.loaders.cxas import apply_to_result
from agent_asserts.matching import Count, M
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status


def tools(*calls: str | tuple[str, Any, Any]) -> TrialRecord:
    builder = TrialRecord.builder()
    for call in calls:
        name, arguments, result = (call, None, None) if isinstance(call, str) else call
        builder.tool(name, arguments, result=result)
    return builder.build()


def status(entry: dict[str, Any], record: TrialRecord) -> str:
    (case,) = load([entry]).cases
    results = case.evaluate(record).results
    assert results[0].name == "trace_parsed"
    return results[1].status.value


def test_operators_build_the_fluent_check_classes() -> None:
    (case,) = load(
        [
            {"type": "tool_called", "tool": "a", "min": 2},
            {"type": "tool_not_called", "tool": "b", "before": "a"},
            {"type": "tool_output", "tool": "a", "result": {"x": 1}},
            {"type": "every_call", "tool": "a", "result": {"x": 1}},
            {"type": "followed_by", "tool": "a", "next": {"tool": "b", "args": {"y": 2}}},
            {"type": "terminal_tool", "tool": "z"},
            {"type": "handoff", "tool": "transfer_to_human", "args": {"queue": "billing"}},
        ]
    ).cases
    checks = case.checks[1:]
    assert checks[0] == CalledTool("a", count=Count.at_least(2))
    assert checks[1] == NotCalledTool("b", before="a")
    assert checks[2] == CalledTool("a", result=M.lenient({"x": 1}), count=Count.at_least(1))
    assert checks[3] == EveryCall("a", result=M.lenient({"x": 1}))
    assert isinstance(checks[4], FollowedBy)
    assert checks[5] == TerminalTool("z")
    assert checks[6] == EndedSession(M.lenient({"queue": "billing"}), tool="transfer_to_human")
    assert [e.name for e in case.entries[1:]] == [
        "tool_called:a",
        "tool_not_called:b",
        "tool_output:a",
        "every_call:a",
        "followed_by:a",
        "terminal_tool:z",
        "handoff:transfer_to_human",
    ]


def test_every_call_on_a_never_called_tool_passes() -> None:
    entry = {"type": "every_call", "tool": "update_profile", "args": {"verified": True}}
    assert status(entry, tools("lookup")) == "pass"
    ctx = EvalContext(tools("lookup"))
    assert ctx.every_call("update_profile", {"verified": True}).result.message == (
        "'update_profile' was never called"
    )


@pytest.mark.parametrize(
    "calls", [("end_session", "lookup"), ("end_session", "end_session")], ids=["after", "twice"]
)
def test_terminal_tool_fails(calls: tuple[str, ...]) -> None:
    assert status({"type": "terminal_tool", "tool": "end_session"}, tools(*calls)) == "fail"


def test_terminal_tool_passes_when_last_and_once() -> None:
    entry = {"type": "terminal_tool", "tool": "end_session"}
    assert status(entry, tools("lookup", "end_session")) == "pass"


def test_followed_by_fails_when_the_last_check_is_not_followed() -> None:
    entry = {"type": "followed_by", "tool": "check", "next": {"tool": "create"}}
    assert status(entry, tools("check", "create", "check")) == "fail"
    assert status(entry, tools("check", "check", "create")) == "pass"


NOT_BEFORE = {
    "type": "tool_not_called",
    "tool": "create_order",
    "before": {"tool": "check_availability", "result": {"status": "available"}},
}
AVAILABLE = ("check_availability", {"item_id": "A"}, {"result": {"status": "available"}})
SOLD_OUT = ("check_availability", {"item_id": "A"}, {"result": {"status": "sold out"}})


def test_not_called_before_a_marker() -> None:
    assert status(NOT_BEFORE, tools("create_order", AVAILABLE)) == "fail"
    assert status(NOT_BEFORE, tools(AVAILABLE, "create_order")) == "pass"
    assert status(NOT_BEFORE, tools(SOLD_OUT, "create_order", AVAILABLE)) == "fail"
    assert status(NOT_BEFORE, tools(SOLD_OUT, "create_order")) == "fail"  # marker never came
    assert status(NOT_BEFORE, tools(SOLD_OUT)) == "pass"


OUTPUT = {"type": "tool_output", "tool": "create_order", "result": {"order_id": "*"}}


@pytest.mark.parametrize(
    ("result", "expected"),
    [
        ({"result": {"order_id": "O-1"}}, "pass"),
        ({"result": '{"order_id": "O-1"}'}, "pass"),
        ({"order_id": 7}, "pass"),
        ({"result": {"order_id": ""}}, "fail"),
        ({"order_id": ""}, "fail"),
        ({"result": {"order_id": None}}, "fail"),
        ({"result": {}}, "fail"),
    ],
)
def test_tool_output_wildcard_through_the_envelope(result: Any, expected: str) -> None:
    assert status(OUTPUT, tools(("create_order", {}, result))) == expected


INPUT = {"type": "tool_input", "tool": "create_order", "args": {"quantity": 2, "confirmed": True}}


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({"quantity": "2", "confirmed": "TRUE"}, "pass"),
        ({"quantity": 2.0, "confirmed": "true", "extra": 1}, "pass"),
        ({"quantity": "2.0", "confirmed": True}, "pass"),
        ({"quantity": "3", "confirmed": "TRUE"}, "fail"),
        ({"quantity": 2, "confirmed": "yes"}, "fail"),
        ({"quantity": 2, "confirmed": 1}, "fail"),
        ({"quantity": 2}, "fail"),
    ],
)
def test_tool_input_lenient_values(arguments: Any, expected: str) -> None:
    assert status(INPUT, tools(("create_order", arguments, None))) == expected


def test_tool_input_min_counts_matching_calls() -> None:
    entry = {**INPUT, "min": 2}
    one = ("create_order", {"quantity": 2, "confirmed": True}, None)
    other = ("create_order", {"quantity": 5, "confirmed": True}, None)
    assert status(entry, tools(one, other)) == "fail"
    assert status(entry, tools(one, other, one)) == "pass"


def test_end_session_and_handoff_are_the_same_check() -> None:
    end = load([{"type": "end_session", "args": {"status": "done"}}]).cases[0].checks[1]
    handoff = load([{"type": "handoff", "args": {"status": "done"}}]).cases[0].checks[1]
    assert end == handoff == EndedSession(M.lenient({"status": "done"}))
    rec = tools(("end_session", {"status": "done"}, None), "lookup")
    assert status({"type": "handoff", "args": {"status": "done"}}, rec) == "fail"


def ces_result() -> dict[str, Any]:
    return {
        "name": "s",
        "passed": True,
        "expectations": "1/1",
        "expectation_details": [{"expectation": "polite", "status": "Met", "justification": "."}],
        "detailed_trace": [
            "User Query: order",
            "Tool Call: create_order with args {'quantity': '2'}",
            "Tool Response: create_order with result {'result': {'order_id': ''}}",
            "Tool Call: end_session with args {}",
        ],
    }


CASE = {
    "name": "s",
    "tags": ["P0"],
    "expectations": ["polite"],
    "tool_expectations": [
        {"type": "tool_input", "tool": "create_order", "args": {"quantity": 2}},
        {"type": "tool_output", "tool": "create_order", "result": {"order_id": "*"}},
        {"type": "terminal_tool", "tool": "end_session"},
    ],
}


def test_apply_to_result_rows_and_verdict() -> None:
    result = ces_result()
    rows = apply_to_result(CASE, result)
    assert rows == [
        {
            "operator": "trace_parsed",
            "expectation": "[tool] trace_parsed",
            "status": "Met",
            "justification": "the trace parsed without errors",
        },
        {
            "operator": "tool_input",
            "expectation": '[tool] tool_input:create_order {"args": {"quantity": 2}}',
            "status": "Met",
            "justification": "matched 1 tool calls",
        },
        {
            "operator": "tool_output",
            "expectation": '[tool] tool_output:create_order {"result": {"order_id": "*"}}',
            "status": "Not Met",
            "justification": "matched 0 tool calls of 1 'create_order' calls, expected at least 1 "
            "($.result.result.order_id: "
            "expected '*' (lenient: wildcard), got '')",
        },
        {
            "operator": "terminal_tool",
            "expectation": "[tool] terminal_tool:end_session",
            "status": "Met",
            "justification": "'end_session' at e2 was the last tool call",
        },
    ]
    assert result["expectation_details"][0]["expectation"] == "polite"
    assert result["expectation_details"][1:] == rows
    assert (result["passed"], result["judge_passed"], result["expectations"]) == (
        False,
        True,
        "4/5",
    )


def test_apply_to_result_is_idempotent() -> None:
    result = ces_result()
    first = apply_to_result(CASE, result)
    once = copy.deepcopy(result)
    second = apply_to_result(CASE, result)
    assert result == once
    assert second == first


def test_apply_to_result_keeps_a_failed_judge_verdict() -> None:
    result = {**ces_result(), "passed": False}
    apply_to_result({"tool_expectations": [{"type": "tool_called", "tool": "end_session"}]}, result)
    assert (result["passed"], result["judge_passed"]) == (False, False)
    result = {**ces_result(), "judge_passed": True, "passed": False}
    apply_to_result({"tool_expectations": [{"type": "tool_called", "tool": "end_session"}]}, result)
    assert (result["passed"], result["judge_passed"]) == (True, True)


def test_apply_to_result_without_tool_expectations_changes_nothing() -> None:
    result = ces_result()
    assert apply_to_result({"name": "s", "expectations": ["polite"]}, result) == []
    assert result == ces_result()


def test_apply_to_result_on_a_failed_simulation() -> None:
    result = {"name": "s", "passed": False, "error": "quota"}
    rows = apply_to_result(CASE, result)
    assert [r["status"] for r in rows] == ["Not Met"] * 4
    assert rows[0]["justification"] == (
        "1 trace item could not be parsed: detailed_trace: the result has no detailed_trace"
    )
    assert rows[1]["justification"] == ("the record has no 'tool_call' surface (recorded: nothing)")
    assert result["passed"] is False


def test_trace_parse_errors_gate_the_case() -> None:
    from agent_asserts.record.adapters import ces

    rec = ces.to_record({"detailed_trace": ["Tool Call: end_session with args {'a': x}"]})
    (case,) = load([{"type": "end_session"}]).cases
    result = case.evaluate(rec)
    assert [(r.name, r.status) for r in result.results] == [
        ("trace_parsed", Status.FAIL),
        ("end_session", Status.FAIL),
    ]
    assert result.verdict.value == "failed"


def test_record_files_may_be_ces_results_or_canonical_records(tmp_path: Path) -> None:
    (tmp_path / "sim.json").write_text(json.dumps(ces_result()))
    (tmp_path / "run.json").write_text(json.dumps(tools("lookup").to_dict()))
    (tmp_path / "suite.yaml").write_text(
        "record: sim.json\n"
        "evals:\n"
        "  - name: from_ces\n"
        "    tool_expectations: [{type: terminal_tool, tool: end_session}]\n"
        "  - name: from_record\n"
        "    record: run.json\n"
        "    tool_expectations: [{type: tool_called, tool: lookup}]\n"
        "  - name: missing\n"
        "    record: nowhere.json\n"
        "    tool_expectations: []\n"
    )
    results = load(tmp_path / "suite.yaml").evaluate_all()
    assert [(r.name, r.verdict.value) for r in results] == [
        ("from_ces", "passed"),
        ("from_record", "passed"),
        ("missing", "failed"),
    ]
    assert results[2].error is not None and "nowhere.json" in results[2].error
