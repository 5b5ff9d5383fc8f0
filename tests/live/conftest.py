"""Fixtures for the live processors: a real OpenTelemetry SDK provider with an in-memory
exporter, and a small OTLP → record reader for the tests that do not exercise the adapter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from agent_asserts.record import TrialRecord


def tools_record(document: dict[str, Any]) -> TrialRecord:
    """A record with one tool call per span carrying ``gen_ai.tool.name`` (OTLP/JSON in)."""
    builder = TrialRecord.builder()
    for resource in document["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                attributes = {a["key"]: a["value"] for a in span["attributes"]}
                if "gen_ai.tool.name" in attributes:
                    builder.tool(attributes["gen_ai.tool.name"]["stringValue"])
    return builder.build(status="completed")


class Pipeline:
    """A provider whose spans are exported in memory; ``add`` puts a processor before it."""

    def __init__(self) -> None:
        self.provider = TracerProvider()
        self.exporter = InMemorySpanExporter()
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))
        self.tracer = self.provider.get_tracer("app")

    def run(self, *tools: str, root: str = "invoke_agent", end_root: bool = True) -> Any:
        """One trace: a root span with one ``execute_tool`` child per tool."""
        span = self.tracer.start_span(root)
        from opentelemetry import trace

        with trace.use_span(span, end_on_exit=False):
            for tool in tools:
                with self.tracer.start_as_current_span(f"execute_tool {tool}") as child:
                    child.set_attribute("gen_ai.operation.name", "execute_tool")
                    child.set_attribute("gen_ai.tool.name", tool)
        if end_root:
            span.end()
        return span

    def events(self) -> list[tuple[str, dict[str, Any]]]:
        """Every ``gen_ai.evaluation.result`` event exported so far."""
        return [
            (event.name, dict(event.attributes or {}))
            for span in self.exporter.get_finished_spans()
            for event in span.events
            if event.name == "gen_ai.evaluation.result"
        ]


@pytest.fixture
def pipeline() -> Iterator[Pipeline]:
    pipe = Pipeline()
    yield pipe
    pipe.provider.shutdown()


@pytest.fixture
def to_record() -> Any:
    """The small OTLP reader above (the adapter's own tests live with the adapter)."""
    return tools_record
