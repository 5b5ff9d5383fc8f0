"""EvalContext: handles, value expectations, escape hatches and the recording path."""

from __future__ import annotations

import re
from typing import Any

import pytest

from agent_asserts import EvalContext, M, Severity, Status, TrialRecord, Verdict
from agent_asserts.checks.traces import StepCount
from agent_asserts.testing import demo_record


@pytest.fixture
def ctx() -> EvalContext:
    return EvalContext(demo_record(), name="demo")


def test_similarity_chain_applies_at_least_to_the_most_recent_result(ctx: EvalContext) -> None:
    ctx.expect("abcd").similarity("abcx").similarity("abcy").at_least(0.9)
    first, second = ctx.results
    assert first.threshold is None and first.status is Status.FAIL
    assert second.threshold == 0.9 and second.status is Status.FAIL
    assert first.score == second.score == 0.75


def test_similarity_is_soft_by_default(ctx: EvalContext) -> None:
    result = ctx.expect("kitten").similarity("sitting").result
    assert result.severity is Severity.SOFT
    assert ctx.verdict() is Verdict.SCORED


def test_at_least_zero_always_passes(ctx: EvalContext) -> None:
    assert ctx.expect("a").similarity("zzzz").at_least(0.0).result.passed


def test_at_least_outside_unit_interval_is_a_value_error(ctx: EvalContext) -> None:
    with pytest.raises(ValueError, match=r"'threshold' must be in \[0, 1\] \(got 1.2\)"):
        ctx.expect("a").similarity("a").at_least(1.2)


def test_handle_mutators_replace_the_recorded_result(ctx: EvalContext) -> None:
    handle = ctx.max_tool_calls(1)
    before = ctx.results[0]
    handle.soft().label("efficiency")
    after = ctx.results[0]
    assert before.severity is Severity.GATE and after.severity is Severity.SOFT
    assert after.label == "efficiency" and before.label is None
    handle.gate()
    assert ctx.results[0].severity is Severity.GATE


def test_includes_is_strict_about_bools_inside_lists(ctx: EvalContext) -> None:
    assert not ctx.expect([True, "1"]).includes(1).result.passed
    assert ctx.expect([1, 2]).includes(2).result.passed
    assert ctx.expect("refund issued").includes("issued").result.passed
    assert not ctx.expect({"a": 1}).includes("a").result.passed


def test_equals_uses_partial_matching(ctx: EvalContext) -> None:
    assert ctx.expect({"a": 1, "b": 2}).equals({"a": 1}).result.passed
    r = ctx.expect({"a": 1}).equals({"a": 2}).result
    assert [str(m) for m in r.mismatches] == ["$.a: expected 2, got 1"]


def test_matches_takes_a_pattern_or_a_matcher(ctx: EvalContext) -> None:
    assert ctx.expect("order #12").matches(r"#\d+").result.passed
    assert ctx.expect(5).matches(M.gt(3)).result.passed
    with pytest.raises(ValueError, match="invalid regular expression"):
        ctx.expect("x").matches("(")


def test_satisfies_that_raises_is_an_evaluator_error(ctx: EvalContext) -> None:
    r = ctx.expect(1).satisfies(lambda v: 1 / 0).result
    assert r.status is Status.EVALUATOR_ERROR
    assert r.message == "predicate raised ZeroDivisionError: division by zero"


def test_state_reads_the_final_state_by_json_pointer(ctx: EvalContext) -> None:
    assert ctx.state("/orders/A1049/status").equals("refunded").result.passed
    assert ctx.state("/orders/A1049/status", initial=True).equals("paid").result.passed


def test_a_missing_state_path_only_matches_absent(ctx: EvalContext) -> None:
    assert ctx.state("/orders/B2/status").equals(M.absent()).result.passed
    r = ctx.state("/orders/B2/status").equals("refunded").result
    assert r.status is Status.INVALID
    assert r.message == "the path '/orders/B2/status' does not exist"


def test_state_without_final_state_is_invalid() -> None:
    ctx = EvalContext(TrialRecord.from_dict({"events": []}))
    r = ctx.state("/x").equals(1).result
    assert (r.status, r.message) == (Status.INVALID, "the record has no final_state")


def test_check_require_skip_and_log(ctx: EvalContext) -> None:
    from agent_asserts import RequirementFailed, Skipped

    assert ctx.check("custom", True).result.evaluator.type == "custom"
    with pytest.raises(RequirementFailed):
        ctx.require("precondition", False, "no reply")
    assert ctx.results[-1].status is Status.FAIL
    assert ctx.results[-1].message == "no reply"
    ctx.log("note", value=3)
    assert ctx.logs[0].context == {"value": 3}
    with pytest.raises(Skipped):
        ctx.skip("later")
    assert ctx.skip_reason == "later"


def test_step_and_token_messages() -> None:
    rec = TrialRecord.from_dict({"events": [], "steps": 2, "usage": {"total_tokens": 250}})
    ctx = EvalContext(rec)
    assert ctx.step_count(3).result.message == "expected 3 steps, got 2"
    assert ctx.max_steps(1).result.message == "expected at most 1 step, got 2"
    assert ctx.total_tokens_at_most(200).result.message == "used 250 tokens, limit 200"
    assert [r.status for r in ctx.results] == [Status.FAIL] * 3


def test_step_count_without_steps_is_invalid() -> None:
    r = EvalContext(TrialRecord.from_dict({"events": []})).step_count(3).result
    assert (r.status, r.message) == (Status.INVALID, "the record has no step count")


