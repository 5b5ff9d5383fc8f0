"""Finding 4: a worker process that dies loses no finished result and never hangs a batch."""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from agent_asserts import EvalContext, TrialRecord, evaluate_many
from agent_asserts.batch.pool import BROKEN_POOL, GAVE_UP, pooled_outcomes
from agent_asserts.results import Verdict


def dies_on_crash(ctx: EvalContext) -> None:
    if ctx.record.reply == "crash":
        os._exit(1)
    ctx.expect(ctx.record.reply).equals("ok")


def _records(replies: list[str]) -> list[TrialRecord]:
    return [TrialRecord.builder().agent(text).build() for text in replies]


def test_a_dead_worker_fails_its_record_and_the_rest_still_run() -> None:
    replies = ["ok"] * 9 + ["crash"] + ["ok"] * 5
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(_records(replies), dies_on_crash, executor=pool, max_in_flight=1)
    verdicts = [c.verdict for c in batch.cases]
    assert len(verdicts) == 15
    assert verdicts[:9] == [Verdict.PASSED] * 9  # the nine finished results are kept
    assert verdicts[9] is Verdict.FAILED
    assert batch.cases[9].error is not None
    assert batch.cases[9].error.startswith("the worker process evaluating this record died (")
    assert verdicts[10:] == [Verdict.PASSED] * 5  # a new pool ran the rest


def test_records_in_flight_when_the_pool_breaks_are_failed_with_the_reason() -> None:
    replies = ["ok", "ok", "crash", "ok", "ok", "ok"]
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(_records(replies), dies_on_crash, executor=pool, max_in_flight=3)
    assert len(batch.cases) == 6
    assert batch.cases[2].verdict is Verdict.FAILED
    for case in batch.cases:
        assert case.verdict is Verdict.PASSED or "worker process" in (case.error or "")
    assert batch.cases[-1].verdict is Verdict.PASSED


def test_after_the_restart_limit_every_remaining_record_is_failed() -> None:
    with ProcessPoolExecutor(1) as pool:
        batch = evaluate_many(_records(["crash"] * 6 + ["ok"] * 3), dies_on_crash,
                              executor=pool, max_in_flight=1)  # fmt: skip
    errors = [c.error or "" for c in batch.cases]
    assert len(errors) == 9
    assert all(e.startswith("the worker process evaluating this record died") for e in errors[:4])
    assert errors[4:] == [GAVE_UP.format(count=4)] * 5


def test_an_executor_that_cannot_be_restarted_fails_the_rest_at_once() -> None:
    from concurrent.futures import BrokenExecutor

    def task(item: int) -> int:
        if item == 2:
            raise BrokenExecutor("gone")
        return item

    def failed(item: Any, why: str) -> str:
        return f"{item}: {why}"

    with ThreadPoolExecutor(1) as pool:
        out = list(pooled_outcomes(range(5), task, pool, limit=1, failed=failed))
    assert out[:2] == [0, 1]
    assert out[2] == "2: " + BROKEN_POOL.format(reason="gone")
    assert out[3:] == [
        f"{i}: not evaluated: the executor broke (gone) and a ThreadPoolExecutor cannot be "
        "restarted"
        for i in (3, 4)
    ]
