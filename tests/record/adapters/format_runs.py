"""Real runs of real libraries, offline, for the fixtures of the ``langsmith``, ``mlflow``,
``inspect``, ``claude-code``, ``openai-agents-run`` and ``openinference`` adapters.

The scenario is the standard refund run of ``adapter_checks``: the user asks "Refund order
A1049"; the model calls ``lookup_order`` (succeeds) and ``issue_refund`` (fails: the gateway
timed out) in one response, then replies with text.
"""

from __future__ import annotations

import json
from typing import Any

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
    from inspect_ai.tool import ToolCall, ToolError, tool

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
    refund = ToolCall(
        id="call_2",
        function="issue_refund",
        arguments={"order_id": "A1049", "amount": 42.0},
        type="function",
    )
    first.choices[0].message.tool_calls.append(refund)  # type: ignore[union-attr]
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
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    def call(call_id: str, name: str, arguments: str) -> Any:
        return ResponseFunctionToolCall(
            id=f"fc_{call_id}",
            call_id=call_id,
            name=name,
            arguments=arguments,
            type="function_call",
            status="completed",
        )

    def text(content: str) -> Any:
        part = ResponseOutputText(text=content, type="output_text", annotations=[])
        return ResponseOutputMessage(
            id="msg_1", role="assistant", status="completed", type="message", content=[part]
        )

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
