"""The traps a new user fell into (issue #15): honest handles, counts that say what they count,
did-you-mean from the record, ``M.subset_of``, summaries that agree with exit codes."""

from __future__ import annotations

import pytest

from agent_asserts import EvalContext, M, TrialRecord, run_case
from agent_asserts.checks.tools import CalledTool
from agent_asserts.cli.check import exit_rule
from agent_asserts.matching import from_data
from agent_asserts.testing import demo_record


def lookups() -> TrialRecord:
    return (
        TrialRecord.builder()
        .tool("refunds_lookup", arguments={"orderId": "A1"})
        .tool("refunds_lookup", arguments={"orderId": "B2"})
        .tool("refunds_lookup", arguments={"orderId": "A1"})
        .build()
    )


# 3. handles are honest in a boolean context


def test_failed_handle_is_falsy_and_passed_truthy() -> None:
    ctx = EvalContext(demo_record())
    assert ctx.called_tool("refunds_issue")
    assert not ctx.called_tool("refunds_cancel")
    assert bool(ctx.called_tool("refunds_cancel").soft()) is False


def test_not_applicable_handle_is_truthy() -> None:
    ctx = EvalContext(demo_record())
    handle = ctx.confirmation_requested("never_ran", "confirm")
    assert handle.result.status.value == "not_applicable"
    assert handle


def test_threshold_decides_truth() -> None:
    ctx = EvalContext(demo_record())
    handle = ctx.expect("kitten").similarity("sitting")
    assert not handle
    assert handle.at_least(0.5)


def test_repr_shows_the_failure_summary() -> None:
    handle = EvalContext(demo_record()).called_tool("refunds_cancel")
    assert repr(handle) == (
        "<AssertionHandle called_tool:refunds_cancel fail [gate]: matched 0 tool calls of 0 "
        "'refunds_cancel' calls, expected at least 1; tools called, "
        "nearest first: 'refunds_issue', 'refunds_lookup'>"
    )
    assert repr(EvalContext(demo_record()).called_tool("refunds_issue")) == (
        "<AssertionHandle called_tool:refunds_issue pass [gate]>"
    )