def test_record_check_turns_an_exception_into_an_evaluator_error(ctx: EvalContext) -> None:
    class Broken(StepCount):
        def evaluate(self, record: TrialRecord):  # type: ignore[no-untyped-def]
            raise RuntimeError("boom")

    r = ctx.record_check(Broken(1)).result
    assert r.status is Status.EVALUATOR_ERROR
    assert r.message == "check raised RuntimeError: boom"


def test_record_check_name_severity_threshold_and_label(ctx: EvalContext) -> None:
    r = ctx.record_check(
        StepCount(4), name="steps", severity="soft", threshold=0.5, label="budget"
    ).result
    assert (r.name, r.severity, r.threshold, r.label) == ("steps", Severity.SOFT, 0.5, "budget")


def test_result_names(ctx: EvalContext) -> None:
    ctx.expect("x").includes("x")
    ctx.state("/orders/A1049/status").equals("refunded")
    ctx.step_count(4)
    assert [r.name for r in ctx.results] == [
        "includes",
        "equals:/orders/A1049/status",
        "step_count:4",
    ]


def test_handle_methods_before_any_value_expectation_never_touch_other_results(
    ctx: EvalContext,
) -> None:
    ctx.check("critical_gate", False)
    for change in ("gate", "soft", "label", "at_least"):
        expectation = ctx.expect("x")
        method = getattr(expectation, change)
        args = ("oops",) if change == "label" else (0.0,) if change == "at_least" else ()
        with pytest.raises(LookupError, match="no result has been recorded on this value yet"):
            method(*args)
    assert [(r.name, r.severity, r.label) for r in ctx.results] == [
        ("critical_gate", Severity.GATE, None)
    ]
    assert ctx.verdict() is Verdict.FAILED


def test_log_context_with_a_broken_repr_renders() -> None:
    class Bad:
        def __repr__(self) -> str:
            raise RuntimeError("nope")

    ctx = EvalContext(demo_record())
    ctx.log("x", obj=Bad())
    assert str(ctx.logs[0]) == "x {'obj': <Bad object (repr failed: RuntimeError)>}"


def test_expectations_on_a_missing_state_path_other_than_absence_are_invalid(
    ctx: EvalContext,
) -> None:
    called: list[object] = []
    r = ctx.state("/orders/B7").satisfies(lambda v: called.append(v) or True).result
    assert (r.status, r.message) == (Status.INVALID, "the path '/orders/B7' does not exist")
    assert called == []
    r = ctx.state("/orders/B7/status").equals(~M.regex("cancel")).result
    assert r.status is Status.INVALID
    assert ctx.state("/orders/B7").equals(M.absent() | M.gt(1)).result.passed


def test_a_failed_state_expectation_names_its_path_in_the_summary(ctx: EvalContext) -> None:
    r = ctx.state("/orders/A1049/status").equals("x").result
    assert r.description == "state('/orders/A1049/status').equals('x')"
    r = ctx.state("/orders/A1049/status", initial=True).equals("x").result
    assert r.description == "state('/orders/A1049/status', initial=True).equals('x')"


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: EvalContext(None), TypeError, "'record' must be a TrialRecord (got NoneType)"),
        (
            lambda: EvalContext({"events": []}),
            TypeError,
            "'record' must be a TrialRecord (got dict)",
        ),
        (lambda: EvalContext(demo_record(), judge=5), TypeError, "'judge' must be a callable"),
        (
            lambda: EvalContext(demo_record()).check("x", "yes"),
            TypeError,
            "EvalContext.check(): 'passed' must be bool, got str ('yes')",
        ),
        (lambda: EvalContext(demo_record()).check("x", True, 5), TypeError, "'message' must be"),
        (
            lambda: EvalContext(demo_record()).expect(1).satisfies(5),
            TypeError,
            "ValueExpectation.satisfies(): 'fn' must be callable, got int (5)",
        ),
        (lambda: EvalContext(demo_record()).state("/a", initial="yes"), TypeError, "'initial'"),
    ],
)
def test_misuse_is_a_clear_error_when_the_check_is_built(
    build: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        build()  # type: ignore[operator]


def test_similarity_compares_unicode_normal_forms(ctx: EvalContext) -> None:
    assert ctx.expect("cafe\u0301").similarity("caf\u00e9").result.score == 1.0


def test_a_subclass_record_check_still_sees_every_fluent_call() -> None:
    seen: list[str] = []

    class Spying(EvalContext):
        def record_check(self, check: Any, **options: Any) -> Any:
            seen.append(check.default_name())
            return super().record_check(check, **options)

    ctx = Spying(demo_record())
    ctx.step_count(4)
    ctx.expect("ok").equals("ok")
    ctx.record_check(StepCount(2), name="two")
    assert seen == ["step_count:4", "equals", "step_count:2"]
    assert [r.name for r in ctx.results] == ["step_count:4", "equals", "two"]


def test_a_fluent_call_records_the_same_result_as_record_check() -> None:
    fluent, direct = EvalContext(demo_record()), EvalContext(demo_record())
    fluent.step_count(4)
    fluent.step_count(4)  # the second time through the construction cache
    direct.record_check(StepCount(4))
    direct.record_check(StepCount(4))
    assert fluent.results == direct.results
    assert [repr(r) for r in fluent.results] == [repr(r) for r in direct.results]
    assert [r.to_dict() for r in fluent.results] == [r.to_dict() for r in direct.results]
