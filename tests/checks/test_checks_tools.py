"""Foundation trajectory checks: called_tool, not_called_tool, used_no_tools, max_tool_calls,
no_failed_actions."""

from __future__ import annotations

import pytest

from agent_asserts.checks.tools import (
    CalledTool,
    MaxToolCalls,
    NoFailedActions,
    NotCalledTool,
    UsedNoTools,
)
from agent_asserts.matching import Count, M
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status
from agent_asserts.selectors import on

NO_TOOLS = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})


def lookups() -> TrialRecord:
    return (
        TrialRecord.builder()
        .user("refund A1049")
        .tool("lookup", arguments={"id": "A1049"}, result={"ok": True})
        .tool("lookup", arguments={"id": "A1049"}, result={"ok": True})
        .tool("refund", arguments={"id": "A1049", "amount": 40})
        .build()
    )


def availability(create_first: bool) -> TrialRecord:
    b = TrialRecord.builder().user("order it")
    if create_first:
        b.tool("create_order")
    b.tool("check_availability", result={"status": "available"})
    if not create_first:
        b.tool("create_order")
    return b.build()


class TestCalledTool:
    def test_pinned_count_one_with_two_matching_calls(self) -> None:
        out = CalledTool("lookup", arguments={"id": "A1049"}, count=1).evaluate(lookups())
        assert out.status is Status.FAIL
        assert out.message == "matched 2 tool calls of 2 'lookup' calls, expected exactly 1"
        assert out.evidence == ("e1", "e2")
        assert out.expected == "exactly 1"
        assert out.observed == 2
        assert out.closest is None  # every call of that name matched: no near miss to show

    def test_count_failure_points_at_the_near_miss(self) -> None:
        rec = (
            TrialRecord.builder()
            .tool("lookup", arguments={"id": "A1049"})
            .tool("lookup", arguments={"id": "A1050"})
            .build()
        )
        out = CalledTool("lookup", arguments={"id": "A1049"}, count=2).evaluate(rec)
        assert out.message == "matched 1 tool calls of 2 'lookup' calls, expected exactly 2"
        assert out.evidence == ("e0",)
        assert out.closest == "e1"
        assert [str(m) for m in out.mismatches] == ["$.arguments.id: expected 'A1049', got 'A1050'"]

    def test_passes_at_least_one_by_default(self) -> None:
        out = CalledTool("lookup").evaluate(lookups())
        assert out.status is Status.PASS
        assert out.message == "matched 2 tool calls"
        assert out.evidence == ("e1", "e2")
        assert out.closest is None

    def test_message_is_exact_even_for_one(self) -> None:
        assert CalledTool("refund").evaluate(lookups()).message == "matched 1 tool calls"

    def test_failure_carries_closest_candidate_and_mismatches(self) -> None:
        out = CalledTool("refund", arguments={"id": "A1049", "amount": 42}).evaluate(lookups())
        assert out.status is Status.FAIL
        assert out.message == "matched 0 tool calls of 1 'refund' calls, expected at least 1"
        assert out.closest == "e3"
        assert [str(m) for m in out.mismatches] == ["$.arguments.amount: expected 42, got 40"]
        assert out.evidence == ("e3",)  # the candidates: calls of that name

    def test_closest_is_the_candidate_with_fewest_mismatches(self) -> None:
        rec = (
            TrialRecord.builder()
            .tool("pay", arguments={"a": 0, "b": 0})
            .tool("pay", arguments={"a": 1, "b": 0})
            .build()
        )
        out = CalledTool("pay", arguments={"a": 1, "b": 1}).evaluate(rec)
        assert out.closest == "e1"
        assert [m.path for m in out.mismatches] == ["$.arguments.b"]

    def test_no_call_of_that_name_has_no_closest(self) -> None:
        out = CalledTool("missing").evaluate(lookups())
        assert out.status is Status.FAIL
        assert out.closest is None
        assert out.evidence == ()

    def test_run_without_tools_fails(self) -> None:
        out = CalledTool("lookup").evaluate(TrialRecord.builder().agent("done").build())
        assert out.status is Status.FAIL

    def test_count_forms(self) -> None:
        assert CalledTool("lookup", count=Count.at_most(2)).evaluate(lookups()).status == "pass"
        assert CalledTool("lookup", count=Count.between(3, 4)).evaluate(lookups()).status == "fail"

    def test_count_zero(self) -> None:
        out = CalledTool("lookup", arguments={"id": "B"}, count=0).evaluate(lookups())
        assert out.status is Status.PASS
        assert out.message == "matched 0 tool calls"

    def test_result_is_error_and_source_filters(self) -> None:
        rec = (
            TrialRecord.builder()
            .tool("search", result={"n": 3}, source="mcp", mcp_server="docs")
            .tool("search", is_error=True)
            .build()
        )
        assert CalledTool("search", result={"n": 3}).evaluate(rec).evidence == ("e0",)
        assert CalledTool("search", is_error=True).evaluate(rec).evidence == ("e1",)
        assert CalledTool("search", source="mcp", mcp_server="docs").evaluate(rec).observed == 1

    def test_alternatives(self) -> None:
        assert CalledTool("refund|lookup", count=3).evaluate(lookups()).status is Status.PASS

    def test_missing_surface_is_invalid(self) -> None:
        out = CalledTool("lookup").evaluate(NO_TOOLS)
        assert out.status is Status.INVALID
        assert "tool_call" in out.message

    def test_bad_arguments_raise_when_built(self) -> None:
        with pytest.raises(ValueError, match="'count' must be >= 0"):
            CalledTool("a", count=-1)
        with pytest.raises(TypeError, match="'count'"):
            CalledTool("a", count="1")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="'name'"):
            CalledTool("")
        with pytest.raises(ValueError, match="'source'"):
            CalledTool("a", source="remote")

    def test_names_and_forms(self) -> None:
        check = CalledTool("refunds_lookup", arguments={"orderId": M.regex("^A")}, count=1)
        assert check.default_name() == "called_tool:refunds_lookup"
        assert check.describe() == (
            "called_tool('refunds_lookup', arguments={'orderId': M.regex('^A')}, count=1)"
        )
        assert check.to_data() == {
            "called_tool": {
                "name": "refunds_lookup",
                "arguments": {"orderId": {"$regex": "^A"}},
                "count": 1,
            }
        }
        assert check == CalledTool("refunds_lookup", arguments={"orderId": M.regex("^A")}, count=1)


