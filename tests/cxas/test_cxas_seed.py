"""Every example of the cxas seed (tool_expectations) loads and runs as written."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.judges import JudgeRequest, JudgeResponse
from agent_asserts.loaders import loads
from agent_asserts.loaders.cxas import apply_to_result
from agent_asserts.record import TrialRecord
from agent_asserts.record.adapters import ces
from agent_asserts.results import CaseResult, Severity

SPEC = """
evals:
  - name: "order_placement_flow"
    tags: ["P0", "orders"]
    steps:
      - goal: "Place an order for item ITEM-42"
        success_criteria: "Agent confirms order placement"
        max_turns: 4

    expectations:
      - "The agent was polite and confirmed the order"

    tool_expectations:
      # 1. Assert lookup tool was invoked before order creation
      - type: tool_called
        tool: check_availability
        min: 1

      # 2. Prevent placing an order before availability check succeeds
      - type: tool_not_called
        tool: create_order
        before:
          tool: check_availability
          result:
            status: "available"

      # 3. Assert tool input arguments
      - type: tool_input
        tool: check_availability
        args:
          item_id: "ITEM-42"

      # 4. Assert order creation parameters using wildcards
      - type: tool_input
        tool: create_order
        args:
          item_id: "ITEM-42"
          quantity: 1
          confirmed: true

      # 5. Assert tool return value (automatically unwraps CES result envelopes)
      - type: tool_output
        tool: create_order
        result:
          is_scheduled: true
          order_id: "*"

      # 6. Ensure every call to account lookup includes account_id
      - type: every_call
        tool: lookup_account
        args:
          account_id: "10001"

      # 7. Assert ordering: check_availability must be followed by create_order
      - type: followed_by
        tool: check_availability
        next:
          tool: create_order

      # 8. Assert last tool call
      - type: last_tool
        tool: end_session

      # 9. Assert clean session termination with status
      - type: end_session
        args:
          status: "completed"
