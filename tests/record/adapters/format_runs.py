"""Real runs of real libraries, offline, for the fixtures of the ``langsmith``, ``mlflow``,
``inspect``, ``claude-code``, ``openai-agents-run`` and ``openinference`` adapters.

The scenario is the standard refund run of ``adapter_checks``: the user asks "Refund order
A1049"; the model calls ``lookup_order`` (succeeds) and ``issue_refund`` (fails: the gateway
timed out) in one response, then replies with text.
"""

from __future__ import annotations

import json
from typing import Any

from span_runs import response_call, response_text

REPLY = "I couldn't issue the refund: the payment gateway timed out."
GATEWAY_ERROR = "PaymentGatewayTimeout: gateway timed out"


def langsmith_root() -> Any:
    """The scenario as LangChain traces it: a ``RunnableLambda`` agent loop over a fake chat
    model and two ``@tool``s, collected by LangChain's ``RunCollectorCallbackHandler`` (the
    ``RunTree`` of the root run, children in ``child_runs``)."""
    from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
    from langchain_core.messages import AIMessage, HumanMessage
    from langchain_core.runnables import RunnableLambda
    from langchain_core.tools import ToolException, tool
    from langchain_core.tracers.run_collector import RunCollectorCallbackHandler

    @tool
    def lookup_order(order_id: str) -> dict[str, str]:
        """Look an order up."""
        return {"status": "paid"}

    @tool
    def issue_refund(order_id: str, amount: float) -> str:
        """Refund an order."""
        raise ToolException(GATEWAY_ERROR)

    issue_refund.handle_tool_error = True
    tools = {"lookup_order": lookup_order, "issue_refund": issue_refund}
    calls = [
        {"name": "lookup_order", "args": {"order_id": "A1049"}, "id": "call_1"},
        {"name": "issue_refund", "args": {"order_id": "A1049", "amount": 42.0}, "id": "call_2"},
    ]
    model = FakeMessagesListChatModel(
        responses=[
            AIMessage(
                content="",
                tool_calls=calls,
                usage_metadata={"input_tokens": 100, "output_tokens": 20, "total_tokens": 120},
            ),
            AIMessage(
                content=REPLY,
                usage_metadata={"input_tokens": 150, "output_tokens": 25, "total_tokens": 175},
            ),
        ]
    )

    def agent(inputs: dict[str, Any]) -> dict[str, Any]:
        messages: list[Any] = [HumanMessage(inputs["input"])]
        while True:
            reply = model.invoke(messages)
            messages.append(reply)
            if not reply.tool_calls:
                return {"output": reply.content}
            for call in reply.tool_calls:
                messages.append(tools[call["name"]].invoke(call))

    collector = RunCollectorCallbackHandler()
    RunnableLambda(agent, name="refund_agent").invoke(
        {"input": "Refund order A1049"}, config={"callbacks": [collector]}
    )
    return collector.traced_runs[0]


def _run(tree: Any, children: bool) -> Any:
    """A ``RunTree`` as LangSmith's API returns it: a ``langsmith.schemas.Run`` in JSON."""
    from langsmith import schemas

    fields = tree.model_dump(
        exclude={
            "child_runs",
            "parent_run",
            "ls_client",
            "session_name",
            "dangerously_allow_filesystem",
            "replicas",
            "address",
            "parent_dotted_order",
        }
    )
    kids = [_run(child, True) for child in tree.child_runs] if children else None
    return schemas.Run(**fields, child_runs=kids)


def langsmith_tree() -> Any:
    """The run tree (``Client.read_run(id, load_child_runs=True)``) as JSON data."""
    return json.loads(_run(langsmith_root(), True).model_dump_json())


def langsmith_flat() -> Any:
    """The flat list of runs (``Client.list_runs(trace_id=...)``), newest first, as JSON data."""
    root = langsmith_root()
    runs = [root, *root.child_runs]
    return [json.loads(_run(run, False).model_dump_json()) for run in reversed(runs)]