class TestNotCalledTool:
    def test_no_call_passes(self) -> None:
        out = NotCalledTool("delete").evaluate(lookups())
        assert out.status is Status.PASS
        assert out.message == "no call matched on.tool('delete')"

    def test_a_call_fails_with_evidence(self) -> None:
        out = NotCalledTool("lookup").evaluate(lookups())
        assert out.status is Status.FAIL
        assert out.message == "2 calls matched on.tool('lookup'): e1, e2"
        assert out.evidence == ("e1", "e2")

    def test_arguments_narrow(self) -> None:
        check = NotCalledTool("refund", arguments={"amount": 100})
        assert check.evaluate(lookups()).status is Status.PASS

    def test_pinned_before_fails_when_create_comes_first(self) -> None:
        marker = on.tool("check_availability", result={"status": "available"})
        out = NotCalledTool("create_order", before=marker).evaluate(availability(True))
        assert out.status is Status.FAIL
        assert out.evidence == ("e1", "e2")
        assert out.message == (
            "1 call matched on.tool('create_order') (e1) before "
            "on.tool('check_availability', result={'status': 'available'}) at e2"
        )

    def test_pinned_before_passes_when_create_comes_after(self) -> None:
        marker = on.tool("check_availability", result={"status": "available"})
        out = NotCalledTool("create_order", before=marker).evaluate(availability(False))
        assert out.status is Status.PASS
        assert out.evidence == ("e1", "e2")

    def test_marker_never_occurring_fails_any_call(self) -> None:
        rec = TrialRecord.builder().tool("create_order").build()
        out = NotCalledTool("create_order", before="check_availability").evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message.endswith("and on.tool('check_availability') never occurred")

    def test_marker_never_occurring_without_calls_passes(self) -> None:
        rec = TrialRecord.builder().tool("other").build()
        out = NotCalledTool("create_order", before="check_availability").evaluate(rec)
        assert out.status is Status.PASS

    def test_marker_not_matching_result_counts_as_absent(self) -> None:
        rec = (
            TrialRecord.builder()
            .tool("check_availability", result={"status": "sold_out"})
            .tool("create_order")
            .build()
        )
        marker = on.tool("check_availability", result={"status": "available"})
        assert NotCalledTool("create_order", before=marker).evaluate(rec).status is Status.FAIL

    def test_marker_of_other_kind(self) -> None:
        rec = TrialRecord.builder().tool("pay").skill("activated", "checkout").tool("pay").build()
        check = NotCalledTool("pay", before=on.skill("activated", "checkout"))
        assert check.evaluate(rec).evidence == ("e0", "e1")

    def test_missing_surface_is_invalid(self) -> None:
        assert NotCalledTool("create_order").evaluate(NO_TOOLS).status is Status.INVALID
        rec = TrialRecord.builder().tool("pay").build(surfaces=["tool_call"])
        check = NotCalledTool("pay", before=on.skill("activated", "checkout"))
        assert check.evaluate(rec).status is Status.INVALID

    def test_bad_before(self) -> None:
        with pytest.raises(TypeError, match="'before' must be a selector"):
            NotCalledTool("a", before=3)  # type: ignore[arg-type]

    def test_names_and_forms(self) -> None:
        check = NotCalledTool("create_order", before="check")
        assert check.default_name() == "not_called_tool:create_order"
        assert check.describe() == "not_called_tool('create_order', before='check')"
        assert check.to_data() == {"not_called_tool": {"name": "create_order", "before": "check"}}


