"""EvaluatingTracingProcessor with the OpenAI Agents SDK running offline: a stub
``agents.Model`` answers, the SDK's own tracing calls our processor, and each trace is read
through the registered ``openai-agents`` record format."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from agents import Agent, Model, ModelResponse, Runner, Usage, function_tool, set_trace_processors
from agents.tracing import TracingProcessor
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)

from agent_asserts.live.openai_agents import EvaluatingTracingProcessor
from agent_asserts.record import TrialRecord
from agent_asserts.results import CaseResult


class StubModel(Model):
    """Calls ``tool`` (when given) on its first turn, then replies."""

    def __init__(self, tool: str | None) -> None:
        self.tool = tool
        self.turn = 0

    async def get_response(self, *args: Any, **kwargs: Any) -> ModelResponse:
        self.turn += 1
        if self.tool and self.turn == 1:
            output: list[Any] = [
                ResponseFunctionToolCall(
                    type="function_call",
                    call_id="call_1",
                    name=self.tool,
                    arguments=json.dumps({"order_id": "A1049"}),
                    id="fc_1",
                    status="completed",
                )
            ]
        else:
            output = [
                ResponseOutputMessage(
                    id="msg_1",
                    type="message",
                    role="assistant",
                    status="completed",
                    content=[ResponseOutputText(type="output_text", text="Done.", annotations=[])],
                )
            ]
        return ModelResponse(output=output, usage=Usage(), response_id=None)  # fmt: skip

    def stream_response(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError


@function_tool
def lookup_order(order_id: str) -> str:
    """Look an order up."""
    return f"order {order_id}: 42.0"


@function_tool
def issue_refund(order_id: str) -> str:
    """Refund an order."""
    return "refunded"


def run_agent(tool: str | None) -> None:
    agent = Agent(name="refunds", instructions="Help.", tools=[lookup_order, issue_refund],
                  model=StubModel(tool))  # fmt: skip
    assert Runner.run_sync(agent, "Refund order A1049").final_output == "Done."


def function_calls(document: dict[str, Any]) -> TrialRecord:
    """A record with one tool call per exported ``function`` span."""
    builder = TrialRecord.builder()
    for item in document["data"]:
        data = item.get("span_data") or {}
        if data.get("type") == "function":
            builder.tool(data["name"], json.loads(data["input"]), result=data["output"])
    return builder.build(status="completed")


class Exported(TracingProcessor):
    """Keeps every exported span (what a backend would receive)."""

    def __init__(self) -> None:
        self.spans: list[dict[str, Any]] = []

    def on_trace_start(self, trace: Any) -> None: ...
    def on_trace_end(self, trace: Any) -> None: ...
    def on_span_start(self, span: Any) -> None: ...

    def on_span_end(self, span: Any) -> None:
        exported = span.export()
        if exported:
            self.spans.append(exported)

    def shutdown(self) -> None: ...
    def force_flush(self) -> None: ...


@pytest.fixture
def exported() -> Iterator[Exported]:
    backend = Exported()
    yield backend
    set_trace_processors([])


def case(ctx: Any) -> None:
    ctx.called_tool("lookup_order")
    ctx.not_called_tool("issue_refund")


def test_a_real_run_passes_and_another_fails(exported: Exported) -> None:
    results: list[CaseResult] = []
    processor = EvaluatingTracingProcessor(case, on_result=results.append)
    set_trace_processors([processor, exported])
    run_agent("lookup_order")
    run_agent("issue_refund")
    assert [r.verdict.value for r in results] == ["passed", "failed"]
    assert results[0].metadata["trace_id"].startswith("trace_")
    assert processor.stats.evaluated == 2
    name = "gen_ai.evaluation.result"
    events = [s for s in exported.spans if s["span_data"].get("name") == name]
    label = "gen_ai.evaluation.score.label"
    labels = [(e["trace_id"], e["span_data"]["data"][label]) for e in events]
    assert labels == [(r.metadata["trace_id"], r.verdict.value) for r in results]
    assert events[1]["span_data"]["data"]["gen_ai.evaluation.explanation"].startswith(
        "called_tool:lookup_order"
    )


def test_an_open_trace_is_evaluated_at_shutdown_and_never_passes(exported: Exported) -> None:
    from agents.tracing import function_span, trace

    results: list[CaseResult] = []
    processor = EvaluatingTracingProcessor(case, on_result=results.append, emit=None)
    set_trace_processors([processor])
    run = trace("never ends")
    run.start()
    with function_span("lookup_order", input='{"order_id": "A1049"}', parent=run) as span:
        span.span_data.output = "order A1049: 42.0"
    processor.shutdown()
    (result,) = results
    assert (result.verdict.value, result.metadata["incomplete"]) == ("failed", "shutdown")
    assert [r.status.value for r in result.results] == ["invalid", "invalid"]
    assert "on the 1 span seen it would pass: matched 1 tool calls" in result.results[0].message
    assert processor.stats.evaluated == 1


def test_a_stand_in_reader_can_replace_the_format(exported: Exported) -> None:
    results: list[CaseResult] = []
    processor = EvaluatingTracingProcessor(case, on_result=results.append, emit=None,
                                           to_record=function_calls)  # fmt: skip
    set_trace_processors([processor])
    run_agent("lookup_order")
    assert [r.verdict.value for r in results] == ["passed"]


def test_a_trace_that_never_ends_is_evaluated_at_the_span_cap(exported: Exported) -> None:
    from agents.tracing import function_span, trace

    results: list[CaseResult] = []
    processor = EvaluatingTracingProcessor(case, on_result=results.append, emit=None,
                                           max_spans_per_trace=10)  # fmt: skip
    set_trace_processors([processor])
    run = trace("never ends")
    run.start()
    for _ in range(25):  # the trace itself and 9 spans reach the cap; 16 spans come after it
        with function_span("lookup_order", input='{"order_id": "A1049"}', parent=run) as span:
            span.span_data.output = "order A1049: 42.0"
    (result,) = results
    assert (result.verdict.value, result.metadata["incomplete"]) == ("failed", "span_limit")
    stats = processor.stats
    assert (stats.span_limited, stats.late_spans, stats.open_traces) == (1, 16, 0)
    processor.shutdown()