def inspect_log(folder: str, log_format: str) -> str:
    """The scenario as an Inspect AI eval: one sample, ``use_tools`` + ``generate`` over the
    ``mockllm/model`` model with scripted outputs (two parallel tool calls, then the reply);
    ``issue_refund`` raises ``ToolError``. Returns the path of the log (``json`` or ``eval``)."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import includes
    from inspect_ai.solver import generate, use_tools
    from inspect_ai.tool import ToolError, tool

    @tool
    def lookup_order() -> Any:
        async def execute(order_id: str) -> str:
            """Look an order up.

            Args:
                order_id: The order.
            """
            return json.dumps({"status": "paid"})

        return execute

    @tool
    def issue_refund() -> Any:
        async def execute(order_id: str, amount: float) -> str:
            """Refund an order.

            Args:
                order_id: The order.
                amount: How much.
            """
            raise ToolError(GATEWAY_ERROR)

        return execute

    first = ModelOutput.for_tool_call(
        "mockllm/model", "lookup_order", {"order_id": "A1049"}, tool_call_id="call_1"
    )
    refund = ModelOutput.for_tool_call(
        "mockllm/model",
        "issue_refund",
        {"order_id": "A1049", "amount": 42.0},
        tool_call_id="call_2",
    )  # the second call of the same response, built the same version-proof way
    first.choices[0].message.tool_calls.extend(refund.choices[0].message.tool_calls)  # type: ignore[union-attr, arg-type]
    first.usage = ModelUsage(input_tokens=100, output_tokens=20, total_tokens=120)
    last = ModelOutput.from_content("mockllm/model", REPLY)
    last.usage = ModelUsage(input_tokens=150, output_tokens=25, total_tokens=175)
    model = get_model("mockllm/model", custom_outputs=[first, last])
    task = Task(
        dataset=[Sample(input="Refund order A1049", target="refund", id="refund-1")],
        solver=[use_tools(lookup_order(), issue_refund()), generate()],
        scorer=includes(),
        name="refund",
    )
    (log,) = inspect_eval(task, model=model, log_dir=folder, log_format=log_format, display="none")
    return str(log.location)


def agents_run() -> tuple[list[Any], dict[str, Any]]:
    """The scenario with the OpenAI Agents SDK, offline: a triage agent hands off to a refund
    agent, which calls ``lookup_order`` and ``issue_refund`` (raises; the tool's failure text
    is ``Error: …``) in one response and replies; an output guardrail runs. The model is a
    stub ``Model`` returning scripted Responses items; the runner, tools, handoffs, guardrails
    and serialisers are the SDK's.

    Returns ``(result.to_input_list(), result.to_state().to_json())`` as JSON data.
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
    from agents.items import ModelResponse
    from agents.usage import Usage

    call, text = response_call, response_text

    class Stub(Model):
        def __init__(self, script: list[list[Any]]) -> None:
            self.script = list(script)

        async def get_response(self, *args: Any, **kwargs: Any) -> Any:
            usage = Usage(requests=1, input_tokens=100, output_tokens=20, total_tokens=120)
            return ModelResponse(output=self.script.pop(0), usage=usage, response_id=None)

        async def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    @function_tool
    def lookup_order(order_id: str) -> dict[str, str]:
        return {"status": "paid"}

    def failure(ctx: Any, error: Exception) -> str:
        return f"Error: {error}"

    @function_tool(failure_error_function=failure)
    def issue_refund(order_id: str, amount: float) -> str:
        raise TimeoutError(GATEWAY_ERROR)

    @output_guardrail
    def no_pii(ctx: Any, agent: Any, output: Any) -> GuardrailFunctionOutput:
        return GuardrailFunctionOutput(output_info={"pii": False}, tripwire_triggered=False)

    refund = Agent(
        name="Refund agent",
        tools=[lookup_order, issue_refund],
        output_guardrails=[no_pii],
        model=Stub(
            [
                [
                    call("call_1", "lookup_order", '{"order_id": "A1049"}'),
                    call("call_2", "issue_refund", '{"order_id": "A1049", "amount": 42.0}'),
                ],
                [text(REPLY)],
            ]
        ),
    )
    triage = Agent(
        name="Triage agent",
        handoffs=[refund],
        model=Stub([[call("call_0", "transfer_to_refund_agent", "{}")]]),
    )
    config = RunConfig(tracing_disabled=True)
    result = asyncio.run(Runner.run(triage, "Refund order A1049", run_config=config))
    state = json.loads(json.dumps(result.to_state().to_json()))
    return json.loads(json.dumps(result.to_input_list())), state