"""

NAMES = [
    "trace_parsed",
    "tool_called:check_availability",
    "tool_not_called:create_order",
    "tool_input:check_availability",
    "tool_input:create_order",
    "tool_output:create_order",
    "every_call:lookup_account",
    "followed_by:check_availability",
    "last_tool:end_session",
    "end_session",
    "step:Place an order for item ITEM-42",
    "expectation:The agent was polite and confirmed the order",
]

GOOD_TRACE = [
    "User: event: welcome",
    "User Query: event: welcome\nAgent Text: Welcome to the shop!",
    "User: I'd like ITEM-42",
    "User Query: I'd like ITEM-42\n"
    "Tool Call: lookup_account with args {'account_id': 10001}\n"
    "Tool Response: lookup_account with result {'result': {'name': 'Ada'}}\n"
    "Tool Call: check_availability with args {'item_id': 'ITEM-42'}\n"
    "Tool Response: check_availability with result {'result': {'status': 'available'}}\n"
    "Agent Text: ITEM-42 is available. Shall I place the order for 1?",
    "User: yes please",
    "User Query: yes please\n"
    "Tool Call: create_order with args "
    "{'item_id': 'ITEM-42', 'quantity': 1.0, 'confirmed': 'True'}\n"
    "Tool Response: create_order with result "
    "{'result': {'is_scheduled': True, 'order_id': 'O-7'}}\n"
    "Agent Text: Your order O-7 is placed. Goodbye!\n"
    "Tool Call: end_session with args {'status': 'completed'}",
]

BAD_TRACE = [
    "User Query: I'd like ITEM-42",
    "Tool Call: lookup_account with args {'account_id': '10002'}",
    "Tool Call: create_order with args {'item_id': 'ITEM-42', 'quantity': 2, 'confirmed': False}",
    "Tool Response: create_order with result {'result': {'is_scheduled': False, 'order_id': ''}}",
    "Tool Call: check_availability with args {'item_id': 'ITEM-43'}",
    "Tool Response: check_availability with result {'result': {'status': 'sold out'}}",
    "Tool Call: end_session with args {'status': 'abandoned'}",
    "Tool Call: lookup_account with args {'account_id': <unknown>}",
]


def statuses(result: CaseResult) -> dict[str, str]:
    return {r.name: r.status.value for r in result.results}


def stub_judge(request: JudgeRequest) -> JudgeResponse:
    return JudgeResponse(score=1.0)


def run(spec: str, record: TrialRecord, **options: Any) -> CaseResult:
    suite = loads(spec, **options)
    assert suite.dialect == "cxas"
    (result,) = suite.evaluate(record)
    return result


def test_the_full_specification_loads_with_its_metadata() -> None:
    suite = loads(SPEC)
    (case,) = suite.cases
    assert case.name == "order_placement_flow"
    assert [e.name or e.check.default_name() for e in case.entries] == NAMES
    assert case.metadata == {"tags": ["P0", "orders"], "max_turns": [4]}
    judged = [e for e in case.entries if isinstance(e.check, JudgeCheck)]
    assert [e.severity for e in judged] == [Severity.GATE, Severity.GATE]
    assert judged[0].check.rubric == "Agent confirms order placement"


def test_the_full_specification_passes_on_a_good_run() -> None:
    result = run(SPEC, ces.to_record({"detailed_trace": GOOD_TRACE}))
    expected = dict.fromkeys(NAMES[:10], "pass")
    expected.update({NAMES[10]: "invalid", NAMES[11]: "invalid"})
    assert statuses(result) == expected
    assert result.verdict.value == "failed"  # the judged parts gate without a judge
    assert {r.message for r in result.results if r.status.value == "invalid"} == {
        "no judge configured"
    }
    assert result.metadata["tags"] == ["P0", "orders"]


def test_the_full_specification_passes_with_a_judge() -> None:
    result = run(SPEC, ces.to_record({"detailed_trace": GOOD_TRACE}), judge=stub_judge)
    assert set(statuses(result).values()) == {"pass"}
    assert result.verdict.value == "passed"
    judged = [r for r in result.results if r.name.startswith(("step:", "expectation:"))]
    assert [r.severity for r in judged] == [Severity.GATE, Severity.GATE]


def test_the_full_specification_fails_on_a_bad_run() -> None:
    result = run(SPEC, ces.to_record({"detailed_trace": BAD_TRACE}), judge=stub_judge)
    assert statuses(result) == {
        "trace_parsed": "fail",
        "tool_called:check_availability": "pass",
        "tool_not_called:create_order": "fail",
        "tool_input:check_availability": "fail",
        "tool_input:create_order": "fail",
        "tool_output:create_order": "fail",
        "every_call:lookup_account": "fail",
        "followed_by:check_availability": "fail",
        "last_tool:end_session": "pass",
        "end_session": "fail",
        "step:Place an order for item ITEM-42": "pass",
        "expectation:The agent was polite and confirmed the order": "pass",
    }
    assert result.verdict.value == "failed"
    by_name = {r.name: r for r in result.results}
    assert by_name["trace_parsed"].message.startswith(
        "1 trace item could not be parsed: detailed_trace[7]: call arguments: not a Python literal"
    )
    output = by_name["tool_output:create_order"]
    assert [str(m) for m in output.mismatches] == [
        "$.result.result.is_scheduled: expected True (lenient: bool), got False",
        "$.result.result.order_id: expected '*' (lenient: wildcard), got ''",
    ]
    assert by_name["end_session"].message == (
        "the last tool call was 'end_session' at e4, which does not match "
        "on.tool('end_session', arguments=M.lenient({'status': 'completed'}))"
    )
    assert by_name["tool_not_called:create_order"].message == (
        "1 call matched on.tool('create_order') (e2) and on.tool('check_availability', "
        "result=M.lenient({'status': 'available'})) never occurred"
    )


OPERATOR_EXAMPLES: list[
    tuple[
        str, str, list[tuple[str, Any, Any]], list[tuple[str, Any, Any]], dict[str, tuple[str, str]]
    ]
] = [
    (
        "tool_called",
        """
- type: tool_called
  tool: lookup_account
  min: 1
""",
        [("lookup_account", {"account_id": "1"}, None)],
        [("lookup_profile", {}, None)],
        {"tool_called:lookup_account": ("pass", "fail")},
    ),
    (
        "tool_not_called",
        """
# Never called anywhere in conversation
- type: tool_not_called
  tool: cancel_order

# Not called before availability check returned "available"
- type: tool_not_called
  tool: create_order
  before:
    tool: check_availability
    result:
      status: "available"
""",
        [
            ("check_availability", {}, {"result": {"status": "available"}}),
            ("create_order", {}, None),
        ],
        [("create_order", {}, None), ("cancel_order", {}, None)],
        {
            "tool_not_called:cancel_order": ("pass", "fail"),
            "tool_not_called:create_order": ("pass", "fail"),
        },
    ),
    (
        "tool_input",
        """
- type: tool_input
  tool: create_order
  args:
    item_id: "ITEM-42"
    confirmed: true
  min: 1
""",
        [("create_order", {"item_id": "ITEM-42", "confirmed": "true", "quantity": 3}, None)],
        [("create_order", {"item_id": "ITEM-42", "confirmed": False}, None)],
        {"tool_input:create_order": ("pass", "fail")},
    ),
    (
        "tool_output",
        """
- type: tool_output
  tool: create_order
  result:
    status: "confirmed"
    order_id: "*"
""",
        [("create_order", {}, {"result": '{"status": "confirmed", "order_id": 7}'})],
        [("create_order", {}, {"result": {"status": "confirmed", "order_id": None}})],
        {"tool_output:create_order": ("pass", "fail")},
    ),
    (
        "last_tool",
        """