class TestCounts:
    def test_used_no_tools(self) -> None:
        out = UsedNoTools().evaluate(TrialRecord.builder().agent("hi").build())
        assert out.status is Status.PASS
        assert out.message == "made no tool calls"
        out = UsedNoTools().evaluate(lookups())
        assert out.status is Status.FAIL
        assert out.message == "made 3 tool calls, expected none"
        assert out.evidence == ("e1", "e2", "e3")

    def test_used_no_tools_without_surface_is_invalid(self) -> None:
        assert UsedNoTools().evaluate(NO_TOOLS).status is Status.INVALID

    def test_max_tool_calls(self) -> None:
        assert MaxToolCalls(3).evaluate(lookups()).status is Status.PASS
        out = MaxToolCalls(2).evaluate(lookups())
        assert out.status is Status.FAIL
        assert out.message == "made 3 tool calls, limit 2"
        assert out.evidence == ("e1", "e2", "e3")
        assert MaxToolCalls(2).evaluate(NO_TOOLS).status is Status.INVALID

    def test_max_tool_calls_validates(self) -> None:
        with pytest.raises(ValueError, match="'n' must be >= 0"):
            MaxToolCalls(-1)

    def test_names_and_forms(self) -> None:
        assert UsedNoTools().default_name() == "used_no_tools"
        assert UsedNoTools().describe() == "used_no_tools()"
        assert MaxToolCalls(3).default_name() == "max_tool_calls:3"
        assert MaxToolCalls(3).to_data() == {"max_tool_calls": {"n": 3}}


class TestNoFailedActions:
    def test_passes(self) -> None:
        out = NoFailedActions().evaluate(lookups())
        assert out.status is Status.PASS
        assert out.message == "no failed tool calls and no run errors"

    def test_failed_tool_call(self) -> None:
        rec = TrialRecord.builder().tool("a").tool("pay", is_error=True).build()
        out = NoFailedActions().evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message == "1 failed tool call (e1)"
        assert out.evidence == ("e1",)

    def test_run_errors(self) -> None:
        rec = TrialRecord.builder().tool("a").build(errors=["timeout"])
        out = NoFailedActions().evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message == "1 run error: timeout"

    def test_missing_surface(self) -> None:
        assert NoFailedActions().evaluate(NO_TOOLS).status is Status.INVALID

    def test_names(self) -> None:
        assert NoFailedActions().default_name() == "no_failed_actions"
