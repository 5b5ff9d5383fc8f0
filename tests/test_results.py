"""Results, thresholds and the verdict table."""

from __future__ import annotations

import pytest

from agent_asserts import AssertionResult, CaseResult, Severity, Status, Verdict
from agent_asserts.results import VerdictResolver, mean_score


def result(
    status: str = "pass", score: float | None = None, severity: str = "gate"
) -> AssertionResult:
    if score is None:
        score = 1.0 if status == "pass" else 0.0
    return AssertionResult(name="r", status=status, score=score, severity=severity)


def test_failed_gate_fails_the_case_even_with_nine_passes() -> None:
    results = [result() for _ in range(9)] + [result("fail")]
    assert VerdictResolver().resolve(results) is Verdict.FAILED


def test_failed_soft_result_scores_the_case() -> None:
    assert VerdictResolver().resolve([result(), result("fail", severity="soft")]) is Verdict.SCORED


@pytest.mark.parametrize("status", ["fail", "invalid", "evaluator_error"])
def test_every_failing_status_of_a_gate_fails_the_case(status: str) -> None:
    assert VerdictResolver().resolve([result(status)]) is Verdict.FAILED


def test_not_applicable_never_fails_a_case() -> None:
    assert VerdictResolver().resolve([result("not_applicable")]) is Verdict.PASSED


def test_skip_loses_to_a_failed_gate_but_wins_over_soft_failures() -> None:
    resolve = VerdictResolver().resolve
    assert resolve([result("fail")], skipped=True) is Verdict.FAILED
    assert resolve([result("fail", severity="soft")], skipped=True) is Verdict.SKIPPED


def test_an_error_fails_the_case_whatever_else_happened() -> None:
    assert VerdictResolver().resolve([result()], error=True, skipped=True) is Verdict.FAILED


def test_zero_results_pass() -> None:
    assert VerdictResolver().resolve([]) is Verdict.PASSED


def test_passed_follows_score_and_threshold() -> None:
    r = result("fail", score=0.92)
    assert not r.passed
    assert r.with_threshold(0.9).passed
    assert r.with_threshold(0.95).status is Status.FAIL
    assert result("fail", score=0.0).with_threshold(0.0).passed


def test_non_evaluated_statuses_ignore_thresholds() -> None:
    assert result("invalid").with_threshold(0.0).status is Status.INVALID


@pytest.mark.parametrize("bad", [-0.1, 1.5])
def test_scores_and_thresholds_outside_the_unit_interval_are_rejected(bad: float) -> None:
    with pytest.raises(ValueError, match=r"'score' must be in \[0, 1\]"):
        result("fail", score=bad)
    with pytest.raises(ValueError, match=r"'threshold' must be in \[0, 1\]"):
        result().with_threshold(bad)


def test_bool_score_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="'score' must be a number"):
        AssertionResult(name="x", status="pass", score=True)


def test_failed_covers_fail_invalid_and_evaluator_error_only() -> None:
    assert [
        result(s).failed for s in ("pass", "fail", "invalid", "evaluator_error", "not_applicable")
    ] == [
        False,
        True,
        True,
        True,
        False,
    ]


def test_case_score_is_the_mean_of_evaluated_results() -> None:
    case = CaseResult(
        name="c",
        verdict=Verdict.FAILED,
        results=(result(), result("fail", score=0.5), result("invalid")),
    )
    assert case.score == 0.75
    assert mean_score([result("invalid")]) is None


def test_case_to_dict_is_json_data() -> None:
    import json

    case = CaseResult(name="c", verdict="passed", results=(result(),))
    data = case.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["results"][0]["severity"] == "gate"
    assert data["results"][0]["evaluator"]["type"] == "deterministic"


def test_severity_and_status_accept_their_string_values() -> None:
    r = AssertionResult(name="x", status="fail", score=0.0, severity="soft")
    assert r.status is Status.FAIL and r.severity is Severity.SOFT


def test_an_evaluated_status_must_agree_with_score_and_threshold() -> None:
    with pytest.raises(
        ValueError, match=r"status 'pass' contradicts score 0\.2 with threshold None"
    ):
        AssertionResult(name="x", status="pass", score=0.2)
    with pytest.raises(ValueError, match=r"status 'fail' contradicts score 0\.95"):
        AssertionResult(name="x", status="fail", score=0.95, threshold=0.9)
    judged = AssertionResult(name="j", status="pass", score=0.2, score_decides=False)
    assert judged.passed