- type: last_tool
  tool: end_session
  args:
    reason: "resolved"
""",
        [("lookup", {}, None), ("end_session", {"reason": "resolved"}, None)],
        [("end_session", {"reason": "resolved"}, None), ("lookup", {}, None)],
        {"last_tool:end_session": ("pass", "fail")},
    ),
    (
        "every_call",
        """
- type: every_call
  tool: update_profile
  args:
    verified: true
""",
        [
            ("update_profile", {"verified": True}, None),
            ("update_profile", {"verified": "True"}, None),
        ],
        [
            ("update_profile", {"verified": True}, None),
            ("update_profile", {"verified": "no"}, None),
        ],
        {"every_call:update_profile": ("pass", "fail")},
    ),
    (
        "followed_by",
        """
- type: followed_by
  tool: check_availability
  next:
    tool: create_order
""",
        [("check_availability", {}, None), ("create_order", {}, None)],
        [("create_order", {}, None), ("check_availability", {}, None)],
        {"followed_by:check_availability": ("pass", "fail")},
    ),
    (
        "terminal_tool",
        """
- type: terminal_tool
  tool: end_session
""",
        [("lookup", {}, None), ("end_session", {}, None)],
        [("end_session", {}, None), ("lookup", {}, None)],
        {"terminal_tool:end_session": ("pass", "fail")},
    ),
    (
        "end_session",
        """
- type: end_session
  args:
    status: "completed"
""",
        [("end_session", {"status": "completed", "summary": "ok"}, None)],
        [("end_session", {"status": "escalated"}, None)],
        {"end_session": ("pass", "fail")},
    ),
]


def record(calls: list[tuple[str, Any, Any]]) -> TrialRecord:
    builder = TrialRecord.builder()
    for name, arguments, result in calls:
        builder.tool(name, arguments, result=result)
    return builder.build()


@pytest.mark.parametrize(
    ("spec", "good", "bad", "expected"),
    [example[1:] for example in OPERATOR_EXAMPLES],
    ids=[example[0] for example in OPERATOR_EXAMPLES],
)
def test_each_operator_example(
    spec: str,
    good: list[tuple[str, Any, Any]],
    bad: list[tuple[str, Any, Any]],
    expected: dict[str, tuple[str, str]],
) -> None:
    passing = statuses(run(spec, record(good)))
    failing = statuses(run(spec, record(bad)))
    assert passing == {"trace_parsed": "pass", **{k: v[0] for k, v in expected.items()}}
    assert failing == {"trace_parsed": "pass", **{k: v[1] for k, v in expected.items()}}


def test_the_python_api_example() -> None:
    test_case = {
        "name": "account_lookup_sim",
        "tool_expectations": [
            {"type": "tool_called", "tool": "lookup_account"},
            {"type": "last_tool", "tool": "end_session"},
        ],
    }
    good = {
        "name": "account_lookup_sim",
        "passed": True,
        "expectations": "1/1",
        "expectation_details": [{"expectation": "polite", "status": "Met", "justification": "yes"}],
        "detailed_trace": [
            "Tool Call: lookup_account with args {'account_id': '1'}",
            "Tool Call: end_session with args {}",
        ],
    }
    checks = apply_to_result(test_case, good)
    assert [(c["operator"], c["status"]) for c in checks] == [
        ("trace_parsed", "Met"),
        ("tool_called", "Met"),
        ("last_tool", "Met"),
    ]
    assert (good["passed"], good["expectations"]) == (True, "4/4")
    bad = {**good, "detailed_trace": ["Tool Call: end_session with args {}", "Tool Call: x"]}
    bad["expectation_details"] = list(good["expectation_details"])[:1]
    checks = apply_to_result(test_case, bad)
    assert [(c["operator"], c["status"]) for c in checks] == [
        ("trace_parsed", "Met"),
        ("tool_called", "Not Met"),
        ("last_tool", "Not Met"),
    ]
    assert (bad["passed"], bad["judge_passed"], bad["expectations"]) == (False, True, "2/4")


def test_native_round_trip() -> None:
    suite = loads(SPEC)
    native = loads(json.dumps(suite.to_dict()), dialect="native")
    assert native.cases[0].checks == suite.cases[0].checks
    assert native.cases[0].metadata == suite.cases[0].metadata
    for trace in (GOOD_TRACE, BAD_TRACE):
        record = ces.to_record({"detailed_trace": trace})
        for judge in (None, stub_judge):
            ours = suite.evaluate(record, judge=judge)[0]
            theirs = native.evaluate(record, judge=judge)[0]
            assert [(r.name, r.status, r.severity, r.message) for r in theirs.results] == [
                (r.name, r.status, r.severity, r.message) for r in ours.results
            ]
