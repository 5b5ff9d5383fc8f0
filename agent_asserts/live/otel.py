"""``EvaluatingSpanProcessor``: an OpenTelemetry SDK span processor that evaluates a suite on
every trace as it completes (extra ``otel``: ``pip install 'agent-asserts[otel]'``).

Add it to the application's ``TracerProvider``; each trace's spans are buffered until its root
span ends, turned into a record by the ``otel`` adapter, and checked against the suite; each
case result goes to ``on_result`` and, with ``emit="event"``, back into the same trace as a
``gen_ai.evaluation.result`` event on a short ``gen_ai.evaluation`` span (a child of the root
span: ended spans cannot take new events). See docs/live.md.

>>> from opentelemetry.sdk.trace import TracerProvider
>>> from opentelemetry.sdk.trace.export import SimpleSpanProcessor
>>> from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
>>> from agent_asserts.record import TrialRecord
>>> provider, exporter = TracerProvider(), InMemorySpanExporter()
>>> verdicts = []
>>> processor = EvaluatingSpanProcessor(
...     lambda ctx: ctx.max_steps(10), on_result=lambda r: verdicts.append(r.verdict.value),
...     tracer_provider=provider, to_record=lambda doc: TrialRecord(steps=1))
>>> provider.add_span_processor(SimpleSpanProcessor(exporter))
>>> provider.add_span_processor(processor)
>>> with provider.get_tracer("app").start_as_current_span("invoke_agent"):
...     pass
>>> verdicts, processor.stats.evaluated
(['passed'], 1)
>>> [(s.name, [e.name for e in s.events]) for s in exporter.get_finished_spans()]
[('invoke_agent', []), ('gen_ai.evaluation', ['gen_ai.evaluation.result'])]
>>> provider.shutdown()
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Unpack

from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.sdk.trace import ReadableSpan, Span, SpanProcessor

from agent_asserts._version import __version__
from agent_asserts.live import (
    EVENT_NAME,
    SCOPE_NAME,
    SPAN_NAME,
    ClosedTrace,
    LiveOptions,
    LiveProcessor,
    SuiteLike,
    evaluation_attributes,
)
from agent_asserts.live.otlp import spans_to_otlp

if TYPE_CHECKING:
    from agent_asserts.results import CaseResult


def is_root(span: ReadableSpan) -> bool:
    """Whether ``span`` is the local root of its trace (no parent, or a remote parent)."""
    return span.parent is None or span.parent.is_remote


class EvaluatingSpanProcessor(LiveProcessor[ReadableSpan], SpanProcessor):
    """Evaluate ``suite`` on every trace as its root span ends.

    Args:
        suite: A loaded ``Suite``, a suite file path, or a case function ``fn(ctx)``. A file
            that cannot be loaded gives each trace an ``evaluator_error`` case, never an
            exception.
        on_result: Called with each ``CaseResult`` (its ``metadata["trace_id"]`` set).
        emit: ``"event"`` emits each result as a ``gen_ai.evaluation.result`` event in the
            trace; ``None`` emits nothing.
        max_open_traces: The most traces buffered at once; beyond it the least recently
            active is evaluated as it stands (``metadata["incomplete"] = "evicted"``).
        trace_timeout: Seconds without a new span after which an open trace is evaluated as
            it stands (``"timeout"``).
        executor: Evaluate there (never on the thread that ends the span); ``None``: inline.
        tracer_provider: Where the evaluation spans are emitted (default: the global one).
        to_record: How an OTLP/JSON document becomes a record (default: the ``otel``
            adapter's ``to_record``).
        timeout: Each case's hard time limit in seconds (default 60, as ``agent-asserts
            check``; ``None``: none): a case past it is ``FAILED`` naming the check that was
            running and the limit, and the other cases and traces are still evaluated.
        max_spans_per_trace: The most spans one open trace holds (default 10,000): a trace
            that reaches it is evaluated as it stands (``"span_limit"``) and its later spans
            are counted as late, not held.
        max_queued_traces: The most closed traces waiting for ``executor`` (default 1,000):
            a trace past it is not evaluated; each of its cases says so (``stats.dropped``).
    """

    record_format = "otel"

    def __init__(
        self,
        suite: SuiteLike,
        *,
        tracer_provider: trace.TracerProvider | None = None,
        **options: Unpack[LiveOptions],
    ) -> None:
        self._tracer_provider = tracer_provider
        super().__init__(suite, **options)

    def on_start(self, span: Span, parent_context: Context | None = None) -> None:
        """Nothing to do when a span starts."""

    def on_end(self, span: ReadableSpan) -> None:
        """Buffer the ended span; evaluate its trace when it is the root."""
        scope = span.instrumentation_scope
        if scope is not None and scope.name == SCOPE_NAME:
            return  # our own evaluation spans
        context = span.get_span_context()
        if context is None:
            return
        self._engine.span_ended(format(context.trace_id, "032x"), span, root=is_root(span))

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        """Evaluate every open trace now; wait for the executor up to ``timeout_millis``."""
        return self._engine.force_flush(timeout_millis / 1000)

    def shutdown(self) -> None:
        """Evaluate every open trace, wait for the executor, and stop."""
        self._engine.shutdown()

    def _document(self, closed: ClosedTrace[ReadableSpan]) -> dict[str, Any]:
        return spans_to_otlp(closed.spans)

    def _emit_events(self, closed: ClosedTrace[ReadableSpan], results: list[CaseResult]) -> None:
        target = closed.root if closed.root is not None else closed.spans[0]
        target_context = target.get_span_context()
        if target_context is None:
            return
        parent = trace.set_span_in_context(trace.NonRecordingSpan(target_context))
        provider = self._tracer_provider or trace.get_tracer_provider()
        tracer = provider.get_tracer(SCOPE_NAME, __version__)
        attributes = {"agent_asserts.suite": self._engine.suite.name}
        span = tracer.start_span(SPAN_NAME, context=parent, attributes=attributes)
        try:
            for result in results:
                span.add_event(EVENT_NAME, evaluation_attributes(result))
        finally:
            span.end()


__all__ = ["EvaluatingSpanProcessor", "is_root"]
