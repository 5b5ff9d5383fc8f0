"""run_trials, the k-of-N rule, pass@k and pass^k."""

from __future__ import annotations

import math

import pytest

from agent_asserts.context import EvalContext
from agent_asserts.judges import callable_judge
from agent_asserts.record import TrialRecord
from agent_asserts.results import CaseResult, Verdict
from agent_asserts.trials import TrialsResult, required_passes, run_trials, trials_verdict


@pytest.mark.parametrize(
    ("n", "rate", "required"),
    [
        (5, 0.8, 4),
        (10, 0.7, 7),
        (3, 1, 3),
        (1, 1, 1),
        (10, 0.3, 3),
        (3, 0.7, 3),
        (4, 0.75, 3),
        (9, 0.9, 9),
        (100, 0.07, 7),
        (10, 0.01, 1),
    ],
)
def test_k_of_n_table(n: int, rate: float, required: int) -> None:
    assert required_passes(n, rate) == required


@pytest.mark.parametrize("rate", [0, 0.0, -0.5, 1.01, 2])
def test_pass_rate_outside_the_interval(rate: float) -> None:
    with pytest.raises(ValueError, match="pass_rate"):
        required_passes(5, rate)
    with pytest.raises(ValueError, match="pass_rate"):
        run_trials([], lambda ctx: None, pass_rate=rate)


def test_pass_rate_type_and_n() -> None:
    with pytest.raises(TypeError):
        required_passes(5, True)
    with pytest.raises(ValueError, match="'n'"):
        required_passes(0, 0.5)


def cases(*verdicts: str) -> list[CaseResult]:
    return [CaseResult("case", v) for v in verdicts]


def test_scored_is_a_miss_and_skipped_is_left_out() -> None:
    result = TrialsResult.from_cases(cases("passed", "scored", "skipped", "passed"), 0.7)
    assert (result.n, result.passes, result.required) == (3, 2, 3)
    assert result.verdict is Verdict.FAILED
    assert len(result.trials) == 4
    assert str(result) == "FAILED: 2/3 trials passed (3 required at pass_rate 0.7), 1 skipped"
    ok = TrialsResult.from_cases(cases("passed", "skipped", "passed", "failed"), 0.6)
    assert (ok.n, ok.required, ok.verdict) == (3, 2, Verdict.PASSED)


def test_all_skipped_is_skipped() -> None:
    result = TrialsResult.from_cases(cases("skipped", "skipped"))
    assert (result.verdict, result.n, result.passes) == (Verdict.SKIPPED, 2, 0)
    assert trials_verdict(cases("skipped")) is Verdict.SKIPPED


def test_trials_verdict_reusable() -> None:
    assert trials_verdict(cases("passed", "failed", "passed", "passed", "passed"), 0.8) is (
        Verdict.PASSED
    )
    assert trials_verdict(cases("passed", "failed", "failed", "passed", "passed"), 0.8) is (
        Verdict.FAILED
    )
    with pytest.raises(ValueError, match="no trials"):
        trials_verdict([])


def _reference_pass_at_k(n: int, c: int, k: int) -> float:
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


@pytest.mark.parametrize(("n", "c"), [(10, 3), (5, 5), (5, 0), (20, 7)])
def test_pass_at_k_and_hat_k_against_formulas(n: int, c: int) -> None:
    result = TrialsResult.from_cases(cases(*(["passed"] * c + ["failed"] * (n - c))))
    for k in range(1, n + 1):
        assert result.pass_at_k(k) == pytest.approx(_reference_pass_at_k(n, c, k))
        assert result.pass_hat_k(k) == pytest.approx(math.comb(c, k) / math.comb(n, k))


def test_pass_at_k_known_values() -> None:
    result = TrialsResult.from_cases(cases("passed", "passed", "failed", "failed", "failed"))
    assert result.pass_at_k(1) == pytest.approx(0.4)
    assert result.pass_at_k(2) == pytest.approx(0.7)  # 1 - C(3,2)/C(5,2) = 1 - 3/10
    assert result.pass_at_k(4) == 1.0
    assert result.pass_hat_k(1) == pytest.approx(0.4)
    assert result.pass_hat_k(2) == pytest.approx(0.1)  # C(2,2)/C(5,2) = 1/10
    assert result.pass_hat_k(3) == 0.0


def test_pass_at_k_undefined_when_n_below_k() -> None:
    result = TrialsResult.from_cases(cases("passed", "skipped", "failed"))
    with pytest.raises(ValueError, match="k=3 with only n=2"):
        result.pass_at_k(3)
    with pytest.raises(ValueError, match="pass\\^k"):
        result.pass_hat_k(3)
    with pytest.raises(ValueError, match="'k'"):
        result.pass_at_k(0)


def _record(refunded: bool) -> TrialRecord:
    builder = TrialRecord.builder().user("refund A1")
    if refunded:
        builder = builder.tool("refund", arguments={"id": "A1"})
    return builder.agent("done").build()


def test_run_trials_end_to_end() -> None:
    records = [_record(True), _record(True), _record(False), _record(True), _record(True)]

    def refund_case(ctx: EvalContext) -> None:
        ctx.called_tool("refund")

    result = run_trials(records, refund_case, pass_rate=0.8)
    assert (result.verdict, result.passes, result.required, result.n) == (
        Verdict.PASSED,
        4,
        4,
        5,
    )
    assert [t.verdict for t in result.trials][2] is Verdict.FAILED
    assert run_trials(records, refund_case).verdict is Verdict.FAILED
    assert result.to_dict()["passes"] == 4


def test_run_trials_with_a_judge_and_skips() -> None:
    records = [_record(True), _record(False), _record(True)]

    def case(ctx: EvalContext) -> None:
        if not ctx.record.tool_calls:
            ctx.skip("no tools in this trial")
        EvalContext.judge(ctx, "the agent was brief")  # ctx.judge(...); see test_judges_semantic

    passing = run_trials(records, case, judge=callable_judge(lambda p: True))
    assert (passing.verdict, passing.n, passing.passes) == (Verdict.PASSED, 2, 2)
    scored = run_trials(records, case, judge=callable_judge(lambda p: 0.5))
    assert (scored.verdict, scored.passes) == (Verdict.FAILED, 0)  # SCORED trials are misses


def test_run_trials_needs_records() -> None:
    with pytest.raises(ValueError, match="at least one record"):
        run_trials([], lambda ctx: None)
