"""Chunked batches: results equal to serial ones on a process pool, a thread pool given a
chunk size, and a real Dask ``LocalCluster``; the suite is pickled once per batch."""

from __future__ import annotations

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from agent_asserts import EvalContext, TrialRecord, evaluate_many
from agent_asserts.batch import evaluate_input
from agent_asserts.batch.pool import evaluate_chunk, shipped


def make_record(i: int) -> dict[str, object]:
    return {
        "status": "completed" if i % 5 else "failed",
        "steps": i % 7,
        "events": [
            {"kind": "tool_call", "payload": {"name": "lookup", "arguments": {"id": i}}},
            {"kind": "message", "actor_ref": "agent", "payload": {"text": f"done {i}"}},
        ],
    }


def three_checks(ctx: EvalContext) -> None:
    ctx.called_tool("lookup", arguments={"id": 3})
    ctx.succeeded()
    ctx.max_steps(4).soft().label("efficiency")
    ctx.log("seen", n=1)


RECORDS = [make_record(i) for i in range(300)]


def test_a_process_pool_gives_the_serial_results_in_chunks() -> None:
    serial = evaluate_many(RECORDS, three_checks)
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        pooled = evaluate_many(iter(RECORDS), three_checks, executor=pool, chunk_size=16)
    assert pooled.cases == serial.cases
    assert pooled.record_indexes == serial.record_indexes
    assert [c.results[2].label for c in pooled.cases[:2]] == ["efficiency", "efficiency"]
    assert pooled.cases[0].results[0].description == "called_tool('lookup', arguments={'id': 3})"


def test_a_thread_pool_with_a_chunk_size_gives_the_serial_results() -> None:
    serial = evaluate_many(RECORDS, three_checks)
    with ThreadPoolExecutor(max_workers=2) as pool:
        chunked = evaluate_many(RECORDS, three_checks, executor=pool, chunk_size=7)
    assert chunked.cases == serial.cases


def test_a_real_dask_local_cluster_gives_the_serial_results() -> None:
    distributed = pytest.importorskip("distributed")
    serial = evaluate_many(RECORDS[:60], three_checks)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        batch = evaluate_many(RECORDS[:60], three_checks, executor=client.get_executor())
    assert batch.cases == serial.cases
    assert batch.record_indexes == serial.record_indexes


class CountedCase:
    """A picklable case function that counts how often it is pickled (in this process)."""

    pickled = 0

    def __call__(self, ctx: EvalContext) -> None:
        three_checks(ctx)

    def __reduce__(self) -> tuple[type[CountedCase], tuple[()]]:
        CountedCase.pickled += 1
        return (CountedCase, ())


def test_the_suite_is_pickled_once_per_batch_not_once_per_chunk() -> None:
    CountedCase.pickled = 0
    with ThreadPoolExecutor(max_workers=2) as pool:  # shares memory: only the batch pickles
        batch = evaluate_many(RECORDS[:40], CountedCase(), executor=pool, chunk_size=4)
    assert CountedCase.pickled == 1
    assert [c.results for c in batch.cases] == [
        c.results for c in evaluate_many(RECORDS[:40], three_checks).cases
    ]


def test_a_target_pickle_cannot_carry_travels_as_it_is() -> None:
    target = lambda ctx: ctx.succeeded()  # noqa: E731
    assert shipped(target, None) == (target, None)
    with ThreadPoolExecutor(max_workers=2) as pool:
        batch = evaluate_many(RECORDS[:20], target, executor=pool, chunk_size=4)
    assert [c.passed for c in batch.cases] == [bool(i % 5) for i in range(20)]


def test_a_chunk_comes_back_as_the_serial_results() -> None:
    batch = evaluate_many(RECORDS[:30], three_checks)
    blob = evaluate_chunk(pickle.dumps(RECORDS[:30]), shipped(three_checks, None), evaluate_input)
    outcomes = pickle.loads(blob)
    assert tuple(case for outcome in outcomes for case in outcome[0][0]) == batch.cases
    assert [str(o[0][0][0]) for o in outcomes] == [str(c) for c in batch.cases]


@pytest.mark.parametrize("bad", [0, -3, True])
def test_chunk_size_must_be_a_positive_int(bad: object) -> None:
    with pytest.raises(ValueError, match=r"'chunk_size' must be an int >= 1 \(got "):
        evaluate_many([TrialRecord.from_dict({"events": []})], three_checks, chunk_size=bad)  # type: ignore[arg-type]
