"""The text summary of a case (``str(CaseResult)``): exact strings, as it is an interface."""

from __future__ import annotations

from typing import Any

from agent_asserts import AssertionResult, CaseResult, EvalContext, M, Verdict, run_case
from agent_asserts.testing import demo_record


def test_summary_of_a_passed_case_is_one_line() -> None:
    result = run_case(demo_record(), lambda ctx: ctx.called_tool("refunds_lookup"), name="ok")
    assert str(result) == "PASSED ok: 1 check: 1 passed; score 1.00"


def test_summary_lists_each_failed_result_with_paths_and_closest_event() -> None:
    def case(ctx: EvalContext) -> None:
        ctx.called_tool(
            "refunds_issue", arguments={"amount": 40, "orderId": M.regex("^B")}, count=1
        )
        ctx.step_count(3)
        ctx.max_tool_calls(1).soft().label("efficiency")
        ctx.used_no_tools()

    assert str(run_case(demo_record(), case, name="refund")) == "\n".join(
        [
            "FAILED refund: 4 checks: 4 failed",
            "  FAILED [gate] called_tool('refunds_issue', arguments={'amount': 40, "
            "'orderId': M.regex('^B')}, count=1)",
            "    matched 0 tool calls of 1 'refunds_issue' calls, expected exactly 1",
            "    closest candidate: event e3",
            "      $.arguments.amount: expected 40, got 42",
            "      $.arguments.orderId: expected a match of '^B', got 'A1049'",
            "  FAILED [gate] step_count(3)",
            "    expected 3 steps, got 4",
            "  FAILED [soft] max_tool_calls(1) (label: efficiency)",
            "    made 2 tool calls, limit 1",
            "  FAILED [gate] used_no_tools()",
            "    made 2 tool calls, expected none",
        ]
    )


def test_invalid_error_and_soft_threshold_blocks() -> None:
    def case(ctx: EvalContext) -> None:
        ctx.state("/orders/B1/status").equals("refunded")
        ctx.expect(1).satisfies(lambda v: v / 0)
        ctx.expect("Refund issued").similarity("Refund done").at_least(0.9)

    assert str(run_case(demo_record(), case, name="mixed")) == "\n".join(
        [
            "FAILED mixed: 3 checks: 1 failed, 1 invalid, 1 evaluator error",
            "  INVALID [gate] state('/orders/B1/status').equals('refunded')",
            "    the path '/orders/B1/status' does not exist",
            "  ERROR [gate] satisfies(<lambda>)",
            "    predicate raised ZeroDivisionError: division by zero",
            "  FAILED [soft] similarity('Refund done')",
            "    score 0.62, needs 0.90",
            "    expected: 'Refund done'",
            "    got: 'Refund issued'",
        ]
    )


def test_error_skip_and_empty_case_lines() -> None:
    assert str(run_case(demo_record(), lambda ctx: 1 / 0, name="boom")) == (
        "FAILED boom: 0 checks\n  error: ZeroDivisionError: division by zero"
    )

    def skipping(ctx: EvalContext) -> None:
        ctx.skip("no sandbox")

    assert str(run_case(demo_record(), skipping, name="s")) == (
        "SKIPPED s: 0 checks\n  skipped: no sandbox"
    )
    assert str(run_case(demo_record(), lambda ctx: None, name="empty")) == (
        "PASSED empty: 0 checks\n  warning: no assertions were recorded"
    )


def test_renamed_results_show_their_name_before_the_call() -> None:
    result = AssertionResult(
        name="tool_executed:order_replacement",
        status="fail",
        score=0.0,
        message="matched 0 tool calls",
        description="called_tool('order_replacement', source='local')",
    )
    case = CaseResult(name="mantle", verdict=Verdict.FAILED, results=(result,))
    assert str(case).splitlines()[1] == (
        "  FAILED [gate] tool_executed:order_replacement: "
        "called_tool('order_replacement', source='local')"
    )


class _BrokenRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def test_rendering_never_raises_on_a_broken_repr() -> None:
    broken: Any = _BrokenRepr()
    result = AssertionResult(
        name="x", status="fail", score=0.0, expected=broken, observed=broken, description="x()"
    )
    text = str(CaseResult(name="c", verdict="failed", results=(result,)))
    assert text.splitlines()[0] == "FAILED c: 1 check: 1 failed"
    assert "_BrokenRepr" in text
