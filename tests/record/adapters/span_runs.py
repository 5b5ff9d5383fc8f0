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
from datetime import UTC, datetime
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


# -- OpenAI Agents SDK ---------------------------------------------------------------------


def response_call(call_id: str, name: str, arguments: str) -> Any:
    """A Responses ``function_call`` output item, as a stub Agents SDK model returns it."""
    from openai.types.responses import ResponseFunctionToolCall

    return ResponseFunctionToolCall(
        id=f"fc_{call_id}",
        call_id=call_id,
        name=name,
        arguments=arguments,
        type="function_call",
        status="completed",
    )


def response_text(content: str) -> Any:
    """A Responses assistant ``message`` output item holding ``content``."""
    from openai.types.responses import ResponseOutputMessage, ResponseOutputText

    part = ResponseOutputText(text=content, type="output_text", annotations=[])
    return ResponseOutputMessage(
        id="msg_1", role="assistant", status="completed", type="message", content=[part]
    )


def run_openai_agents(model_span: str = "generation") -> list[dict[str, Any]]:
    """Run the scenario with the OpenAI Agents SDK offline; return its exported trace items.

    ``model_span="response"``: the stub records ``response`` spans the way the SDK's default
    model (the Responses API) does — the SDK's ``response_span`` with the usage its own
    ``model_usage_to_span_usage`` makes, and no messages.

    A triage agent hands off to a refund agent (the model calls ``transfer_to_refund_agent``),
    which calls ``lookup_order`` and ``issue_refund`` (raises) in parallel, ``ask_policy``
    (the policy agent as a tool) with invalid argument JSON, then correctly, and replies; an
    output guardrail runs. The model is a stub that records ``generation`` spans the way the
    SDK's Chat Completions model does (its own converter and ``generation_span``); everything
    else — runner, tools, handoffs, agents as tools, guardrails, tracing — is the SDK's.
    """
    import asyncio

    from agents import (
        Agent,
        GuardrailFunctionOutput,
        Model,
        RunConfig,
        Runner,
        function_tool,
        output_guardrail,
    )
    from agents.items import ModelResponse as AgentsResponse
    from agents.models.chatcmpl_converter import Converter
    from agents.models.openai_responses import model_usage_to_span_usage
    from agents.tracing import (
        TracingProcessor,
        generation_span,
        response_span,
        set_trace_processors,
    )
    from agents.usage import Usage

    class Capture(TracingProcessor):
        def __init__(self) -> None:
            self.items: list[dict[str, Any]] = []

        def on_trace_start(self, trace: Any) -> None:
            pass

        def on_trace_end(self, trace: Any) -> None:
            self.items.append(trace.export())

        def on_span_start(self, span: Any) -> None:
            pass

        def on_span_end(self, span: Any) -> None:
            self.items.append(span.export())

        def shutdown(self) -> None:
            pass

        def force_flush(self) -> None:
            pass

    call, text = response_call, response_text

    class Stub(Model):
        def __init__(self, script: list[list[Any]]) -> None:
            self.script = list(script)

        async def get_response(
            self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
        ) -> Any:
            output = self.script.pop(0)
            items = [{"role": "user", "content": input}] if isinstance(input, str) else input
            usage = {"input_tokens": 100, "output_tokens": 20}
            counted = Usage(requests=1, input_tokens=100, output_tokens=20, total_tokens=120)
            if model_span == "response":
                with response_span() as span:
                    span.span_data.usage = model_usage_to_span_usage(counted)
                    span.span_data._response_id = "resp_stub"
                return AgentsResponse(output=output, usage=counted, response_id="resp_stub")
            with generation_span(
                input=Converter.items_to_messages(items), model="stub-4o", usage=usage
            ) as span:
                span.span_data.output = Converter.items_to_messages(
                    [item.model_dump() for item in output]
                )
            return AgentsResponse(output=output, usage=counted, response_id=None)

        async def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    @function_tool
    def lookup_order(order_id: str) -> dict[str, str]:
        return {"status": "paid"}

    @function_tool
    def issue_refund(order_id: str, amount: float) -> str:
        raise TimeoutError(GATEWAY_ERROR)

    @output_guardrail
    def no_pii(ctx: Any, agent: Any, output: Any) -> GuardrailFunctionOutput:
        return GuardrailFunctionOutput(output_info=None, tripwire_triggered=False)

    policy = Agent(name="Policy agent", model=Stub([[text("Refunds over 40 need approval.")]]))
    refund = Agent(
        name="Refund agent",
        tools=[lookup_order, issue_refund, policy.as_tool("ask_policy", "Ask the policy agent")],
        output_guardrails=[no_pii],
        model=Stub(
            [
                [
                    call("call_1", "lookup_order", '{"order_id": "A1049"}'),
                    call("call_2", "issue_refund", '{"order_id": "A1049", "amount": 42.0}'),
                ],
                [call("call_3", "ask_policy", '{"input": "refund over 40?"')],
                [call("call_4", "ask_policy", '{"input": "refund over 40?"}')],
                [text(REPLY)],
            ]
        ),
    )
    triage = Agent(
        name="Triage agent",
        handoffs=[refund],
        model=Stub([[call("call_0", "transfer_to_refund_agent", "{}")]]),
    )
    capture = Capture()
    set_trace_processors([capture])
    try:
        config = RunConfig(workflow_name="Refund workflow", group_id="conv_42")
        asyncio.run(Runner.run(triage, "Refund order A1049", run_config=config))
    finally:
        set_trace_processors([])
    return capture.items


