"""JudgeCheck and the severity rules of seed 004, through the check and through EvalContext."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts.checks import all_checks
from agent_asserts.checks.semantic import JudgeCheck
from agent_asserts.context import EvalContext
from agent_asserts.fluent.handles import AssertionHandle
from agent_asserts.judges import TEMPLATE_VERSION, JudgeRequest, JudgeResponse, callable_judge
from agent_asserts.record import TrialRecord
from agent_asserts.results import Severity, Status, Verdict
from agent_asserts.runner import run_case
from agent_asserts.selectors import on

RECORD = (
    TrialRecord.builder()
    .user("refund A1")
    .tool("refund", arguments={"id": "A1"}, result={"ok": True})
    .agent("Refund issued, sorry for the trouble.")
    .build()
)


def fixed(score: float, passed: bool | None = None, **kw: Any) -> Any:
    def judge(request: JudgeRequest) -> JudgeResponse:
        return JudgeResponse(score, passed=passed, **kw)

    return judge


def judge_on(ctx: EvalContext, criterion: str, **kwargs: Any) -> AssertionHandle:
    """``ctx.judge(...)`` called through the class (the instance may shadow it; see report)."""
    return EvalContext.judge(ctx, criterion, **kwargs)


def raising(request: JudgeRequest) -> JudgeResponse:
    raise ConnectionError("judge model unreachable")


# -- the severity rules ----------------------------------------------------------------------


def test_configured_judge_defaults_to_soft() -> None:
    ctx = EvalContext(RECORD, judge=fixed(0.3))
    result = judge_on(ctx, "the agent apologised").result
    assert (result.status, result.severity) == (Status.FAIL, Severity.SOFT)
    assert ctx.verdict() is Verdict.SCORED


def test_configured_judge_can_be_made_a_gate() -> None:
    ctx = EvalContext(RECORD, judge=fixed(0.3))
    judge_on(ctx, "the agent apologised").gate()
    assert ctx.verdict() is Verdict.FAILED


def test_no_judge_is_an_invalid_gate() -> None:
    ctx = EvalContext(RECORD)
    result = judge_on(ctx, "the agent apologised").result
    assert (result.status, result.severity) == (Status.INVALID, Severity.GATE)
    assert result.message == "no judge configured"
    assert ctx.verdict() is Verdict.FAILED
    assert JudgeCheck("x").evaluate(RECORD).status is Status.INVALID


def test_no_judge_gate_is_only_a_default() -> None:
    ctx = EvalContext(RECORD)
    judge_on(ctx, "the agent apologised").soft()
    assert ctx.verdict() is Verdict.SCORED


def test_raising_judge_is_a_gate_evaluator_error_whatever_soft_said() -> None:
    ctx = EvalContext(RECORD, judge=raising)
    handle = judge_on(ctx, "the agent apologised").soft()
    result = handle.result
    assert (result.status, result.severity) == (Status.EVALUATOR_ERROR, Severity.GATE)
    assert result.message == "the judge raised ConnectionError: judge model unreachable"
    assert ctx.verdict() is Verdict.FAILED
    outcome = JudgeCheck("x").run(RECORD, judge=raising)
    assert outcome.force_gate is True


def test_async_raising_judge_is_a_gate_evaluator_error() -> None:
    async def judge(request: JudgeRequest) -> JudgeResponse:
        raise TimeoutError("slow")

    result = judge_on(EvalContext(RECORD, judge=judge), "x").soft().result
    assert (result.status, result.severity) == (Status.EVALUATOR_ERROR, Severity.GATE)


@pytest.mark.parametrize(
    "bad",
    [
        lambda r: 0.9,
        lambda r: None,
        lambda r: {"score": 1.0},
        lambda r: "PASS",
    ],
)
def test_wrong_response_type_is_a_gate_evaluator_error(bad: Any) -> None:
    result = judge_on(EvalContext(RECORD, judge=bad), "x").soft().result
    assert (result.status, result.severity) == (Status.EVALUATOR_ERROR, Severity.GATE)
    assert result.message.startswith("the judge returned an invalid response")


@pytest.mark.parametrize("score", [1.5, -0.01, float("nan"), float("inf")])
def test_score_outside_unit_interval_is_an_evaluator_error(score: float) -> None:
    def judge(request: JudgeRequest) -> JudgeResponse:
        response = JudgeResponse(0.5)
        object.__setattr__(response, "score", score)  # around the validator
        return response

    outcome = JudgeCheck("x").run(RECORD, judge=judge)
    assert outcome.status is Status.EVALUATOR_ERROR
    assert outcome.force_gate is True
    # and a judge that builds JudgeResponse(1.5) itself raises: the same rule
    assert JudgeCheck("x").run(RECORD, judge=lambda r: JudgeResponse(score)).status is (
        Status.EVALUATOR_ERROR
    )


def test_passed_decides_and_score_is_recorded() -> None:
    ctx = EvalContext(RECORD, judge=fixed(0.2, passed=True))
    result = judge_on(ctx, "the agent apologised").result
    assert (result.status, result.score, result.score_decides) == (Status.PASS, 0.2, False)
    ctx = EvalContext(RECORD, judge=fixed(0.95, passed=False))
    result = judge_on(ctx, "the agent apologised").result
    assert (result.status, result.score) == (Status.FAIL, 0.95)
    outcome = JudgeCheck("x").run(RECORD, judge=fixed(0.2, passed=True))
    assert outcome.passed_by_judge is True


def test_threshold_decides_a_bare_score() -> None:
    assert JudgeCheck("x").run(RECORD, judge=fixed(0.99)).status is Status.FAIL
    assert JudgeCheck("x").run(RECORD, judge=fixed(1.0)).status is Status.PASS
    assert JudgeCheck("x", threshold=0.7).run(RECORD, judge=fixed(0.7)).status is Status.PASS
    assert JudgeCheck("x", threshold=0.0).run(RECORD, judge=fixed(0.0)).status is Status.PASS
    result = judge_on(EvalContext(RECORD, judge=fixed(0.8)), "x").at_least(0.75).result
    assert result.status is Status.PASS


def test_explicit_threshold_wins_over_the_judges_passed() -> None:
    outcome = JudgeCheck("x", threshold=0.9).run(RECORD, judge=fixed(0.5, passed=True))
    assert outcome.status is Status.FAIL
    assert outcome.passed_by_judge is False
    assert outcome.evaluator["judge_passed"] is True


def test_evaluator_details_and_name() -> None:
    judge = fixed(0.6, passed=True, explanation="apology present", metadata={"model": "m-1"})
    result = judge_on(EvalContext(RECORD, judge=judge), "the agent apologised", rubric="r").result
    assert result.name == "judge:the agent apologised"
    assert result.evaluator.type == "semantic"
    details = result.evaluator.details
    assert details["model"] == "m-1"
    assert details["template_version"] == TEMPLATE_VERSION
    assert details["explanation"] == "apology present"
    assert details["metadata"] == {"model": "m-1"}
    assert result.evidence == ("e0", "e1", "e2")
    assert "apology present" in result.message
    assert result.expected == "the agent apologised"


def test_model_hint_reaches_the_judge_and_the_result() -> None:
    seen: list[JudgeRequest] = []

    def judge(request: JudgeRequest) -> JudgeResponse:
        seen.append(request)
        return JudgeResponse(1.0)

    result = judge_on(EvalContext(RECORD, judge=judge), "x", model="small").result
    assert seen[0].model == "small"
    assert result.evaluator.details["model"] == "small"


def test_evidence_selection_reaches_the_judge() -> None:
    seen: list[JudgeRequest] = []

    def judge(request: JudgeRequest) -> JudgeResponse:
        seen.append(request)
        return JudgeResponse(1.0)

    check = JudgeCheck("x", evidence=[on.tool("refund")])
    outcome = check.run(RECORD, judge=judge)
    assert outcome.evidence == ("e1",)
    assert seen[0].event_ids == ("e1",)
    assert "refund A1" not in seen[0].prompt
    missing = JudgeCheck("x", evidence=["e7"]).run(RECORD, judge=judge)
    assert missing.status is Status.INVALID and "'e7'" in missing.message


def test_check_is_data() -> None:
    check = JudgeCheck("polite", rubric="be kind", evidence=[on.tool("refund"), "e2"])
    assert all_checks()["judge"].__qualname__ == "JudgeCheck"  # doctest runs may re-import
    assert check.default_name() == "judge:polite"
    assert check.describe() == (
        "judge('polite', rubric='be kind', evidence=(on.tool('refund'), 'e2'))"
    )
    data = check.to_data()["judge"]
    assert (data["criterion"], data["rubric"], data["evidence"][1]) == ("polite", "be kind", "e2")
    assert check == JudgeCheck("polite", rubric="be kind", evidence=(on.tool("refund"), "e2"))


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"criterion": ""}, TypeError),
        ({"criterion": 3}, TypeError),
        ({"criterion": "x", "threshold": 1.2}, ValueError),
        ({"criterion": "x", "threshold": True}, TypeError),
        ({"criterion": "x", "rubric": 5}, TypeError),
        ({"criterion": "x", "evidence": "e1"}, TypeError),
    ],
)
def test_bad_arguments_raise_when_built(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        JudgeCheck(**kwargs)


def test_run_case_passes_the_judge_through() -> None:
    def case(ctx: EvalContext) -> None:
        ctx.called_tool("refund")
        judge_on(ctx, "the agent apologised")

    assert run_case(RECORD, case, judge=callable_judge(lambda p: True)).verdict is Verdict.PASSED
    assert run_case(RECORD, case, judge=callable_judge(lambda p: False)).verdict is Verdict.SCORED
    assert run_case(RECORD, case).verdict is Verdict.FAILED
