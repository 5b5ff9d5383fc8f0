"""run_case: verdicts, errors, requirements, skips and the time limit."""

from __future__ import annotations

import time

import pytest

from agent_asserts import EvalContext, Verdict, run_case
from agent_asserts.testing import demo_record


def test_require_stops_the_case_and_its_gate_decides() -> None:
    seen: list[str] = []

    def case(ctx: EvalContext) -> None:
        ctx.require("has reply", ctx.record.reply is None)
        seen.append("after")

    result = run_case(demo_record(), case)
    assert result.verdict is Verdict.FAILED
    assert result.error is None
    assert seen == []


def test_skip_gives_skipped_unless_a_gate_already_failed() -> None:
    def skipping(ctx: EvalContext) -> None:
        ctx.skip("not configured")

    def failing_then_skipping(ctx: EvalContext) -> None:
        ctx.used_no_tools()
        ctx.skip("not configured")

    skipped = run_case(demo_record(), skipping)
    assert (skipped.verdict, skipped.skip_reason) == (Verdict.SKIPPED, "not configured")
    assert run_case(demo_record(), failing_then_skipping).verdict is Verdict.FAILED


def test_an_error_after_skip_still_fails() -> None:
    def case(ctx: EvalContext) -> None:
        try:
            ctx.skip("x")
        finally:
            raise RuntimeError("cleanup failed")

    result = run_case(demo_record(), case)
    assert result.verdict is Verdict.FAILED
    assert result.error == "RuntimeError: cleanup failed"


def test_the_timeout_stops_the_case_in_the_middle_of_python_code() -> None:
    def slow(ctx: EvalContext) -> None:
        time.sleep(0.05)

    def slow_then_check(ctx: EvalContext) -> None:
        time.sleep(0.05)
        ctx.succeeded()

    for fn in (slow, slow_then_check):
        result = run_case(demo_record(), fn, timeout=0.01)
        assert result.verdict is Verdict.FAILED
        assert result.error == (
            "TimeLimitExceeded: the case passed its time limit of 0.01s (outside any check)"
        )


def test_case_name_defaults_to_the_function_name() -> None:
    def refund_is_issued(ctx: EvalContext) -> None:
        ctx.called_tool("refunds_issue")

    result = run_case(demo_record(), refund_is_issued)
    assert (result.name, result.verdict) == ("refund_is_issued", Verdict.PASSED)


def test_negative_timeout_is_rejected() -> None:
    with pytest.raises(ValueError, match="'timeout' must be a number of seconds >= 0"):
        run_case(demo_record(), lambda ctx: None, timeout=-1)


def test_a_passed_timeout_fails_the_case_even_when_skip_follows() -> None:
    def sleep_then_skip(ctx: EvalContext) -> None:
        time.sleep(0.05)
        ctx.skip("later")

    def skip_then_sleep(ctx: EvalContext) -> None:
        try:
            ctx.skip("later")
        finally:
            time.sleep(0.05)

    for fn in (sleep_then_skip, skip_then_sleep):
        result = run_case(demo_record(), fn, timeout=0.01)
        assert result.verdict is Verdict.FAILED, fn.__name__
        assert result.error == (
            "TimeLimitExceeded: the case passed its time limit of 0.01s (outside any check)"
        )


def test_a_timeout_that_is_not_a_number_is_rejected() -> None:
    with pytest.raises(ValueError, match="'timeout' must be a number of seconds >= 0"):
        run_case(demo_record(), lambda ctx: None, timeout="1")  # type: ignore[arg-type]
