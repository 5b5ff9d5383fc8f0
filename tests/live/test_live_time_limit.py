"""The live processor's per-case time limit (issue #17, item 1), on a real OpenTelemetry SDK
pipeline: a case past ``timeout`` is FAILED naming the check and the limit, and the next trace
is still evaluated."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs
import pytest
from conftest import tools_record

from agent_asserts import EvalContext
from agent_asserts.live import EvaluatingSpanProcessor
from agent_asserts.loaders import loads
from agent_asserts.record import TrialRecord
from agent_asserts.results import CaseResult, Verdict

LIMIT = 0.5
EVIL = "^([A-Za-z0-9]+\\s?)*$|^(a|aa)+$"  # catastrophic backtracking, in re and in regex


def _spins_on_slow(tools: list[str]) -> bool:
    """A custom predicate that never returns when the trace called the tool ``slow``."""
    while "slow" in tools:
        pass
    return "lookup_order" in tools


def bounded(ctx: EvalContext) -> None:
    ctx.expect([call.payload.name for call in ctx.record.tool_calls]).satisfies(_spins_on_slow)


def _run(
    pipeline: Any,
    to_record: Any,
    executor: Any,
    suite: Any = bounded,
    tools: tuple[str, str] = ("slow", "lookup_order"),
) -> list[CaseResult]:
    results: list[CaseResult] = []
    processor = EvaluatingSpanProcessor(
        suite, tracer_provider=pipeline.provider, to_record=to_record, on_result=results.append,
        executor=executor, timeout=LIMIT,
    )  # fmt: skip
    pipeline.provider.add_span_processor(processor)
    for tool in tools:  # two traces
        pipeline.run(tool)
    processor.force_flush()
    return results


@pytest.mark.parametrize("where", ["inline", "thread pool"])
def test_a_case_past_its_limit_fails_and_the_next_trace_is_evaluated(
    pipeline: Any, to_record: Any, where: str
) -> None:
    with ThreadPoolExecutor(1) as pool:
        results = _run(pipeline, to_record, pool if where == "thread pool" else None)
    assert [(r.verdict, r.metadata["trace_id"] != "") for r in results] == [
        (Verdict.FAILED, True),
        (Verdict.PASSED, True),
    ]
    assert results[0].error == (
        "TimeLimitExceeded: the case passed its time limit of 0.5s while running check 'satisfies'"
    )


HOSTILE = "a" * 44 + "?"  # against the pattern below: exponential backtracking
REDOS_SUITE = f"""
name: live
cases:
  - name: redos
    checks: [{{expect: {{value: reply, matches: {{$regex: {json.dumps(EVIL)}}}}}}}]
  - name: fine
    checks: [{{max_tool_calls: 3}}]
"""


def replying_with_the_tool(document: dict[str, Any]) -> TrialRecord:
    """The record of the trace, its reply the name of its first tool."""
    record = tools_record(document)
    return attrs.evolve(record, reply=record.tool_calls[0].payload.name)


@pytest.mark.parametrize("where", ["inline", "thread pool"])
def test_a_suite_case_past_its_limit_fails_and_the_rest_is_evaluated(
    pipeline: Any, where: str
) -> None:
    with ThreadPoolExecutor(1) as pool:
        results = _run(pipeline, replying_with_the_tool, pool if where == "thread pool" else None,
                       suite=loads(REDOS_SUITE), tools=(HOSTILE, "lookup"))  # fmt: skip
    assert [(r.name, r.verdict) for r in results] == [
        ("redos", Verdict.FAILED),
        ("fine", Verdict.PASSED),
        ("redos", Verdict.PASSED),
        ("fine", Verdict.PASSED),
    ]
    assert results[0].error == (
        "TimeLimitExceeded: the case passed its time limit of 0.5s while running check "
        "'matches:reply'"
    )


def test_the_default_limit_is_the_clis(pipeline: Any, to_record: Any) -> None:
    processor = EvaluatingSpanProcessor(bounded, tracer_provider=pipeline.provider,
                                        to_record=to_record)  # fmt: skip
    assert processor._engine._timeout == 60.0


@pytest.mark.parametrize("bad", [0, -1, "5", True])
def test_a_wrong_timeout_is_refused_when_built(pipeline: Any, bad: Any) -> None:
    with pytest.raises(ValueError, match="'timeout' must be a number of seconds > 0 or None"):
        EvaluatingSpanProcessor(bounded, tracer_provider=pipeline.provider, timeout=bad)


@pytest.mark.parametrize("where", ["inline", "thread pool"])
def test_building_a_record_is_inside_the_case_limit(
    pipeline: Any, to_record: Any, where: str
) -> None:
    # a trace whose record takes forever to build (a hostile trace, an adapter's worst case)
    # is one FAILED result at the limit; the next trace is still evaluated
    def slow_to_read(document: Any) -> TrialRecord:
        record = to_record(document)
        while any(e.payload.name == "slow" for e in record.tool_calls):
            pass
        return record

    with ThreadPoolExecutor(1) as pool:
        results = _run(
            pipeline,
            slow_to_read,
            pool if where == "thread pool" else None,
            suite=lambda ctx: ctx.called_tool("lookup_order"),
        )
    by_tool = {r.verdict: r for r in results}
    assert sorted(r.verdict.value for r in results) == ["failed", "passed"]
    error = by_tool[Verdict.FAILED].error or ""
    assert error.startswith("cannot build the record of trace ")
    assert error.endswith("LoadTimeout: reading it passed the case time limit of 0.5s")


@pytest.mark.parametrize("where", ["inline", "thread pool"])
def test_an_inline_flag_pattern_ends_within_the_limit_plus_a_second(
    pipeline: Any, where: str
) -> None:
    # issue 25, "done when": the live processor too; an inline flag ((?i)) once sent the search
    # to ``re``, which holds the GIL off the main thread (tests/reliability/
    # test_time_bound_everywhere.py holds the same on every executor)
    import time

    suite = loads(REDOS_SUITE.replace(json.dumps(EVIL), json.dumps("(?i)" + EVIL)))
    started = time.monotonic()
    with ThreadPoolExecutor(1) as pool:
        results = _run(pipeline, replying_with_the_tool, pool if where == "thread pool" else None,
                       suite=suite, tools=(HOSTILE, "lookup"))  # fmt: skip
    elapsed = time.monotonic() - started
    assert [(r.name, r.verdict) for r in results][:2] == [
        ("redos", Verdict.FAILED),
        ("fine", Verdict.PASSED),
    ]
    assert elapsed < LIMIT + 1, elapsed
