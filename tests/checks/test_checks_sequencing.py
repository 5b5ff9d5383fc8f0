"""Ordered subsequences: find_in_order, tool_order, sequencing."""

from __future__ import annotations

import pytest

from agent_asserts.checks.sequencing import Sequencing, Subsequence, ToolOrder, find_in_order
from agent_asserts.record import TrialRecord
from agent_asserts.results import Status
from agent_asserts.selectors import ToolSelector, on


def tools(*names: str) -> TrialRecord:
    b = TrialRecord.builder()
    for name in names:
        b.tool(name)
    return b.build()


class TestFindInOrder:
    def test_earliest_match_greedy(self) -> None:
        rec = tools("a", "b", "a", "b")
        steps = [ToolSelector("a"), ToolSelector("b"), ToolSelector("b")]
        assert find_in_order(rec, steps) == Subsequence((0, 1, 3), None)

    def test_reports_the_longest_prefix(self) -> None:
        rec = tools("a", "b")
        steps = [ToolSelector("a"), ToolSelector("b"), ToolSelector("c")]
        assert find_in_order(rec, steps) == Subsequence((0, 1), 2)

    def test_contiguous_tries_every_start(self) -> None:
        rec = tools("a", "x", "a", "b")
        lane = rec.positions_of_kind("tool_call")
        steps = [ToolSelector("a"), ToolSelector("b")]
        assert find_in_order(rec, steps, lane=lane) == Subsequence((2, 3), None)
        assert find_in_order(rec, [ToolSelector("x"), ToolSelector("b")], lane=lane) == (
            Subsequence((1,), 1)
        )

    def test_contiguous_ignores_non_tool_events(self) -> None:
        rec = TrialRecord.builder().tool("a").agent("working").tool("b").build()
        lane = rec.positions_of_kind("tool_call")
        assert find_in_order(rec, [ToolSelector("a"), ToolSelector("b")], lane=lane).complete

    def test_within_searches_only_the_given_positions(self) -> None:
        # tools_within_one_turn's ordered search is this function over one turn's runs
        rec = tools("a", "b", "a", "b")
        steps = [ToolSelector("a"), ToolSelector("b")]
        assert find_in_order(rec, steps, within=[1, 2, 3]) == Subsequence((2, 3), None)
        assert find_in_order(rec, steps, within=[0, 2]) == Subsequence((0,), 1)


