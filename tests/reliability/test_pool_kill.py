"""The process-pool backstop: a worker still busy ``KILL_MARGIN`` seconds past its record's
time limit is killed, that record is ``FAILED`` and the batch goes on (docs/reliability.md)."""

from __future__ import annotations

import signal
import time
from concurrent.futures import ProcessPoolExecutor

from agent_asserts import EvalContext, TrialRecord, evaluate_many
from agent_asserts.batch import KILL_MARGIN
from agent_asserts.batch.pool import KILLED
from agent_asserts.results import Verdict

LIMIT = 0.5


def _deaf_to_the_time_limit(reply: str) -> bool:
    """Hang where the in-worker time limit cannot reach: ``SIGALRM`` blocked, then sleep."""
    if reply == "hang":
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        while True:
            time.sleep(3600)
    return reply == "ok"


def hangs_on_hang(ctx: EvalContext) -> None:
    ctx.expect(ctx.record.reply).satisfies(_deaf_to_the_time_limit)


def test_a_hung_worker_is_killed_and_the_batch_completes() -> None:
    replies = ["ok", "ok", "hang", "ok", "ok"]
    records = [TrialRecord.builder().agent(text).build() for text in replies]
    started = time.monotonic()
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(records, hangs_on_hang, executor=pool, timeout=LIMIT,
                              chunk_size=1, max_in_flight=1)  # fmt: skip
    elapsed = time.monotonic() - started
    assert [c.verdict for c in batch.cases] == [
        Verdict.PASSED, Verdict.PASSED, Verdict.FAILED, Verdict.PASSED, Verdict.PASSED,
    ]  # fmt: skip
    assert batch.cases[2].error == KILLED.format(seconds=LIMIT + KILL_MARGIN)
    assert batch.cases[2].error == (
        "its worker process was killed after 5.5s (the batch's time limit)"
    )
    # the wait for the stuck task, the kill, a new pool for the rest: bounded, never a hang
    assert elapsed < 2 * (LIMIT + KILL_MARGIN) + 15


def test_with_the_default_chunks_only_the_hung_record_is_lost() -> None:
    """One chunk of five (the default chunk size is 64): the chunk's deadline passes, its
    worker is killed, the five are re-run one per task, and only the hung one is FAILED."""
    replies = ["ok", "ok", "hang", "ok", "ok"]
    records = [TrialRecord.builder().agent(text).build() for text in replies]
    with ProcessPoolExecutor(2) as pool:
        batch = evaluate_many(records, hangs_on_hang, executor=pool, timeout=LIMIT)
    assert [c.verdict for c in batch.cases] == [
        Verdict.PASSED, Verdict.PASSED, Verdict.FAILED, Verdict.PASSED, Verdict.PASSED,
    ]  # fmt: skip
    assert batch.cases[2].error == KILLED.format(seconds=LIMIT + KILL_MARGIN)
