"""EvaluatingSpanProcessor on a real OpenTelemetry SDK pipeline (records built by a small
reader here; the end-to-end test with the otel adapter and a real agent is in
test_live_end_to_end.py)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar

import attrs
import pytest

from agent_asserts.checks.base import Check
from agent_asserts.live import EvaluatingSpanProcessor, LiveStats
from agent_asserts.loaders import loads
from agent_asserts.outcome import Outcome
from agent_asserts.results import CaseResult

SUITE = loads(
    """
name: refunds
cases:
  - name: looked up
    checks: [{called_tool: lookup_order}]
  - name: no refund
    checks: [{not_called_tool: issue_refund}]
"""
)


@attrs.frozen
class Exploding(Check):
    """A check whose evaluation raises."""

    method: ClassVar[str] = "exploding"

    def evaluate(self, record: Any) -> Outcome:
        raise ZeroDivisionError("division by zero")


def wait_for(condition: Any, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.005)


Made = tuple[EvaluatingSpanProcessor, list[CaseResult]]


def make(pipeline: Any, to_record: Any, **options: Any) -> Made:
    results: list[CaseResult] = []
    options.setdefault("on_result", results.append)
    processor = EvaluatingSpanProcessor(
        options.pop("suite", SUITE),
        tracer_provider=pipeline.provider,
        to_record=to_record,
        **options,
    )
    pipeline.provider.add_span_processor(processor)
    return processor, results


def test_a_trace_is_evaluated_when_its_root_span_ends(pipeline: Any, to_record: Any) -> None:
    processor, results = make(pipeline, to_record)
    pipeline.run("lookup_order")
    assert [(r.name, r.verdict.value) for r in results] == [
        ("looked up", "passed"),
        ("no refund", "passed"),
    ]
    assert processor.stats == LiveStats(traces_seen=1, evaluated=1)


def test_each_result_is_an_event_in_the_same_trace(pipeline: Any, to_record: Any) -> None:
    make(pipeline, to_record)
    root = pipeline.run("lookup_order", "issue_refund")
    spans = pipeline.exporter.get_finished_spans()
    (evaluation,) = [s for s in spans if s.name == "gen_ai.evaluation"]
    assert evaluation.context.trace_id == root.context.trace_id
    assert evaluation.parent.span_id == root.context.span_id
    assert evaluation.instrumentation_scope.name == "agent_asserts.live"
    assert pipeline.events() == [
        ("gen_ai.evaluation.result", {
            "gen_ai.evaluation.name": "looked up",
            "gen_ai.evaluation.score.label": "passed",
            "gen_ai.evaluation.score.value": 1.0,
        }),
        ("gen_ai.evaluation.result", {
            "gen_ai.evaluation.name": "no refund",
            "gen_ai.evaluation.score.label": "failed",
            "gen_ai.evaluation.score.value": 0.0,
            "gen_ai.evaluation.explanation":
                "not_called_tool:issue_refund: 1 call matched on.tool('issue_refund'): e1",
        }),
    ]  # fmt: skip


def test_emit_none_emits_nothing(pipeline: Any, to_record: Any) -> None:
    _, results = make(pipeline, to_record, emit=None)
    pipeline.run("lookup_order")
    assert len(results) == 2
    assert [s.name for s in pipeline.exporter.get_finished_spans()] == [
        "execute_tool lookup_order", "invoke_agent",
    ]  # fmt: skip


def test_a_bad_emit_value_is_refused(to_record: Any) -> None:
    with pytest.raises(ValueError, match=r"^'emit' must be 'event' or None \(got 'log'\)$"):
        EvaluatingSpanProcessor(SUITE, emit="log")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"max_open_traces": 0}, "'max_open_traces' must be an int >= 1 (got 0)"),
        ({"trace_timeout": 0}, "'trace_timeout' must be a number of seconds > 0 (got 0)"),
    ],
)
def test_bounds_are_checked(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match="must be") as info:
        EvaluatingSpanProcessor(SUITE, **options)
    assert str(info.value) == message


def test_eviction_evaluates_the_oldest_trace_as_it_stands_and_never_passes(
    pipeline: Any, to_record: Any
) -> None:
    processor, results = make(pipeline, to_record, max_open_traces=1)
    first = pipeline.run("lookup_order", end_root=False)
    pipeline.run("lookup_order", end_root=False)  # a second open trace evicts the first
    assert processor.stats.evicted == 1
    assert {r.metadata["trace_id"] for r in results} == {format(first.context.trace_id, "032x")}
    assert all(r.metadata["incomplete"] == "evicted" for r in results)
    assert [(r.name, r.verdict.value, r.results[0].status.value) for r in results] == [
        ("looked up", "failed", "invalid"),
        ("no refund", "failed", "invalid"),
    ]
    assert results[0].results[0].message == (
        "the trace is incomplete (evicted before its root span ended (max_open_traces "
        "reached)); on the 1 span seen it would pass: matched 1 tool calls"
    )
    first.end()  # its root ends after the eviction: late, not evaluated twice
    assert processor.stats.late_spans == 1
    assert processor.stats.evaluated == 1
    labels = [a["gen_ai.evaluation.score.label"] for _, a in pipeline.events()]
    assert labels == ["failed", "failed"]
    assert all(a["agent_asserts.incomplete"] == "evicted" for _, a in pipeline.events())


def test_at_most_max_open_traces_are_buffered(pipeline: Any, to_record: Any) -> None:
    processor, _ = make(pipeline, to_record, max_open_traces=3, emit=None)
    for _ in range(10):
        pipeline.run("lookup_order", end_root=False)
        assert processor.stats.open_traces <= 3
    assert processor.stats.evicted == 7


def test_a_trace_with_no_new_span_for_trace_timeout_is_evaluated(
    pipeline: Any, to_record: Any
) -> None:
    processor, results = make(pipeline, to_record, trace_timeout=0.05)
    pipeline.run("lookup_order", end_root=False)
    wait_for(lambda: processor.stats.timed_out == 1)
    assert processor.stats.open_traces == 0
    assert [r.metadata["incomplete"] for r in results] == ["timeout", "timeout"]
    assert results[0].results[0].status.value == "invalid"


def test_shutdown_evaluates_every_open_trace(pipeline: Any, to_record: Any) -> None:
    processor, results = make(pipeline, to_record)
    pipeline.run("lookup_order", end_root=False)
    pipeline.run("issue_refund", end_root=False)
    assert results == []
    pipeline.provider.shutdown()
    assert processor.stats.evaluated == 2
    assert processor.stats.open_traces == 0
    assert [r.metadata["incomplete"] for r in results] == ["shutdown"] * 4


def test_force_flush_evaluates_every_open_trace(pipeline: Any, to_record: Any) -> None:
    processor, results = make(pipeline, to_record)
    pipeline.run("lookup_order", end_root=False)
    assert processor.force_flush() is True
    assert processor.stats.evaluated == 1
    assert len(results) == 2


def test_a_raising_check_is_an_evaluator_error_and_tracing_goes_on(
    pipeline: Any, to_record: Any
) -> None:
    def case(ctx: Any) -> None:
        ctx.record_check(Exploding())
        ctx.called_tool("lookup_order")

    processor, results = make(pipeline, to_record, suite=case)
    pipeline.run("lookup_order")
    pipeline.run("lookup_order")
    assert [r.status.value for r in results[0].results] == ["evaluator_error", "pass"]
    assert processor.stats.evaluation_errors == 2
    assert processor.stats.failed_verdicts == 2
    assert len(pipeline.exporter.get_finished_spans()) == 2 * 3  # root, tool, evaluation
    (_, attributes), _ = pipeline.events()
    assert attributes["error.type"] == "evaluator_error"


def test_a_raising_case_function_is_an_evaluator_error(pipeline: Any, to_record: Any) -> None:
    def case(ctx: Any) -> None:
        raise RuntimeError("bug in the case")

    processor, results = make(pipeline, to_record, suite=case)
    pipeline.run("lookup_order")
    assert results[0].error == "RuntimeError: bug in the case"
    assert processor.stats.evaluation_errors == 1


def test_a_suite_that_cannot_load_is_an_evaluator_error_per_trace(
    pipeline: Any, to_record: Any, tmp_path: Any
) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("cases: [{name: x, checks: [{called_tol: a}]}]\n")
    processor, results = make(pipeline, to_record, suite=str(path))
    pipeline.run("lookup_order")
    (result,) = results
    assert result.name == "broken"
    assert result.results[0].status.value == "evaluator_error"
    assert result.error is not None and result.error.startswith(f"cannot load the suite {path}")
    assert processor.stats.evaluation_errors == 1


def test_a_record_that_cannot_be_built_is_an_evaluator_error(pipeline: Any) -> None:
    def unreadable(document: Any) -> Any:
        raise ValueError("no GenAI spans")

    processor, results = make(pipeline, unreadable)
    root = pipeline.run("lookup_order")
    assert results[0].error == (
        f"cannot build the record of trace {format(root.context.trace_id, '032x')}: "
        "ValueError: no GenAI spans"
    )
    assert processor.stats.evaluation_errors == 1


def test_a_raising_on_result_is_counted_and_never_propagates(pipeline: Any, to_record: Any) -> None:
    def on_result(result: CaseResult) -> None:
        raise OSError("disk full")

    processor, _ = make(pipeline, to_record, on_result=on_result)
    pipeline.run("lookup_order")
    assert processor.stats.delivery_errors == 2
    assert len(pipeline.events()) == 2


def test_with_an_executor_evaluation_never_runs_on_the_ending_thread(
    pipeline: Any, to_record: Any
) -> None:
    threads: list[int] = []

    def case(ctx: Any) -> None:
        threads.append(threading.get_ident())
        ctx.called_tool("lookup_order")

    with ThreadPoolExecutor(max_workers=1) as executor:
        processor, results = make(pipeline, to_record, suite=case, executor=executor)
        pipeline.run("lookup_order")
        assert processor.force_flush() is True
    assert threads and threading.get_ident() not in threads
    assert [r.verdict.value for r in results] == ["passed"]
    assert len(pipeline.events()) == 1


def test_a_shut_down_executor_gives_an_evaluator_error(pipeline: Any, to_record: Any) -> None:
    executor = ThreadPoolExecutor(max_workers=1)
    executor.shutdown()
    processor, results = make(pipeline, to_record, executor=executor)
    pipeline.run("lookup_order")
    assert results[0].error is not None
    assert results[0].error.startswith("the executor refused the evaluation: RuntimeError")
    assert processor.stats.evaluation_errors == 1


def test_stats_are_consistent_under_concurrent_traces(pipeline: Any, to_record: Any) -> None:
    processor, results = make(pipeline, to_record, emit=None)

    def work() -> None:
        for _ in range(25):
            pipeline.run("lookup_order")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert processor.stats == LiveStats(traces_seen=100, evaluated=100)
    assert len(results) == 200