def mlflow_trace() -> dict[str, Any]:
    """The scenario as an MLflow 3 trace, built with MLflow's own span and trace classes
    offline (``LiveSpan`` over OpenTelemetry SDK spans, ``Trace``/``TraceInfo``; MLflow's
    tracing needs a tracking server to record a run by itself) and serialised by
    ``Trace.to_json()``: an ``AGENT`` root, two ``CHAT_MODEL`` spans with OpenAI chat
    messages and usage, two ``TOOL`` spans (``issue_refund`` records its exception)."""
    import time

    from mlflow.entities import (
        LiveSpan,
        SpanEvent,
        SpanStatusCode,
        SpanType,
        Trace,
        TraceData,
        TraceInfo,
    )
    from mlflow.entities.trace_location import TraceLocation
    from mlflow.entities.trace_state import TraceState
    from opentelemetry import trace as otel
    from opentelemetry.sdk.trace import TracerProvider

    tracer = TracerProvider().get_tracer("refund")
    trace_id = "tr-0af7651916cd43dd8448eb211c80319c"

    def span(name: str, kind: str, parent: Any = None) -> Any:
        context = otel.set_span_in_context(parent._span) if parent is not None else None
        live = LiveSpan(tracer.start_span(name, context=context), trace_id=trace_id)
        live.set_span_type(kind)
        return live

    ask = {"role": "user", "content": "Refund order A1049"}
    arguments = ('{"order_id": "A1049"}', '{"order_id": "A1049", "amount": 42.0}')
    calls = [
        {"id": f"call_{n}", "type": "function", "function": {"name": name, "arguments": args}}
        for n, name, args in ((1, "lookup_order", arguments[0]), (2, "issue_refund", arguments[1]))
    ]
    asked = {"role": "assistant", "content": None, "tool_calls": calls}
    root = span("refund_agent", SpanType.AGENT)
    root.set_inputs({"question": ask["content"]})
    first = span("ChatOpenAI", SpanType.CHAT_MODEL, root)
    first.set_inputs({"messages": [ask], "model": "gpt-4o"})
    usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
    first.set_outputs({"model": "gpt-4o", "choices": [{"message": asked}], "usage": usage})
    first.end()
    lookup = span("lookup_order", SpanType.TOOL, root)
    lookup.set_inputs({"order_id": "A1049"})
    lookup.set_outputs({"status": "paid"})
    lookup.end()
    refund = span("issue_refund", SpanType.TOOL, root)
    refund.set_inputs({"order_id": "A1049", "amount": 42.0})
    refund.add_event(SpanEvent.from_exception(TimeoutError(GATEWAY_ERROR)))
    refund.set_status(SpanStatusCode.ERROR)
    refund.end()
    results = [
        {"role": "tool", "tool_call_id": "call_1", "content": '{"status": "paid"}'},
        {"role": "tool", "tool_call_id": "call_2", "content": f"Error: {GATEWAY_ERROR}"},
    ]
    second = span("ChatOpenAI", SpanType.CHAT_MODEL, root)
    second.set_inputs({"messages": [ask, asked, *results], "model": "gpt-4o"})
    said = {"role": "assistant", "content": REPLY}
    usage = {"prompt_tokens": 150, "completion_tokens": 25, "total_tokens": 175}
    second.set_outputs({"model": "gpt-4o", "choices": [{"message": said}], "usage": usage})
    second.end()
    root.set_outputs(REPLY)
    root.end()
    spans = [s.to_immutable_span() for s in (root, first, lookup, refund, second)]
    info = TraceInfo(
        trace_id=trace_id,
        trace_location=TraceLocation.from_experiment_id("0"),
        request_time=int(time.time() * 1000),
        state=TraceState.OK,
        execution_duration=42,
    )
    data: dict[str, Any] = json.loads(Trace(info=info, data=TraceData(spans=spans)).to_json())
    return data