def test_plain_assert_on_a_failed_handle_fails_with_the_summary(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(
        """
        from agent_asserts import EvalContext
        from agent_asserts.testing import demo_record

        def test_it():
            assert EvalContext(demo_record()).called_tool("refunds_cancel")
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*AssertionError: assert <AssertionHandle called_tool:refunds_cancel fail [[]gate]: "
            "matched 0 tool calls of 0 'refunds_cancel' calls, expected at least 1; tools called, "
            "nearest first: 'refunds_issue', 'refunds_lookup'>"
        ]
    )


# 4. counts say what they count


def test_count_failure_says_matching_of_total_and_expected() -> None:
    out = CalledTool("refunds_lookup", arguments={"orderId": "A1"}, count=1).evaluate(lookups())
    assert out.message == "matched 2 tool calls of 3 'refunds_lookup' calls, expected exactly 1"


def test_count_counts_matching_calls_so_one_of_two_passes() -> None:
    rec = (
        TrialRecord.builder()
        .tool("refunds_lookup", arguments={"orderId": "A1"})
        .tool("refunds_lookup", arguments={"orderId": "B2"})
        .build()
    )
    assert CalledTool("refunds_lookup", arguments={"orderId": "A1"}, count=1).evaluate(rec).status
    out = CalledTool("refunds_lookup", arguments={"orderId": "A1"}, count=1, total=True)
    result = out.evaluate(rec)
    assert result.status.value == "fail"
    assert (
        result.message
        == "matched 1 tool calls of 2 'refunds_lookup' calls, expected exactly 1 in total"
    )


def test_total_passes_when_the_name_ran_that_often_and_one_call_matches() -> None:
    rec = TrialRecord.builder().tool("refunds_lookup", arguments={"orderId": "A1"}).build()
    check = CalledTool("refunds_lookup", arguments={"orderId": "A1"}, count=1, total=True)
    assert check.evaluate(rec).status.value == "pass"
    miss = CalledTool("refunds_lookup", arguments={"orderId": "Z"}, count=1, total=True)
    assert miss.evaluate(rec).message == (
        "matched 0 tool calls of 1 'refunds_lookup' calls, expected exactly 1 in total"
    )


def test_total_in_the_fluent_api_and_the_native_key() -> None:
    from agent_asserts.loaders import loads

    ctx = EvalContext(lookups())
    assert not ctx.called_tool("refunds_lookup", {"orderId": "A1"}, count=2, total=True)
    suite = loads("checks:\n  - called_tool: {name: refunds_lookup, count: 3, total: true}\n")
    (case,) = suite.evaluate(lookups())
    assert case.verdict.value == "passed"


def test_total_must_be_a_bool() -> None:
    with pytest.raises(TypeError) as info:
        CalledTool("x", total=1)  # type: ignore[arg-type]
    assert str(info.value) == "'total' must be True or False (got 1)"


# 5. did you mean, from the record


def test_misspelt_tool_lists_the_tools_called_nearest_first() -> None:
    ctx = EvalContext(demo_record())
    assert ctx.called_tool("refund_isue").result.message == (
        "matched 0 tool calls of 0 'refund_isue' calls, expected at least 1; tools called, nearest "
        "first: 'refunds_issue', 'refunds_lookup'"
    )


def test_no_tools_at_all_says_so() -> None:
    out = CalledTool("x").evaluate(TrialRecord.builder().agent("hi").build())
    assert (
        out.message
        == "matched 0 tool calls of 0 'x' calls, expected at least 1; no tool was called"
    )


def test_hint_lists_at_most_ten() -> None:
    from agent_asserts.checks.selection import held_hint

    b = TrialRecord.builder()
    for i in range(12):
        b.tool(f"tool_{i:02d}")
    hint = held_hint(b.build(), "tool", "tool_05")
    assert hint.startswith("; tools called, nearest first: 'tool_05', ")
    assert hint.endswith(" (and 2 more)")
    assert hint.count("'") == 20


# 2. M.subset_of


def test_subset_of_and_its_operator() -> None:
    assert M.subset_of({"a": 1, "b": 2}).matches({"a": 1})
    assert M.subset_of({"a": M.gt(0)}).matches({"a": 3})
    assert not M.subset_of({"a": 1}).matches({"a": 1, "c": 3})
    assert [str(m) for m in M.subset_of({"a": 1, "b": 2}).explain({"a": 2, "c": 3})] == [
        "$.a: expected 1, got 2",
        "$.c: unexpected key (got 3); allowed keys: a, b",
    ]
    assert from_data({"$subset_of": {"a": 1}}) == M.subset_of({"a": 1})
    assert M.subset_of({"a": 1}).to_data() == {"$subset_of": {"a": 1}}
    with pytest.raises(TypeError) as info:
        M.subset_of([1])  # type: ignore[arg-type]
    assert str(info.value) == "M.subset_of(): 'mapping' must be mapping, got list ([1])"


# 8. summaries that agree with exit codes


def test_failed_case_shows_no_score() -> None:
    result = run_case(demo_record(), lambda ctx: ctx.called_tool("nope"), name="c")
    assert str(result).splitlines()[0] == "FAILED c: 1 check: 1 failed"
    scored = run_case(demo_record(), lambda ctx: ctx.max_steps(1).soft(), name="s")
    assert str(scored).splitlines()[0] == "SCORED s: 1 check: 1 failed; score 0.00"


def test_exit_rule_lines() -> None:
    assert exit_rule(0, [], False) == (
        "exit status 0: no case FAILED (SCORED cases exit 0 unless --fail-on scored)"
    )
    assert exit_rule(2, [], False) == "exit status 2: an input could not be loaded or written"
    assert exit_rule(0, [], True) == "exit status 0: no case FAILED or SCORED (--fail-on scored)"


def test_did_you_mean_for_memory_skills_and_agents() -> None:
    rec = (
        TrialRecord.builder()
        .memory_set("refund.order_id", "A1")
        .memory_set("refund.amount", 4)
        .skill("activated", "refund")
        .subagent("researcher")
        .build()
    )
    ctx = EvalContext(rec)
    assert ctx.memory_was_set("refund.orderid").result.message == (
        "'refund.orderid' was never written; memory keys written, nearest first: "
        "'refund.order_id', 'refund.amount'"
    )
    assert ctx.memory_was_cleared("refund.amout").result.message == (
        "'refund.amout' was never cleared; memory keys written, nearest first: "
        "'refund.amount', 'refund.order_id'"
    )
    assert ctx.skill_activated("refnd").result.message == (
        "skill 'refnd' was not activated (1 skill event; closest e2); skills recorded, "
        "nearest first: 'refund'"
    )
    assert ctx.called_subagent("researcer").result.message == (
        "matched 0 completed delegations to 'researcer' (expected at least 1); sub-agents "
        "recorded, nearest first: 'researcher'"
    )
    assert ctx.event("audt").result.message == (
        "matched 0 events on.event('audt') (expected at least 1); event kinds recorded, nearest "
        "first: 'skill', 'memory', 'delegation'"
    )
