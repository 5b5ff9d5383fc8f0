"""``EvaluatingTracingProcessor``: the OpenAI Agents SDK's tracing, evaluated as each trace
ends (extra ``openai-agents``: ``pip install 'agent-asserts[openai-agents]'``).

Register it with ``agents.add_trace_processor``. It buffers each trace's spans, and when the
trace ends it exports them the way the SDK's own exporter does (``{"data": [trace.export(),
span.export()…]}``), reads that through the ``openai-agents`` record adapter, evaluates the
suite, and delivers each case result to ``on_result`` and, with ``emit="event"``, back into the
same trace as a custom span named ``gen_ai.evaluation.result`` whose data are the event's
attributes (the SDK's traces have no events). Bounds, timeouts, counters, errors: as for
:class:`~agent_asserts.live.EvaluatingSpanProcessor` (see docs/live.md).

>>> from agents import set_trace_processors
>>> from agents.tracing import custom_span, trace
>>> from agent_asserts.record import TrialRecord
>>> verdicts = []
>>> processor = EvaluatingTracingProcessor(lambda ctx: ctx.max_steps(3), emit=None,
...     on_result=lambda r: verdicts.append(r.verdict.value),
...     to_record=lambda doc: TrialRecord(steps=len(doc["data"])))
>>> set_trace_processors([processor])
>>> with trace("Refund workflow"):
...     with custom_span("lookup"):
...         pass
>>> verdicts, processor.stats.evaluated
(['passed'], 1)
>>> set_trace_processors([])
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agents.tracing import Span, Trace, TracingProcessor, get_trace_provider
from agents.tracing.span_data import CustomSpanData

from agent_asserts.live import EVENT_NAME, ClosedTrace, LiveProcessor, evaluation_attributes

if TYPE_CHECKING:
    from agent_asserts.results import CaseResult

Item = Trace | Span[Any]


def export_document(items: list[Item]) -> dict[str, Any]:
    """The SDK's export payload for one trace: the trace first, then its spans (each once, in
    the order they ended); items whose ``export()`` is None (no-op spans) are left out."""
    traces: list[Item] = [item for item in items if isinstance(item, Trace)]
    spans: list[Item] = [item for item in items if not isinstance(item, Trace)]
    data: list[dict[str, Any]] = []
    seen: set[int] = set()
    for item in (*traces, *spans):
        if id(item) in seen:
            continue
        seen.add(id(item))
        exported = item.export()
        if exported is not None:
            data.append(exported)
    return {"data": data}


def _is_ours(span: Span[Any]) -> bool:
    data = span.span_data
    return isinstance(data, CustomSpanData) and data.name == EVENT_NAME


class EvaluatingTracingProcessor(LiveProcessor[Item], TracingProcessor):
    """Evaluate ``suite`` on every Agents SDK trace as it ends.

    Arguments as for :class:`~agent_asserts.live.EvaluatingSpanProcessor` (``suite``,
    ``on_result``, ``emit``, ``max_open_traces``, ``trace_timeout``, ``executor``,
    ``timeout``, ``max_spans_per_trace``, ``max_queued_traces``), with ``to_record`` reading
    the SDK's export payload (default: the ``openai-agents`` adapter).
    """

    record_format = "openai-agents"

    def on_trace_start(self, trace: Trace) -> None:
        """Open the trace (so a trace that never ends still has its export)."""
        self._engine.span_ended(trace.trace_id, trace, root=False)

    def on_trace_end(self, trace: Trace) -> None:
        """The trace ended: evaluate it."""
        self._engine.span_ended(trace.trace_id, trace, root=True)

    def on_span_start(self, span: Span[Any]) -> None:
        """Nothing to do when a span starts."""

    def on_span_end(self, span: Span[Any]) -> None:
        """Buffer the ended span (our own evaluation spans are ignored)."""
        if not _is_ours(span):
            self._engine.span_ended(span.trace_id, span, root=False)

    def force_flush(self) -> None:
        """Evaluate every open trace now and wait for the executor."""
        self._engine.force_flush()

    def shutdown(self) -> None:
        """Evaluate every open trace, wait for the executor, and stop."""
        self._engine.shutdown()

    def _span_count(self, closed: ClosedTrace[Item]) -> int:
        return sum(not isinstance(item, Trace) for item in closed.spans)

    def _document(self, closed: ClosedTrace[Item]) -> dict[str, Any]:
        return export_document(closed.spans)

    def _emit_events(self, closed: ClosedTrace[Item], results: list[CaseResult]) -> None:
        parent = next((item for item in closed.spans if isinstance(item, Trace)), None)
        if parent is None:
            return  # no trace object seen: nothing to attach the spans to
        provider = get_trace_provider()
        for result in results:
            data = CustomSpanData(name=EVENT_NAME, data=evaluation_attributes(result))
            span = provider.create_span(span_data=data, parent=parent)
            span.start()
            span.finish()


__all__ = ["EvaluatingTracingProcessor", "export_document"]