def mlflow2_trace(trace: dict[str, Any]) -> dict[str, Any]:
    """The same trace in MLflow 2's ``Trace.to_json()`` shape, written from its documented
    schema (``request_id``, ``timestamp_ms``, ``status``; spans with ``context``,
    ``parent_id``, ``start_time``, ``status_code``; ``data.request``/``response``)."""
    import base64

    def hex_id(value: str | None) -> str | None:
        return None if value is None else "0x" + base64.b64decode(value).hex()

    spans = []
    for span in trace["data"]["spans"]:
        spans.append(
            {
                "name": span["name"],
                "context": {
                    "span_id": hex_id(span["span_id"]),
                    "trace_id": hex_id(span["trace_id"]),
                },
                "parent_id": hex_id(span["parent_span_id"]),
                "start_time": span["start_time_unix_nano"],
                "end_time": span["end_time_unix_nano"],
                "status_code": span["status"]["code"].removeprefix("STATUS_CODE_"),
                "status_message": span["status"]["message"],
                "attributes": span["attributes"],
                "events": [
                    {
                        "name": e["name"],
                        "timestamp": e["time_unix_nano"],
                        "attributes": e["attributes"],
                    }
                    for e in span["events"]
                ],
            }
        )
    info = trace["info"]
    return {
        "info": {
            "request_id": info["trace_id"],
            "experiment_id": "0",
            "timestamp_ms": 1785585600000,
            "execution_time_ms": info["execution_duration_ms"],
            "status": info["state"],
            "request_metadata": {},
            "tags": {"mlflow.traceName": "refund_agent"},
        },
        "data": {
            "spans": spans,
            "request": json.dumps({"question": "Refund order A1049"}),
            "response": json.dumps(REPLY),
        },
    }


def phoenix_rows(otlp: dict[str, Any]) -> list[dict[str, Any]]:
    """OpenInference spans (an OTLP/JSON export) as Arize Phoenix exports them, written from
    its documented span-dataframe layout (``get_spans_dataframe()`` as JSON records):
    ``name``, ``span_kind``, ``parent_id``, ISO ``start_time``/``end_time``,
    ``status_code``/``status_message``, ``events``, ``context.span_id``/``context.trace_id``,
    and ``attributes.*`` columns with message lists as lists of ``message.*`` objects."""
    from datetime import UTC, datetime

    from agent_asserts.record.adapters._span_tree import unflatten
    from agent_asserts.record.adapters.otel import attributes, otlp_id

    def iso(nanos: Any) -> str:
        moment = datetime.fromtimestamp(int(nanos) / 1e9, tz=UTC)
        return moment.isoformat().replace("+00:00", "Z")

    rows = []
    for resource in otlp["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                found = attributes(span.get("attributes", []))
                status = span.get("status") or {}
                code = {0: "UNSET", 1: "OK", 2: "ERROR"}.get(status.get("code", 0), "UNSET")
                row: dict[str, Any] = {
                    "name": span["name"],
                    "span_kind": found.get("openinference.span.kind", "UNKNOWN"),
                    "parent_id": otlp_id(span.get("parentSpanId")),
                    "start_time": iso(span["startTimeUnixNano"]),
                    "end_time": iso(span["endTimeUnixNano"]),
                    "status_code": code,
                    "status_message": status.get("message", ""),
                    "events": [
                        {
                            "name": event["name"],
                            "timestamp": iso(event["timeUnixNano"]),
                            "attributes": attributes(event.get("attributes", [])),
                        }
                        for event in span.get("events", [])
                    ],
                    "context.span_id": otlp_id(span["spanId"]),
                    "context.trace_id": otlp_id(span["traceId"]),
                }
                lists = {
                    name
                    for name in ("llm.input_messages", "llm.output_messages")
                    if any(key.startswith(f"{name}.") for key in found)
                }
                for key, value in found.items():
                    if not key.startswith(tuple(f"{name}." for name in lists)):
                        row[f"attributes.{key}"] = value
                for name in sorted(lists):
                    row[f"attributes.{name}"] = unflatten(found, f"{name}.")
                rows.append(row)
    return rows
