"""Every evaluator of the SOP seed loads (as JSON, the seed's own notation) and runs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.checks.sequencing import ToolOrder
from agent_asserts.checks.tools import CalledTool, NotCalledTool
from agent_asserts.checks.trajectory import ConfirmationRequested
from agent_asserts.judges import JudgeRequest, JudgeResponse
from agent_asserts.loaders import loads
from agent_asserts.matching import M
from agent_asserts.record import RecordBuilder, TrialRecord
from agent_asserts.results import CaseResult


def stub_judge(request: JudgeRequest) -> JudgeResponse:
    return JudgeResponse(score=1.0)


def run(doc: Any, record: TrialRecord, **options: Any) -> CaseResult:
    suite = loads(json.dumps(doc), name="sop.json", **options)
    assert suite.dialect == "sop"
    (result,) = suite.evaluate(record)
    return result


def statuses(result: CaseResult) -> dict[str, str]:
    return {r.name: r.status.value for r in result.results}


def calls(*items: tuple[str, Any, Any]) -> TrialRecord:
    builder = TrialRecord.builder().user("hi")
    for name, arguments, result in items:
        builder.tool(name, arguments, result=result)
    return builder.build()


def test_tool_called() -> None:
    doc = [{"type": "tool_called", "toolSlug": "get_order"}]
    assert loads(json.dumps(doc)).cases[0].checks == (CalledTool("get_order"),)
    assert statuses(run(doc, calls(("get_order", {"id": "A1"}, None)))) == {
        "tool_called:get_order": "pass"
    }
    assert statuses(run(doc, calls(("look_up_order", {}, None)))) == {
        "tool_called:get_order": "fail"
    }
    assert statuses(run(doc, calls())) == {"tool_called:get_order": "fail"}  # no tools at all


def test_tool_called_with_a_catalog() -> None:
    doc = [{"type": "tool_called", "toolSlug": "get_order", "catalogSlug": "shopify"}]
    assert statuses(run(doc, calls(("shopify_get_order", {}, None)))) == {
        "tool_called:get_order": "pass"
    }
    assert statuses(run(doc, calls(("get_order", {}, None)))) == {"tool_called:get_order": "fail"}


SEQUENCE = [
    {
        "type": "tool_sequence",
        "sequence": ["get_order", "set_delivery_address"],
        "contiguous": False,
    }
]


def test_tool_sequence() -> None:
    assert loads(json.dumps(SEQUENCE)).cases[0].checks == (
        ToolOrder("get_order", "set_delivery_address"),
    )
    good = calls(("get_order", {}, None), ("lookup", {}, None), ("set_delivery_address", {}, None))
    bad = calls(("set_delivery_address", {}, None), ("get_order", {}, None))
    assert statuses(run(SEQUENCE, good)) == {"tool_sequence": "pass"}
    result = run(SEQUENCE, bad)
    assert statuses(result) == {"tool_sequence": "fail"}
    assert result.results[0].message == (
        "step 2 'set_delivery_address' was not found after e2 (step 1 'get_order')"
    )


def test_tool_sequence_with_alternatives() -> None:
    doc = [
        {
            "type": "tool_sequence",
            "sequence": ["get_order|look_up_order", "set_delivery_address"],
            "contiguous": True,
            "catalogSlug": "shop",
        }
    ]
    assert loads(json.dumps(doc)).cases[0].checks == (
        ToolOrder(
            "shop_get_order|shop_look_up_order", "shop_set_delivery_address", contiguous=True
        ),
    )
    good = calls(("shop_look_up_order", {}, None), ("shop_set_delivery_address", {}, None))
    assert statuses(run(doc, good)) == {"tool_sequence": "pass"}
    bad = calls(
        ("shop_get_order", {}, None), ("x", {}, None), ("shop_set_delivery_address", {}, None)
    )
    assert statuses(run(doc, bad)) == {"tool_sequence": "fail"}


INPUT = [
    {
        "type": "tool_input_contains",
        "toolSlug": "set_delivery_address",
        "assertions": {
            "order_id": {"op": "exists"},
            "country": {"op": "equals", "value": "US"},
            "order_number": {"op": "matches", "pattern": "^#\\d{4}$"},
            "quantity": {"op": "gt", "value": 0},
            "total": {"op": "lt", "value": 500},
        },
    }
]


def test_tool_input_contains() -> None:
    (check,) = loads(json.dumps(INPUT)).cases[0].checks
    assert check == CalledTool(
        "set_delivery_address",
        arguments={
            "order_id": M.not_in(None),
            "country": M.loose("US"),
            "order_number": M.regex("^#\\d{4}$"),
            "quantity": M.any_of(M.gt(0), M.json(M.gt(0))),
            "total": M.any_of(M.lt(500), M.json(M.lt(500))),
        },
    )
    good = {"order_id": 0, "country": "US", "order_number": "#1001", "quantity": "2", "total": 99.5}
    bad = {"order_id": None, "country": "CA", "order_number": "1001", "quantity": 0, "total": "x"}
    assert statuses(
        run(INPUT, calls(("set_delivery_address", bad, None), ("set_delivery_address", good, None)))
    ) == {"tool_input_contains:set_delivery_address": "pass"}
    result = run(INPUT, calls(("set_delivery_address", bad, None)))
    assert statuses(result) == {"tool_input_contains:set_delivery_address": "fail"}
    assert [m.path for m in result.results[0].mismatches] == [
        "$.arguments.order_id",
        "$.arguments.country",
        "$.arguments.order_number",
        "$.arguments.quantity",
        "$.arguments.total",
    ]


OUTPUT = [
    {
        "type": "tool_output_contains",
        "toolSlug": "get_order",
        "assertions": {
            "id": {"op": "exists"},
            "financial_status": {"op": "equals", "value": "paid"},
            "tags": {"op": "contains", "value": "vip"},
            "fulfillment_status": {"op": "not_in", "values": ["shipped", "delivered"]},
        },
    }
]


def test_tool_output_contains() -> None:
    good = {"id": 7, "financial_status": "paid", "tags": "vip, repeat", "fulfillment_status": None}
    bad = {"id": 7, "financial_status": "paid", "tags": "repeat", "fulfillment_status": "shipped"}
    assert statuses(run(OUTPUT, calls(("get_order", {}, good)))) == {
        "tool_output_contains:get_order": "pass"
    }
    result = run(OUTPUT, calls(("get_order", {}, bad)))
    assert statuses(result) == {"tool_output_contains:get_order": "fail"}
    assert [str(m) for m in result.results[0].mismatches] == [
        "$.result.tags: expected a value containing 'vip', got 'repeat'",
        "$.result.fulfillment_status: expected not a value whose string form is 'shipped', "
        "got 'shipped'",
    ]
    # no result-envelope unwrapping in this dialect
    assert statuses(run(OUTPUT, calls(("get_order", {}, {"result": good})))) == {
        "tool_output_contains:get_order": "fail"
    }


def test_no_tool_called() -> None:
    doc = [{"type": "no_tool_called", "toolSlugs": ["complete_cart"]}]
    assert loads(json.dumps(doc)).cases[0].checks == (NotCalledTool("complete_cart"),)
    assert statuses(run(doc, calls(("get_order", {}, None)))) == {
        "no_tool_called:complete_cart": "pass"
    }
    assert statuses(run(doc, calls(("complete_cart", {}, None)))) == {
        "no_tool_called:complete_cart": "fail"
    }


def test_no_tool_called_gives_one_result_per_slug() -> None:
    doc = [{"type": "no_tool_called", "toolSlugs": ["complete_cart", "refund"], "catalogSlug": "s"}]
    assert loads(json.dumps(doc)).cases[0].checks == (
        NotCalledTool("s_complete_cart"),
        NotCalledTool("s_refund"),
    )
    assert statuses(run(doc, calls(("s_refund", {}, None)))) == {
        "no_tool_called:complete_cart": "pass",
        "no_tool_called:refund": "fail",
    }


CONFIRM = [
    {
        "type": "confirmation_requested",
        "beforeToolSlug": "set_delivery_address",
        "pattern": "(?i)(confirm|is that correct|shall I)",
        "withinLastNTurns": 4,
    }
]


def conversation(confirm: bool) -> TrialRecord:
    b: RecordBuilder = TrialRecord.builder().user("change my address").tool("get_order")
    b.agent("Is that correct: 1 Main St?" if confirm else "Updating it now.")
    return b.user("yes").tool("set_delivery_address", {"address": "1 Main St"}).build()


def test_confirmation_requested() -> None:
    (check,) = loads(json.dumps(CONFIRM)).cases[0].checks
    assert check == ConfirmationRequested(
        "set_delivery_address", "(?i)(confirm|is that correct|shall I)", 4
    )
    name = "confirmation_requested:set_delivery_address"
    assert statuses(run(CONFIRM, conversation(True))) == {name: "pass"}
    assert statuses(run(CONFIRM, conversation(False))) == {name: "fail"}
    assert statuses(run(CONFIRM, calls(("get_order", {}, None)))) == {name: "not_applicable"}
    default = [{k: v for k, v in CONFIRM[0].items() if k != "withinLastNTurns"}]
    assert loads(json.dumps(default)).cases[0].checks == (check,)


JUDGE = [
    {
        "type": "llm_judge",
        "criterion": "Agent verifies customer identity before accessing account",
        "model": "gemini-2.5-pro",
        "rubric": "Pass only if the agent asked for name AND order ID first.",
    }
]


@pytest.mark.parametrize("full", [True, False], ids=["with-model-and-rubric", "criterion-only"])
def test_llm_judge(full: bool) -> None:
    doc = JUDGE if full else [{"type": "llm_judge", "criterion": JUDGE[0]["criterion"]}]
    (check,) = loads(json.dumps(doc)).cases[0].checks
    assert isinstance(check, JudgeCheck)
    assert (check.model, check.rubric) == (
        (JUDGE[0]["model"], JUDGE[0]["rubric"]) if full else (None, None)
    )
    name = "llm_judge:Agent verifies customer identity before accessing account"
    result = run(doc, conversation(True))
    assert statuses(result) == {name: "invalid"}
    assert result.results[0].message == "no judge configured"
    assert result.verdict.value == "failed"
    result = run(doc, conversation(True), judge=stub_judge)
    assert statuses(result) == {name: "pass"}
    assert result.verdict.value == "passed"


def test_a_whole_procedure_under_checks() -> None:
    doc = {
        "name": "delivery_change",
        "checks": [
            *SEQUENCE,
            *CONFIRM,
            *JUDGE,
            {"type": "no_tool_called", "toolSlugs": ["refund"]},
        ],
    }
    suite = loads(json.dumps(doc))
    assert (suite.name, [c.name for c in suite.cases]) == ("delivery_change", ["delivery_change"])
    result = suite.evaluate(conversation(True), judge=stub_judge)[0]
    assert set(statuses(result).values()) == {"pass"}


def test_native_round_trip() -> None:
    doc = {
        "name": "procedure",
        "checks": [
            *SEQUENCE,
            *CONFIRM,
            *JUDGE,
            *INPUT,
            *OUTPUT,
            {"type": "no_tool_called", "toolSlugs": ["refund", "complete_cart"]},
            {"type": "tool_called", "toolSlug": "get_order", "catalogSlug": "shop"},
        ],
    }
    suite = loads(json.dumps(doc))
    native = loads(json.dumps(suite.to_dict()), dialect="native")
    assert native.cases[0].checks == suite.cases[0].checks
    for record in (conversation(True), conversation(False)):
        for judge in (None, stub_judge):
            ours = suite.evaluate(record, judge=judge)[0]
            theirs = native.evaluate(record, judge=judge)[0]
            assert [(r.name, r.status, r.severity, r.message) for r in theirs.results] == [
                (r.name, r.status, r.severity, r.message) for r in ours.results
            ]
