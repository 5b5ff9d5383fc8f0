"""Live memory is bounded (issue 25): a trace that never ends holds at most
``max_spans_per_trace`` spans, and at most ``max_queued_traces`` closed traces wait for a slow
executor; what is cut short is evaluated or reported, with metadata, and counted. On the real
OpenTelemetry SDK."""

from __future__ import annotations

import gc
import threading
import tracemalloc
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider

from agent_asserts import EvalContext
from agent_asserts.live import (
    DEFAULT_MAX_QUEUED,
    DEFAULT_MAX_SPANS,
    DROPPED,
    EvaluatingSpanProcessor,
)
from agent_asserts.results import CaseResult


def ends_spans(tracer: Any, count: int) -> Any:
    """A root span that never ends, with ``count`` ended children; returns the root."""
    root = tracer.start_span("invoke_agent")
    with trace.use_span(root, end_on_exit=False):
        for i in range(count):
            span = tracer.start_span(f"execute_tool t{i}")
            span.set_attribute("gen_ai.operation.name", "execute_tool")
            span.set_attribute("gen_ai.tool.name", "lookup")
            span.end()
    return root


def nothing(ctx: EvalContext) -> None:
    ctx.called_tool("lookup")


def test_the_defaults_are_the_documented_ones() -> None:
    processor = EvaluatingSpanProcessor(nothing, emit=None)
    assert (DEFAULT_MAX_SPANS, DEFAULT_MAX_QUEUED) == (10_000, 1_000)
    assert processor._engine._buffer.max_spans_per_trace == 10_000
    assert processor._engine._max_queued == 1_000


def test_a_never_ending_trace_is_evaluated_at_the_span_cap_and_holds_no_more() -> None:
    results: list[CaseResult] = []
    provider = TracerProvider()
    processor = EvaluatingSpanProcessor(nothing, emit=None, on_result=results.append,
                                        max_spans_per_trace=100)  # fmt: skip
    provider.add_span_processor(processor)
    ends_spans(provider.get_tracer("app"), 250)
    stats = processor.stats
    assert (stats.evaluated, stats.span_limited, stats.late_spans, stats.open_traces) == (
        1, 1, 150, 0,
    )  # fmt: skip
    [result] = results
    assert result.metadata["incomplete"] == "span_limit"
    assert result.results[0].message.startswith(
        "the trace is incomplete (evaluated at max_spans_per_trace spans, its root span not "
        "ended); on the 100 spans seen"
    )
    provider.shutdown()


def test_the_memory_of_a_never_ending_trace_stays_bounded() -> None:
    provider = TracerProvider()
    processor = EvaluatingSpanProcessor(nothing, emit=None, max_spans_per_trace=500)
    provider.add_span_processor(processor)
    tracer = provider.get_tracer("app")
    ends_spans(tracer, 1_000)  # warm up (imports, the adapter)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        ends_spans(tracer, 20_000)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # 20,000 held spans take tens of MB (about 2.8 KB each); 500 at most are held here
    assert grown < 5_000_000, grown
    stats = processor.stats
    assert (stats.span_limited, stats.late_spans, stats.open_traces) == (2, 20_000, 0)
    provider.shutdown()


def test_a_slow_executor_queues_at_most_max_queued_traces_and_reports_the_rest() -> None:
    release = threading.Event()

    def slow(ctx: EvalContext) -> None:
        release.wait(30)
        ctx.succeeded()

    results: list[CaseResult] = []
    provider = TracerProvider()
    with ThreadPoolExecutor(1) as pool:
        processor = EvaluatingSpanProcessor(slow, emit=None, on_result=results.append,
                                            executor=pool, max_queued_traces=5)  # fmt: skip
        provider.add_span_processor(processor)
        tracer = provider.get_tracer("app")
        for _ in range(20):
            tracer.start_span("invoke_agent").end()
        dropped = [r for r in results if r.error is not None]
        assert len(dropped) == 15
        assert processor.stats.dropped == 15
        trace_id = dropped[0].metadata["trace_id"]
        assert dropped[0].error == DROPPED.format(trace_id=trace_id, queued=5)
        assert dropped[0].error == (
            f"trace {trace_id} was not evaluated: 5 traces were already waiting for the "
            "executor (max_queued_traces)"
        )
        release.set()
        assert processor.force_flush()
    stats = processor.stats
    assert (stats.evaluated, stats.dropped, stats.evaluation_errors) == (5, 15, 15)
    assert len(results) == 20  # every trace has its result: evaluated or reported
    provider.shutdown()


@pytest.mark.parametrize("name", ["max_spans_per_trace", "max_queued_traces"])
def test_the_bounds_must_be_positive_ints(name: str) -> None:
    with pytest.raises(ValueError, match=rf"'{name}' must be an int >= 1 \(got 0\)"):
        EvaluatingSpanProcessor(nothing, **{name: 0})