class TestToolOrder:
    def test_pass(self) -> None:
        out = ToolOrder("a", "c").evaluate(tools("a", "b", "c"))
        assert out.status is Status.PASS
        assert out.message == "found 2 steps in order: e0, e2"
        assert out.evidence == ("e0", "e2")
        assert out.observed == ["a", "b", "c"]

    def test_repeated_name_needs_two_calls(self) -> None:
        out = ToolOrder("a", "a").evaluate(tools("a"))
        assert out.status is Status.FAIL
        assert out.message == "step 2 'a' was not found after e0 (step 1 'a')"
        assert ToolOrder("a", "a").evaluate(tools("a", "b", "a")).status is Status.PASS

    def test_wrong_order_fails(self) -> None:
        out = ToolOrder("b", "a").evaluate(tools("a", "b"))
        assert out.message == "step 2 'a' was not found after e1 (step 1 'b')"
        assert out.evidence == ("e1",)

    def test_first_step_missing(self) -> None:
        assert ToolOrder("z").evaluate(tools("a")).message == "step 1 'z' was not found"

    def test_alternatives(self) -> None:
        assert ToolOrder("a", "b|c").evaluate(tools("a", "c")).status is Status.PASS
        assert ToolOrder("b|a", "c").evaluate(tools("a", "c")).evidence == ("e0", "e1")

    def test_contiguous(self) -> None:
        rec = tools("a", "x", "b")
        assert ToolOrder("a", "b").evaluate(rec).status is Status.PASS
        out = ToolOrder("a", "b", contiguous=True).evaluate(rec)
        assert out.status is Status.FAIL
        assert out.message == "step 2 'b' was not found right after e0 (step 1 'a')"
        assert ToolOrder("x", "b", contiguous=True).evaluate(rec).evidence == ("e1", "e2")

    def test_empty_is_a_build_error(self) -> None:
        with pytest.raises(ValueError, match=r"tool_order\(\) needs at least one tool name"):
            ToolOrder()
        with pytest.raises(ValueError, match="empty alternative"):
            ToolOrder("a|")
        with pytest.raises(TypeError, match="'contiguous' must be a bool"):
            ToolOrder("a", contiguous="yes")  # type: ignore[arg-type]

    def test_no_tool_surface_is_invalid(self) -> None:
        rec = TrialRecord.from_dict({"events": [], "surfaces": ["message"]})
        assert ToolOrder("a").evaluate(rec).status is Status.INVALID

    def test_forms(self) -> None:
        check = ToolOrder("a", "b|c", contiguous=True)
        assert check.names == ("a", "b|c")
        assert check == ToolOrder("a", "b|c", contiguous=True)
        assert check != ToolOrder("a", "b|c")
        assert check.default_name() == "tool_order"
        assert check.describe() == "tool_order('a', 'b|c', contiguous=True)"
        assert ToolOrder("a").describe() == "tool_order('a')"
        assert check.to_data() == {"tool_order": {"names": ["a", "b|c"], "contiguous": True}}
        assert repr(check) == "ToolOrder(names=('a', 'b|c'), contiguous=True)"


class TestSequencing:
    def record(self) -> TrialRecord:
        return (
            TrialRecord.builder()
            .skill("activated", "refund")
            .memory_set("refund.order_id", "A1049")
            .tool("refund")
            .build()
        )

    def test_mixed_kinds(self) -> None:
        steps = (on.skill("activated", "refund"), on.memory_set("refund.order_id"), "refund")
        out = Sequencing(*steps).evaluate(self.record())
        assert out.status is Status.PASS
        assert out.evidence == ("e0", "e1", "e2")

    def test_strictly_after(self) -> None:
        out = Sequencing("refund", on.skill("activated", "refund")).evaluate(self.record())
        assert out.status is Status.FAIL
        assert out.message == (
            "step 2 on.skill('activated', 'refund') was not found after e2 (step 1 'refund')"
        )

    def test_missing_surface_is_invalid(self) -> None:
        rec = TrialRecord.builder().tool("refund").build(surfaces=["tool_call"])
        assert Sequencing(on.memory_set("a.b"), "refund").evaluate(rec).status is Status.INVALID

    def test_empty_is_a_build_error(self) -> None:
        with pytest.raises(ValueError, match=r"sequencing\(\) needs at least one selector"):
            Sequencing()

    def test_forms(self) -> None:
        check = Sequencing(on.skill("activated", "refund"), "refund")
        assert check.default_name() == "sequencing"
        assert check.describe() == "sequencing(on.skill('activated', 'refund'), 'refund')"
        assert check.to_data() == {
            "sequencing": {"selectors": [{"skill_activated": {"skill_id": "refund"}}, "refund"]}
        }


def test_a_step_that_is_not_a_selector_names_its_position() -> None:
    import re

    from agent_asserts import EvalContext
    from agent_asserts.testing import demo_record

    ctx = EvalContext(demo_record())
    with pytest.raises(TypeError) as info:
        ctx.sequencing(["a", "b"])  # type: ignore[arg-type]
    assert str(info.value) == (
        "EvalContext.sequencing(): 'selectors[0]' must be Selector (on.*) or str, got list "
        "(['a', 'b']); give the items as separate arguments (*selectors)"
    )
    with pytest.raises(TypeError, match=re.escape("'selectors[1]' must be Selector (on.*) or")):
        ctx.event_order("a", 5)  # type: ignore[arg-type]
