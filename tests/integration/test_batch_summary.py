"""``keep_results=False``: the batch counts its cases without keeping them (verdicts, failed
checks, k-of-N tallies equal to a kept batch's), says so where rows are needed, and
``on_result`` still receives every case, in input order."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest

from agent_asserts import EvalContext, TrialRecord, evaluate_many
from agent_asserts.batch import BatchResult, BatchSummary
from agent_asserts.results import CaseResult


def make_record(i: int) -> TrialRecord:
    b = TrialRecord.builder().user("hi").tool("lookup", arguments={"id": i})
    return b.agent("done").build(steps=2 + i % 5)


def mixed(ctx: EvalContext) -> None:
    if ctx.record.steps == 6:
        ctx.skip("six")
    ctx.called_tool("lookup", arguments={"id": 3}).soft()
    ctx.max_steps(4)


RECORDS = [make_record(i) for i in range(60)]


@pytest.mark.parametrize("pooled", [False, True])
def test_a_summary_batch_counts_what_a_kept_batch_counts(pooled: bool) -> None:
    kept = evaluate_many(RECORDS, mixed)
    if pooled:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            summary = evaluate_many(RECORDS, mixed, executor=pool, keep_results=False)
    else:
        summary = evaluate_many(RECORDS, mixed, keep_results=False)
    assert summary.cases == () and summary.record_indexes == () and summary.sources == ()
    assert summary.summary == kept.summary == BatchSummary.of(kept.cases)
    assert len(summary) == len(kept) == 60 and not summary.kept and kept.kept
    assert summary.verdict_counts() == kept.verdict_counts()
    assert summary.failure_counts() == kept.failure_counts()
    assert (summary.pass_rate, summary.passed) == (kept.pass_rate, kept.passed)
    for rate in (0.2, 0.5, 1.0):
        counted, full = summary.trials(rate)["mixed"], kept.trials(rate)["mixed"]
        assert (counted.verdict, counted.passes, counted.n, counted.required) == (
            full.verdict, full.passes, full.n, full.required,
        )  # fmt: skip
        assert str(counted) == str(full)
        assert counted.trials == ()


def test_a_summary_batch_has_no_rows_and_says_why() -> None:
    batch = evaluate_many(RECORDS[:3], mixed, keep_results=False)
    with pytest.raises(ValueError, match=r"kept no case results \(evaluate_many\(\.\.\., keep"):
        batch.render("json")
    assert batch.verdict_counts() == {"failed": 0, "scored": 3, "skipped": 0, "passed": 0}
    assert str(batch) == "3 cases: 3 scored; pass rate 0.0% (results not kept)"


def test_on_result_gets_every_case_in_input_order() -> None:
    seen: list[CaseResult] = []
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(2, mp_context=context) as pool:
        batch = evaluate_many(RECORDS, mixed, executor=pool, on_result=seen.append,
                              keep_results=False, chunk_size=7)  # fmt: skip
    assert tuple(seen) == evaluate_many(RECORDS, mixed).cases
    assert batch.cases == () and len(batch) == 60


def test_a_batch_built_from_cases_counts_them() -> None:
    batch = BatchResult((CaseResult("a", "passed"), CaseResult("a", "failed")), (0, 1))
    assert batch.summary.verdicts == {"failed": 1, "scored": 0, "skipped": 0, "passed": 1}
    assert batch.kept and len(batch) == 2
