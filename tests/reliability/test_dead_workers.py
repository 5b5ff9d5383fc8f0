"""Finding 4: a worker process that dies loses no finished result and never hangs a batch.

Issue 25: a dead worker loses exactly its own record (the other records of its chunk, and of
the chunks in flight with it, are re-run one per task), on a process pool and on Dask, with
the default chunk sizes; a record that cannot be pickled is one failed case."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from agent_asserts import EvalContext, TrialRecord, evaluate_many
from agent_asserts.batch.pool import BROKEN_POOL, GAVE_UP, RAISED, pooled_outcomes
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


# -- issue 25: a dead worker loses exactly its own record, with the default chunk sizes ------------


def test_one_dead_worker_loses_exactly_its_record_with_the_default_chunks() -> None:
    replies = ["ok"] * 4 + ["crash"] + ["ok"] * 5  # one chunk of 10 (default chunk_size 64)
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(_records(replies), dies_on_crash, executor=pool)
    verdicts = [c.verdict for c in batch.cases]
    assert verdicts == [Verdict.PASSED] * 4 + [Verdict.FAILED] + [Verdict.PASSED] * 5
    assert (batch.cases[4].error or "").startswith("the worker process evaluating this record died")


def test_a_dead_worker_among_several_chunks_in_flight_loses_one_record() -> None:
    replies = ["ok"] * 300
    replies[150] = "crash"  # chunks of 64, four in flight on two workers: 256 records at risk
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(_records(replies), dies_on_crash, executor=pool)
    failed = [i for i, c in enumerate(batch.cases) if c.verdict is not Verdict.PASSED]
    assert failed == [150]
    assert len(batch.cases) == 300


def test_two_killers_in_one_chunk_each_lose_only_themselves() -> None:
    replies = ["ok", "crash", "ok", "ok", "crash", "ok"]
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(_records(replies), dies_on_crash, executor=pool)
    verdicts = [c.verdict for c in batch.cases]
    assert verdicts == [Verdict.PASSED, Verdict.FAILED, Verdict.PASSED, Verdict.PASSED,
                        Verdict.FAILED, Verdict.PASSED]  # fmt: skip


def test_on_dask_a_dead_worker_loses_exactly_its_record() -> None:
    distributed = pytest.importorskip("distributed")
    dask = pytest.importorskip("dask")
    replies = ["ok"] * 4 + ["crash"] + ["ok"] * 5  # one chunk of 10 (default chunk_size 256)
    # allowed-failures 0: the scheduler gives up on a task at its first dead worker (fast);
    # the default (3) retries it on three more workers first, with the same end result
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": 0}),
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,  # fmt: skip
        distributed.Client(cluster) as client,
    ):
        batch = evaluate_many(_records(replies), dies_on_crash, executor=client.get_executor())
    verdicts = [c.verdict for c in batch.cases]
    assert verdicts == [Verdict.PASSED] * 4 + [Verdict.FAILED] + [Verdict.PASSED] * 5
    assert "KilledWorker" in (batch.cases[4].error or "")


# -- a record that cannot be pickled is one failed case ---------------------------------------


def _deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = {"a": value}
    return value


def called_lookup(ctx: EvalContext) -> None:
    ctx.called_tool("lookup")


def test_a_record_too_deep_to_pickle_is_one_failed_case_and_the_rest_pass() -> None:
    good = [TrialRecord.builder().tool("lookup", {"id": i}).build() for i in range(30)]
    deep = TrialRecord.builder().tool("lookup", {"v": _deep(600)}).build()
    records = [*good[:10], deep, *good[10:]]
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(records, called_lookup, executor=pool)
    verdicts = [c.verdict for c in batch.cases]
    assert verdicts == [Verdict.PASSED] * 10 + [Verdict.FAILED] + [Verdict.PASSED] * 20
    assert batch.cases[10].error == RAISED.format(
        error="RecursionError: maximum recursion depth exceeded while pickling an object"
    )
    assert batch.cases[10].error == (
        "this record could not be evaluated on the executor (RecursionError: maximum "
        "recursion depth exceeded while pickling an object)"
    )


def test_an_unpicklable_record_input_is_one_failed_case_on_dask_too() -> None:
    distributed = pytest.importorskip("distributed")
    inputs: list[Any] = [{"events": []}, {"events": [], "extra": threading.Lock()}, {"events": []}]
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=None) as client:  # fmt: skip
        batch = evaluate_many(inputs, called_lookup, executor=client.get_executor())
    assert len(batch.cases) == 3
    assert "cannot pickle '_thread.lock' object" in (batch.cases[1].error or "")
    assert batch.cases[1].error.startswith("this record could not be evaluated on the executor")
    assert [c.error for c in batch.cases[::2]] == [None, None]


def test_a_task_that_raises_is_re_run_part_by_part_in_order() -> None:
    def task(chunk: list[Any]) -> list[Any]:
        if "bad" in chunk:
            raise ValueError("cannot evaluate 'bad'")
        return [x * 10 for x in chunk]

    def failed(chunk: list[Any], why: str) -> list[Any]:
        return [f"{x}: {why}" for x in chunk]

    with ThreadPoolExecutor(2) as pool:
        out = list(pooled_outcomes([[1, 2], [3, "bad", 4], [5, 6]], task, pool, limit=3,
                                   failed=failed, split=lambda c: [[x] for x in c]))  # fmt: skip
    assert out == [
        [10, 20], [30],
        ["bad: " + RAISED.format(error="ValueError: cannot evaluate 'bad'")],
        [40], [50, 60],
    ]  # fmt: skip
