"""Issue 25, "done when": a hostile suite or record cannot pass the case time limit by more than a
second on any executor (serial, a thread pool, a process pool, Dask) — and, in
``tests/live/test_live_time_limit.py``, in the live span processor.

Hostile inputs, each under a 1 s limit: a catastrophic pattern written with an inline flag
(``(?i)``, which used to send the search to ``re``, holding the GIL) on a 45-character reply,
and an OTLP file of 4,000 spans in one parent chain (quadratic adapters took ~14 s on it),
read inside the limit. The alias-amplified suite of the issue is refused while it is loaded,
before any executor sees it. The clock starts once the pool is up (a process pool's workers
forked, Dask's cluster started): what is measured is the batch, not the start-up.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from test_time_limit_loading import otlp_chain

from agent_asserts import TrialRecord, evaluate_many
from agent_asserts.loaders import LoadError, loads
from agent_asserts.results import Verdict

pytest.importorskip("yaml")

LIMIT = 1.0
HOSTILE_REPLY = "a" * 44 + "?"
PATTERN = "(?i)^(a|aa)+$|^([a-z0-9]+\\s?)*$"  # exponential backtracking, with an inline flag
SUITE = loads(f"""\
name: hostile
cases:
  - name: redos
    checks: [{{expect: {{value: reply, matches: {{$regex: {json.dumps(PATTERN)}}}}}}}]
  - name: fine
    checks: [{{max_tool_calls: 5000}}]
""")
MESSAGE = (
    "TimeLimitExceeded: the case passed its time limit of 1s while running check 'matches:reply'"
)


@contextmanager
def executor(kind: str) -> Iterator[Executor | None]:
    if kind == "serial":
        yield None
    elif kind == "threads":
        with ThreadPoolExecutor(2) as pool:
            yield pool
    elif kind == "processes":
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(2, mp_context=context) as pool:
            list(pool.map(abs, [1, 2]))  # the workers are up before the clock starts
            yield pool
    else:
        distributed = pytest.importorskip("distributed")
        with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                                dashboard_address=None) as client:  # fmt: skip
            yield client.get_executor()


def _timed(records: list[Any], pool: Executor | None) -> tuple[float, dict[str, Any]]:
    started = time.monotonic()
    batch = evaluate_many(records, SUITE, executor=pool, timeout=LIMIT)
    elapsed = time.monotonic() - started
    return elapsed, {case.name: case for case in batch.cases}


@pytest.mark.parametrize("kind", ["serial", "threads", "processes", "dask"])
def test_hostile_inputs_end_within_the_limit_plus_a_second(kind: str, tmp_path: Path) -> None:
    chain = tmp_path / "chain.json"
    chain.write_text(json.dumps(otlp_chain(4_000)), encoding="utf-8")
    hostile = TrialRecord.builder().agent(HOSTILE_REPLY).build()
    with executor(kind) as pool:
        elapsed, cases = _timed([hostile], pool)
        assert cases["redos"].verdict is Verdict.FAILED and cases["redos"].error == MESSAGE
        assert cases["fine"].verdict is Verdict.PASSED  # the next case of the record still runs
        assert elapsed < LIMIT + 1, (kind, elapsed)
        elapsed, cases = _timed([chain], pool)  # read inside the limit, then evaluated
        assert cases["fine"].verdict in (Verdict.PASSED, Verdict.FAILED), cases["fine"]
        assert elapsed < 2 * (LIMIT + 1), (kind, elapsed)  # two cases, each bounded


def test_the_alias_amplified_suite_is_refused_before_any_executor() -> None:
    # the 10.8 KB suite: a 10 KB anchored string aliased through two list levels
    text = (
        "x: &a " + "y" * 10_000 + "\n"
        "l1: &b [" + ", ".join(["*a"] * 100) + "]\n"
        "checks: [{output_equals: [" + ", ".join(["*b"] * 990) + "]}]\n"
    )
    started = time.monotonic()
    with pytest.raises(LoadError, match="alias expansion: the aliases of this document would add"):
        loads(text)
    assert time.monotonic() - started < LIMIT
