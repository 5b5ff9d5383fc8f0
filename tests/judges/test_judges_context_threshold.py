"""A judge's own threshold through EvalContext, run_case and the native dialect."""

from __future__ import annotations

import pytest

from agent_asserts import EvalContext, Status, Verdict, run_case
from agent_asserts.judges import JudgeRequest, JudgeResponse
from agent_asserts.loaders import loads
from agent_asserts.testing import demo_record


def judge_scoring(score: float):  # type: ignore[no-untyped-def]
    def judge(request: JudgeRequest) -> JudgeResponse:
        return JudgeResponse(score=score)

    return judge


@pytest.mark.parametrize(
    ("score", "status"), [(0.4, Status.FAIL), (0.6, Status.PASS), (1.0, Status.PASS)]
)
def test_ctx_judge_threshold_between_score_and_one(score: float, status: Status) -> None:
    ctx = EvalContext(demo_record(), judge=judge_scoring(score))
    result = ctx.judge("polite", threshold=0.5).result
    assert (result.status, result.score, result.threshold) == (status, score, 0.5)


def test_run_case_with_a_judge_threshold_does_not_error() -> None:
    result = run_case(
        demo_record(), lambda ctx: ctx.judge("polite", threshold=0.5), judge=judge_scoring(0.6)
    )
    assert (result.verdict, result.error) == (Verdict.PASSED, None)


def test_native_judge_threshold() -> None:
    suite = loads(
        "checks:\n  - judge: {criterion: polite, threshold: 0.5}\n",
        name="j",
        judge=judge_scoring(0.6),
    )
    (result,) = suite.cases[0].evaluate(demo_record()).results
    assert (result.status, result.threshold) == (Status.PASS, 0.5)
