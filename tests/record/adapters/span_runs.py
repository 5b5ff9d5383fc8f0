"""Real runs of real libraries, offline, for the span-format adapter tests and fixtures.

A Pydantic AI agent (``FunctionModel``, no network) runs the reference scenario with its own
OpenTelemetry instrumentation into an OpenTelemetry SDK ``TracerProvider``; the finished spans
are encoded by the OTLP exporter's own protobuf encoder and written as OTLP/JSON in the two
shapes found in the wild: protobuf's ``MessageToDict`` (base64 ids, enum names) and the
OTLP/JSON specification (hex ids, integer enums).

The scenario: the user asks "Refund order A1049"; the model thinks, then calls ``lookup_order``
(succeeds) and ``issue_refund`` (fails: the gateway timed out) in parallel; then calls
``ask_policy`` with invalid argument JSON (rejected), then again correctly; ``ask_policy`` runs
the sub-agent ``policy_agent``; the model replies with text.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Sequence
from typing import Any

from google.protobuf.json_format import MessageToDict
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from pydantic_ai import Agent, ModelRetry, RunContext
from pydantic_ai.capabilities import Instrumentation
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelResponse,
    TextPart,
    ThinkingPart,
    ToolCallPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.instrumented import InstrumentationSettings

REPLY = "I couldn't issue the refund: the payment gateway timed out."
GATEWAY_ERROR = "PaymentGatewayTimeout: gateway timed out"


def _policy_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    return ModelResponse(parts=[TextPart("Refunds over 40 need approval.")])


def _refund_model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    answered = sum(1 for message in messages if message.kind == "response")
    if answered == 0:
        return ModelResponse(
            parts=[
                ThinkingPart("The user wants a refund: look the order up and refund it."),
                ToolCallPart("lookup_order", {"order_id": "A1049"}, tool_call_id="call_1"),
                ToolCallPart(
                    "issue_refund", '{"order_id": "A1049", "amount": 42.0}', tool_call_id="call_2"
                ),
            ]
        )
    if answered == 1:  # invalid argument JSON: the closing brace is missing
        question = '{"question": "refund over 40?"'
        return ModelResponse(parts=[ToolCallPart("ask_policy", question, tool_call_id="call_3")])
    if answered == 2:
        args = {"question": "refund over 40?"}
        return ModelResponse(parts=[ToolCallPart("ask_policy", args, tool_call_id="call_4")])
    return ModelResponse(parts=[TextPart(REPLY)])


def run_pydantic_ai(version: int = 5) -> tuple[list[ModelMessage], list[ReadableSpan]]:
    """Run the scenario; return the message history and the finished spans."""
    exporter = InMemorySpanExporter()
    provider = TracerProvider(resource=Resource.create({"service.name": "refund-service"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    settings = InstrumentationSettings(tracer_provider=provider, version=version)  # type: ignore[arg-type]
    policy = Agent(
        FunctionModel(_policy_model, model_name="policy-fm"),
        name="policy_agent",
        capabilities=[Instrumentation(settings)],
    )
    agent = Agent(
        FunctionModel(_refund_model, model_name="refund-fm"),
        name="refund_agent",
        capabilities=[Instrumentation(settings)],
        retries=3,
    )

    @agent.tool_plain
    def lookup_order(order_id: str) -> dict[str, str]:
        return {"status": "paid", "order_id": order_id}

    @agent.tool_plain
    def issue_refund(order_id: str, amount: float) -> str:
        raise ModelRetry(GATEWAY_ERROR)

    @agent.tool
    async def ask_policy(ctx: RunContext[None], question: str) -> str:
        answer = await policy.run(question, usage=ctx.usage)
        return answer.output

    result = agent.run_sync("Refund order A1049")
    provider.shutdown()
    return list(result.all_messages()), list(exporter.get_finished_spans())


def history_json(messages: Sequence[ModelMessage]) -> Any:
    """The message history as Pydantic AI's own adapter writes it (parsed back to JSON data)."""
    return json.loads(ModelMessagesTypeAdapter.dump_json(list(messages)))


def otlp_protobuf_json(spans: Sequence[ReadableSpan]) -> Any:
    """OTLP/JSON as protobuf's ``MessageToDict`` writes it: base64 ids, enum names."""
    return MessageToDict(encode_spans(spans))


def _hex(value: str) -> str:
    return base64.b64decode(value).hex()


def otlp_spec_json(spans: Sequence[ReadableSpan]) -> Any:
    """OTLP/JSON as its specification writes it: hex ids, integer enums."""
    data = MessageToDict(encode_spans(spans), use_integers_for_enums=True)
    for resource_spans in data["resourceSpans"]:
        for scope_spans in resource_spans["scopeSpans"]:
            for span in scope_spans["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if key in span:
                        span[key] = _hex(span[key])
    return data
