"""`evaluate_many` and the pytest `agent_eval` fixture take the objects the SDKs hand you, as
`TrialRecord.from_trace` does: a pydantic-ai run result, a tuple of OpenTelemetry spans."""

from __future__ import annotations

from typing import Any

import pytest

from agent_asserts import RecordError, evaluate_many
from agent_asserts.batch import load_record


def _pydantic_ai_result() -> Any:
    from pydantic_ai import Agent
    from pydantic_ai.models.test import TestModel

    agent = Agent(TestModel(call_tools=["lookup_order"], custom_output_text="Refunded."))

    @agent.tool_plain
    def lookup_order(order_id: str) -> str:
        return "paid"

    return agent.run_sync("Refund A1049")


def _otel_spans() -> Any:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test")
    with tracer.start_as_current_span("invoke_agent refunds") as root:
        root.set_attribute("gen_ai.operation.name", "invoke_agent")
        with tracer.start_as_current_span("execute_tool lookup_order") as span:
            span.set_attribute("gen_ai.operation.name", "execute_tool")
            span.set_attribute("gen_ai.tool.name", "lookup_order")
            span.set_attribute("gen_ai.tool.call.arguments", '{"order_id": "A1049"}')
    return exporter.get_finished_spans()  # a tuple of ReadableSpan


def _checks(ctx: Any) -> None:
    ctx.called_tool("lookup_order")


def test_evaluate_many_takes_sdk_objects() -> None:
    batch = evaluate_many([_pydantic_ai_result(), _otel_spans()], _checks)
    assert [c.verdict.value for c in batch.cases] == ["passed", "passed"]


def test_an_object_no_format_reads_is_one_failed_case_naming_its_type() -> None:
    batch = evaluate_many([_otel_spans(), object()], _checks)
    assert [c.verdict.value for c in batch.cases] == ["passed", "failed"]
    assert "object" in (batch.cases[1].error or "")
    with pytest.raises(RecordError, match="object"):
        load_record(object())


def test_the_agent_eval_fixture_takes_a_run_result(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from pydantic_ai import Agent
        from pydantic_ai.models.test import TestModel

        def test_refund(agent_eval):
            agent = Agent(TestModel(call_tools=["lookup_order"]))

            @agent.tool_plain
            def lookup_order(order_id: str) -> str:
                return "paid"

            ctx = agent_eval(agent.run_sync("Refund A1049"))
            ctx.called_tool("lookup_order")
        """
    )
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