# -- Langfuse: the same spans as Langfuse's OpenTelemetry ingestion stores them ------------------


def _iso(nanoseconds: int | None) -> str | None:
    if nanoseconds is None:
        return None
    moment = datetime.fromtimestamp(nanoseconds / 1e9, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _observation_type(attributes: dict[str, Any], name: str) -> str:
    operation = attributes.get("gen_ai.operation.name")
    if operation == "execute_tool" or "gen_ai.tool.name" in attributes:
        return "TOOL"
    if operation in ("chat", "generate_content", "text_completion"):
        return "GENERATION"
    if operation == "invoke_agent" or name in ("agent run", "invoke_agent"):
        return "AGENT"
    return "SPAN"


def langfuse_trace(spans: Sequence[ReadableSpan]) -> dict[str, Any]:
    """A Langfuse trace (``GET /api/public/traces/{id}``) of OpenTelemetry spans, as Langfuse's
    OpenTelemetry ingestion stores them: the span attributes in ``metadata.attributes``, the
    observation named by Logfire's ``logfire.msg`` when the span has one (``running tool:
    lookup_order``) else by the span, the model's messages (``gen_ai.input.messages`` /
    ``gen_ai.output.messages``) as the generation's ``input`` / ``output``, the token counts as
    ``usageDetails``; a tool's arguments and result stay in the attributes."""
    observations = []
    trace_id = None
    for span in spans:
        attributes = dict(span.attributes or {})
        context = span.get_span_context()
        trace_id = f"{context.trace_id:032x}"
        name = str(attributes.get("logfire.msg") or span.name)
        kind = _observation_type(attributes, span.name)
        observation: dict[str, Any] = {
            "id": f"{context.span_id:016x}",
            "traceId": trace_id,
            "type": kind,
            "name": name,
            "startTime": _iso(span.start_time),
            "endTime": _iso(span.end_time),
            "parentObservationId": f"{span.parent.span_id:016x}" if span.parent else None,
            "level": "ERROR" if span.status.status_code.name == "ERROR" else "DEFAULT",
            "statusMessage": span.status.description,
            "input": None,
            "output": None,
            "metadata": {
                "attributes": attributes,
                "scope": {"name": span.instrumentation_scope.name},
            },
            "model": attributes.get("gen_ai.response.model")
            or attributes.get("gen_ai.request.model"),
            "usageDetails": {},
        }
        if kind == "GENERATION":
            for key, field in (
                ("gen_ai.input.messages", "input"),
                ("gen_ai.output.messages", "output"),
            ):
                if isinstance(attributes.get(key), str):
                    observation[field] = json.loads(attributes[key])
            usage = {
                "input": attributes.get("gen_ai.usage.input_tokens"),
                "output": attributes.get("gen_ai.usage.output_tokens"),
            }
            observation["usageDetails"] = {k: v for k, v in usage.items() if v is not None}
        observations.append(observation)
    return {"id": trace_id, "name": "refund_agent", "observations": observations}
