"""What a fluent call builds and records (#16, #22): the check its class builds, a result equal
to its constructed form, and nothing written into the frozen check or outcome."""

from __future__ import annotations

import pickle
from typing import Any

import attrs
import pytest

from agent_asserts import EvalContext, on
from agent_asserts.checks import sequencing, state, tools
from agent_asserts.checks.events import EventCheck, NotEvent
from agent_asserts.checks.traces import StepCount
from agent_asserts.matching.operators import ANY
from agent_asserts.outcome import Outcome
from agent_asserts.results import AssertionResult, EvaluatorInfo, Severity, Status
from agent_asserts.testing import demo_record


@pytest.mark.parametrize(
    ("call", "check"),
    [
        (lambda ctx: ctx.step_count(3), StepCount(3)),
        (
            lambda ctx: ctx.called_tool("refunds_issue", None, None, None, 1),
            tools.CalledTool("refunds_issue", count=1),
        ),
        (
            lambda ctx: ctx.not_called_tool("refunds_issue", before=on.tool("refunds_lookup")),
            tools.NotCalledTool("refunds_issue", before=on.tool("refunds_lookup")),
        ),
        (
            lambda ctx: ctx.tool_order("refunds_lookup", "refunds_issue", contiguous=True),
            sequencing.ToolOrder("refunds_lookup", "refunds_issue", contiguous=True),
        ),
        (
            lambda ctx: ctx.changed("/a", before=ANY, after="x"),
            state.Changed("/a", before=ANY, after="x"),
        ),
        (
            lambda ctx: ctx.event(on.event("audit", operation_ref="op-7")),
            EventCheck(on.event("audit", operation_ref="op-7")),
        ),
        (lambda ctx: ctx.not_event("audit"), NotEvent("audit")),
    ],
)
def test_a_fluent_call_records_what_its_check_records(call: Any, check: Any) -> None:
    fluent = call(EvalContext(demo_record())).result
    direct = EvalContext(demo_record()).record_check(check).result
    assert fluent == direct and fluent.message == direct.message
    assert fluent.description == direct.description


def test_recording_writes_nothing_into_the_check() -> None:
    checks = [
        StepCount(4),
        tools.CalledTool("refunds_issue", arguments={"amount": 42}),
        tools.NotCalledTool("refunds_issue", before="refunds_lookup"),
        sequencing.ToolOrder("refunds_lookup", "refunds_issue"),
        EventCheck("memory"),
    ]
    for check in checks:
        before = {f.name: getattr(check, f.name) for f in attrs.fields(type(check))}
        ctx = EvalContext(demo_record())
        first = ctx.record_check(check).result
        again = ctx.record_check(check).result
        assert first == again and first.description == again.description
        assert vars(check).keys() == {f.name for f in attrs.fields(type(check))}  # fields only
        assert {f.name: getattr(check, f.name) for f in attrs.fields(type(check))} == before
        assert pickle.loads(pickle.dumps(check)) == check


def test_an_outcome_is_a_plain_attrs_instance() -> None:
    outcome = Outcome.of(True, message="ok")
    assert vars(outcome).keys() == {f.name for f in attrs.fields(Outcome)}  # its fields only
    assert attrs.asdict(outcome)["status"] is Status.PASS
    assert outcome == Outcome(Status.PASS, 1.0, message="ok")
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        outcome.score = 0.0  # type: ignore[misc]


def test_fluent_results_equal_their_constructed_form() -> None:
    ctx = EvalContext(demo_record())
    result = ctx.step_count(4).result
    assert result == AssertionResult(
        "step_count:4", "pass", 1.0, message="expected 4 steps, got 4", expected=4,
        observed=4, evaluator=EvaluatorInfo(), description="step_count(4)",
    )  # fmt: skip
    assert type(result) is AssertionResult


def test_outcome_of_with_extra_fields_equals_its_constructed_form() -> None:
    fast = Outcome.of(False, message="m", observed=1, mismatches=["x"], closest="e1")
    slow = Outcome(Status.FAIL, 0.0, message="m", observed=1, mismatches=("x",), closest="e1")
    assert fast == slow and fast.mismatches == ("x",) and repr(fast) == repr(slow)
    judged = Outcome.of(True, evaluator={"model": "m"}, force_gate=True, passed_by_judge=True)
    assert judged.evaluator == {"model": "m"} and judged.force_gate and judged.passed_by_judge
    with pytest.raises(TypeError, match="unexpected keyword argument 'nope'"):
        Outcome.of(True, nope=1)


@pytest.mark.parametrize(
    ("outcome_of", "severity", "details", "score_decides"),
    [
        (lambda: Outcome.of(True), Severity.SOFT, {}, True),
        (lambda: Outcome.of(True).replace(force_gate=True), Severity.GATE, {}, True),
        (lambda: Outcome.of(True, details={"a": 1}), Severity.SOFT, {"a": 1}, True),
        (lambda: Outcome.of(True, evaluator={"model": "m"}), Severity.SOFT, {"model": "m"}, True),
        (lambda: Outcome.of(False).replace(passed_by_judge=True), Severity.SOFT, {}, False),
        (lambda: Outcome.invalid("x").replace(details={"b": 2}), Severity.SOFT, {"b": 2}, True),
        (lambda: Outcome(Status.PASS, 1.0, force_gate=True), Severity.GATE, {}, True),
    ],
)
def test_the_recorder_reads_every_special_field_an_outcome_sets(
    outcome_of: object, severity: Severity, details: dict[str, object], score_decides: bool
) -> None:
    """Outcomes from the fast constructors skip the reads of details, evaluator, forced gate
    and judge verdict; any of them set (given, replaced or constructed) is still recorded."""
    from agent_asserts.fluent.recording import outcome_to_result

    outcome = outcome_of()  # type: ignore[operator]
    result = outcome_to_result(StepCount(1), outcome, severity="soft")
    assert result.severity is severity
    assert dict(result.evaluator.details) == details
    assert result.score_decides is score_decides
