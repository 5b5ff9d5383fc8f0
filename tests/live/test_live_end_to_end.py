"""End to end, offline: a real Pydantic AI agent (FunctionModel, no network) with its
OpenTelemetry instrumentation, a real TracerProvider with EvaluatingSpanProcessor reading each
trace through the registered ``otel`` record format, a suite that passes on one run and fails
on another, the events read back from an in-memory exporter.
"""

from __future__ import annotations

from typing import Any

from pydantic_ai import Agent
from pydantic_ai.capabilities.instrumentation import Instrumentation
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings

from agent_asserts.live import EvaluatingSpanProcessor
from agent_asserts.loaders import loads
from agent_asserts.results import CaseResult

SUITE = loads(
    """
name: refunds
cases:
  - name: looked the order up
    checks: [{called_tool: lookup_order}]
  - name: never refunds without a human
    checks: [{not_called_tool: issue_refund}]
"""
)


def scripted(tool: str) -> FunctionModel:
    """A model that calls ``tool`` once, then answers."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if any(isinstance(part, ToolReturnPart) for part in messages[-1].parts):
            return ModelResponse(parts=[TextPart("Done.")])
        return ModelResponse(parts=[ToolCallPart(tool, {"order_id": "A1049"})])

    return FunctionModel(respond)


def run_agent(pipeline: Any, tool: str) -> None:
    settings = InstrumentationSettings(tracer_provider=pipeline.provider)
    agent = Agent(scripted(tool), capabilities=[Instrumentation(settings=settings)])

    @agent.tool_plain
    def lookup_order(order_id: str) -> str:
        return f"order {order_id}: 42.0"

    @agent.tool_plain
    def issue_refund(order_id: str) -> str:
        return "refunded"

    assert agent.run_sync("Refund order A1049").output == "Done."


def test_a_pydantic_ai_run_passes_and_another_fails(pipeline: Any) -> None:
    results: list[CaseResult] = []
    processor = EvaluatingSpanProcessor(SUITE, on_result=results.append,
                                        tracer_provider=pipeline.provider)  # fmt: skip
    pipeline.provider.add_span_processor(processor)
    run_agent(pipeline, "lookup_order")
    run_agent(pipeline, "issue_refund")
    assert [(r.name, r.verdict.value) for r in results] == [
        ("looked the order up", "passed"),
        ("never refunds without a human", "passed"),
        ("looked the order up", "failed"),
        ("never refunds without a human", "failed"),
    ]
    spans = pipeline.exporter.get_finished_spans()
    roots = {s.context.trace_id: s for s in spans if s.parent is None}
    assert len(roots) == 2
    evaluations = [s for s in spans if s.name == "gen_ai.evaluation"]
    assert [roots[s.context.trace_id].name for s in evaluations] == ["invoke_agent agent"] * 2
    assert all(s.parent.span_id == roots[s.context.trace_id].context.span_id for s in evaluations)
    labels = [
        (e.attributes["gen_ai.evaluation.name"], e.attributes["gen_ai.evaluation.score.label"])
        for s in evaluations for e in s.events
    ]  # fmt: skip
    assert labels == [(r.name, r.verdict.value) for r in results]
    (refund,) = [s for s in spans if s.name == "execute_tool issue_refund"]
    failed = evaluations[1].events[1].attributes
    assert failed["gen_ai.evaluation.explanation"] == (
        "not_called_tool:issue_refund: 1 call matched on.tool('issue_refund'): "
        + format(refund.context.span_id, "016x")
    )
    assert processor.stats.evaluated == 2
    assert processor.stats.failed_verdicts == 2


def test_an_open_trace_read_by_the_adapter_never_passes(pipeline: Any) -> None:
    results: list[CaseResult] = []
    processor = EvaluatingSpanProcessor(SUITE, on_result=results.append,
                                        tracer_provider=pipeline.provider)  # fmt: skip
    pipeline.provider.add_span_processor(processor)
    pipeline.run("lookup_order", "issue_refund", end_root=False)
    processor.shutdown()
    assert [(r.verdict.value, r.metadata["incomplete"]) for r in results] == [
        ("failed", "shutdown"),
        ("failed", "shutdown"),
    ]
    looked_up, never_refunds = (r.results[0] for r in results)
    assert (looked_up.status.value, never_refunds.status.value) == ("invalid", "invalid")
    assert looked_up.message.endswith("on the 2 spans seen it would pass: matched 1 tool calls")
    assert "on the 2 spans seen it would fail: 1 call matched on.tool('issue_refund')" in (
        never_refunds.message
    )
